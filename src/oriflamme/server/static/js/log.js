// The game log: one sentence per event, as the server wrote it for this viewer.

import { el, replace } from "./dom.js";
import { t } from "./i18n.js";
import { namedNodes } from "./names.js";

let shownLines = [];

/**
 * Render the log lines into `list` (an <ol>), keeping it scrolled to the newest line; players
 * are marked in their colours (`seats`), and the lines the stand-in's moves wrote (`standIns`:
 * line index -> why it played) say so. Returns how many lines are new (to announce them).
 */
export function renderLog(list, lines, seats = [], standIns = new Map()) {
  const scroller = list.parentElement || list;
  const atBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 24;
  const fresh = countFresh(shownLines, lines || []);
  const items = (lines || []).map((line, index) => {
    const reason = standIns.get(index);
    const item = el("li", {
      className: `log-line${index >= lines.length - fresh ? " new" : ""}${reason ? " by-stand-in" : ""}`,
      testid: "log-line",
    }, namedNodes(line, seats));
    if (reason) item.append(standInMark(reason));
    return item;
  });
  replace(list, items);
  shownLines = (lines || []).slice();
  if (atBottom || fresh > 0) scrollToNewest(scroller, list);
  return fresh;
}

/**
 * Show the newest line at the bottom, with a whole line at the top: the list gets just enough
 * room below its last line for the first visible line to start at the top edge.
 */
function scrollToNewest(scroller, list) {
  list.style.setProperty("padding-bottom", "0px");
  scroller.scrollTop = scroller.scrollHeight;
  const top = scroller.getBoundingClientRect().top - scroller.scrollTop;
  const first = [...list.children].find((line) => line.getBoundingClientRect().top - top >= scroller.scrollTop - 0.5);
  if (!first) return;
  const gap = first.getBoundingClientRect().top - top - scroller.scrollTop;
  if (gap < 0.5) return;
  list.style.setProperty("padding-bottom", `${Math.ceil(gap)}px`);
  scroller.scrollTop = first.getBoundingClientRect().top - top;
}

/** How many lines at the end of `next` were not shown before (the log keeps its last 200). */
function countFresh(previous, next) {
  if (!previous.length) return 0;
  for (let overlap = Math.min(previous.length, next.length); overlap > 0; overlap -= 1) {
    const tail = previous.slice(previous.length - overlap);
    const head = next.slice(0, overlap);
    if (tail.every((line, i) => line === head[i])) return next.length - overlap;
  }
  return next.length;
}

/** Forget what was shown (after a language switch, every line changes). */
export function resetLog() {
  shownLines = [];
}

/** "played by the stand-in", and why (the clock ran out, the player was away or never came). */
export function standInMark(reason) {
  return el("span", {
    className: "tag tag-stand-in",
    testid: "stand-in-mark",
    text: t("stand_in_mark"),
    title: standInWhy(reason),
  });
}

/** Why the stand-in played: the clock ran out, the player was away, or never came. */
export function standInWhy(reason) {
  if (reason === "away") return t("stand_in_why_away");
  if (reason === "no_show") return t("stand_in_why_no_show");
  return t("stand_in_why_clock");
}

/** The view's stand-in moves as line index -> reason (for `renderLog`). */
export function standInLines(view) {
  const lines = new Map();
  for (const move of view.stand_ins || []) {
    for (const index of move.log || []) lines.set(index, move.reason || "clock");
  }
  return lines;
}
