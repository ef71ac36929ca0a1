// The game log: one sentence per event, as the server wrote it for this viewer.

import { el, replace } from "./dom.js";

let shownLines = [];

/** Render the log lines into `list` (an <ol>), keeping it scrolled to the newest line. */
export function renderLog(list, lines) {
  const scroller = list.parentElement || list;
  const atBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 24;
  const fresh = countFresh(shownLines, lines || []);
  const items = (lines || []).map((line, index) => el("li", {
    className: index >= lines.length - fresh ? "log-line new" : "log-line",
    testid: "log-line",
    text: line,
  }));
  replace(list, items);
  shownLines = (lines || []).slice();
  if (atBottom || fresh > 0) scrollToNewest(scroller, list);
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
