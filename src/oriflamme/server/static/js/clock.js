// Turn clocks: every element with a data-deadline (server epoch seconds) shows the time left,
// counted on this browser's clock corrected by the server's (the view says when it was sent).
// At a table with time banks, the seats not deciding show what their bank holds.

import { announce } from "./announce.js";
import { el } from "./dom.js";
import { t } from "./i18n.js";

const TICK_MS = 250;
const URGENT_SECONDS = 10;
/** Seconds left at which a screen reader is told, on the clock of the viewer's own decision. */
const WARN_AT = [30, URGENT_SECONDS];
const warned = new Set();

const DAY = 86400;

/** "1:05", "0:09", hours for long clocks ("2:03:00"), days and hours for day-long ones
 * ("2 d 3 h"). */
function formatLeft(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  if (whole >= DAY) {
    return t("days_hours", { days: Math.floor(whole / DAY), hours: Math.floor((whole % DAY) / 3600) });
  }
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** The same time in words, for screen readers ("2 days 3 hours", "4 minutes 10 seconds"). */
function spokenLeft(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  const days = Math.floor(whole / DAY);
  const hours = Math.floor((whole % DAY) / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  if (days) return t("spoken_days_hours", { days, hours });
  if (hours) return t("spoken_hours_minutes", { hours, minutes });
  return t("spoken_minutes_seconds", { minutes, seconds: whole % 60 });
}

/** Update every clock on the page; `offset`: server time minus this browser's (seconds). */
export function tickClocks(offset) {
  const now = Date.now() / 1000 + offset;
  for (const node of document.querySelectorAll("[data-deadline]")) {
    const left = Number(node.dataset.deadline) - now;
    const time = formatLeft(left);
    // Away or never came: the stand-in plays then, whatever the turn clock says.
    const standIn = node.dataset.reason === "away" || node.dataset.reason === "no_show";
    node.textContent = standIn ? t("stand_in_in", { time }) : t("time_left", { time });
    node.classList.toggle("urgent", left <= URGENT_SECONDS);
    node.dataset.left = String(Math.max(0, Math.ceil(left)));
    if (node.dataset.mine === "true") warn(node.dataset.deadline, left, time);
  }
}

/** Announce (politely) once per deadline and threshold that the viewer's clock runs out. */
function warn(deadline, left, time) {
  const threshold = WARN_AT.filter((at) => left > 0 && left <= at).pop();
  if (threshold === undefined || warned.has(`${deadline}:${threshold}`)) return;
  for (const at of WARN_AT) if (at >= threshold) warned.add(`${deadline}:${at}`);
  announce(t("clock_warning", { time }));
}

/** What the bank of a seat that is not deciding holds, at a table with time banks (the seat
 * deciding shows its running deadline instead); null elsewhere. Screen readers get it in
 * words ("2 days 5 hours left in the bank") rather than the abbreviations shown. */
export function bankTag(seat, view, deciding) {
  if (!view.clock || view.clock.kind !== "bank" || seat.bankLeft === null || deciding) return null;
  const time = formatLeft(seat.bankLeft);
  const shown = el("span", {
    className: "clock bank",
    testid: "bank",
    title: t("bank_title"),
    text: t("bank_left", { time }),
    attrs: { "aria-hidden": "true" },
    dataset: { left: String(Math.max(0, Math.ceil(seat.bankLeft))) },
  });
  const spoken = el("span", {
    className: "sr-only",
    testid: "bank-spoken",
    text: t("bank_spoken", { time: spokenLeft(seat.bankLeft) }),
  });
  return el("span", { className: "bank-tag" }, [shown, spoken]);
}

/** Tick the clocks several times a second. */
export function startClocks(offset) {
  window.setInterval(() => tickClocks(offset()), TICK_MS);
}
