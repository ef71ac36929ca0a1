// Small pieces shared by the lobby and the game page: toasts and the language switch.

import { el } from "./dom.js";
import { getLang } from "./i18n.js";

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

export function toastError(message) {
  toast(message, "error");
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
