// The replay page: a finished game step by step, as one seat saw it or everything, with its
// post-game analysis (a strong player's opinion of every human decision).

import { ApiError, getCards, request } from "./api.js";
import { el, replace } from "./dom.js";
import { colourOf, fitCardNames, setCardInfo } from "./cards.js";
import { renderQueue } from "./board.js";
import { analyseLegal, familiesOf } from "./decision.js";
import { renderHand } from "./hand.js";
import { applyI18n, getLang, initialLang, setLang, t } from "./i18n.js";
import { renderLog, resetLog, standInMark } from "./log.js";
import { namedNodes } from "./names.js";
import { renderPlayers, seatsOf } from "./players.js";
import { installCardHelp } from "./tooltip.js";
import { errorRef, installLangSwitch, toastError, withRef } from "./ui.js";
import { getAnalysis, getFrames, startAnalysis } from "./review_api.js";
import { percent, rt } from "./review_i18n.js";
import { copyLink } from "./share.js";
import { winChart } from "./winchart.js";
import { roveBoard } from "./keyboard.js";
import { ct, messageWords } from "./chat_i18n.js";

const POLL_MS = 800;
const ALL = "all";

const $ = (testid) => document.querySelector(`[data-testid="${testid}"]`);

const state = {
  tableId: null,
  token: null,
  game: 1,
  view: null, // a seat, or "all"; null until the server says which is the token's default
  data: null, // the frames answer
  index: 0,
  analysis: null,
  chart: null,
  pollTimer: null,
  chat: [], // the players' messages of the game (docs/server.md, "Chat")
};

function readLink() {
  const params = new URLSearchParams(window.location.search);
  const match = window.location.pathname.match(/\/t\/([^/]+)\/replay/);
  const number = (text) => (text !== null && /^\d+$/.test(text) ? Number(text) : null);
  return {
    tableId: match ? decodeURIComponent(match[1]) : null,
    token: params.get("token"),
    game: number(params.get("game")) || 1,
    round: number(params.get("round")),
    step: number(params.get("step")),
    view: params.get("view") === ALL ? ALL : number(params.get("view")),
  };
}

function fatal(message, error = null) {
  const box = $("fatal-error");
  const ref = errorRef(error);
  replace(box, [el("div", { className: "fatal-box" }, [
    el("h2", { text: t("fatal_title") }),
    el("p", { text: ref ? `${message} (${ref})` : message }),
    el("a", { className: "button-link", text: t("back_to_lobby"), attrs: { href: "/" } }),
  ])]);
  box.hidden = false;
}

function errorMessage(error) {
  if (error instanceof ApiError && error.code === "not_over") return rt("not_over_yet");
  const key = `error_${error.code}`;
  const known = t(key);
  return known !== key ? known : error.message || t("error_generic");
}

// ---------------------------------------------------------------- loading

async function loadCards() {
  try {
    setCardInfo(await getCards(getLang()));
    if (state.data) render();
  } catch {
    // Card faces fall back to readable names.
  }
}

async function loadFrames() {
  const data = await getFrames(state.tableId, state.game, state.token, state.view, getLang());
  state.data = data;
  state.view = data.view;
  state.index = Math.min(state.index, data.frames.length - 1);
  resetLog();
  fillViewChoice();
}

/** What the players said during the game: public once it is over, like its cards. */
async function loadChat() {
  const enc = encodeURIComponent;
  try {
    const url = `/api/tables/${enc(state.tableId)}/games/${state.game}/chat?token=${enc(state.token)}`;
    state.chat = (await request("GET", url)).messages;
  } catch {
    state.chat = []; // the replay goes on without its talk
  }
}

async function loadAnalysis() {
  try {
    showAnalysis(await getAnalysis(state.tableId, state.game, state.token, getLang()));
  } catch (error) {
    toastError(errorMessage(error), error);
  }
}

async function start() {
  setLang(initialLang());
  applyI18n(document);
  installCardHelp();
  installLangSwitch(switchLang);
  const link = readLink();
  if (!link.tableId || !link.token) {
    fatal(t("bad_link"));
    return;
  }
  Object.assign(state, { tableId: link.tableId, token: link.token, game: link.game, view: link.view });
  staticTexts();
  loadCards();
  try {
    await loadFrames();
  } catch (error) {
    fatal(rt("load_failed", { message: errorMessage(error) }), error);
    return;
  }
  await loadChat();
  showShareableLink();
  const last = state.data.frames.length - 1;
  if (link.step !== null) state.index = Math.min(link.step, last);
  else if (link.round !== null) state.index = roundEnd(link.round);
  else state.index = last;
  installControls();
  render();
  loadAnalysis();
}

