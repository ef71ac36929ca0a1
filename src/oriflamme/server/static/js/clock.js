// Turn clocks: every element with a data-deadline (server epoch seconds) shows the time left,
// counted on this browser's clock corrected by the server's (the view says when it was sent).

import { announce } from "./announce.js";
import { t } from "./i18n.js";

const TICK_MS = 250;
const URGENT_SECONDS = 10;
/** Seconds left at which a screen reader is told, on the clock of the viewer's own decision. */
const WARN_AT = [30, URGENT_SECONDS];
const warned = new Set();

/** "1:05", "0:09", or hours for long clocks ("2:03:00"). */
function formatLeft(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
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

/** Tick the clocks several times a second. */
export function startClocks(offset) {
  window.setInterval(() => tickClocks(offset()), TICK_MS);
}
