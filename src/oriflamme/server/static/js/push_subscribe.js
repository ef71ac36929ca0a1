// "Notify me on this device when it is my turn" in "My games", for a signed-in player (docs/
// server.md, "Push notifications"): the service worker is registered (/push-worker.js, whose
// scope is the whole site), the browser subscribes with the server's key, and the server keeps
// the subscription for the account. Permission is asked on the button's click only.

import { ApiError, request } from "./api.js";
import { button, el, replace } from "./dom.js";
import { t } from "./i18n.js";
import { withRef } from "./ui.js";

const WORKER = "/push-worker.js";

function supported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** The server's key (base64url) as the bytes `applicationServerKey` takes. */
function keyBytes(text) {
  const base64 = (text + "=".repeat((4 - (text.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(window.atob(base64), (c) => c.charCodeAt(0));
}

async function current() {
  const registration = await navigator.serviceWorker.getRegistration("/");
  return registration ? registration.pushManager.getSubscription() : null;
}

async function subscribe() {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") throw new ApiError(0, "denied", t("settings_notify_denied"));
  const registration = await navigator.serviceWorker.register(WORKER, { scope: "/" });
  await navigator.serviceWorker.ready;
  const { key } = await request("GET", "/api/push/key");
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(key),
  });
  const { endpoint, keys } = subscription.toJSON();
  await request("POST", "/api/push/subscriptions", { endpoint, p256dh: keys.p256dh, auth: keys.auth });
}

async function unsubscribe(subscription) {
  const { endpoint } = subscription;
  await subscription.unsubscribe();
  try {
    await request("DELETE", "/api/push/subscriptions", { endpoint });
  } catch (error) {
    if (!(error instanceof ApiError && error.code === "no_subscription")) throw error;
  }
}

function failure(error) {
  if (error instanceof ApiError && error.code === "denied") return error.message;
  const key = `error_${error && error.code}`;
  const known = error && error.code ? t(key) : key;
  return known !== key ? known : t("push_failed", { message: (error && error.message) || String(error) });
}

/** Show the push button in `section` ("My games" of a signed-in player), in a box of its own
 * at the section's end. */
export function renderPushIn(section) {
  let box = section.querySelector('[data-testid="push-box"]');
  if (!box) {
    box = el("div", { className: "push-box", testid: "push-box" });
    section.append(box);
  }
  return renderPushButton(box);
}

async function renderPushButton(box) {
  if (!supported()) {
    replace(box, [el("p", { className: "muted", testid: "push-state", text: t("push_unsupported") })]);
    return;
  }
  let subscription = null;
  try {
    subscription = await current();
  } catch {
    subscription = null;
  }
  const state = el("p", { className: "muted", testid: "push-state", attrs: { role: "status" }, text: subscription ? t("push_on") : t("push_off") });
  const toggle = button(subscription ? t("push_unsubscribe") : t("push_subscribe"), {
    className: "small",
    testid: "push-toggle",
    on: {
      click: async () => {
        toggle.disabled = true;
        try {
          if (subscription) await unsubscribe(subscription);
          else await subscribe();
          await renderPushButton(box);
        } catch (error) {
          toggle.disabled = false;
          state.textContent = withRef(failure(error), error);
          state.dataset.failed = "true";
        }
      },
    },
  });
  replace(box, [state, toggle]);
}
