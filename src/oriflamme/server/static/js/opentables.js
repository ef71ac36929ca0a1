// The lobby's open tables: public tables waiting for players, a page at a time, filtered,
// refreshed while the page is open; the table a join link (/?join=ID) invites to, pinned on top;
// joining (the seat's private link is opened at once). Each entry says what matters before
// joining: the seats (bots marked), the set-up, the clock, the stand-in and absence limit, hints.

import { ApiError, getLobby, getLobbyTable, joinTable } from "./api.js";
import { button, el, replaceIfChanged } from "./dom.js";
import { blazon, cardName } from "./cards.js";
import { getLang, t } from "./i18n.js";
import { percentOf, pt } from "./players_i18n.js";
import { errorText, toastError } from "./ui.js";

const REFRESH_MS = 3000;
const PAGE_SIZE = 10;
const NAME_MAX = 24;
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;
const NAME_KEY = "oriflamme.name";
const FILTERS = ["players", "cards", "clock", "hints"];

const $ = (testid) => document.querySelector(`[data-testid="${testid}"]`);

let tables = [];
/** The cursor of each page seen so far (null: the first page) and the page shown. */
let cursors = [null];
let pageIndex = 0;
let nextCursor = null;
/** The invited table's entry, or an error code, or null without a join link. */
let invited = null;
let joining = false;
/** Refreshes answered out of order are dropped: only the latest request counts. */
let requestNumber = 0;

function wantedTable() {
  return new URLSearchParams(window.location.search).get("join");
}

function filterValues() {
  const values = {};
  for (const name of FILTERS) {
    const value = $(`filter-${name}`).value;
    if (value) values[name] = value;
  }
  return values;
}

function ageText(seconds) {
  if (seconds < 60) return t("age_now");
  if (seconds < 3600) return t("age_minutes", { n: Math.floor(seconds / 60) });
  return t("age_hours", { n: Math.floor(seconds / 3600) });
}

/** A duration in the largest unit that says it well (90 s, 5 min, 2 h, 3 d). */
function durationText(seconds) {
  if (seconds < 120) return t("duration_s", { n: Math.round(seconds) });
  if (seconds < 2 * 3600) return t("duration_min", { n: Math.round(seconds / 60) });
  if (seconds < 2 * 86400) return t("duration_h", { n: Math.round(seconds / 3600) });
  return t("duration_d", { n: Math.round(seconds / 86400) });
}

function cardsText(cards) {
  if (cards === "base" || cards === "embrasement") return t(`cards_${cards}`);
  return cards.split(",").map((slug) => cardName(slug)).join(", ");
}

function setupLine(table) {
  const parts = [t("players_n", { n: table.players }), cardsText(table.cards)];
  if (table.players === 2) {
    parts.push(table.variant === "two-families" ? t("variant_two_families") : t("variant_standard"));
  }
  parts.push(table.edition === "first" ? t("lobby_edition_first") : t("lobby_edition_revised"));
  parts.push(table.lang === "fr" ? t("lobby_lang_fr") : t("lobby_lang_en"));
  if (table.age !== null && table.age !== undefined) parts.push(ageText(table.age));
  return parts.join(" · ");
}

/** The table's clock: seconds per decision, a time bank, the daily preset, or none. */
function clockText(table, level) {
  if (table.bank !== null && table.bank !== undefined) {
    if (table.bank === 3 * 86400 && table.increment === 86400) return t("lobby_daily", { level });
    const bank = durationText(table.bank);
    return t("lobby_bank", { bank, increment: durationText(table.increment || 0), level });
  }
  return table.clock ? t("lobby_clock", { time: durationText(table.clock), level }) : t("no_clock");
}

/** The clock, the stand-in and absence limit, hints: how the table is played. */
function rulesLine(table) {
  const level = t(`level_${table.stand_in}`);
  return [
    clockText(table, level),
    table.absent_after
      ? t("lobby_absence", { time: durationText(table.absent_after), level })
      : t("lobby_absence_never"),
    table.no_show_after ? t("no_show_limit", { time: durationText(table.no_show_after) }) : null,
    table.hints ? t("lobby_hints_on") : t("lobby_hints_off"),
  ].filter(Boolean).join(" · ");
}

