// The game page: connects a seat (or a spectator) to its table and renders every view.

import {
  ApiError, GameSocket, closeTable, getCards, getView, handSeatToBot, postAction, rematch,
} from "./api.js";
import { startClocks, tickClocks } from "./clock.js";
import { actionKey, button, el, replace, replaceIfChanged } from "./dom.js";
import { fitCardNames, setCardInfo } from "./cards.js";
import { renderDecisionChoices, renderQueue } from "./board.js";
import { analyseLegal, effectiveSelection, familiesOf, queueIds } from "./decision.js";
import { renderEndScreen } from "./endscreen.js";
import { renderHand } from "./hand.js";
import { applyI18n, getLang, initialLang, setLang, t } from "./i18n.js";
import { renderLog, resetLog, standInLines, standInWhy } from "./log.js";
import { rememberGame, knowsGame } from "./mygames.js";
import { namedNodes } from "./names.js";
import { renderPlayers, seatsOf } from "./players.js";
import { renderAccountSeat } from "./table_account.js";
import { hideCardHelp, installCardHelp } from "./tooltip.js";
import { errorRef, installLangSwitch, toast, toastError } from "./ui.js";
import { renderHint } from "./hint.js";
import { copyLink } from "./share.js";
import { announce } from "./announce.js";
import { focusedIdentity, installKeyboard, restoreFocus, roveBoard } from "./keyboard.js";
import { ChatPanel } from "./chat.js";
import { askToConfirm, dropStaleConfirm } from "./confirm.js";
import { getSetting, installSettings } from "./settings.js";
import { showTurn } from "./yourturn.js";

const BUSY_TIMEOUT_MS = 10000;
const HTTP_CHECK_EVERY = 3;
/** Pause before an action whose request failed on the network is posted again. */
const NETWORK_RETRY_MS = 500;
const SOCKET_RETRY_AFTER_FATAL_MS = 15000;
const RESIZE_SETTLE_MS = 150;
const RECAP_LINES = 12;

const $ = (testid) => document.querySelector(`[data-testid="${testid}"]`);

const regions = {
  roundInfo: $("round-info"),
  players: $("scores"),
  prompt: $("prompt"),
  choices: $("decision-choices"),
  waiting: $("waiting"),
  deadline: $("deadline"),
  queue: $("queue"),
  hand: $("hand-cards"),
  handTitle: $("hand-title"),
  options: $("legal-options"),
  optionsHint: $("options-hint"),
  log: $("log"),
  end: $("end-screen"),
  banner: $("reconnecting"),
  handedOver: $("handed-over"),
  customDeal: $("custom-deal"),
  keepLink: $("keep-link"),
  accountSeat: $("account-seat"),
  standInRecap: $("stand-in-recap"),
  showResults: $("show-results"),
  spectator: $("spectator-badge"),
};

const state = {
  tableId: null,
  token: null,
  view: null,
  selected: null,
  busy: false,
  sentStep: null,
  pending: null, // the action sent and not yet seen applied: {action, step, gameNumber, resent}
  busyTimer: null,
  freshIds: new Set(),
  endDismissed: false,
  scrolledTo: null,
  socket: null,
  clockOffset: 0, // server time minus this browser's, in seconds
  seatLink: false, // the page was opened with a seat's link (not a spectator's)
  newLink: false, // ... that this browser did not hold before: say once to keep it
  recapSeen: -1, // the last step of the stand-in's moves the player was shown
  announcedTurn: null, // the game and step whose "your turn" was announced
  chat: null, // the chat panel (chat.js)
};

// ---------------------------------------------------------------- start

function readLink() {
  const params = new URLSearchParams(window.location.search);
  const match = window.location.pathname.match(/\/t\/([^/]+)/);
  const tableId = match ? decodeURIComponent(match[1]) : params.get("table");
  const token = params.get("seat") || params.get("watch");
  return { tableId, token, seat: Boolean(params.get("seat")) };
}

function fatal(message, error = null) {
  const box = $("fatal-error");
  const ref = errorRef(error);
  replace(box, [
    el("div", { className: "fatal-box" }, [
      el("h2", { text: t("fatal_title") }),
      el("p", { text: ref ? `${message} (${ref})` : message }),
      el("a", { className: "button-link", text: t("back_to_lobby"), attrs: { href: "/" } }),
    ]),
  ]);
  box.hidden = false;
  if (state.socket) state.socket.stop();
}

