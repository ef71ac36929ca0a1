// The lobby's open tables: public tables waiting for players, refreshed while the page is
// open, and joining one (the seat's private link is opened at once).

import { ApiError, getLobby, joinTable } from "./api.js";
import { button, el, replace } from "./dom.js";
import { blazon, cardName } from "./cards.js";
import { t } from "./i18n.js";
import { toastError } from "./ui.js";

const REFRESH_MS = 3000;
const NAME_MAX = 24;
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;
const NAME_KEY = "oriflamme.name";

const $ = (testid) => document.querySelector(`[data-testid="${testid}"]`);

let tables = [];
let joining = false;

function wantedTable() {
  return new URLSearchParams(window.location.search).get("join");
}

function ageText(seconds) {
  if (seconds < 60) return t("age_now");
  if (seconds < 3600) return t("age_minutes", { n: Math.floor(seconds / 60) });
  return t("age_hours", { n: Math.floor(seconds / 3600) });
}

function cardsText(cards) {
  if (cards === "base" || cards === "embrasement") return t(`cards_${cards}`);
  return cards.split(",").map((slug) => cardName(slug)).join(", ");
}

/** A duration in seconds, short: "5 min", "45 s". */
function durationText(seconds) {
  if (seconds >= 60 && seconds % 60 === 0) return t("minutes_short", { n: seconds / 60 });
  return t("seconds_short", { n: seconds });
}

function setupLine(table) {
  const parts = [
    t("players_n", { n: table.players }),
    cardsText(table.cards),
    table.clock ? t("clock_per_decision", { seconds: table.clock }) : t("no_clock"),
    table.no_show_after ? t("no_show_limit", { time: durationText(table.no_show_after) }) : null,
    ageText(table.age),
  ];
  return parts.filter(Boolean).join(" · ");
}

function seatItem(table, seat) {
  if (seat.kind !== "open") {
    return el("span", { className: "open-seat-taken", testid: "lobby-seat", dataset: { seat: seat.seat } }, [
      blazon(seat.colour, "seat-blazon"),
      el("span", { text: seat.name }),
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

function render() {
  const list = $("open-tables");
  if (!list) return;
  const wanted = wantedTable();
  const rows = tables.map((table) => el("li", {
    className: `open-table${table.table_id === wanted ? " wanted" : ""}`,
    testid: "open-table",
    dataset: { table: table.table_id },
  }, [
    el("div", { className: "open-table-seats" }, table.seats.map((seat) => seatItem(table, seat))),
    el("p", { className: "open-table-setup", text: setupLine(table) }),
  ]));
  replace(list, rows);
  $("open-tables-empty").hidden = tables.length > 0;
}

async function refresh() {
  try {
    tables = await getLobby();
    render();
  } catch {
    // The list is refreshed again soon.
  }
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
    const code = error instanceof ApiError ? error.code : "";
    toastError(code === "seat_taken" ? t("seat_taken") : error.message || t("error_generic"));
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