/**
 * Opened with a seat's (or another) token, the address bar shows the game's replay link
 * instead, with its read-only token: what is copied from there gives no seat away.
 */
function showShareableLink() {
  const shared = new URL(state.data.replay_url, window.location.origin);
  const here = new URL(window.location.href);
  if (here.searchParams.get("token") === shared.searchParams.get("token")) return;
  for (const kept of ["round", "step", "view"]) {
    if (here.searchParams.has(kept)) shared.searchParams.set(kept, here.searchParams.get(kept));
  }
  window.history.replaceState(null, "", `${shared.pathname}${shared.search}`);
  state.token = shared.searchParams.get("token");
}

// ---------------------------------------------------------------- navigation

/** The frame at the end of round `round` (0: the start of the game). */
function roundEnd(round) {
  const frames = state.data.frames;
  if (round <= 0) return 0;
  const found = frames.findIndex((f) => (f.observation.scores_by_round || []).length >= round);
  return found < 0 ? frames.length - 1 : found;
}

function goTo(index) {
  const last = state.data.frames.length - 1;
  const next = Math.max(0, Math.min(last, index));
  if (next === state.index) return;
  state.index = next;
  render();
}

function installControls() {
  $("first-step").addEventListener("click", () => goTo(0));
  $("previous-step").addEventListener("click", () => goTo(state.index - 1));
  $("next-step").addEventListener("click", () => goTo(state.index + 1));
  $("last-step").addEventListener("click", () => goTo(state.data.frames.length - 1));
  $("step-slider").addEventListener("input", (event) => goTo(Number(event.target.value)));
  $("view-select").addEventListener("change", (event) => switchView(event.target.value));
  $("analyse-button").addEventListener("click", askAnalysis);
  $("share-replay").addEventListener("click", () => copyLink(state.data.replay_url));
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target && (target.tagName === "SELECT" || target.tagName === "INPUT")) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1 };
    if (event.key in moves) goTo(state.index + moves[event.key]);
    else if (event.key === "Home") goTo(0);
    else if (event.key === "End") goTo(state.data.frames.length - 1);
    else return;
    event.preventDefault();
  });
}

async function switchView(value) {
  state.view = value === ALL ? ALL : Number(value);
  try {
    await loadFrames();
    render();
  } catch (error) {
    toastError(errorMessage(error), error);
  }
}

async function switchLang(lang) {
  setLang(lang);
  applyI18n(document);
  staticTexts();
  loadCards();
  try {
    await loadFrames();
    render();
    await loadAnalysis();
  } catch (error) {
    toastError(errorMessage(error), error);
  }
}

// ---------------------------------------------------------------- rendering

function staticTexts() {
  $("view-label").textContent = rt("view_label");
  $("analysis-title").textContent = rt("analysis_title");
  $("analysis-intro").textContent = rt("analysis_intro");
  $("analyse-button").textContent = rt("analyse");
  $("log-title").textContent = t("log_title");
  $("keys-help").textContent = rt("keys_help");
  $("share-replay").textContent = rt("share_replay");
  $("share-replay").title = rt("share_replay_title");
  $("step-slider").setAttribute("aria-label", rt("step_slider"));
  const buttons = [["first-step", rt("first_step")], ["previous-step", rt("previous_step")],
    ["next-step", rt("next_step")], ["last-step", rt("last_step")]];
  for (const [id, text] of buttons) {
    $(id).title = text;
    $(id).setAttribute("aria-label", text);
  }
  document.title = `${rt("replay_title")} — Oriflamme`;
}

function seatNames() {
  return seatsOf({ observation: state.data.frames[0].observation, seats: state.data.seats });
}

function fillViewChoice() {
  const select = $("view-select");
  const options = [el("option", { text: rt("view_all"), attrs: { value: ALL } })];
  for (const seat of seatNames()) {
    options.push(el("option", { text: rt("view_seat", { name: seat.name }), attrs: { value: String(seat.seat) } }));
  }
  replace(select, options);
  select.value = String(state.view);
}

