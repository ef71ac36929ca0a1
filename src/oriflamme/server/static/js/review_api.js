// HTTP client of the review routes: replays, frames, analyses and hints (docs/server.md).

import { ApiError } from "./api.js";

const enc = encodeURIComponent;

async function call(method, url) {
  let response;
  try {
    response = await fetch(url, { method, headers: { Accept: "application/json" } });
  } catch (error) {
    throw new ApiError(0, "network", String(error && error.message ? error.message : error));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = data && data.error ? data.error : {};
    throw new ApiError(response.status, err.code || `http_${response.status}`, err.message || "");
  }
  return data;
}

function gamePath(tableId, game, what, token, extra = {}) {
  const query = new URLSearchParams({ token, ...extra });
  return `/api/tables/${enc(tableId)}/games/${enc(game)}/${what}?${query}`;
}

/** Every step of a finished game; `view` is a seat, "all", or null for the token's default. */
export function getFrames(tableId, game, token, view, lang) {
  const extra = { lang };
  if (view !== null && view !== undefined) extra.view = String(view);
  return call("GET", gamePath(tableId, game, "frames", token, extra));
}

export function getAnalysis(tableId, game, token, lang) {
  return call("GET", gamePath(tableId, game, "analysis", token, { lang }));
}

export function startAnalysis(tableId, game, token, lang) {
  return call("POST", gamePath(tableId, game, "analysis", token, { lang }));
}

export function getHint(tableId, token, lang) {
  return call("GET", `/api/tables/${enc(tableId)}/hint?${new URLSearchParams({ token, lang })}`);
}