/**
 * A bot's name as this page's language says it: the name the server gave it ("Blue bot (hard)")
 * becomes "Robot bleu (difficile)" in French; a name its creator chose stays.
 */
function botName(seat) {
  const given = `${seat.colour.charAt(0).toUpperCase()}${seat.colour.slice(1)} bot (${seat.level})`;
  if (seat.name !== given) return seat.name;
  const colour = t(`colour_${seat.colour}`);
  return t("bot_name", { colour: getLang() === "fr" ? colour.toLowerCase() : colour, level: t(`level_${seat.level}`) });
}

function seatItem(table, seat) {
  if (seat.kind === "bot") {
    return el("span", {
      className: "open-seat-taken lobby-bot",
      testid: "lobby-seat",
      dataset: { seat: seat.seat, kind: "bot" },
    }, [
      blazon(seat.colour, "seat-blazon"),
      el("span", { text: botName(seat) }),
      el("span", { className: "tag bot-tag", testid: "bot-tag", text: t("lobby_bot", { level: t(`level_${seat.level}`) }) }),
    ]);
  }
  if (seat.kind !== "open") {
    return el("span", { className: "open-seat-taken", testid: "lobby-seat", dataset: { seat: seat.seat, kind: seat.kind } }, [
      blazon(seat.colour, "seat-blazon"),
      el("span", { text: seat.name }),
      // An account's reputation (the share of its games it finished), as at the table.
      seat.account && seat.reputation !== null && seat.reputation !== undefined
        ? el("span", { className: "reputation-badge", testid: "lobby-reputation", title: pt("reputation"), text: pt("reputation_badge", { percent: percentOf(seat.reputation) }) })
        : null,
    ]);
  }
  const joinButton = button(t("join_button"), {
    className: "primary small join-seat",
    testid: "join-seat",
    dataset: { seat: seat.seat, table: table.table_id },
    title: t("open_seat"),
    on: { click: () => join(table.table_id, seat.seat) },
  });
  joinButton.prepend(blazon(seat.colour, "seat-blazon"));
  return joinButton;
}

function tableItem(table, wanted) {
  return el("li", {
    className: `open-table${wanted ? " wanted" : ""}`,
    testid: "open-table",
    dataset: { table: table.table_id },
  }, [
    el("div", { className: "open-table-seats" }, table.seats.map((seat) => seatItem(table, seat))),
    table.rated || table.min_reputation !== null ? el("p", { className: "open-table-terms", testid: "open-table-terms" }, [
      table.rated ? el("span", { className: "tag tag-rated", testid: "lobby-rated", text: pt("rated_tag") }) : null,
      table.min_reputation !== null && table.min_reputation !== undefined
        ? el("span", { className: "muted", testid: "lobby-min-reputation", text: pt("min_reputation_tag", { percent: percentOf(table.min_reputation) }) })
        : null,
    ]) : null,
    el("p", { className: "open-table-setup", testid: "open-table-setup", text: setupLine(table) }),
    el("p", { className: "open-table-rules", testid: "open-table-rules", text: rulesLine(table) }),
  ]);
}

function renderInvited() {
  const box = $("invited");
  box.hidden = invited === null;
  if (invited === null) return;
  const gone = $("invited-gone");
  if (typeof invited === "string") {
    replaceIfChanged($("invited-table"), []);
    gone.hidden = false;
    if (invited === "unknown_table") gone.textContent = t("error_unknown_table");
    else if (invited === "table_closed") gone.textContent = t("table_closed");
    else gone.textContent = t("invited_full");
    return;
  }
  gone.hidden = true;
  replaceIfChanged($("invited-table"), [tableItem(invited, true)]);
}

