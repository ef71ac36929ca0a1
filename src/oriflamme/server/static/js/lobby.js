// The lobby: set up a table (players, cards, variant, seats), create it, share the links.

import { createTable, getCards } from "./api.js";
import { button, el, replace } from "./dom.js";
import {
  BASE_SET, EMBRASEMENT_SET, FAMILY_COLOURS, blazon, cardName, setCardInfo, typeGlyph,
} from "./cards.js";
import { applyI18n, getLang, initialLang, setLang, t } from "./i18n.js";
import { errorText, installLangSwitch, toast, toastError } from "./ui.js";
import { refresh as refreshOpenTables, renderOpenTables, startOpenTables } from "./opentables.js";
import { rememberGame } from "./mygames.js";
import { loadAccount, ownSeat, ownSeatLabel, ratedOptions, renderGames, renderRatedOptions, signedInAccount, useAccount } from "./account_lobby.js";
import { installAccountBar, renderAccountBar } from "./account_bar.js";

const LEVELS = ["easy", "medium", "hard", "expert", "random"];
const MAX_PLAYERS = 5;
const NAME_MAX = 24;
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;
// What the server checks too (docs/server.md, names): something visible, not a bot's label,
// not another seat's name.
const BLANKS = /[\u115f\u1160\u3164\uffa0\u2800]/gu;
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u;
const COMBINING_FIRST = /^\p{M}/u;
const BOT_LABEL = /^((red|blue|green|yellow|purple) bot|robot (rouge|bleu|vert|jaune|violet)) \([^()]*\)$/u;

/** A name as the server compares them: case, width and invisible joiners aside. */
function nameKey(name) {
  return name.normalize("NFKC").replace(/\p{Cf}/gu, "").toLowerCase().split(/\s+/u).filter(Boolean).join(" ");
}

/** Why a seat's name would be refused (a message), or null. */
function nameProblem(name, seen) {
  if (name.length > NAME_MAX || CONTROL_CHARS.test(name)) return t("error_name");
  if (!VISIBLE.test(name.replace(BLANKS, "")) || COMBINING_FIRST.test(name)) return t("error_name_invisible");
  const key = nameKey(name);
  if (BOT_LABEL.test(key)) return t("error_name_bot");
  if (seen.has(key)) return t("error_name_duplicate");
  seen.add(key);
  return null;
}

const $ = (testid) => document.querySelector(`[data-testid="${testid}"]`);
const form = $("create-form");

/** The seats as set so far (all five are kept, so changing the count loses nothing). */
const seats = Array.from({ length: MAX_PLAYERS }, (_, i) => ({
  kind: i === 0 ? "human" : "bot",
  name: "",
  level: "medium",
}));
const customPick = new Set();
/** The saved game to continue ({data, config}), or null for a new deal. */
let saved = null;

function playerCount() {
  return saved ? saved.config.players : Number(form.elements.players.value);
}

function twoFamilies() {
  if (saved) return saved.config.variant === "two-families" || (playerCount() === 2 && !saved.config.variant);
  return playerCount() === 2 && form.elements.variant.value === "two-families";
}

function cardSetChoice() {
  return form.elements.cards.value;
}

/** The families (colours) a seat plays with the current settings. */
function seatColours(seat) {
  return twoFamilies() ? [FAMILY_COLOURS[seat], FAMILY_COLOURS[seat + 2]] : [FAMILY_COLOURS[seat]];
}

// ---------------------------------------------------------------- rendering

function renderSeats() {
  const rows = [];
  for (let seat = 0; seat < playerCount(); seat += 1) rows.push(seatRow(seat));
  replace($("seat-list"), rows);
}

