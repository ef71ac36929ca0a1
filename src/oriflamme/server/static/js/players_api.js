// The server's API of players across tables (docs/server.md, "Ratings", "Seats of accounts").

import { request } from "./api.js";

const enc = encodeURIComponent;

/** The signed-in account ({name}), or null for a guest (asked without a failed request). */
export async function currentAccount() {
  const found = await request("GET", "/api/account/session");
  return found && found.account ? { name: found.account.name } : null;
}

export function getLeaderboard(pool, page = 1) {
  return request("GET", `/api/leaderboard?pool=${enc(pool)}&page=${page}`);
}

export function getProfile(name) {
  return request("GET", `/api/players/${enc(name)}`);
}

/** A bot level's profile (its rated games). */
export function getBotProfile(level) {
  return request("GET", `/api/bots/${enc(level)}`);
}

export function getAccountGames(status, page = 1) {
  return request("GET", `/api/account/games?status=${enc(status)}&page=${page}`);
}

export function claimSeat(tableId, token) {
  return request("POST", `/api/tables/${enc(tableId)}/claim`, { token });
}

export function leaveGame(tableId, token) {
  return request("POST", `/api/tables/${enc(tableId)}/leave`, { token });
}
