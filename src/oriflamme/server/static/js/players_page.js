// What the leaderboard and profile pages share: their texts applied, the language switch.

import { getLang, initialLang, setLang } from "./i18n.js";
import { pt } from "./players_i18n.js";
import { installLangSwitch } from "./ui.js";

/** Fill every [data-pt] element of `root` with its string, and name every [data-pt-label]. */
function applyPlayerTexts(root = document) {
  document.documentElement.lang = getLang();
  for (const node of root.querySelectorAll("[data-pt]")) node.textContent = pt(node.dataset.pt);
  for (const node of root.querySelectorAll("[data-pt-label]")) node.setAttribute("aria-label", pt(node.dataset.ptLabel));
}

/** Start a page: its language, its texts, and `render()` again whenever the language changes. */
export function startPage(render) {
  setLang(initialLang());
  applyPlayerTexts();
  installLangSwitch((lang) => {
    setLang(lang);
    applyPlayerTexts();
    render();
  });
  render();
}

/** A game's result as a short text: left, won, or its place. */
export function resultText(game) {
  if (game.left) return pt("result_left");
  if (game.won) return pt("result_won");
  return pt("result_rank", { rank: game.rank });
}

/** A date (epoch seconds) as the page's language writes it. */
export function dateText(at) {
  return new Date(at * 1000).toLocaleDateString(getLang(), { year: "numeric", month: "short", day: "numeric" });
}