function seatRow(seat) {
  const entry = seats[seat];
  const kind = el("select", {
    testid: "seat-kind",
    attrs: { "aria-label": `${t("seat_n", { n: seat + 1 })} — ${t("kind_label")}` },
    on: {
      change: (event) => {
        entry.kind = event.target.value;
        renderSeats();
      },
    },
  }, [
    el("option", { text: t("seat_human"), attrs: { value: "human", selected: entry.kind === "human" } }),
    el("option", { text: t("seat_bot"), attrs: { value: "bot", selected: entry.kind === "bot" } }),
    el("option", { text: t("seat_open"), attrs: { value: "open", selected: entry.kind === "open" } }),
  ]);
  let detail;
  const own = entry.kind === "human" ? ownSeatLabel(seat) : null;
  if (own) {
    detail = own;
  } else if (entry.kind === "open") {
    detail = el("span", { className: "level-note", text: t("open_seat") });
  } else if (entry.kind === "human") {
    detail = el("input", {
      testid: "seat-name",
      attrs: {
        type: "text",
        maxlength: NAME_MAX,
        autocomplete: "off",
        placeholder: t("player_n", { n: seat + 1 }),
        "aria-label": `${t("seat_n", { n: seat + 1 })} — ${t("name_label")}`,
      },
      on: { input: (event) => { entry.name = event.target.value; renderFirstPlayer(); } },
    });
    detail.value = entry.name;
  } else {
    const note = el("span", { className: "level-note", testid: "level-note", text: t(`level_note_${entry.level}`) });
    detail = el("span", { className: "level-choice" }, [
      el("select", {
        testid: "seat-level",
        attrs: { "aria-label": `${t("seat_n", { n: seat + 1 })} — ${t("level_label")}` },
        on: {
          change: (event) => {
            entry.level = event.target.value;
            note.textContent = t(`level_note_${entry.level}`);
          },
        },
      }, LEVELS.map((level) => el("option", {
        text: t(`level_${level}`),
        attrs: { value: level, selected: entry.level === level },
      }))),
      note,
    ]);
  }
  return el("div", { className: "seat-row", testid: "seat-row", dataset: { seat } }, [
    el("span", { className: "seat-blazons" }, seatColours(seat).map((c) => blazon(c, "seat-blazon"))),
    el("span", { className: "seat-label", text: t("seat_n", { n: seat + 1 }) }),
    kind,
    detail,
  ]);
}

function renderFirstPlayer() {
  const select = form.elements.first_player;
  const previous = select.value || "0";
  const options = [el("option", { text: t("first_random"), attrs: { value: "random" } })];
  for (let seat = 0; seat < playerCount(); seat += 1) {
    const name = seats[seat].kind === "human" && seats[seat].name.trim()
      ? seats[seat].name.trim()
      : t("seat_n", { n: seat + 1 });
    options.push(el("option", { text: name, attrs: { value: String(seat) } }));
  }
  replace(select, options);
  select.value = previous === "random" || Number(previous) < playerCount() ? previous : "0";
}

function renderCustomCards() {
  const box = $("custom-cards");
  box.hidden = cardSetChoice() !== "custom";
  const tiles = [...BASE_SET, ...EMBRASEMENT_SET].map((slug) => {
    const input = el("input", {
      testid: "custom-card",
      dataset: { card: slug },
      attrs: { type: "checkbox", value: slug },
      on: {
        change: (event) => {
          if (event.target.checked) customPick.add(slug);
          else customPick.delete(slug);
          updateCounter();
        },
      },
    });
    input.checked = customPick.has(slug);
    return el("label", { className: "custom-tile fam-red" }, [
      input,
      typeGlyph(slug, "tile-glyph"),
      el("span", { className: "tile-name", text: cardName(slug) }),
    ]);
  });
  replace($("custom-grid"), tiles);
  updateCounter();
}

function updateCounter() {
  const counter = $("custom-counter");
  counter.textContent = t("custom_counter", { n: customPick.size });
  counter.classList.toggle("complete", customPick.size === 10);
  counter.classList.toggle("over", customPick.size > 10);
  for (const input of $("custom-grid").querySelectorAll("input")) {
    input.closest(".custom-tile").classList.toggle("checked", input.checked);
  }
}

function renderForm() {
  $("variant-field").hidden = playerCount() !== 2;
  for (const name of ["players", "variant", "edition", "first_player"]) form.elements[name].disabled = Boolean(saved);
  for (const radio of form.querySelectorAll('input[name="cards"]')) radio.disabled = Boolean(saved);
  renderSeats();
  renderFirstPlayer();
  renderCustomCards();
  renderSaved();
}