async function loadCardTexts(lang) {
  try {
    setCardInfo(await getCards(lang));
    if (state.view) render();
  } catch {
    // The card faces fall back to readable slugs; hover help stays short.
  }
}

async function refreshOverHttp() {
  try {
    onView(await getView(state.tableId, state.token, getLang()));
    return true;
  } catch (error) {
    if (error instanceof ApiError && [401, 403, 404].includes(error.status)) {
      fatal(errorText(error.code, error.message), error);
    }
    return false;
  }
}

async function start() {
  setLang(initialLang());
  applyI18n(document);
  installCardHelp();
  installLangSwitch(switchLang);
  installSettings(document.querySelector(".topbar-right"));
  installKeyboard({ onEscape: () => { if (state.selected !== null) select(null); } });
  regions.showResults.addEventListener("click", () => {
    state.endDismissed = false;
    render();
  });
  const { tableId, token, seat } = readLink();
  if (!tableId || !token) {
    fatal(t("bad_link"));
    return;
  }
  state.tableId = tableId;
  state.token = token;
  state.seatLink = seat;
  state.newLink = seat && !knowsGame(tableId, token);
  state.recapSeen = readRecapSeen();
  loadCardTexts(getLang());
  state.chat = new ChatPanel($("chat-panel"), { tableId, token, send: (m) => state.socket.send(m) });
  state.socket = new GameSocket({
    tableId,
    token,
    lang: getLang(),
    onView,
    onError: onSocketError,
    onStatus: onSocketStatus,
    onChat: (message) => state.chat.onMessage(message),
    // Refused for good: the HTTP check shows why (bad link, unknown table); if the page still
    // works over HTTP, try the socket again later.
    onFatal: () => refreshOverHttp().then((ok) => {
      if (ok) setTimeout(() => state.socket.start(), SOCKET_RETRY_AFTER_FATAL_MS);
    }),
  });
  await refreshOverHttp();
  if (!$("fatal-error").hidden) return;
  state.socket.start();
  startClocks(() => state.clockOffset);
  // A narrower window (a phone turned, a resized window) may hide the acting card.
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(centreActing, RESIZE_SETTLE_MS);
  });
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) state.socket.nudge();
  });
  window.addEventListener("online", () => state.socket.nudge());
}

// ---------------------------------------------------------------- incoming

function isOlder(view, current) {
  if (!current) return false;
  if (view.game_number !== current.game_number) return view.game_number < current.game_number;
  return view.step < current.step;
}

function onView(view) {
  if (!view || !view.observation || isOlder(view, state.view)) return;
  const previous = state.view;
  const newGame = !previous || previous.game_number !== view.game_number;
  if (newGame) {
    state.selected = null;
    state.endDismissed = false;
    state.scrolledTo = null;
  }
  if (state.busy && (newGame || view.step !== state.sentStep)) clearBusy();
  const before = previous && !newGame ? queueIds(previous.observation) : null;
  const now = queueIds(view.observation);
  state.freshIds = before ? new Set([...now].filter((id) => !before.has(id))) : new Set();
  state.view = view;
  state.chat.onView(view);
  if (state.seatLink && view.you !== null && view.you !== undefined) rememberGame(state.tableId, state.token);
  if (typeof view.server_time === "number") state.clockOffset = view.server_time - Date.now() / 1000;
  render();
  state.freshIds = new Set(); // animate arrivals once, not again on the next local re-render
}

function onSocketError(error) {
  if (state.chat.handlesError(error)) return;
  if (error.code === "stale" && state.pending && state.pending.resent) {
    // The action sent again after a reconnection had been applied before: nothing to say.
    clearBusy();
    refreshOverHttp();
    return;
  }
  clearBusy();
  toastError(errorText(error.code, error.message), error);
  if (error.code === "stale") refreshOverHttp();
  else if (state.view) render();
}

function onSocketStatus(status, attempt) {
  const reconnecting = status === "reconnecting" && attempt > 0;
  regions.banner.hidden = !reconnecting;
  if (status === "open") state.chat.onOpen();
  document.body.classList.toggle("offline", reconnecting);
  if (status === "open" && state.busy) {
    if (state.pending && !state.pending.resent) {
      // The connection was replaced while an action was on its way (a server restart): send it
      // again, pinned to its step, so that it is applied once (a second copy of this seat's
      // move is answered with the view after it; older servers answered "stale").
      state.pending.resent = true;
      const { action, step, gameNumber } = state.pending;
      state.socket.send({ type: "act", action, step, game_number: gameNumber });
    } else {
      clearBusy();
      if (state.view) render();
    }
  }
  if (reconnecting && attempt % HTTP_CHECK_EVERY === 0) refreshOverHttp();
}

