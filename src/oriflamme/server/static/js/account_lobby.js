// The front page for a signed-in player: their own seat in the tables they create, rated
// tables, and "My games" from their account (guests keep the browser-held list of mygames.js).

import { el, replace } from "./dom.js";
import { t } from "./i18n.js";
import { renderMyGames } from "./mygames.js";
import { currentAccount, getAccountGames } from "./players_api.js";
import { renderPushIn } from "./push_subscribe.js";
import { pt } from "./players_i18n.js";
import { dateText, resultText } from "./players_page.js";
import { keyboardTabs } from "./tabs.js";
import { withRef } from "./ui.js";

let account = null;
const games = { status: "ongoing", page: 1 };
/** How many times "My games" was asked for (the latest ask alone is drawn). */
let gamesAsked = 0;

/** Ask who is signed in (null: a guest); the page's account parts follow. */
export async function loadAccount() {
  try {
    account = await currentAccount();
  } catch {
    account = null;
  }
  return account;
}

/** The account the top bar signed in or out (null: a guest). */
export function useAccount(found) {
  account = found && found.name ? { name: found.name } : null;
}

export function signedInAccount() {
  return account;
}

/** The request of seat 0 when its creator is signed in: their account's seat. */
export function ownSeat(seat) {
  return account && seat === 0 ? { kind: "human", account: true } : null;
}

/** The label that replaces seat 0's name field for a signed-in creator. */
export function ownSeatLabel(seat) {
  return account && seat === 0
    ? el("span", { className: "level-note", testid: "own-seat", text: pt("your_seat", { name: account.name }) })
    : null;
}

/** The rated options of the creation form: shown to signed-in players only. */
export function renderRatedOptions(fieldset) {
  if (!fieldset) return;
  fieldset.hidden = false;
  const signedIn = Boolean(account);
  for (const input of fieldset.querySelectorAll("input")) input.disabled = !signedIn;
  const note = fieldset.querySelector('[data-testid="rated-note"]');
  if (note) note.hidden = signedIn;
  for (const node of fieldset.querySelectorAll("[data-pt]")) node.textContent = pt(node.dataset.pt);
}

/** `{rated, min_reputation}` from the form, or an error message. */
export function ratedOptions(form) {
  const rated = Boolean(account) && Boolean(form.elements.rated && form.elements.rated.checked);
  const text = form.elements.min_reputation ? form.elements.min_reputation.value.trim() : "";
  if (!text || !account) return { rated };
  const percent = Number(text);
  if (!Number.isInteger(percent) || percent < 0 || percent > 100) return { error: pt("min_reputation_label") };
  return { rated, min_reputation: percent / 100 };
}

function gameItem(game) {
  const href = game.finished ? game.replay_url : game.url;
  return el("li", {
    className: `my-game${game.your_turn ? " is-your-turn" : ""}`,
    testid: "my-game",
    dataset: { table: game.table_id, yourTurn: game.your_turn ? "true" : "false" },
  }, [
    el("a", { className: "my-game-link", testid: "my-game-link", attrs: { href } }, [
      el("strong", { className: "my-game-players", text: game.players.join(" · ") }),
      el("span", {
        className: "my-game-state",
        testid: "my-game-state",
        text: game.finished ? `${resultText(game)} · ${dateText(game.at)}` : (game.your_turn ? pt("your_turn_tag") : dateText(game.at)),
      }),
    ]),
    game.rated ? el("span", { className: "tag tag-rated", text: pt("rated_tag") }) : null,
    game.finished ? el("a", { className: "small-link", testid: "my-game-replay", text: pt("replay"), attrs: { href: game.replay_url } }) : null,
  ]);
}

function tabs(section, list) {
  const made = el("div", { className: "my-games-tabs", testid: "my-games-tabs", attrs: { role: "tablist", "aria-label": t("my_games_title") } },
    ["ongoing", "finished"].map((status) => el("button", {
      className: "small",
      testid: `my-games-${status}`,
      text: pt(`my_games_${status}`),
      attrs: { type: "button", role: "tab", "aria-selected": games.status === status ? "true" : "false" },
      on: { click: () => { games.status = status; games.page = 1; renderGames(section, list); } },
    })));
  keyboardTabs(made);
  return made;
}

function pager(section, list, page) {
  const pages = Math.max(1, Math.ceil(page.total / page.per_page));
  if (pages <= 1) return null;
  const go = (delta) => { games.page += delta; renderGames(section, list); };
  return el("nav", { className: "pager", testid: "my-games-pager" }, [
    el("button", { className: "small", text: pt("previous"), attrs: { type: "button", disabled: page.page <= 1 }, on: { click: () => go(-1) } }),
    el("span", { className: "pager-label", text: pt("page_of", { page: page.page, pages }) }),
    el("button", { className: "small", text: pt("next"), attrs: { type: "button", disabled: page.page >= pages }, on: { click: () => go(1) } }),
  ]);
}

/** Fill "My games": the account's (any browser) when signed in, else this browser's. */
export async function renderGames(section, list) {
  if (!account) {
    await renderMyGames(section, list);
    return;
  }
  section.hidden = false;
  renderPushIn(section);
  const note = section.querySelector(".my-games-note");
  if (note) note.textContent = pt("my_games_account_note");
  // Tabs switched quickly ask twice: the answer of an older ask, come last, is dropped
  // (it would show the other tab's games under the tab now selected).
  const ask = ++gamesAsked;
  let page;
  try {
    page = await getAccountGames(games.status, games.page);
  } catch (error) {
    if (ask !== gamesAsked) return;
    replace(list, [el("li", { className: "muted", text: withRef(pt("load_error", { message: error.message }), error) })]);
    return;
  }
  if (ask !== gamesAsked) return;
  const old = section.querySelector('[data-testid="my-games-tabs"]');
  // A tab chosen from the keyboard keeps the focus across the list's new tabs.
  const focused = old !== null && old.contains(document.activeElement);
  if (old) old.remove();
  const oldPager = section.querySelector('[data-testid="my-games-pager"]');
  if (oldPager) oldPager.remove();
  const tabList = tabs(section, list);
  list.before(tabList);
  if (focused) tabList.querySelector('[aria-selected="true"]').focus();
  const items = page.games.map(gameItem);
  if (!items.length) {
    items.push(el("li", { className: "muted", testid: "my-games-empty", text: pt(games.status === "ongoing" ? "my_games_none_ongoing" : "no_games") }));
  }
  replace(list, items);
  const nav = pager(section, list, page);
  if (nav) list.after(nav);
}
