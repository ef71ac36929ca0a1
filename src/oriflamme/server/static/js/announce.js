// What a screen reader is told without moving the focus: one polite live region per page
// (WCAG 4.1.3), for "your turn", new log lines and clock warnings. Visually hidden.

const CLEAR_MS = 50;

let region = null;
let pending = [];
let timer = null;

function liveRegion() {
  if (!region || !region.isConnected) {
    region = document.createElement("div");
    region.className = "sr-only";
    region.dataset.testid = "announcer";
    region.setAttribute("role", "status");
    region.setAttribute("aria-live", "polite");
    region.setAttribute("aria-atomic", "true");
    document.body.append(region);
  }
  return region;
}

/**
 * Say `text` politely. Messages given together are read together; the region is emptied first
 * so that the same sentence twice in a row is read twice.
 */
export function announce(text) {
  if (!text) return;
  pending.push(String(text));
  if (timer !== null) return;
  const node = liveRegion();
  node.textContent = "";
  timer = setTimeout(() => {
    node.textContent = pending.join(" ");
    pending = [];
    timer = null;
  }, CLEAR_MS);
}