function errorText(code, message) {
  const key = `error_${code}`;
  const known = t(key);
  if (known !== key) return known;
  return message || t("error_generic");
}

// ---------------------------------------------------------------- outgoing

function clearBusy() {
  state.busy = false;
  state.pending = null;
  state.sentStep = null;
  clearTimeout(state.busyTimer);
}

function setBusy() {
  state.busy = true;
  state.sentStep = state.view.step;
  clearTimeout(state.busyTimer);
  state.busyTimer = setTimeout(() => {
    clearBusy();
    refreshOverHttp();
  }, BUSY_TIMEOUT_MS);
}

/** Send one legal action (after Confirm, if the player asked to confirm their moves). */
function send(action) {
  if (state.busy || !state.view) return;
  const entry = (state.view.legal || []).find((e) => actionKey(e.action) === actionKey(action));
  if (!entry) return;
  if (!getSetting("confirm")) sendNow(action);
  else askToConfirm(regions.prompt.parentElement, entry.label, state.view.step, () => sendNow(action), regions.prompt);
}

/** Send one legal action, once: everything is disabled until the next view (or an error). */
function sendNow(action) {
  if (state.busy || !state.view) return;
  const legal = (state.view.legal || []).some((entry) => actionKey(entry.action) === actionKey(action));
  if (!legal) return;
  setBusy();
  hideCardHelp();
  const { step, game_number: gameNumber } = state.view;
  state.pending = { action, step, gameNumber, resent: false };
  render();
  if (state.socket.send({ type: "act", action, step, game_number: gameNumber })) return;
  postOnce(action, step, gameNumber, true);
}

/** Post an action pinned to its step; after a network failure (a server process switching)
 * once more, a copy already applied being answered as played (or "stale", then no error). */
function postOnce(action, step, gameNumber, retry) {
  postAction(state.tableId, state.token, action, step, gameNumber)
    .then(onView)
    .catch((error) => {
      if (retry && error.code === "network") {
        setTimeout(() => postOnce(action, step, gameNumber, false), NETWORK_RETRY_MS);
        return;
      }
      clearBusy();
      render();
      if (!retry && error.code === "stale") {
        refreshOverHttp();
        return;
      }
      toastError(errorText(error.code, error.message), error);
      refreshOverHttp();
    });
}

function select(cardId) {
  if (state.busy) return;
  state.selected = cardId;
  render();
}

function switchLang(lang) {
  setLang(lang);
  applyI18n(document);
  resetLog();
  loadCardTexts(lang);
  state.socket.setLang(lang);
  state.chat.relabel();
  refreshOverHttp();
  if (state.view) render();
}

function creatorToken() {
  try {
    return window.localStorage.getItem(`oriflamme.creator.${state.tableId}`);
  } catch {
    return null;
  }
}

async function closeThisTable() {
  const token = creatorToken();
  if (!token || !window.confirm(t("confirm_close_table"))) return;
  try {
    await closeTable(state.tableId, token);
    toast(t("closed_done"));
    refreshOverHttp();
  } catch (error) {
    toastError(errorText(error.code, error.message), error);
  }
}

async function handToBot(seat) {
  const token = creatorToken();
  if (!token) return;
  const seatInfo = seatsOf(state.view)[seat];
  const open = seatInfo.kind === "open";
  const name = open ? t("open_seat") : seatInfo.name;
  if (!open && !window.confirm(t("confirm_hand_to_bot", { name }))) return;
  try {
    // What the seat must still be: a request sent from an old view never replaces anyone.
    await handSeatToBot(state.tableId, seat, token, "medium", open ? "open" : "away");
    toast(t("handed_to_bot", { name }));
    refreshOverHttp();
  } catch (error) {
    toastError(errorText(error.code, error.message), error);
  }
}

async function playAgain() {
  if (state.busy) return;
  state.busy = true;
  render();
  try {
    const view = await rematch(state.tableId, state.token, state.view.game_number);
    clearBusy();
    onView(view);
  } catch (error) {
    clearBusy();
    render();
    toastError(errorText(error.code, error.message), error);
    refreshOverHttp();
  }
}

