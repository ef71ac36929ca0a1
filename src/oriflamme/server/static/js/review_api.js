// HTTP client of the review routes: replays, frames, analyses and hints (docs/server.md).

import { request } from "./api.js";

const enc = encodeURIComponent;

function gamePath(tableId, game, what, token, extra = {}) {
  const query = new URLSearchParams({ token, ...extra });
  return `/api/tables/${enc(tableId)}/games/${enc(game)}/${what}?${query}`;
}

/** Every step of a finished game; `view` is a seat, "all", or null for the token's default. */
export function getFrames(tableId, game, token, view, lang) {
  const extra = { lang };
  if (view !== null && view !== undefined) extra.view = String(view);
  return request("GET", gamePath(tableId, game, "frames", token, extra));
}

export function getAnalysis(tableId, game, token, lang) {
  return request("GET", gamePath(tableId, game, "analysis", token, { lang }));
}

export function startAnalysis(tableId, game, token, lang) {
  return request("POST", gamePath(tableId, game, "analysis", token, { lang }));
}

export function getHint(tableId, token, lang) {
  return request("GET", `/api/tables/${enc(tableId)}/hint?${new URLSearchParams({ token, lang })}`);
}
