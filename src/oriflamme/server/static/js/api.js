// HTTP API and WebSocket client of the game server (docs/server.md).

/** An error answered by the server: {"error": {"code", "message", "request_id"}} with a 4xx
 * or 5xx status; `requestId` finds its lines in the server's logs. */
export class ApiError extends Error {
  constructor(status, code, message, requestId = null) {
    super(message || code);
    this.status = status;
    this.code = code;
    this.requestId = requestId;
  }
}

export async function request(method, url, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    throw new ApiError(0, "network", String(error && error.message ? error.message : error));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw answerError(response, data);
  return data;
}

/** The ApiError of a refused `response` whose body was `data` (null if not JSON), with the
 * request id of its body or else of its X-Request-ID header. */
export function answerError(response, data) {
  const err = data && data.error ? data.error : {};
  const requestId = err.request_id || response.headers.get("x-request-id");
  return new ApiError(response.status, err.code || `http_${response.status}`, err.message || "", requestId);
}

const enc = encodeURIComponent;

export function createTable(body) {
  return request("POST", "/api/tables", body);
}

export function getView(tableId, token, lang) {
  return request("GET", `/api/tables/${enc(tableId)}/view?token=${enc(token)}&lang=${enc(lang)}`);
}

/** Where a link stands (whose turn, waiting, over): for the front page's "My games". */
export function getSeatStatus(tableId, token, lang) {
  return request("GET", `/api/tables/${enc(tableId)}/status?token=${enc(token)}&lang=${enc(lang)}`);
}

export function postAction(tableId, token, action, step, gameNumber) {
  return request("POST", `/api/tables/${enc(tableId)}/actions`, {
    token,
    action,
    step,
    game_number: gameNumber,
  });
}

/** Start the next game; `gameNumber` is the game that ended (a newer one is then just returned). */
export function rematch(tableId, token, gameNumber) {
  return request("POST", `/api/tables/${enc(tableId)}/rematch`, { token, game_number: gameNumber });
}

/**
 * Hand a seat to a bot; `expect` is what the seat must still be: "open" (nobody took it) or
 * "away" (a human nobody is connected to), else the server refuses (409).
 */
export function handSeatToBot(tableId, seat, creatorToken, level, expect) {
  return request("POST", `/api/tables/${enc(tableId)}/seats/${enc(seat)}/bot`, {
    creator_token: creatorToken,
    level,
    expect,
  });
}

/** A page of the lobby: `params` may hold filters (players, cards, clock, hints), `limit`
 * and the `cursor` of the page (the `next` of the previous one). */
export function getLobby(params = {}) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== "") query.set(name, String(value));
  }
  const text = query.toString();
  return request("GET", text ? `/api/lobby?${text}` : "/api/lobby");
}

/** One table's lobby entry (a join link's table, listed or not). */
export function getLobbyTable(tableId) {
  return request("GET", `/api/lobby/${enc(tableId)}`);
}

/** Take an open seat (`seat`, or the first open one when null): its token and link, once. */
export function joinTable(tableId, name, seat) {
  return request("POST", `/api/tables/${enc(tableId)}/join`, { name, seat });
}

export function closeTable(tableId, creatorToken) {
  return request("POST", `/api/tables/${enc(tableId)}/close`, { creator_token: creatorToken });
}

export function getCards(lang) {
  return request("GET", `/api/cards?lang=${enc(lang)}`);
}

const PING_EVERY_MS = 20000;
const SILENCE_LIMIT_MS = 50000;
const MAX_BACKOFF_MS = 10000;
/** 4000 + 401 (bad token), 403 (forbidden), 404 (unknown table): retrying cannot help. */
const FATAL_CLOSE_CODES = new Set([4401, 4403, 4404]);
/** "Service Restart": the server process is being replaced (a rolling restart); another
 * process takes the connection at once. */
const SERVICE_RESTART = 1012;
/** After a restart, reconnect quietly (no "reconnecting" banner) for this long. */
const QUIET_SWITCH_MS = 4000;
const QUIET_RETRY_MS = 250;