// ---------------------------------------------------------------- rendering

function cardTypeOf(cardId) {
  const obs = state.view.observation;
  for (const family of obs.families) {
    for (const zone of [family.hand, family.reserve, family.set_aside]) {
      const card = (zone || []).find((c) => c.id === cardId);
      if (card) return card.type;
    }
  }
  for (const stack of obs.queue) {
    const card = stack.find((c) => c.id === cardId);
    if (card) return card.type;
  }
  return null;
}

function buildContext() {
  const view = state.view;
  const analysis = analyseLegal(view.legal);
  const you = view.you === undefined ? null : view.you;
  return {
    view,
    you,
    analysis,
    selected: effectiveSelection(analysis, state.selected),
    busy: state.busy,
    myFamilies: new Set(familiesOf(view.observation, you)),
    freshIds: state.freshIds,
    queueRoot: regions.queue,
    endDismissed: state.endDismissed,
    canRematch: you !== null,
    canHandToBot: creatorToken() !== null,
    labelOf: (action) => analysis.labels.get(actionKey(action)) || "",
    cardTypeOf,
    send,
    select,
    rematch: playAgain,
    replayUrl: view.replay_url ? (round) => replayLink(view.replay_url, you, round) : null,
    shareReplay: view.replay_url ? () => copyLink(view.replay_url) : null,
    handToBot,
    dismissEnd: () => {
      state.endDismissed = true;
      render();
    },
  };
}

function render() {
  const focused = focusedIdentity();
  const ctx = buildContext();
  const view = ctx.view;
  const obs = view.observation;
  document.body.classList.toggle("busy", ctx.busy);
  document.body.dataset.step = String(view.step); // the step shown (for tests and debugging)
  document.body.classList.toggle("is-spectator", ctx.you === null);
  regions.spectator.hidden = ctx.you !== null;
  regions.handedOver.hidden = !view.handed_over;
  regions.customDeal.hidden = !view.custom_deal;
  renderRoundInfo(obs, view);
  renderPlayers(regions.players, ctx);
  renderStatus(ctx);
  renderDecisionChoices(regions.choices, ctx);
  renderQueue(regions.queue, ctx);
  renderHand(regions.hand, ctx);
  fitCardNames(document);
  renderOptions(ctx);
  const freshLines = renderLog(regions.log, view.log || [], view.seats, standInLines(view));
  renderKeepLink(ctx);
  renderAccountSeat(regions.accountSeat, ctx, state.tableId, state.token, refreshOverHttp, render);
  renderStandInRecap(ctx);
  renderEndScreen(regions.end, ctx);
  renderHint(ctx, state.tableId, state.token, render);
  regions.showResults.hidden = !(view.result || obs.result) || !state.endDismissed;
  scrollToAction(ctx);
  const yourTurn = ctx.you !== null && obs.decision && obs.decision.player === ctx.you && (view.legal || []).length > 0;
  keyboardStops(ctx.you !== null);
  restoreFocus(focused, regions.prompt);
  tickClocks(state.clockOffset);
  announceChanges(view, freshLines, yourTurn);
  showTurn(Boolean(yourTurn), `${view.game_number}:${view.step}`);
  dropStaleConfirm(view.step, ctx.busy);
}

/**
 * The board's Tab stops, for a seat: the prompt (where the focus returns after a move), the
 * log, the options, the hands and the Queue. A spectator's page has none (nothing to act on).
 */
function keyboardStops(player) {
  for (const [node, index] of [[regions.prompt, "-1"], [regions.log.parentElement, "0"]]) {
    if (player) node.setAttribute("tabindex", index);
    else node.removeAttribute("tabindex");
  }
  if (player) roveBoard(regions);
}

/** Tell screen readers the new log lines, then "your turn" once per decision (polite). */
function announceChanges(view, freshLines, yourTurn) {
  const lines = [...regions.log.children].slice(-Math.min(freshLines, 5));
  for (const line of lines) announce(line.textContent);
  const turn = `${view.game_number}:${view.step}`;
  if (yourTurn && state.announcedTurn !== turn && !state.busy) {
    state.announcedTurn = turn;
    announce(`${t("your_turn")}. ${regions.prompt.textContent}`);
  }
}

/**
 * The game's replay link `url` (its read-only token, never this page's), shown as seat `you`
 * saw it (null: everything), at the end of round `round` (null: at the end).
 */