function context(frame) {
  const you = state.view === ALL ? null : state.view;
  return {
    view: { observation: frame.observation, cards: frame.cards, seats: state.data.seats, legal: [] },
    you,
    analysis: analyseLegal([]),
    selected: null,
    busy: false,
    myFamilies: new Set(familiesOf(frame.observation, you)),
    freshIds: new Set(),
    queueRoot: $("queue"),
    canHandToBot: false,
    labelOf: () => "",
    cardTypeOf: () => null,
    send: () => {},
    select: () => {},
  };
}

function render() {
  const frames = state.data.frames;
  const frame = frames[state.index];
  const ctx = context(frame);
  const obs = frame.observation;
  const total = frames.length - 1;
  document.body.dataset.step = String(state.index);
  const where = obs.phase === "over" ? t("phase_over") : `${t("round_of", { n: obs.round })} · ${t(`phase_${obs.phase}`)}`;
  $("replay-title").textContent = `${rt("replay_game", { n: state.game })} · ${where}`;
  $("step-counter").textContent = rt("step_of", { n: state.index, total });
  const slider = $("step-slider");
  slider.max = String(total);
  slider.value = String(state.index);
  const seats = state.data.seats;
  replace($("prompt"), namedNodes(frame.prompt || "", seats));
  renderPlayedLine(frame, seats);
  renderPlayers($("scores"), ctx);
  renderQueue($("queue"), ctx);
  renderHands(ctx);
  roveBoard({ hand: $("hand-cards"), queue: $("queue") }); // each a Tab stop (the arrows step)
  fitCardNames(document);
  const lines = [];
  const standIns = new Map();
  for (let i = 0; i <= state.index; i += 1) {
    if (frames[i].by === "stand_in") {
      frames[i].log.forEach((_, k) => standIns.set(lines.length + k, frames[i].reason));
    }
    lines.push(...frames[i].log);
  }
  renderLog($("log"), lines, seats, standIns);
  renderVerdict();
  renderChat();
  if (state.chart) state.chart.setCursor(state.index);
}

/** The players' messages written up to the step shown (a deleted one without its words). */
function renderChat() {
  $("replay-chat").hidden = !state.chat.length;
  $("replay-chat-title").textContent = ct("chat_replay_title");
  const said = state.chat.filter((message) => message.step <= state.index);
  replace($("replay-chat-messages"), said.length ? said.map((message) => el("li", {
    className: `chat-line${message.deleted ? " chat-deleted" : ""}${message.phrase ? " chat-phrase-line" : ""}`,
    testid: "replay-chat-line",
  }, [
    el("span", { className: "chat-author", text: message.name }),
    " ",
    el("span", { className: "chat-words", text: messageWords(message) }),
  ])) : [el("li", { className: "chat-empty", text: ct("chat_replay_none") })]);
}

/**
 * Who played the step shown, and what it wrote: one line each (never run together), with
 * "played by the stand-in" when the stand-in played it.
 */
function renderPlayedLine(frame, seats) {
  const box = $("played-line");
  if (frame.actor === null) {
    replace(box, [rt("start_of_game")]);
    return;
  }
  const head = el("span", { className: "played-by", text: rt("played_by", { name: seatNames()[frame.actor].name }) });
  replace(box, [
    head,
    frame.by === "stand_in" ? standInMark(frame.reason) : null,
    el("ul", { className: "played-lines" }, frame.log.map((line) => el("li", { testid: "played-log-line" }, namedNodes(line, seats)))),
  ]);
}

function renderHands(ctx) {
  const root = $("hand-cards");
  if (ctx.you !== null) {
    renderHand(root, ctx);
    return;
  }
  const blocks = seatNames().map((seat) => {
    const body = el("div", { className: "hand-body" });
    renderHand(body, { ...ctx, you: seat.seat });
    return el("div", { className: "replay-hand", testid: "replay-hand", dataset: { seat: seat.seat } }, [
      el("h3", { className: "panel-title", text: seat.name }),
      body,
    ]);
  });
  replace(root, blocks);
}

// ---------------------------------------------------------------- analysis

async function askAnalysis() {
  $("analyse-button").disabled = true;
  try {
    showAnalysis(await startAnalysis(state.tableId, state.game, state.token, getLang()));
  } catch (error) {
    $("analyse-button").disabled = false;
    const message = error instanceof ApiError && error.code === "no_humans" ? rt("analysis_none_human") : errorMessage(error);
    replace($("analysis-body"), [el("p", { className: "analysis-note", text: withRef(message, error) })]);
  }
}

