// "Your turn" while the page is hidden (issue #29, section 3): when a decision of the player's
// arrives and the tab is in the background, the title says so ("(1) Your turn – Oriflamme")
// until the tab is seen again (or the decision is gone), and, as the settings ask, a chime
// plays and a system notification appears.

import { t } from "./i18n.js";
import { getSetting } from "./settings.js";
import { playChime } from "./sound.js";

const seen = {
  turn: null, // the last decision of the player's shown ("game:step")
  mine: false, // the page shows a decision of the player's
  unseen: false, // ... that arrived while the tab was hidden
};
let installed = false;

function title() {
  if (seen.unseen) return t("title_your_turn_hidden");
  return seen.mine ? `● ${t("your_turn")} — Oriflamme` : "Oriflamme";
}

function notify() {
  if (!getSetting("notify") || !("Notification" in window) || Notification.permission !== "granted") return;
  try {
    const note = new Notification(`${t("your_turn")} – Oriflamme`, {
      body: t("notify_body"),
      tag: "oriflamme-your-turn",
      icon: "/static/favicon.svg",
    });
    note.addEventListener("click", () => {
      window.focus();
      note.close();
    });
  } catch {
    // Some browsers show notifications from a service worker only: the title still tells.
  }
}

function install() {
  if (installed) return;
  installed = true;
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) return;
    seen.unseen = false;
    document.title = title();
  });
}

/**
 * The page shows decision `turn` ("game:step"), which is the player's (`mine`) or not: keep
 * the title right, and tell a player whose tab is hidden that it is their turn.
 */
export function showTurn(mine, turn) {
  install();
  const fresh = mine && turn !== seen.turn;
  seen.mine = mine;
  if (mine) seen.turn = turn;
  else seen.unseen = false;
  if (fresh && document.hidden) {
    seen.unseen = true;
    if (getSetting("sound")) playChime();
    notify();
  }
  document.title = title();
}
