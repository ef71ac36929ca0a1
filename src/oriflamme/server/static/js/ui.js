// Small pieces shared by the lobby and the game page: toasts and the language switch.

import { el } from "./dom.js";
import { getLang, t } from "./i18n.js";

const TOAST_MS = 5000;

function toastArea() {
  let area = document.querySelector('[data-testid="toasts"]');
  if (!area) {
    area = el("div", { className: "toasts", testid: "toasts", attrs: { "aria-live": "polite" } });
    document.body.append(area);
  }
  return area;
}

/** Show a short message that disappears by itself (or when clicked). */
export function toast(message, kind = "info") {
  const node = el("div", {
    className: `toast toast-${kind}`,
    testid: "toast",
    text: message,
    attrs: { role: kind === "error" ? "alert" : "status" },
  });
  node.addEventListener("click", () => node.remove());
  toastArea().append(node);
  setTimeout(() => node.remove(), TOAST_MS);
}

/** Show an error; with the failed request's `error` (its `requestId`), its reference too, so
 * that a player's report can be found in the server's logs. */
export function toastError(message, error = null) {
  toast(withRef(message, error), "error");
}

/** `text` about a failed request, with its reference ("… (ref. 1a2b3c4d5e6f)") if it has
 * one: for errors shown elsewhere than in a toast (a form's message, a list's place). */
export function withRef(text, error) {
  const ref = errorRef(error);
  return ref ? `${text} (${ref})` : text;
}

/** "ref. 1a2b3c4d5e6f" of a failed request, or "" if the server gave it no id. */
export function errorRef(error) {
  return error && error.requestId ? t("error_ref", { id: error.requestId }) : "";
}

/** What to tell people about a failed request: its code's text in their language if there is
 * one (`error_<code>`), else the server's message. */
export function errorText(error) {
  const key = `error_${error && error.code ? error.code : "generic"}`;
  const known = t(key);
  if (known !== key) return known;
  return (error && error.message) || t("error_generic");
}

/** Wire the EN/FR buttons of [data-testid="lang-switch"]; `onChange(lang)` applies a choice. */
export function installLangSwitch(onChange) {
  const group = document.querySelector('[data-testid="lang-switch"]');
  if (!group) return;
  const buttons = [...group.querySelectorAll("button[data-lang]")];
  const mark = () => {
    for (const b of buttons) b.setAttribute("aria-pressed", b.dataset.lang === getLang() ? "true" : "false");
  };
  for (const b of buttons) {
    b.addEventListener("click", () => {
      if (b.dataset.lang !== getLang()) onChange(b.dataset.lang);
      mark();
    });
  }
  mark();
}
