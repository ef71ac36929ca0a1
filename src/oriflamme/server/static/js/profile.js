// A player's profile page: ratings with their history charts, reputation, games by player
// count, recent games with their replays (docs/server.md, "Ratings", "Reputation").

import { el, replace } from "./dom.js";
import { ApiError } from "./api.js";
import { t } from "./i18n.js";
import { getBotProfile, getProfile } from "./players_api.js";
import { percentOf, pt } from "./players_i18n.js";
import { dateText, resultText, startPage } from "./players_page.js";
import { ratingChart } from "./ratechart.js";
import { withRef } from "./ui.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
// "/players/{name}", or "/bots/{level}" (a bot level's profile, from the leaderboard).
const [, kind, last] = window.location.pathname.split("/");
const name = decodeURIComponent(last || "");
const isBotPath = kind === "bots";

/** The name a profile shows: an account's, or "Bot (hard)" in the page's language. */
function shownName(profile) {
  return profile.bot ? pt("bot_entry", { level: t(`level_${profile.name}`) }) : profile.name;
}
const POOL_KEYS = { "2p": "pool_2p", "3-5p": "pool_3_5p" };

/** What the chart shows, for screen readers: whose, which pool, how many games, from and to. */
function chartLabel(profile, pool, history) {
  const label = pt("chart_label", { name: shownName(profile), pool: pt(POOL_KEYS[pool]) });
  if (!history.length) return label;
  const summary = pt("chart_summary", { games: history.length, first: history[0].rating, last: history[history.length - 1].rating });
  return `${label}: ${summary}`;
}

function poolCard(profile, pool, rating) {
  return el("div", { className: "pool-card", testid: "pool-rating", dataset: { pool } }, [
    el("h3", { text: pt(POOL_KEYS[pool]) }),
    el("p", { className: "pool-figure" }, [
      el("strong", { testid: "pool-rating-value", text: rating.rating }),
      " ",
      el("span", { className: "muted", text: pt("rating_games", { games: rating.games, wins: rating.wins }) }),
    ]),
    el("p", { className: "chart-title", text: pt("chart_title") }),
    ratingChart(rating.history, chartLabel(profile, pool, rating.history)),
  ]);
}

function recentItem(game) {
  return el("li", { className: "game-row", testid: "recent-game" }, [
    el("span", { className: "game-players", text: game.players.join(" · ") }),
    game.rated ? el("span", { className: "tag tag-rated", text: pt("rated_tag") }) : null,
    el("span", { className: "game-result", testid: "recent-result", text: resultText(game) }),
    el("span", { className: "muted", text: dateText(game.at) }),
    game.replay_url ? el("a", { className: "small-link", testid: "recent-replay", text: pt("replay"), attrs: { href: game.replay_url } }) : null,
  ]);
}

async function render() {
  $("profile-name").textContent = isBotPath ? pt("bot_entry", { level: t(`level_${name}`) }) : name;
  let profile;
  try {
    profile = await (isBotPath ? getBotProfile(name) : getProfile(name));
  } catch (error) {
    $("profile-missing").hidden = false;
    $("profile-missing").textContent = error instanceof ApiError && error.status === 404
      ? pt("profile_missing")
      : withRef(pt("load_error", { message: error.message }), error);
    return;
  }
  document.title = `Oriflamme — ${shownName(profile)}`;
  $("profile-name").textContent = shownName(profile);
  document.body.dataset.bot = profile.bot ? "true" : "false";
  $("profile-body").hidden = false;
  $("profile-reputation").textContent = profile.bot
    ? pt("reputation_bot")
    : profile.reputation === null
      ? pt("reputation_none")
      : pt("reputation_value", { percent: percentOf(profile.reputation) });
  const finished = profile.bot ? pt("bot_games", { finished: profile.finished })
    : pt("games_finished", { finished: profile.finished, left: profile.left });
  $("profile-finished").textContent = profile.finished ? ` (${finished})` : "";
  const pools = Object.entries(profile.ratings);
  replace($("profile-ratings"), pools.length
    ? pools.map(([pool, rating]) => poolCard(profile, pool, rating))
    : [el("p", { className: "muted", text: pt("no_rating") })]);
  replace($("profile-by-players"), Object.entries(profile.by_players).map(([n, counts]) => el("li", {
    testid: "by-players",
    text: `${pt("n_players", { n })} — ${pt("played_won", counts)}`,
  })));
  replace($("profile-recent"), profile.recent.length
    ? profile.recent.map(recentItem)
    : [el("li", { className: "muted", text: pt("no_games") })]);
}

startPage(render);
