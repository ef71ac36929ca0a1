// Hints at learning tables: "What would a strong player do?" for the seat's current decision.
// The suggested move is highlighted, never played.

import { actionKey, button, el, replace } from "./dom.js";
import { getLang } from "./i18n.js";
import { getHint } from "./review_api.js";
import { percent, rt } from "./review_i18n.js";
import { errorText, withRef } from "./ui.js";

let hint = { key: null, result: null, pending: false, error: null };

/**
 * Show the hint box in the decision panel (a learning table, the seat's decision) and
 * highlight the suggested move; call after every render of the game page.
 */
export function renderHint(ctx, tableId, token, rerender) {
  const panel = document.querySelector('[data-testid="decision-panel"]');
  if (!panel) return;
  let box = panel.querySelector('[data-testid="hint-box"]');
  const view = ctx.view;
  if (!view.hints) {
    if (box) box.remove();
    return;
  }
  if (!box) {
    box = el("div", { className: "hint-box", testid: "hint-box" });
    const title = panel.querySelector(".panel-title");
    if (title) title.after(box);
    else panel.prepend(box);
  }
  const children = [el("span", { className: "tag learning-tag", testid: "learning-tag", text: rt("learning_table") })];
  const deciding = ctx.you !== null && (view.legal || []).length > 0;
  const key = `${view.game_number}:${view.step}`;
  if (hint.key !== key) hint = { key, result: null, pending: false, error: null };
  if (deciding) {
    const ask = button(hint.pending ? rt("hint_thinking") : rt("hint_button"), {
      className: "small",
      testid: "hint-button",
      on: { click: () => askHint(key, tableId, token, rerender) },
    });
    ask.disabled = hint.pending || ctx.busy;
    children.push(ask);
    if (hint.result) {
      const mine = hint.result.win[ctx.you];
      children.push(el("p", {
        className: "hint-text",
        testid: "hint-text",
        text: rt("hint_result", { label: hint.result.label, percent: percent(mine) }),
      }));
    } else if (hint.error) {
      children.push(el("p", { className: "hint-text", text: rt("hint_failed", { message: hint.error }) }));
    }
  }
  replace(box, children);
  if (deciding && hint.result) highlight(hint.result.action);
}

async function askHint(key, tableId, token, rerender) {
  hint.pending = true;
  rerender();
  try {
    const result = await getHint(tableId, token, getLang());
    if (hint.key === key) hint.result = result;
  } catch (error) {
    if (hint.key === key) hint.error = withRef(errorText(error), error);
  } finally {
    if (hint.key === key) hint.pending = false;
    rerender();
  }
}

function highlight(action) {
  const wanted = actionKey(action);
  for (const node of document.querySelectorAll("[data-action]")) {
    if (node.dataset.action === wanted) node.classList.add("hinted");
  }
  if (action.kind === "place" || action.kind === "twin") {
    for (const node of document.querySelectorAll(`[data-testid="hand-card"][data-card-id="${action.card}"]`)) {
      node.classList.add("hinted");
    }
  }
}
