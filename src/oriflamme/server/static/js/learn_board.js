// The board of a lesson: the game page's own renderers drawing the learner's view, and the
// highlights that show where to click (or what a step talks about).

import { actionKey, button, el, replace } from "./dom.js";
import { renderDecisionChoices, renderQueue } from "./board.js";
import { analyseLegal, effectiveSelection, familiesOf } from "./decision.js";
import { renderHand } from "./hand.js";
import { t } from "./i18n.js";
import { renderLog } from "./log.js";
import { renderPlayers } from "./players.js";

const TARGET = "lesson-target";
const FOCUS = "lesson-focus";

/** The type of a card the view shows (hand, reserve, set aside, Queue), or null. */
function cardTypeOf(view, cardId) {
  const obs = view.observation;
  for (const family of obs.families) {
    for (const zone of [family.hand, family.reserve, family.set_aside]) {
      const card = (zone || []).find((c) => c.id === cardId);
      if (card) return card.type;
    }
  }
  for (const stack of obs.queue) {
    const card = stack.find((c) => c.id === cardId);
    if (card) return card.type;
  }
  return null;
}

/**
 * What the board renderers need: `board` = {view, selected, busy, freshIds, send, select},
 * `regions` the page's elements.
 */
export function boardContext(board, regions) {
  const view = board.view;
  const analysis = analyseLegal(view.legal);
  return {
    view,
    you: view.you,
    analysis,
    selected: effectiveSelection(analysis, board.selected),
    busy: board.busy,
    myFamilies: new Set(familiesOf(view.observation, view.you)),
    freshIds: board.freshIds,
    queueRoot: regions.queue,
    endDismissed: true,
    canRematch: false,
    canHandToBot: false,
    labelOf: (action) => analysis.labels.get(actionKey(action)) || "",
    cardTypeOf: (cardId) => cardTypeOf(view, cardId),
    send: board.send,
    select: board.select,
  };
}

/** Draw the whole board of `ctx` into the page's regions. */
export function renderBoard(regions, ctx) {
  const view = ctx.view;
  const obs = view.observation;
  regions.roundInfo.textContent = obs.phase === "over"
    ? t("phase_over")
    : `${t("round_of", { n: obs.round })} · ${t(`phase_${obs.phase}`)}`;
  renderPlayers(regions.players, ctx);
  regions.prompt.textContent = view.prompt || "";
  renderDecisionChoices(regions.choices, ctx);
  renderQueue(regions.queue, ctx);
  renderHand(regions.hand, ctx);
  const handCount = obs.families
    .filter((f) => f.player === ctx.you)
    .reduce((total, f) => total + (f.hand ? f.hand.length : 0), 0);
  regions.handTitle.textContent = t("hand_title", { count: handCount });
  renderOptions(regions.options, ctx);
  renderLog(regions.log, view.log || []);
}

function renderOptions(list, ctx) {
  const legal = ctx.view.legal || [];
  replace(list, legal.map((entry) => {
    const node = button(entry.label, {
      className: "option",
      testid: "legal-option",
      dataset: { action: actionKey(entry.action), kind: entry.action.kind },
    });
    if (ctx.busy) node.disabled = true;
    node.addEventListener("click", () => ctx.send(entry.action));
    return el("li", {}, [node]);
  }));
  list.closest("section").hidden = legal.length === 0;
}

/**
 * The element to click next for `expect` (an action): the hand card to pick first for a
 * placement, else whatever on the board plays the action.
 */
function targetOf(root, ctx, expect) {
  const key = actionKey(expect);
  const placing = expect.kind === "place" || expect.kind === "twin";
  if (placing && ctx.selected !== expect.card) {
    return root.querySelector(`[data-testid="hand-card"][data-card-id="${expect.card}"]`);
  }
  for (const node of root.querySelectorAll("[data-action]")) {
    if (node.dataset.action === key && !node.classList.contains("option")) return node;
  }
  return null;
}

/**
 * Mark what the learner should click (`expect`, an action or null) and what the step talks
 * about (`focus`: {regions, cards}); returns the element to click, if any.
 */
export function highlight(root, regions, ctx, expect, focus) {
  for (const node of root.querySelectorAll(`.${TARGET}, .${FOCUS}`)) node.classList.remove(TARGET, FOCUS);
  let target = null;
  if (expect) {
    target = targetOf(root, ctx, expect);
    if (target) target.classList.add(TARGET);
    const key = actionKey(expect);
    for (const option of regions.options.querySelectorAll(".option")) {
      if (option.dataset.action === key) option.classList.add(TARGET);
    }
  }
  for (const name of (focus && focus.regions) || []) {
    const region = regions.focusable[name];
    if (region) region.classList.add(FOCUS);
  }
  for (const id of (focus && focus.cards) || []) {
    for (const card of root.querySelectorAll(`.card[data-card-id="${id}"]`)) card.classList.add(FOCUS);
  }
  return target;
}