// ---------------------------------------------------------------- a saved game to continue

/** The configuration of a save, position or replay (docs/formats.md), or null. */
function configOf(data) {
  if (!data || typeof data !== "object" || Array.isArray(data)) return null;
  const config = data.format === "oriflamme-save" ? (data.position || {}).config : data.config;
  const players = (config || {}).players ?? 3;
  return Number.isInteger(players) && players >= 2 && players <= MAX_PLAYERS ? { ...config, players } : null;
}

function renderSaved() {
  const summary = $("save-summary");
  $("clear-save").hidden = !saved;
  summary.hidden = !saved;
  if (!saved) return;
  const position = saved.data.format === "oriflamme-save" ? saved.data.position : saved.data;
  summary.textContent = saved.data.format === "oriflamme-replay"
    ? t("saved_replay", { players: saved.config.players, actions: (saved.data.actions || []).length })
    : t("saved_position", { players: saved.config.players, round: (position || {}).round || 1 });
}

async function chooseSave(event) {
  const file = event.target.files && event.target.files[0];
  if (!file) return;
  let data = null;
  try {
    data = JSON.parse(await file.text());
  } catch {
    data = null;
  }
  const config = configOf(data);
  if (!config) {
    event.target.value = "";
    showFormError(t("error_save_file"));
    return;
  }
  showFormError("");
  saved = { data, config };
  renderForm();
}

function forgetSave() {
  saved = null;
  $("save-file").value = "";
  renderForm();
}

function renderHero() {
  replace($("hero-blazons"), FAMILY_COLOURS.map((colour) => blazon(colour, "hero-blazon")));
}

// ---------------------------------------------------------------- submit

function showFormError(message) {
  const box = $("form-error");
  box.textContent = message;
  box.hidden = !message;
}

/** The request body for POST /api/tables, or an error message. */
function buildRequest() {
  const players = playerCount();
  let cards = cardSetChoice();
  if (saved) cards = null;
  else if (cards === "custom") {
    if (customPick.size !== 10) return { error: t("error_custom_count") };
    cards = [...BASE_SET, ...EMBRASEMENT_SET].filter((slug) => customPick.has(slug));
  }
  const seatList = [];
  const names = new Set();
  for (let seat = 0; seat < players; seat += 1) {
    const entry = seats[seat];
    if (entry.kind === "bot") {
      seatList.push({ kind: "bot", level: entry.level });
      continue;
    }
    if (entry.kind === "open") {
      seatList.push({ kind: "open" });
      continue;
    }
    const own = ownSeat(seat);
    if (own) {
      nameProblem(signedInAccount().name, names); // the others may not take the account's name
      seatList.push(own);
      continue;
    }
    const name = entry.name.trim() || t("player_n", { n: seat + 1 });
    const problem = nameProblem(name, names);
    if (problem) return { error: problem };
    seatList.push({ kind: "human", name });
  }
  if (!seatList.some((seat) => seat.kind !== "bot")) return { error: t("error_no_human_or_open") };
  // A table strangers can join is dealt by the server: whoever chose a saved deal knows it.
  if (saved && seatList.some((seat) => seat.kind === "open")) return { error: t("error_save_with_open") };
  const tableChoices = tableOptions(seatList);
  if (tableChoices.error) return tableChoices;
  const rated = ratedOptions(form);
  if (rated.error) return rated;
  const options = { ...tableChoices, ...rated, chat: form.elements.chat.value };
  const lang = form.elements.lang.value;
  const hints = form.elements.hints.checked;
  if (saved) return { body: { players, lang, seats: seatList, save: saved.data, hints, ...options } };
  const first = form.elements.first_player.value;
  return {
    body: {
      players,
      cards,
      variant: players === 2 ? form.elements.variant.value : null,
      edition: form.elements.edition.value,
      first_player: first === "random" ? null : Number(first),
      lang,
      seats: seatList,
      seed: null,
      hints,
      ...options,
    },
  };
}