function showAnalysis(analysis) {
  state.analysis = analysis;
  clearTimeout(state.pollTimer);
  const running = analysis.status === "queued" || analysis.status === "running";
  const button = $("analyse-button");
  button.hidden = running || analysis.status === "done";
  button.disabled = false;
  $("analysis-status").hidden = !running;
  $("analysis-progress").value = analysis.progress;
  $("analysis-progress-text").textContent = analysis.status === "queued"
    ? rt("analysis_queued")
    : rt("analysis_running", { percent: percent(analysis.progress) });
  const body = [];
  if (analysis.status === "failed") body.push(el("p", { className: "analysis-note", text: rt("analysis_failed") }));
  if (analysis.steps.length) body.push(...analysisBody(analysis));
  replace($("analysis-body"), body);
  if (running) state.pollTimer = setTimeout(loadAnalysis, POLL_MS);
  if (state.data) render();
}

function analysisBody(analysis) {
  const names = seatNames();
  const series = names.map((seat) => ({ name: seat.name, colour: colourOf(familyOf(seat.seat)) }));
  const total = state.data.frames.length - 1;
  state.chart = winChart(analysis.steps, series, total, analysis.worst, (step) => goTo(step));
  const parts = [el("h3", { className: "panel-title", text: rt("win_chart_title") }), state.chart.figure];
  if (analysis.status !== "done") return parts;
  parts.push(el("h3", { className: "panel-title", text: rt("costly_title") }));
  const worst = analysis.steps.filter((s) => analysis.worst.includes(s.step)).sort((a, b) => b.loss - a.loss);
  if (!worst.length) parts.push(el("p", { className: "analysis-note", testid: "no-costly-move", text: rt("costly_none") }));
  const items = worst.map((s) => {
    const got = s.played_win ? s.played_win[s.player] : s.win[s.player] - s.loss;
    const item = el("li", { className: "costly-move", testid: "costly-move", dataset: { step: s.step } }, [
      el("button", {
        className: "link-button",
        text: rt("costly_move", { step: s.step, round: s.round, name: names[s.player].name, played: s.played_label }),
        on: { click: () => goTo(s.step) },
      }),
      el("p", { className: "costly-detail", text: rt("costly_detail", { best: s.best_label, kept: percent(s.win[s.player]), got: percent(got) }) }),
    ]);
    return item;
  });
  parts.push(el("ol", { className: "costly-moves", testid: "costly-moves" }, items));
  renderMarks(analysis.worst, total);
  return parts;
}

function familyOf(seat) {
  const family = state.data.frames[0].observation.families.find((f) => f.player === seat);
  return family ? family.family : seat;
}

function renderMarks(worst, total) {
  replace($("slider-marks"), worst.map((step) => el("span", {
    className: "slider-mark",
    testid: "slider-mark",
    dataset: { step },
    style: { left: `${(100 * step) / Math.max(1, total)}%` },
  })));
}

/** What the analysis says of the decision shown (the frame before its action), if anything. */
function renderVerdict() {
  const box = $("move-verdict");
  for (const node of document.querySelectorAll(".suggested, .was-played")) node.classList.remove("suggested", "was-played");
  const analysis = state.analysis;
  const entry = analysis && analysis.steps.find((s) => s.step === state.index);
  if (!entry) {
    box.hidden = true;
    replace(box, []);
    return;
  }
  const costly = analysis.worst.includes(entry.step);
  const got = entry.played_win ? entry.played_win[entry.player] : entry.win[entry.player] - entry.loss;
  replace(box, [
    el("strong", { text: costly ? rt("verdict_costly") : rt("verdict_good") }),
    el("span", { text: rt("verdict_played", { label: entry.played_label, percent: percent(got) }) }),
    el("span", { text: rt("verdict_best", { label: entry.best_label, percent: percent(entry.win[entry.player]) }) }),
  ]);
  box.classList.toggle("costly", costly);
  box.hidden = false;
  mark(entry.best, "suggested");
  mark(entry.played, "was-played");
}

function mark(action, className) {
  if (typeof action.card !== "number") return;
  for (const node of document.querySelectorAll(`[data-card-id="${action.card}"]`)) node.classList.add(className);
}

start();
