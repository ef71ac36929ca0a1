// The chat panel of the game page (docs/server.md, "Chat"): the players' and the spectators'
// channels as tabs, their history read when the socket connects, the messages pushed live,
// quick phrases shown in the reader's language, mutes and reports. Words are plain text
// (textContent, never HTML): a link stays words.

import { request } from "./api.js";
import { ct, messageWords } from "./chat_i18n.js";
import { el, replace } from "./dom.js";
import { errorText, toast, toastError } from "./ui.js";

/** The quick phrases (chat.PHRASES on the server), in the menu's order. */
const PHRASES = [
  "hello", "good_luck", "have_fun", "your_turn", "thinking", "nice_move", "oops", "sorry",
  "thanks", "well_played", "good_game", "bye",
];
const MAX_TEXT = 300;
/** Show the characters left from this length on. */
const COUNTER_FROM = 250;
/** The refusals of a chat message: the panel says them (the game's toasts stay the game's). */
const CHAT_ERRORS = new Set([
  "chat_empty", "chat_too_long", "chat_invalid", "unknown_phrase", "too_many_messages",
  "chat_off", "chat_not_allowed", "bad_channel",
]);
/** Scrolled this close to the end, the list follows new messages. */
const STICKY_PX = 40;
const PLAYERS = "players";
const SPECTATORS = "spectators";

const enc = encodeURIComponent;

export class ChatPanel {
  /** `root`: the panel's empty section; `send(message)`: over the socket, false if closed. */
  constructor(root, { tableId, token, send }) {
    this.root = root;
    this.tableId = tableId;
    this.token = token;
    this.send = send;
    this.view = null;
    this.messages = { [PLAYERS]: new Map(), [SPECTATORS]: new Map() };
    this.unread = { [PLAYERS]: 0, [SPECTATORS]: 0 };
    this.active = null;
    this.muted = new Set();
    this.reported = new Set();
    this.historyDue = true;
    this.lastText = "";
    this.build();
  }

  // -------------------------------------------------------------- what the page tells it

  /** The socket (re)connected: read the history with the next view (the socket follows the
   * talk from its first view on). */
  onOpen() {
    this.historyDue = true;
  }

  onView(view) {
    const first = this.view === null;
    this.view = view;
    if (first || this.historyDue) {
      this.historyDue = false;
      this.loadHistory();
    }
    this.render();
  }

  onMessage(message) {
    const channel = this.messages[message.channel];
    if (!channel || !this.readable().includes(message.channel)) return;
    const known = channel.has(message.number);
    channel.set(message.number, message);
    if (!known && message.channel !== this.active) this.unread[message.channel] += 1;
    this.render();
  }

  /** Whether `error` (from the socket) is a refused chat message: then it is said here. */
  handlesError(error) {
    if (!error || !CHAT_ERRORS.has(error.code)) return false;
    toastError(errorText(error), error);
    if (this.lastText && !this.input.value) this.input.value = this.lastText;
    this.lastText = "";
    return true;
  }

  /** The language changed: every word of the panel again, phrases included. */
  relabel() {
    this.labelSkeleton();
    this.render();
  }

  // -------------------------------------------------------------- who reads and writes what

  isSeat() {
    const view = this.view;
    return Boolean(view && ((view.you !== null && view.you !== undefined) || view.handed_over));
  }

  setting() {
    return (this.view && this.view.chat) || "on";
  }

  readable() {
    const players = this.setting() !== "off" && (this.isSeat() || this.setting() === "open");
    return players ? [PLAYERS, SPECTATORS] : [SPECTATORS];
  }

  writable() {
    if (!this.isSeat()) return SPECTATORS;
    return this.setting() === "off" ? null : PLAYERS;
  }

  seatName(seat) {
    const seats = (this.view && this.view.seats) || [];
    const found = seats.find((s) => s.seat === seat) || seats[seat];
    return found ? found.name : String(seat + 1);
  }

  // -------------------------------------------------------------- server calls

  async loadHistory() {
    for (const channel of this.readable()) {
      try {
        const url = `/api/tables/${enc(this.tableId)}/chat?token=${enc(this.token)}&channel=${channel}`;
        const answer = await request("GET", url);
        const known = this.messages[channel];
        const fresh = new Map(answer.messages.map((m) => [m.number, m]));
        // Live messages newer than the history's last stay.
        const last = answer.messages.length ? answer.messages[answer.messages.length - 1].number : 0;
        for (const [number, message] of known) if (number > last) fresh.set(number, message);
        this.messages[channel] = new Map([...fresh].sort((a, b) => a[0] - b[0]));
        if (channel === PLAYERS) this.muted = new Set(answer.muted || []);
      } catch {
        // The live messages still come; the history is read again at the next connection.
        this.historyDue = true;
      }
    }
    this.render();
  }

