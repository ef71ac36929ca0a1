// Playing with the keyboard alone (issue #31): each board region (the options, the hand, the
// Queue) is one stop of the Tab key, and the arrow keys move within it (a "roving" tabindex);
// Escape drops the chosen card. The page re-renders on every view, so the focus is kept on the
// same element across renders (found again by what it is, not by node), or put on the prompt
// when what had it is gone and the player must decide.

const ITEM = "button:not(:disabled), [role=\"button\"], [data-inspect]";
const KEYS = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
const IDENTITY = ["testid", "action", "cardId", "stackIndex", "lang"];

/** The elements of a roving region, in order: controls, and cards that can only be read. */
function itemsOf(region) {
  return [...region.querySelectorAll(ITEM)].filter((node) => !node.hidden && node.getClientRects().length > 0);
}

/** The regions of the board that are each one Tab stop: the options, each hand, the Queue. */
export function roveBoard(regions) {
  const hands = regions.hand ? regions.hand.querySelectorAll(".hand-cards") : [];
  for (const region of [regions.options, ...hands, regions.queue]) rove(region);
}

/**
 * Make `region` one Tab stop: the item it had last (`data-roving-current`), else the first,
 * gets tabindex 0, the others -1. Call after each render of the region.
 */
function rove(region) {
  if (!region) return;
  region.dataset.roving = region.dataset.roving || region.dataset.testid || "region";
  const items = itemsOf(region);
  if (!items.length) return;
  const wanted = region.dataset.rovingCurrent;
  const current = items.find((node) => identity(node) === wanted) || items[0];
  for (const node of items) node.tabIndex = node === current ? 0 : -1;
}

function identity(node) {
  return IDENTITY.map((key) => node.dataset[key] ?? "").join("|");
}

function onArrow(event) {
  const step = KEYS[event.key];
  const region = event.target instanceof Element ? event.target.closest("[data-roving]") : null;
  if (!step || !region || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.matches("input, select, textarea")) return;
  const items = itemsOf(region);
  const at = items.indexOf(event.target.closest(ITEM));
  if (at < 0 || !items.length) return;
  event.preventDefault();
  const next = items[(at + step + items.length) % items.length];
  for (const node of items) node.tabIndex = node === next ? 0 : -1;
  region.dataset.rovingCurrent = identity(next);
  next.focus();
}

function onFocus(event) {
  const region = event.target instanceof Element ? event.target.closest("[data-roving]") : null;
  const item = event.target instanceof Element ? event.target.closest(ITEM) : null;
  if (region && item) region.dataset.rovingCurrent = identity(item);
}

/**
 * Listen for the arrow keys in roving regions and for Escape (`onEscape`, e.g. drop the chosen
 * card). Once per page.
 */
export function installKeyboard({ onEscape = () => {} } = {}) {
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      onEscape(event);
      return;
    }
    onArrow(event);
  });
  document.addEventListener("focusin", onFocus);
}

/** What has the focus now, to find it again after a render (null: nothing of the page). */
export function focusedIdentity() {
  const node = document.activeElement;
  if (!node || node === document.body || !node.dataset || !node.isConnected) return null;
  return { identity: identity(node), region: node.closest("[data-roving]")?.dataset.roving || null };
}

/**
 * After a render: focus the element that had the focus before (`before`, from
 * focusedIdentity); if it is gone, `fallback` when given (the prompt of a new decision), else
 * the current item of the region it was in. Nothing moves when the focus is still on the page
 * or nothing of the page had it (a mouse user).
 */
export function restoreFocus(before, fallback) {
  const active = document.activeElement;
  if (!before || (active && active !== document.body && active.isConnected)) return;
  const same = [...document.querySelectorAll(ITEM)].find((node) => identity(node) === before.identity);
  const region = before.region ? document.querySelector(`[data-roving="${before.region}"]`) : null;
  const target = same || fallback || (region && region.querySelector("[tabindex=\"0\"]"));
  if (target) target.focus();
}
