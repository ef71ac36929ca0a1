// The leaderboard page: one pool's ratings, a page at a time (docs/server.md, "Ratings").

import { el, replace } from "./dom.js";
import { t } from "./i18n.js";
import { getLeaderboard } from "./players_api.js";
import { pt } from "./players_i18n.js";
import { startPage } from "./players_page.js";
import { keyboardTabs, syncTabs } from "./tabs.js";
import { withRef } from "./ui.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const state = { pool: new URLSearchParams(window.location.search).get("pool") === "2p" ? "2p" : "3-5p", page: 1 };

function entryName(entry) {
  if (entry.bot) {
    return el("a", {
      className: "bot-entry",
      testid: "board-bot",
      text: pt("bot_entry", { level: t(`level_${entry.name}`) }),
      attrs: { href: `/bots/${encodeURIComponent(entry.name)}` },
    });
  }
  return el("a", { text: entry.name, testid: "board-player", attrs: { href: `/players/${encodeURIComponent(entry.name)}` } });
}

async function render() {
  for (const tab of document.querySelectorAll("[data-pool]")) {
    tab.setAttribute("aria-selected", tab.dataset.pool === state.pool ? "true" : "false");
  }
  syncTabs($("pool-tabs"));
  $("board-panel").setAttribute("aria-labelledby", `pool-tab-${state.pool}`);
  let board;
  try {
    board = await getLeaderboard(state.pool, state.page);
  } catch (error) {
    $("board-empty").hidden = false;
    $("board-empty").textContent = withRef(pt("load_error", { message: error.message }), error);
    return;
  }
  replace($("board-rows"), board.entries.map((entry) => el("tr", {
    testid: "board-row",
    className: entry.bot ? "is-bot" : "",
    dataset: { name: entry.name, bot: entry.bot ? "true" : "false" },
  }, [
    el("td", { text: entry.rank }),
    el("td", {}, [entryName(entry)]),
    el("td", { className: "num", testid: "board-rating", text: entry.rating }),
    el("td", { className: "num", text: entry.games }),
    el("td", { className: "num", text: entry.wins }),
  ])));
  $("board-empty").hidden = board.entries.length > 0;
  $("board-empty").textContent = pt("board_empty");
  const pages = Math.max(1, Math.ceil(board.total / board.per_page));
  $("board-pager").hidden = pages <= 1;
  $("board-page").textContent = pt("page_of", { page: board.page, pages });
  $("board-previous").disabled = board.page <= 1;
  $("board-next").disabled = board.page >= pages;
}

for (const tab of document.querySelectorAll("[data-pool]")) {
  tab.addEventListener("click", () => {
    state.pool = tab.dataset.pool;
    state.page = 1;
    render();
  });
}
keyboardTabs($("pool-tabs"));
$("board-previous").addEventListener("click", () => { state.page -= 1; render(); });
$("board-next").addEventListener("click", () => { state.page += 1; render(); });
startPage(render);
