// "Confirm my moves" (issue #29, section 4): with the setting on, a chosen action is shown with
// Confirm and Cancel before it is sent. Nothing changes for the server: the page just waits.

import { button, el, replace } from "./dom.js";
import { t } from "./i18n.js";

let bar = null;
let waiting = null; // {step, onConfirm, returnFocus}

function close(refocus) {
  const was = waiting;
  waiting = null;
  if (bar) bar.hidden = true;
  if (refocus && was && was.returnFocus) was.returnFocus.focus();
}

function ensureBar(host) {
  if (bar && bar.isConnected) return bar;
  bar = el("div", {
    className: "confirm-move",
    testid: "confirm-move",
    attrs: { role: "group", "aria-labelledby": "confirm-move-text" },
  });
  bar.hidden = true;
  bar.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.stopPropagation();
      close(true);
    }
  });
  host.append(bar);
  return bar;
}

/**
 * Show `label` (the chosen action, at decision `step`) in `host` with Confirm / Cancel;
 * `onConfirm` sends it. The focus goes to Confirm, and back to `returnFocus` on Cancel.
 */
export function askToConfirm(host, label, step, onConfirm, returnFocus = null) {
  const node = ensureBar(host);
  waiting = { step, onConfirm, returnFocus };
  const yes = button(t("confirm_yes"), {
    className: "primary",
    dataset: { i18n: "confirm_yes" },
    testid: "confirm-move-yes",
    on: {
      click: () => {
        const chosen = waiting;
        close(false);
        if (chosen) chosen.onConfirm();
      },
    },
  });
  replace(node, [
    el("p", { className: "confirm-move-text", attrs: { id: "confirm-move-text" } }, [
      el("span", { text: t("confirm_prompt"), dataset: { i18n: "confirm_prompt" } }),
      " ",
      el("strong", { testid: "confirm-move-label", text: label }),
    ]),
    el("div", { className: "confirm-move-buttons" }, [
      yes,
      button(t("confirm_no"), { testid: "confirm-move-no", dataset: { i18n: "confirm_no" }, on: { click: () => close(true) } }),
    ]),
  ]);
  node.hidden = false;
  node.scrollIntoView({ block: "nearest" });
  yes.focus();
}

/** Forget a question about a decision that is no longer the one shown (or while busy). */
export function dropStaleConfirm(step, busy) {
  if (waiting && (busy || waiting.step !== step)) close(false);
}