function replayLink(url, you, round) {
  const link = new URL(url, window.location.origin);
  if (you !== null) link.searchParams.set("view", String(you));
  if (round !== null && round !== undefined) link.searchParams.set("round", String(round));
  return `${link.pathname}${link.search}`;
}

function renderRoundInfo(obs, view) {
  const parts = [];
  if (view.game_number > 1) parts.push(t("game_n", { n: view.game_number }));
  if (obs.phase === "over") parts.push(t("phase_over"));
  else parts.push(t("round_of", { n: obs.round }), t(`phase_${obs.phase}`));
  regions.roundInfo.textContent = parts.join(" · ");
}

function renderStatus(ctx) {
  const view = ctx.view;
  const obs = view.observation;
  const yourTurn = ctx.you !== null && obs.decision && obs.decision.player === ctx.you;
  replace(regions.prompt, namedNodes(view.prompt || "", view.seats));
  regions.prompt.hidden = !view.prompt;
  regions.prompt.classList.toggle("your-turn", Boolean(yourTurn));
  const waiting = view.waiting_for;
  let text = "";
  let kind = "idle";
  if (view.closed) {
    text = t("table_closed");
  } else if (view.waiting_for_players) {
    // Who is missing: the open seats, by colour (nobody decides before they are taken).
    const open = seatsOf(view).filter((seat) => seat.kind === "open");
    text = t("waiting_for_seats", { seats: open.map((seat) => t(`colour_${seat.colour}`)).join(", ") });
    kind = "human";
  } else if (obs.phase === "over") {
    text = t("phase_over");
  } else if (yourTurn) {
    text = t("your_turn");
    kind = "you";
  } else if (waiting) {
    text = waiting.kind === "bot" ? t("bot_thinking", { name: waiting.name }) : t("waiting_for", { name: waiting.name });
    kind = waiting.kind === "bot" ? "bot" : "human";
  }
  regions.waiting.dataset.kind = kind;
  const canClose = view.waiting_for_players && !view.closed && creatorToken() !== null;
  replace(regions.waiting, [
    kind === "bot" || kind === "human" ? el("span", { className: "spinner", attrs: { "aria-hidden": "true" } }) : null,
    el("span", { text, testid: "status-text" }),
    canClose ? button(t("close_table"), { className: "link-button danger-link", testid: "close-table", on: { click: closeThisTable } }) : null,
  ]);
  const clock = deadlineClock(view, Boolean(yourTurn));
  regions.deadline.hidden = clock === null;
  replace(regions.deadline, [clock]);
  const handCount = obs.families
    .filter((f) => f.player === ctx.you)
    .reduce((total, f) => total + (f.hand ? f.hand.length : 0), 0);
  regions.handTitle.textContent = ctx.you === null ? t("hand_title_spectator") : t("hand_title", { count: handCount });
}

/**
 * The deciding seat's countdown next to the prompt, on every screen size: when the stand-in may
 * play the current decision (the clock's end, or sooner the end of an absence or no-show limit).
 */
function deadlineClock(view, mine) {
  const due = view.deadline;
  if (!due || view.observation.phase === "over") return null;
  return el("span", {
    className: "clock prompt-clock",
    testid: "prompt-clock",
    title: standInWhy(due.reason),
    dataset: { deadline: String(due.at), reason: due.reason, mine: mine ? "true" : null },
  });
}

/** Once, to whoever opens a seat's link this browser did not hold: keep it to come back. */
function renderKeepLink(ctx) {
  const show = state.newLink && ctx.you !== null;
  regions.keepLink.hidden = !show;
  if (!show || regions.keepLink.childElementCount) return;
  replace(regions.keepLink, [
    el("span", { text: t("keep_link") }),
    button(t("keep_link_ok"), {
      className: "small",
      testid: "keep-link-ok",
      on: { click: () => { state.newLink = false; regions.keepLink.hidden = true; } },
    }),
  ]);
}

function recapKey() {
  return `oriflamme.recap.${state.tableId}.${state.token}`;
}

function readRecapSeen() {
  try {
    return JSON.parse(window.localStorage.getItem(recapKey()) || "null");
  } catch {
    return null;
  }
}

/**
 * A returning player is shown what the stand-in played for them (this game's moves they have not
 * dismissed yet), with the log lines those moves wrote.
 */