function render() {
  const list = $("open-tables");
  if (!list) return;
  renderInvited();
  const wanted = wantedTable();
  // Drawn anew every few seconds: only what changed is replaced, so a "Join" click holds.
  replaceIfChanged(list, tables.filter((table) => table.table_id !== wanted).map((table) => tableItem(table, false)));
  const empty = $("open-tables-empty");
  empty.hidden = tables.length > 0;
  empty.textContent = Object.keys(filterValues()).length ? t("open_tables_none_filtered") : t("open_tables_none");
  $("lobby-pager").hidden = pageIndex === 0 && !nextCursor;
  $("lobby-previous").disabled = pageIndex === 0;
  $("lobby-next").disabled = !nextCursor;
  $("lobby-page").textContent = t("page_n", { n: pageIndex + 1 });
}

async function refreshInvited() {
  const wanted = wantedTable();
  // A table that filled, closed or never existed stays so: no need to ask again.
  if (!wanted || typeof invited === "string") return;
  try {
    const table = await getLobbyTable(wanted);
    if (table.closed) invited = "table_closed";
    else invited = table.open_seats.length ? table : "seat_taken";
  } catch (error) {
    if (error instanceof ApiError && error.status > 0 && error.status < 500) invited = error.code;
  }
}

/** Load the page shown (its tables may have changed) and draw it. */
export async function refresh() {
  const number = ++requestNumber;
  try {
    const [page] = await Promise.all([
      getLobby({ ...filterValues(), limit: PAGE_SIZE, cursor: cursors[pageIndex] }),
      refreshInvited(),
    ]);
    if (number !== requestNumber) return;
    if (!page.tables.length && pageIndex > 0) {
      // Every table of this page left: back to the first page.
      cursors = [null];
      pageIndex = 0;
      refresh();
      return;
    }
    tables = page.tables;
    nextCursor = page.next;
    render();
  } catch {
    // The list is refreshed again soon.
  }
}

function firstPage() {
  cursors = [null];
  pageIndex = 0;
  nextCursor = null;
  refresh();
}

function nextPage() {
  if (!nextCursor) return;
  cursors = [...cursors.slice(0, pageIndex + 1), nextCursor];
  pageIndex += 1;
  refresh();
}

function previousPage() {
  if (pageIndex === 0) return;
  pageIndex -= 1;
  refresh();
}

function nameInput() {
  return $("join-name");
}

async function join(tableId, seat) {
  if (joining) return;
  const name = nameInput().value.trim();
  if (!name || name.length > NAME_MAX || CONTROL_CHARS.test(name)) {
    toastError(t("error_join_name"));
    nameInput().focus();
    return;
  }
  joining = true;
  document.body.classList.add("busy");
  try {
    window.localStorage.setItem(NAME_KEY, name);
  } catch {
    // The name is simply not remembered.
  }
  try {
    const seatTaken = await joinTable(tableId, name, seat);
    window.location.href = seatTaken.url;
  } catch (error) {
    toastError(error instanceof ApiError && error.code === "seat_taken" ? t("seat_taken") : errorText(error), error);
    refresh();
  } finally {
    joining = false;
    document.body.classList.remove("busy");
  }
}

/** Show the open tables and keep them fresh while the page is visible. */
export function startOpenTables() {
  try {
    nameInput().value = window.localStorage.getItem(NAME_KEY) || "";
  } catch {
    // No remembered name.
  }
  for (const name of FILTERS) $(`filter-${name}`).addEventListener("change", firstPage);
  $("lobby-next").addEventListener("click", nextPage);
  $("lobby-previous").addEventListener("click", previousPage);
  $("jump-to-open-tables").addEventListener("click", () => {
    $("open-tables-section").scrollIntoView({
      behavior: window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth",
      block: "start",
    });
  });
  refresh();
  window.setInterval(() => {
    if (document.visibilityState === "visible") refresh();
  }, REFRESH_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh();
  });
}

/** Render again (after a change of language). */
export function renderOpenTables() {
  render();
}