/** A whole number of seconds in [min, max] from an input, null if empty, or NaN if invalid. */
function seconds(input, min, max) {
  const text = input.value.trim();
  if (!text) return null;
  const value = Number(text);
  return Number.isInteger(value) && value >= min && value <= max ? value : NaN;
}

/** The clock asked for (`{ clock }`: seconds per decision, a time bank, the daily preset or
 * null), or an error message. */
function clockChoice() {
  const kind = form.elements.clock_kind.value;
  if (kind === "daily") return { clock: "daily" };
  if (kind === "bank") {
    const amount = (input) => (input.value.trim() === "" ? NaN : Number(input.value));
    const bank = amount(form.elements.bank);
    const increment = amount(form.elements.increment);
    const valid = (value) => Number.isFinite(value) && value >= 0 && value <= 2592000;
    if (!valid(bank) || !valid(increment) || bank + increment <= 0) return { error: t("error_bank") };
    return { clock: { bank, increment } };
  }
  const perDecision = seconds(form.elements.clock, 2, 604800);
  if (Number.isNaN(perDecision)) return { error: t("error_clock") };
  return { clock: perDecision === null ? null : { per_decision: perDecision } };
}

/** Show the fields of the clock kind chosen. */
function showClockFields() {
  const kind = form.elements.clock_kind.value;
  for (const field of form.querySelectorAll("[data-clock-kind]")) field.hidden = field.dataset.clockKind !== kind;
  // Players of a game over days come and go: the server plays for nobody who is only away.
  form.querySelector("[data-away-limit]").hidden = kind === "daily";
}

/** The lobby, clock and stand-in options of the request, or an error message. */
function tableOptions(seatList) {
  const isPublic = form.elements.public.checked;
  if (isPublic && !seatList.some((seat) => seat.kind === "open")) return { error: t("error_public_needs_open") };
  const clock = clockChoice();
  if (clock.error) return clock;
  const daily = form.elements.clock_kind.value === "daily";
  const absent = daily ? undefined : seconds(form.elements.absent_after, 2, 172800);
  if (Number.isNaN(absent)) return { error: t("error_absent") };
  return {
    public: isPublic,
    clock: clock.clock,
    absent_after: absent,
    stand_in: form.elements.stand_in.value,
  };
}

async function submit(event) {
  event.preventDefault();
  const request = buildRequest();
  if (request.error) {
    showFormError(request.error);
    return;
  }
  showFormError("");
  const submitButton = $("create-game");
  submitButton.disabled = true;
  submitButton.textContent = t("creating");
  try {
    const created = await createTable(request.body);
    rememberCreator(created);
    rememberCreated(created);
    showCreated(created);
    if (request.body.public) refreshOpenTables(); // the new table is listed now, not in 3 s
  } catch (error) {
    toastError(errorText(error), error);
  } finally {
    submitButton.disabled = false;
    submitButton.textContent = t("create_button");
  }
}

/** Keep the creator's seat (or, without one, the spectators' link) in "My games", with the
 * links the created page showed, so that they survive leaving it. */
function rememberCreated(created) {
  const mine = created.seats.find((seat) => seat.seat === 0 && seat.kind === "human");
  const link = new URL(mine ? mine.url : created.spectator_url, window.location.origin);
  const token = link.searchParams.get("seat") || link.searchParams.get("watch");
  const open = created.seats.some((seat) => seat.kind === "open");
  rememberGame(created.table_id, token, {
    watch: !mine,
    spectator_url: created.spectator_url,
    join_url: open ? `/?join=${encodeURIComponent(created.table_id)}` : null,
  });
}

function rememberCreator(created) {
  try {
    window.localStorage.setItem(`oriflamme.creator.${created.table_id}`, created.creator_token);
  } catch {
    // Without storage the creator cannot hand seats to bots from the game page.
  }
}

// ---------------------------------------------------------------- the links

function absolute(url) {
  return new URL(url, window.location.origin).href;
}

async function copyText(input) {
  try {
    await navigator.clipboard.writeText(input.value);
    toast(t("copied"));
  } catch {
    input.focus();
    input.select();
    toastError(t("copy_failed"));
  }
}

