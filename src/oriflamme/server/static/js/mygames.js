// "My games": every seat this browser holds (created or joined), kept in its own storage until
// accounts exist, and shown on the front page with the games where it is your turn first.

import { ApiError, getSeatStatus } from "./api.js";
import { button, el, replace } from "./dom.js";
import { getLang, t } from "./i18n.js";

const STORAGE_KEY = "oriflamme.games";
const KEEP = 40; // links kept (the oldest are forgotten first)
const ASKED = 12; // games whose state the front page asks for at once

function readAll() {
  try {
    const found = JSON.parse(window.localStorage.getItem(STORAGE_KEY) || "[]");
    return Array.isArray(found) ? found.filter((g) => g && g.table && g.token) : [];
  } catch {
    return [];
  }
}

function writeAll(games) {
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(games.slice(0, KEEP)));
  } catch {
    // Private browsing or a full storage: the list lasts for this page only.
  }
}

/** Whether this browser already holds the link (table, token). */
export function knowsGame(table, token) {
  return readAll().some((g) => g.table === table && g.token === token);
}

/**
 * Keep the link (table, token) at the top of the list; `extra` adds what the creator's page
 * showed: the join link of open seats and the spectators' link.
 */
export function rememberGame(table, token, extra = {}) {
  const games = readAll();
  const found = games.find((g) => g.table === table && g.token === token);
  const rest = games.filter((g) => g !== found);
  writeAll([{ ...(found || {}), ...extra, table, token, seen: Date.now() }, ...rest]);
}

function forgetGame(table, token) {
  writeAll(readAll().filter((g) => !(g.table === table && g.token === token)));
}

/** Order: your turn, then games under way, waiting for players, over, closed or gone. */
function rank(entry) {
  const s = entry.status;
  if (!s) return entry.gone ? 5 : 2;
  if (s.your_turn) return 0;
  if (s.closed) return 4;
  if (s.over) return 3;
  if (s.waiting_for_players) return 2;
  return 1;
}

function stateText(entry) {
  const s = entry.status;
  if (entry.gone) return t("my_games_gone");
  if (!s) return "…";
  if (s.closed) return t("table_closed_short");
  if (s.over) return s.winners.length ? t("winner_is", { names: s.winners.join(", ") }) : t("phase_over");
  if (s.waiting_for_players) return t("my_games_waiting_players");
  if (s.your_turn) return t("your_turn");
  return s.waiting_for ? t("waiting_for", { name: s.waiting_for }) : t("round_n", { n: s.round });
}

function gameItem(entry, onForget) {
  const s = entry.status;
  const title = s ? s.players.map((name) => name || t("open_seat")).join(" · ") : entry.table;
  const href = `/t/${encodeURIComponent(entry.table)}?${entry.watch ? "watch" : "seat"}=${encodeURIComponent(entry.token)}`;
  const links = [];
  if (entry.join_url && s && s.waiting_for_players) {
    links.push(el("a", { className: "small-link", testid: "my-game-join", text: t("my_games_join_link"), attrs: { href: entry.join_url } }));
  }
  if (entry.spectator_url) {
    links.push(el("a", { className: "small-link", testid: "my-game-watch", text: t("my_games_watch_link"), attrs: { href: entry.spectator_url } }));
  }
  return el("li", {
    className: `my-game${s && s.your_turn ? " is-your-turn" : ""}`,
    testid: "my-game",
    dataset: { table: entry.table, yourTurn: s && s.your_turn ? "true" : "false" },
  }, [
    el("a", { className: "my-game-link", testid: "my-game-link", attrs: { href } }, [
      el("strong", { className: "my-game-players", text: title }),
      el("span", { className: "my-game-state", testid: "my-game-state", text: stateText(entry) }),
    ]),
    el("span", { className: "my-game-links" }, links),
    button(t("my_games_forget"), {
      className: "link-button small",
      testid: "my-game-forget",
      on: { click: () => { forgetGame(entry.table, entry.token); onForget(); } },
    }),
  ]);
}

/** Fill `section` (hidden while the list is empty) with this browser's games. */
export async function renderMyGames(section, list) {
  const games = readAll().slice(0, ASKED);
  section.hidden = games.length === 0;
  if (!games.length) return;
  const entries = await Promise.all(games.map(async (game) => {
    try {
      return { ...game, status: await getSeatStatus(game.table, game.token, getLang()) };
    } catch (error) {
      const gone = error instanceof ApiError && [401, 404].includes(error.status);
      return { ...game, status: null, gone };
    }
  }));
  entries.sort((a, b) => rank(a) - rank(b));
  const again = () => renderMyGames(section, list);
  replace(list, entries.map((entry) => gameItem(entry, again)));
}
