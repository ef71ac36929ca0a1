// HTTP client of the accounts' API (docs/server.md, "Accounts and sessions"). The session is an
// HttpOnly cookie the page never sees; state-changing requests carry the session's CSRF token
// (X-CSRF-Token) once known, besides the Origin the browser sends.

import { ApiError, answerError } from "./api.js";

let csrf = null;

async function call(method, url, body) {
  const headers = { Accept: "application/json" };
  const init = { method, headers, credentials: "same-origin" };
  if (csrf && method !== "GET") headers["X-CSRF-Token"] = csrf;
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
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

function signedIn(account) {
  csrf = account.csrf;
  return account;
}

/** The signed-in account, or null for a guest. */
export async function getAccount() {
  const { account } = await call("GET", "/api/account/session");
  csrf = account ? account.csrf : null;
  return account;
}

export async function signUp(name, password) {
  return signedIn(await call("POST", "/api/account/signup", { name, password }));
}

export async function signIn(name, password) {
  return signedIn(await call("POST", "/api/account/signin", { name, password }));
}

export async function signOut(everywhere = false) {
  const done = await call("POST", "/api/account/signout", { everywhere });
  csrf = null;
  return done;
}

export const getSessions = () => call("GET", "/api/account/sessions");
export const revokeSession = (session) => call("POST", "/api/account/sessions/revoke", { session });
export const changePassword = (current, next) => call("POST", "/api/account/password", { current, new: next });
export const deleteAccount = (password) => call("POST", "/api/account/delete", { password });
export const getPasskeys = () => call("GET", "/api/account/passkeys");
export const removePasskey = (id) => call("POST", `/api/account/passkeys/${encodeURIComponent(id)}/delete`);

// -- passkeys: the JSON of the server's options and of the browser's credentials ------------
const fromB64 = (text) => {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0)).buffer;
};
const toB64 = (buffer) => {
  const bytes = new Uint8Array(buffer);
  let raw = "";
  for (const b of bytes) raw += String.fromCharCode(b);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};

function credentialJson(credential) {
  const r = credential.response;
  const response = { clientDataJSON: toB64(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toB64(r.attestationObject);
    if (r.getTransports) response.transports = r.getTransports();
  }
  if (r.authenticatorData) response.authenticatorData = toB64(r.authenticatorData);
  if (r.signature) response.signature = toB64(r.signature);
  if (r.userHandle) response.userHandle = toB64(r.userHandle);
  return {
    id: credential.id,
    rawId: toB64(credential.rawId),
    type: credential.type,
    response,
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment || undefined,
  };
}

/** Whether this browser can use passkeys at all. */
export function passkeysSupported() {
  return typeof window.PublicKeyCredential === "function" && !!navigator.credentials;
}

/** Add a passkey to the signed-in account (the browser asks the person). */
export async function addPasskey(label) {
  const { ceremony, options } = await call("POST", "/api/account/passkeys/options");
  const publicKey = {
    ...options,
    challenge: fromB64(options.challenge),
    user: { ...options.user, id: fromB64(options.user.id) },
    excludeCredentials: (options.excludeCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })),
  };
  const credential = await navigator.credentials.create({ publicKey });
  return call("POST", "/api/account/passkeys", { ceremony, credential: credentialJson(credential), label });
}

/** Sign in with a passkey this browser holds for this site. */
export async function signInWithPasskey() {
  const { ceremony, options } = await call("POST", "/api/account/passkey-signin/options");
  const publicKey = {
    ...options,
    challenge: fromB64(options.challenge),
    allowCredentials: (options.allowCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })),
  };
  const credential = await navigator.credentials.get({ publicKey });
  return signedIn(await call("POST", "/api/account/passkey-signin", {
    ceremony, credential: credentialJson(credential),
  }));
}

/** The reported chat messages not handled yet (admins only; docs/server.md, "Chat"). */
export function getChatReports() {
  return call("GET", "/api/admin/chat/reports");
}

/** `verb`: "delete" the message's words, "suspend" its author's account, or "dismiss" its
 * reports (admins only). */
export function moderateChat(tableId, number, verb) {
  return call("POST", `/api/admin/chat/${encodeURIComponent(tableId)}/${number}/${verb}`);
}