function renderStandInRecap(ctx) {
  const view = ctx.view;
  const seen = state.recapSeen && state.recapSeen.game === view.game_number ? state.recapSeen.step : -1;
  const mine = ctx.you === null ? [] : (view.stand_ins || []).filter((move) => move.seat === ctx.you && move.step > seen);
  regions.standInRecap.hidden = mine.length === 0;
  if (!mine.length) {
    replace(regions.standInRecap, []);
    return;
  }
  const lines = mine.flatMap((move) => (move.log || []).map((index) => view.log[index]).filter(Boolean)).slice(-RECAP_LINES);
  replace(regions.standInRecap, [
    el("p", { text: t("stand_in_recap", { count: mine.length }), testid: "stand-in-recap-text" }),
    el("ul", { className: "recap-lines" }, lines.map((line) => el("li", { testid: "recap-line" }, namedNodes(line, view.seats)))),
    button(t("keep_link_ok"), {
      className: "small",
      testid: "stand-in-recap-ok",
      on: {
        click: () => {
          state.recapSeen = { game: view.game_number, step: mine[mine.length - 1].step };
          try {
            window.localStorage.setItem(recapKey(), JSON.stringify(state.recapSeen));
          } catch {
            // Without storage, the recap is dismissed for this page only.
          }
          render();
        },
      },
    }),
  ]);
}

function renderOptions(ctx) {
  const legal = ctx.view.legal || [];
  if (!legal.length) {
    let hint = t("options_none");
    if (ctx.you === null) hint = t("options_spectator");
    else if (ctx.view.observation.phase === "over") hint = t("phase_over");
    regions.optionsHint.textContent = hint;
    replace(regions.options, []);
    return;
  }
  regions.optionsHint.textContent = t("options_hint");
  const buttons = legal.map((entry) => {
    const action = entry.action;
    const node = button(entry.label, {
      className: "option",
      testid: "legal-option",
      dataset: { action: actionKey(action), kind: action.kind },
    });
    if (ctx.selected !== null && action.card === ctx.selected && (action.kind === "place" || action.kind === "twin")) {
      node.classList.add("related");
    }
    if (ctx.busy) node.disabled = true;
    node.addEventListener("click", () => send(action));
    return el("li", {}, [node]);
  });
  // Drawn again only when the options changed: a view that leaves them as they were (another
  // player connecting, a clock) must not replace a button while it is being clicked.
  if (!replaceIfChanged(regions.options, buttons, ["tabindex"])) return;
  // Bring the chosen card's options into sight inside the list (never scrolling the page).
  const related = regions.options.querySelector(".option.related");
  if (related) regions.options.scrollTop = related.parentElement.offsetTop;
}

/**
 * When the decision changes: centre the card it is about in the Queue and, if the decision is
 * yours, bring what you must click into sight.
 */
function scrollToAction(ctx) {
  const obs = ctx.view.observation;
  const key = `${ctx.view.game_number}:${ctx.view.step}:${obs.decision ? obs.decision.card : ""}`;
  if (key === state.scrolledTo) return;
  state.scrolledTo = key;
  const acting = centreActing();
  if (!(ctx.view.legal || []).length || ctx.analysis.placements.size > 0) return;
  let target = acting || regions.queue.querySelector(".actionable");
  if (ctx.analysis.players.size > 0) target = regions.players.querySelector(".choosable");
  else if (!regions.choices.hidden) target = regions.choices;
  if (target && !inSight(target)) target.scrollIntoView({ block: "center", inline: "nearest" });
}

/**
 * Centre the card the decision is about (or the top card of the stack being resolved) in the
 * horizontally scrolling Queue; return it (null if there is none).
 */
function centreActing() {
  const scroller = regions.queue;
  const acting = scroller.querySelector(".card.acting")
    || scroller.querySelector(".stack.is-cursor .stack-cards > .card:last-child");
  if (acting) {
    const box = scroller.getBoundingClientRect();
    const card = acting.getBoundingClientRect();
    const left = scroller.scrollLeft + card.left - box.left - (box.width - card.width) / 2;
    scroller.scrollLeft = Math.max(0, left);
  }
  return acting;
}

/** Whether all of `node` is inside the window (below the sticky top bar). */
function inSight(node) {
  const rect = node.getBoundingClientRect();
  const top = document.querySelector(".topbar")?.getBoundingClientRect().bottom || 0;
  return rect.top >= top && rect.bottom <= window.innerHeight;
}

start();
