// Tabs that follow the ARIA tabs pattern for keyboards: only the selected tab is in the Tab
// order, and the arrow keys, Home and End move to (and select) another tab of the list.

const KEYS = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };

function tabsOf(list) {
  return [...list.querySelectorAll('[role="tab"]')];
}

/** Put only the selected tab of `list` in the Tab order (call after each selection). */
export function syncTabs(list) {
  for (const tab of tabsOf(list)) {
    tab.tabIndex = tab.getAttribute("aria-selected") === "true" ? 0 : -1;
  }
}

/** Let the keyboard move between the tabs of `list`: the tab reached is focused and clicked. */
export function keyboardTabs(list) {
  syncTabs(list);
  list.addEventListener("keydown", (event) => {
    const tabs = tabsOf(list);
    const at = tabs.indexOf(document.activeElement);
    if (at < 0) return;
    let to;
    if (event.key in KEYS) to = (at + KEYS[event.key] + tabs.length) % tabs.length;
    else if (event.key === "Home") to = 0;
    else if (event.key === "End") to = tabs.length - 1;
    else return;
    event.preventDefault();
    tabs[to].focus();
    tabs[to].click();
  });
}