/**
 * A WebSocket to /ws/{table_id} that reconnects with exponential backoff.
 * Callbacks: onView(view), onError({code, message}), onStatus(status, attempt) where status is
 * "connecting" | "open" | "reconnecting" | "stopped", and onFatal(closeCode) when the server
 * refused the connection for good (close codes 4000 + HTTP status: bad token, unknown table).
 * onChat(message) gets each chat message pushed (docs/server.md, "Chat").
 */
export class GameSocket {
  constructor({ tableId, token, lang, onView, onError, onStatus, onFatal, onChat = () => {} }) {
    this.tableId = tableId;
    this.token = token;
    this.lang = lang;
    this.onView = onView;
    this.onError = onError;
    this.onStatus = onStatus;
    this.onFatal = onFatal;
    this.onChat = onChat;
    this.socket = null;
    this.attempt = 0;
    this.stopped = false;
    this.retryTimer = null;
    this.pingTimer = null;
    this.lastMessageAt = 0;
    /** Until when a reconnection is a switch of server process, not shown as an outage. */
    this.quietUntil = 0;
  }

  url() {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${window.location.host}/ws/${enc(this.tableId)}?token=${enc(this.token)}&lang=${enc(this.lang)}`;
  }

  start() {
    this.stopped = false;
    this.connect();
  }

  connect() {
    const quiet = this.attempt === 0 || Date.now() < this.quietUntil;
    this.onStatus(quiet ? "connecting" : "reconnecting", quiet ? 0 : this.attempt);
    let socket;
    try {
      socket = new WebSocket(this.url());
    } catch {
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      this.attempt = 0;
      this.lastMessageAt = Date.now();
      this.onStatus("open", 0);
      this.startPing();
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return;
      this.lastMessageAt = Date.now();
      this.handleMessage(event.data);
    });
    socket.addEventListener("close", (event) => {
      if (socket !== this.socket) return;
      this.socket = null;
      this.stopPing();
      if (FATAL_CLOSE_CODES.has(event.code)) {
        this.stop();
        this.onFatal(event.code);
      } else if (event.code === SERVICE_RESTART && !this.stopped) {
        // The server asked: reconnect now, to whichever process answers, without a banner.
        this.quietUntil = Date.now() + QUIET_SWITCH_MS;
        this.attempt = 0;
        this.connect();
      } else if (!this.stopped) {
        this.scheduleRetry();
      }
    });
    socket.addEventListener("error", () => {
      // A "close" event always follows; reconnection is handled there.
    });
  }

  handleMessage(raw) {
    let message;
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    if (!message || typeof message !== "object") return;
    if (message.type === "view" && message.view) this.onView(message.view);
    else if (message.type === "chat" && message.message) this.onChat(message.message);
    else if (message.type === "error") this.onError({ code: message.code, message: message.message, requestId: message.request_id || null });
  }

  scheduleRetry() {
    this.attempt += 1;
    const base = Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.min(this.attempt - 1, 6));
    const quiet = Date.now() < this.quietUntil;
    const delay = quiet ? QUIET_RETRY_MS : base / 2 + Math.random() * (base / 2);
    this.onStatus(quiet ? "connecting" : "reconnecting", quiet ? 0 : this.attempt);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  startPing() {
    this.stopPing();
    this.pingTimer = setInterval(() => {
      if (Date.now() - this.lastMessageAt > SILENCE_LIMIT_MS && this.socket) {
        this.socket.close();
        return;
      }
      this.send({ type: "ping" });
    }, PING_EVERY_MS);
  }

  stopPing() {
    clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  get isOpen() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  /** Send a message; false if the socket is not open (the caller may fall back to HTTP). */
  send(message) {
    if (!this.isOpen) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  setLang(lang) {
    this.lang = lang;
    this.send({ type: "lang", lang });
  }

  /** Reconnect now (after the network came back, or the tab became visible). */
  nudge() {
    if (this.stopped || this.socket) return;
    clearTimeout(this.retryTimer);
    this.connect();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.stopPing();
    if (this.socket) this.socket.close();
    this.socket = null;
    this.onStatus("stopped", 0);
  }
}