  async setMuted(seat, muted) {
    try {
      const answer = await request("POST", `/api/tables/${enc(this.tableId)}/chat/mutes`, {
        token: this.token, seat, muted,
      });
      this.muted = new Set(answer.muted);
      const name = this.seatName(seat);
      if (muted) {
        for (const [number, message] of this.messages[PLAYERS]) {
          if (message.seat === seat) this.messages[PLAYERS].delete(number);
        }
        toast(ct("chat_muted_done", { name }));
      } else {
        toast(ct("chat_unmuted_done", { name }));
        await this.loadHistory();
      }
      this.render();
    } catch (error) {
      toastError(errorText(error), error);
    }
  }

  async report(message) {
    try {
      await request("POST", `/api/tables/${enc(this.tableId)}/chat/${message.number}/report`, {
        token: this.token, reason: "",
      });
      toast(ct("chat_reported"));
      this.reported.add(message.number);
    } catch (error) {
      if (error.code === "already_reported") this.reported.add(message.number);
      toastError(errorText(error), error);
    }
    this.render();
  }

  write(message) {
    if (!this.send({ type: "chat", ...message })) {
      toastError(errorText({ code: "network" }));
      return false;
    }
    return true;
  }

  // -------------------------------------------------------------- drawing

  build() {
    this.title = el("h2", { className: "panel-title", attrs: { id: "chat-title" } });
    this.tabs = {};
    for (const channel of [PLAYERS, SPECTATORS]) {
      this.tabs[channel] = el("button", {
        className: "chat-tab",
        testid: `chat-tab-${channel}`,
        attrs: { type: "button", role: "tab", id: `chat-tab-${channel}`, "aria-controls": "chat-tabpanel" },
        on: {
          click: () => this.show(channel),
          keydown: (event) => this.tabKey(event),
        },
      });
    }
    this.tabList = el("div", { className: "chat-tabs", attrs: { role: "tablist" } }, [
      this.tabs[PLAYERS], this.tabs[SPECTATORS],
    ]);
    this.mutedLine = el("p", { className: "chat-muted", testid: "chat-muted", attrs: { hidden: true } });
    this.list = el("ol", { className: "chat-messages", testid: "chat-messages" });
    this.log = el("div", { className: "chat-log", attrs: { role: "log", "aria-live": "polite" } }, [this.list]);
    this.scroller = el("div", {
      className: "chat-scroll",
      attrs: { role: "tabpanel", id: "chat-tabpanel", tabindex: "0" },
    }, [this.log]);
    this.note = el("p", { className: "chat-note", testid: "chat-note", attrs: { hidden: true } });
    this.input = el("input", {
      className: "chat-input",
      testid: "chat-input",
      attrs: { id: "chat-input", type: "text", maxlength: String(MAX_TEXT), autocomplete: "off", enterkeyhint: "send" },
      on: { input: () => this.count() },
    });
    this.inputLabel = el("label", { className: "sr-only", attrs: { for: "chat-input" } });
    this.counter = el("span", { className: "chat-counter", testid: "chat-counter", attrs: { "aria-live": "polite", hidden: true } });
    this.sendButton = el("button", { testid: "chat-send", attrs: { type: "submit" } });
    this.phraseButton = el("button", {
      className: "chat-phrase-toggle",
      testid: "chat-phrases",
      attrs: { type: "button", "aria-expanded": "false", "aria-controls": "chat-phrase-menu" },
      on: { click: () => this.toggleMenu() },
    });
    this.menu = el("div", {
      className: "chat-phrase-menu",
      testid: "chat-phrase-menu",
      attrs: { id: "chat-phrase-menu", role: "group", hidden: true },
    });
    // Escape anywhere in the panel, or a click elsewhere on the page, closes the menu.
    this.root.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || this.menu.hidden) return;
      this.toggleMenu(false);
      this.phraseButton.focus();
    });
    document.addEventListener("click", (event) => {
      const inside = this.menu.contains(event.target) || this.phraseButton.contains(event.target);
      if (!this.menu.hidden && !inside) this.toggleMenu(false);
    });
    this.form = el("form", {
      className: "chat-form",
      testid: "chat-form",
      on: { submit: (event) => { event.preventDefault(); this.submit(); } },
    }, [this.inputLabel, this.input, this.sendButton, this.phraseButton, this.counter]);
    replace(this.root, [this.title, this.tabList, this.mutedLine, this.scroller, this.note, this.form, this.menu]);
    this.root.setAttribute("aria-labelledby", "chat-title");
    this.labelSkeleton();
  }

  labelSkeleton() {
    this.title.textContent = ct("chat_title");
    this.tabList.setAttribute("aria-label", ct("chat_tabs"));
    this.inputLabel.textContent = ct("chat_input_label");
    this.input.placeholder = ct("chat_input_placeholder");
    this.sendButton.textContent = ct("chat_send");
    // A face: the menu's name is its label (and its tooltip).
    this.phraseButton.textContent = "\u263a";
    this.phraseButton.setAttribute("aria-label", ct("chat_phrases"));
    this.phraseButton.title = ct("chat_phrases");
    this.menu.setAttribute("aria-label", ct("chat_phrases"));
    replace(this.menu, [
      el("p", { className: "chat-phrase-hint", text: ct("chat_phrases_hint") }),
      ...PHRASES.map((phrase) => el("button", {
        className: "chat-phrase",
        testid: `chat-phrase-${phrase}`,
        text: ct(`chat_phrase_${phrase}`),
        attrs: { type: "button" },
        on: { click: () => this.sendPhrase(phrase) },
      })),
    ]);
  }

  render() {
    if (!this.view) return;
    this.root.hidden = false;
    const readable = this.readable();
    if (!readable.includes(this.active)) this.active = readable.includes(PLAYERS) && this.isSeat() ? PLAYERS : readable[0];
    for (const channel of [PLAYERS, SPECTATORS]) {
      const tab = this.tabs[channel];
      const selected = channel === this.active;
      tab.hidden = !readable.includes(channel);
      tab.setAttribute("aria-selected", selected ? "true" : "false");
      tab.tabIndex = selected ? 0 : -1;
      if (selected) this.unread[channel] = 0;
      const count = this.unread[channel];
      replace(tab, [
        ct(`chat_tab_${channel}`),
        count ? el("span", { className: "chat-unread", testid: `chat-unread-${channel}`, text: ct("chat_unread", { n: count }) }) : null,
      ]);
    }
    this.tabList.hidden = readable.length < 2;
    this.scroller.setAttribute("aria-labelledby", readable.length < 2 ? "chat-title" : `chat-tab-${this.active}`);
    this.renderMuted();
    this.renderLines();
    const writable = this.writable();
    const mine = writable === this.active;
    this.form.hidden = !mine;
    if (!mine) this.toggleMenu(false);
    this.note.hidden = mine;
    if (!mine) {
      const off = this.active === SPECTATORS && this.isSeat() && this.setting() === "off";
      const only = this.active === PLAYERS ? ct("chat_players_only") : ct("chat_spectators_only");
      this.note.textContent = off ? ct("chat_off_note") : only;
    }
  }

  renderMuted() {
    const seats = [...this.muted].sort((a, b) => a - b);
    this.mutedLine.hidden = !seats.length || !this.readable().includes(PLAYERS);
    replace(this.mutedLine, [
      ct("chat_muted_list"),
      ...seats.map((seat) => el("span", { className: "chat-muted-seat" }, [
        " ", this.seatName(seat), " ",
        el("button", {
          className: "chat-action",
          testid: `chat-unmute-${seat}`,
          text: ct("chat_unmute"),
          attrs: { type: "button", "aria-label": `${ct("chat_unmute")} ${this.seatName(seat)}` },
          on: { click: () => this.setMuted(seat, false) },
        }),
      ])),
    ]);
  }

  /** The list is a polite live region (role="log"): what is added to it is read out. So a line
   * already shown stays the same node unless what it shows changed; a new message adds its line
   * alone, and a game view or another message adds nothing else. */
  renderLines() {
    const atEnd = this.scroller.scrollHeight - this.scroller.scrollTop - this.scroller.clientHeight < STICKY_PX;
    const messages = [...this.messages[this.active].values()];
    if (!messages.length) {
      this.shown = new Map();
      replace(this.list, [el("li", { className: "chat-empty", text: ct("chat_empty") })]);
    } else {
      const before = this.shown || new Map();
      this.shown = new Map();
      const nodes = messages.map((message) => {
        const facts = this.lineFacts(message);
        const key = `${message.channel}:${message.number}`;
        const signature = JSON.stringify(facts);
        const kept = before.get(key);
        const node = kept && kept.signature === signature ? kept.node : this.line(message, facts);
        this.shown.set(key, { signature, node });
        return node;
      });
      const wanted = new Set(nodes);
      for (const child of [...this.list.children]) {
        if (!wanted.has(child)) child.remove();
      }
      nodes.forEach((node, i) => {
        if (this.list.children[i] !== node) this.list.insertBefore(node, this.list.children[i] || null);
      });
    }
    if (atEnd) this.scroller.scrollTop = this.scroller.scrollHeight;
  }

  /** Everything a message's line shows, in the reader's language. */
  lineFacts(message) {
    const you = this.view.you;
    const mine = message.channel === PLAYERS && message.seat !== null && message.seat === you;
    return {
      mine,
      seat: message.seat,
      name: message.seat === null ? ct("chat_spectator") : message.name,
      canMute: this.isSeat() && message.seat !== null && !mine && message.channel === PLAYERS,
      canReport: !mine && !message.deleted,
      reported: this.reported.has(message.number),
      deleted: Boolean(message.deleted),
      phrase: Boolean(message.phrase),
      words: messageWords(message),
      labels: [ct("chat_you"), ct("chat_mute"), ct("chat_report")],
    };
  }

  line(message, facts) {
    const { mine, name, canMute, canReport, reported } = facts;
    const classes = ["chat-line"];
    if (mine) classes.push("chat-mine");
    if (message.deleted) classes.push("chat-deleted");
    if (message.phrase) classes.push("chat-phrase-line");
    return el("li", { className: classes.join(" "), testid: "chat-line", dataset: { number: message.number, seat: message.seat } }, [
      el("span", { className: "chat-author", testid: "chat-author", text: mine ? `${name} (${ct("chat_you")})` : name }),
      canMute ? el("button", {
        className: "chat-action",
        testid: "chat-mute",
        text: ct("chat_mute"),
        title: ct("chat_mute_title", { name }),
        attrs: { type: "button", "aria-label": `${ct("chat_mute")} ${name}` },
        on: { click: () => this.setMuted(message.seat, true) },
      }) : null,
      " ",
      el("span", { className: "chat-words", testid: "chat-words", text: messageWords(message) }),
      canReport ? el("button", {
        className: "chat-action chat-report",
        testid: "chat-report",
        text: ct("chat_report"),
        title: ct("chat_report_title"),
        attrs: { type: "button", disabled: reported, "aria-label": `${ct("chat_report")} (${name})` },
        on: { click: () => this.report(message) },
      }) : null,
    ]);
  }

  count() {
    const length = this.input.value.length;
    this.counter.hidden = length < COUNTER_FROM;
    this.counter.textContent = ct("chat_counter", { n: length, max: MAX_TEXT });
  }

  // -------------------------------------------------------------- interaction

  show(channel) {
    this.active = channel;
    this.render();
    this.scroller.scrollTop = this.scroller.scrollHeight;
  }

  tabKey(event) {
    if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
    const visible = [PLAYERS, SPECTATORS].filter((channel) => !this.tabs[channel].hidden);
    if (visible.length < 2) return;
    event.preventDefault();
    const index = visible.indexOf(this.active);
    let next = index;
    if (event.key === "ArrowLeft") next = (index + visible.length - 1) % visible.length;
    if (event.key === "ArrowRight") next = (index + 1) % visible.length;
    if (event.key === "Home") next = 0;
    if (event.key === "End") next = visible.length - 1;
    this.show(visible[next]);
    this.tabs[visible[next]].focus();
  }

  toggleMenu(open = this.menu.hidden) {
    this.menu.hidden = !open;
    this.phraseButton.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) {
      const first = this.menu.querySelector("button");
      if (first) first.focus();
    }
  }

  submit() {
    const text = this.input.value.trim();
    if (!text) {
      toastError(errorText({ code: "chat_empty" }));
      return;
    }
    if (this.write({ text })) {
      this.lastText = text;
      this.input.value = "";
      this.count();
    }
  }

  sendPhrase(phrase) {
    this.toggleMenu(false);
    this.write({ phrase });
    this.phraseButton.focus();
  }
}