function linkRow(url, testid, copyTestid, seat) {
  const input = el("input", {
    className: "link-input",
    testid,
    dataset: { seat },
    attrs: { type: "url", readonly: true, "aria-label": t("invite_link") },
  });
  input.value = absolute(url);
  input.addEventListener("focus", () => input.select());
  return el("div", { className: "link-row" }, [
    input,
    button(t("copy"), { testid: copyTestid, dataset: { seat }, on: { click: () => copyText(input) } }),
    el("a", {
      className: "button-link",
      testid: "open-link",
      dataset: { seat },
      text: t("open_link"),
      attrs: { href: url, target: "_blank", rel: "noopener" },
    }),
  ]);
}

function seatDetail(created, seat) {
  if (seat.kind === "human") return linkRow(seat.url, "invite-link", "copy-link", seat.seat);
  if (seat.kind === "open") {
    return el("div", { className: "open-note" }, [
      el("p", { className: "bot-note", text: t("open_seat_note") }),
      linkRow(`/?join=${encodeURIComponent(created.table_id)}`, "join-link", "copy-join", seat.seat),
    ]);
  }
  return el("p", { className: "bot-note", text: t("played_by_bot") });
}

function showCreated(created) {
  const items = created.seats.map((seat) => {
    const colours = seatColours(seat.seat);
    return el("li", { className: "invite", testid: "invite", dataset: { seat: seat.seat, kind: seat.kind } }, [
      el("div", { className: "invite-head" }, [
        el("span", { className: "seat-blazons" }, colours.map((c) => blazon(c, "seat-blazon"))),
        el("strong", { text: seat.name || t("open_seat") }),
        el("span", { className: "tag", text: t("seat_n", { n: seat.seat + 1 }) }),
      ]),
      seatDetail(created, seat),
    ]);
  });
  replace($("invites"), items);
  replace($("spectator-row"), [linkRow(created.spectator_url, "spectator-link", "copy-spectator", "")]);
  const mine = created.seats.find((seat) => seat.seat === 0 && seat.kind === "human");
  const open = $("open-my-seat");
  open.href = mine ? mine.url : created.spectator_url;
  open.textContent = mine ? t("open_my_seat") : t("watch_game");
  form.hidden = true;
  $("created").hidden = false;
  window.scrollTo({ top: 0 });
}

// ---------------------------------------------------------------- start

async function loadCardNames(lang) {
  try {
    setCardInfo(await getCards(lang));
    renderCustomCards();
  } catch {
    // Readable fallback names are used.
  }
}

function switchLang(lang) {
  setLang(lang);
  applyI18n(document);
  form.elements.lang.value = lang;
  renderForm();
  renderOpenTables();
  loadCardNames(lang);
  renderRatedOptions($("rated-options"));
  showMyGames();
  renderAccountBar();
}

function showMyGames() {
  renderGames($("my-games"), $("my-games-list"));
}

function start() {
  setLang(initialLang());
  applyI18n(document);
  form.elements.lang.value = getLang();
  installLangSwitch(switchLang);
  renderHero();
  form.elements.players.addEventListener("change", renderForm);
  form.elements.variant.addEventListener("change", renderSeats);
  for (const radio of form.querySelectorAll('input[name="cards"]')) {
    radio.addEventListener("change", renderCustomCards);
  }
  form.elements.clock_kind.addEventListener("change", showClockFields);
  showClockFields();
  form.addEventListener("submit", submit);
  $("save-file").addEventListener("change", chooseSave);
  $("clear-save").addEventListener("click", forgetSave);
  $("new-game").addEventListener("click", () => {
    $("created").hidden = true;
    form.hidden = false;
  });
  renderForm();
  startOpenTables();
  loadCardNames(getLang());
  loadAccount().then(() => {
    renderRatedOptions($("rated-options"));
    renderSeats();
    showMyGames();
  });
  installAccountBar((found) => {
    useAccount(found);
    renderRatedOptions($("rated-options"));
    renderSeats();
    showMyGames();
  });
}

start();
