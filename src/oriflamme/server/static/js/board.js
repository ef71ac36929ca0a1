// The Queue: stacks of cards in resolution order, with the drop zones and targets of a decision.

import { actionKey, button, el, replaceIfChanged, svg } from "./dom.js";
import { cardElement, coin, colourOf, corruptionBadge } from "./cards.js";
import { placementKey } from "./decision.js";
import { t } from "./i18n.js";

/**
 * Make `node` send `action` when clicked (or activated from the keyboard).
 * While ctx.busy (an action is on its way) it stays visible but inert.
 */
export function makeActionable(node, action, ctx) {
  node.dataset.action = actionKey(action);
  node.classList.add("actionable");
  delete node.dataset.inspect;
  if (node.tagName !== "BUTTON") {
    // A card or stack names what it is (aria-label); as a control it says what it does first.
    const what = node.getAttribute("aria-label");
    const does = ctx.labelOf(action);
    if (does) node.setAttribute("aria-label", what ? `${does} (${what})` : does);
    node.setAttribute("role", "button");
    node.tabIndex = 0;
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        ctx.send(action);
      }
    });
  }
  if (ctx.busy) {
    node.classList.add("disabled");
    node.setAttribute("aria-disabled", "true");
    if (node.tagName === "BUTTON") node.disabled = true;
  }
  node.addEventListener("click", (event) => {
    event.stopPropagation();
    ctx.send(action);
  });
  return node;
}

/** Render the Queue of the view into `root` (the scrolling region). */
export function renderQueue(root, ctx) {
  const obs = ctx.view.observation;
  const queue = obs.queue || [];
  const analysis = ctx.analysis;
  const placing = ctx.selected !== null ? analysis.placements.get(ctx.selected) || null : null;
  const placementMode = analysis.placements.size > 0;
  const moveMode = analysis.gaps.size > 0;

  const row = el("div", { className: "queue-row" });
  if (placementMode) row.append(dropZone("front", placing, ctx));
  queue.forEach((stack, index) => {
    if (moveMode) row.append(gapZone(index, ctx));
    row.append(stackElement(stack, index, ctx, placing));
  });
  if (moveMode) row.append(gapZone(queue.length, ctx));
  if (placementMode) row.append(dropZone("end", placing, ctx));
  if (queue.length === 0 && !placementMode) {
    row.append(el("div", { className: "queue-empty", testid: "queue-empty", text: t("queue_empty") }));
  }

  const track = el("div", { className: "queue-track" }, [directionArrow(), row]);
  root.classList.toggle("placement-mode", placementMode);
  root.classList.toggle("card-chosen", placing !== null);
  const scrolled = root.scrollLeft; // replacing the content would scroll back to the front
  // Drawn again only when the Queue changed: a view that leaves it as it was must not replace
  // a card or a drop zone while it is being clicked. Nodes kept keep their listeners, which
  // send the same actions (equal nodes carry equal data-action and data-dest).
  if (!replaceIfChanged(root, [track], ["tabindex"])) return;
  root.scrollLeft = scrolled;
  setupDragTargets(root, ctx);
}

function directionArrow() {
  return el("div", { className: "queue-direction", testid: "queue-direction", attrs: { "aria-hidden": "true" } }, [
    el("span", { className: "direction-end-label", text: t("queue_front") }),
    el("span", { className: "direction-line" }, [
      svg("svg", { viewBox: "0 0 100 10", preserveAspectRatio: "none", class: "direction-svg" }, [
        svg("path", { d: "M0 5 H96", class: "direction-shaft" }),
      ]),
      el("span", { className: "direction-caption", text: t("resolution_order") }),
      svg("svg", { viewBox: "0 0 10 10", class: "direction-head" }, [svg("path", { d: "M0 0 L10 5 L0 10 Z" })]),
    ]),
    el("span", { className: "direction-end-label", text: t("queue_end") }),
  ]);
}

function dropZone(end, placing, ctx) {
  const key = end;
  const action = placing ? placing.get(key) : null;
  const zone = el("div", {
    className: `drop-zone drop-${end}`,
    testid: end === "front" ? "drop-front" : "drop-end",
    dataset: { dest: key },
  }, [
    el("span", { className: "drop-arrow", text: end === "front" ? "⟸" : "⟹", attrs: { "aria-hidden": "true" } }),
    el("span", { className: "drop-label", text: end === "front" ? t("place_front") : t("place_end") }),
  ]);
  if (action) {
    zone.classList.add("legal");
    zone.title = ctx.labelOf(action);
    makeActionable(zone, action, ctx);
  } else if (!placing) {
    zone.classList.add("hint");
    zone.title = t("choose_card_first");
  } else {
    zone.classList.add("illegal");
  }
  return zone;
}

function gapZone(gap, ctx) {
  const action = ctx.analysis.gaps.get(gap);
  const zone = el("div", { className: "gap-zone", dataset: { gap } });
  if (action) {
    zone.dataset.testid = "gap-zone";
    zone.classList.add("legal");
    zone.title = ctx.labelOf(action);
    zone.append(el("span", { className: "gap-marker", text: "↓", attrs: { "aria-hidden": "true" } }));
    makeActionable(zone, action, ctx);
  } else {
    zone.classList.add("inactive");
  }
  return zone;
}

function stackElement(stack, index, ctx, placing) {
  const obs = ctx.view.observation;
  const top = stack[stack.length - 1];
  const isCursor = obs.phase === "resolution" && obs.cursor === index;
  const node = el("div", {
    className: "stack",
    testid: "stack",
    dataset: { stackIndex: index, topCard: top.id, dest: placementKey(top.id), size: stack.length },
  });
  node.style.setProperty("--stack-size", String(stack.length));
  node.setAttribute("role", "group");
  node.setAttribute("aria-label", stackDescription(stack, index, ctx));
  node.dataset.inspect = "true"; // a Tab stop of the Queue for reading, unless a card in it acts
  if (isCursor) {
    node.classList.add("is-cursor");
    node.append(el("div", { className: "cursor-marker", testid: "cursor", text: "▼", title: t("cursor_title") }));
  }

  const pile = el("div", { className: "stack-cards" });
  stack.forEach((card, position) => {
    pile.append(queueCard(card, stack.length - 1 - position, ctx));
  });
  node.append(pile);
  if (stack.length > 1) {
    node.append(el("span", {
      className: "count-badge",
      testid: "stack-count",
      text: stack.length,
      title: t("stack_count", { count: stack.length }),
    }));
  }
  node.append(el("div", { className: "stack-index", text: index + 1 }));

  if (pile.querySelector(".actionable")) delete node.dataset.inspect;
  const placeAction = placing ? placing.get(placementKey(top.id)) : null;
  if (placeAction) {
    for (const inner of pile.querySelectorAll("[data-inspect]")) delete inner.dataset.inspect;
    node.classList.add("drop-target");
    node.title = ctx.labelOf(placeAction);
    makeActionable(node, placeAction, ctx);
  }
  return node;
}

/**
 * What a screen reader says of a stack: "Queue position 3: Blue face-down card, 1 Influence
 * token", with how many cards it holds and whether it is resolving or next.
 */
function stackDescription(stack, index, ctx) {
  const obs = ctx.view.observation;
  const top = stack[stack.length - 1];
  const label = (ctx.view.cards && ctx.view.cards[String(top.id)]) || t("face_down_card");
  const parts = [label];
  if (top.tokens === 1) parts.push(t("a11y_token"));
  if (top.tokens > 1) parts.push(t("a11y_tokens", { count: top.tokens }));
  if (top.corrupted_by !== null && top.corrupted_by !== undefined) {
    parts.push(t("corrupted_by", { colour: t(`colour_${colourOf(top.corrupted_by)}`) }));
  }
  if (stack.length > 1) parts.push(t("stack_count", { count: stack.length }));
  if (obs.phase === "resolution" && obs.cursor === index) parts.push(t("a11y_resolving"));
  return t("a11y_queue_position", { n: index + 1, card: parts.join(", ") });
}

function queueCard(card, depth, ctx) {
  const obs = ctx.view.observation;
  const analysis = ctx.analysis;
  const label = (ctx.view.cards && ctx.view.cards[String(card.id)]) || undefined;
  const node = cardElement(card, { size: "queue", label, testid: "queue-card" });
  node.style.setProperty("--depth", String(depth));
  if (depth > 0) node.classList.add("under");
  if (ctx.freshIds.has(card.id)) node.classList.add("fresh");
  if (obs.resolving === card.id) node.classList.add("resolving");
  if (obs.decision && obs.decision.card === card.id) node.classList.add("acting");
  if (analysis.movingCard === card.id) node.classList.add("moving");
  if (ctx.myFamilies.has(card.family)) node.classList.add("mine");

  const badges = el("div", { className: "card-badges" });
  if (card.tokens > 0) badges.append(coin(card.tokens));
  if (card.corrupted_by !== null && card.corrupted_by !== undefined) {
    badges.append(corruptionBadge(card.corrupted_by));
  }
  if (card.controller !== undefined && card.controller !== card.family) {
    node.classList.add("controlled-by-other");
    node.dataset.controller = card.controller;
  }
  if (badges.childNodes.length) node.append(badges);

  if (depth > 0) return node;

  const target = analysis.targets.get(card.id);
  if (target) {
    node.classList.add("targetable");
    node.title = ctx.labelOf(target);
    makeActionable(node, target, ctx);
  } else if (analysis.targets.size > 0) {
    node.classList.add("not-targetable");
  }
  if (analysis.reveal && analysis.reveal.card === card.id) {
    node.append(choiceOverlay([
      ["reveal-button", t("reveal"), analysis.reveal.reveal],
      ["leave-button", t("leave"), analysis.reveal.leave],
    ], ctx));
    node.setAttribute("role", "group"); // an image may not hold buttons
  }
  return node;
}

/** Buttons for the choices, with their test ids: [[testid, text, action or null], ...]. */
function choiceButtons(choices, ctx) {
  const buttons = [];
  for (const [testid, text, action] of choices) {
    if (!action) continue;
    const choice = button(text, { className: `choice-button ${testid}`, testid, title: ctx.labelOf(action) });
    buttons.push(makeActionable(choice, action, ctx));
  }
  return buttons;
}

function choiceOverlay(choices, ctx) {
  return el("div", { className: "card-choice", testid: "card-choice" }, choiceButtons(choices, ctx));
}

/**
 * The choices of a decision that belong to no card on the table, in the status bar: the
 * Machination's gain or spend (the Machination is already discarded, R-MACH-1).
 */
export function renderDecisionChoices(root, ctx) {
  const tokens = ctx.analysis.tokens;
  const buttons = choiceButtons([
    ["gain-button", t("gain"), tokens.gain],
    ["spend-button", t("spend"), tokens.spend],
  ], ctx);
  replaceIfChanged(root, buttons, ["tabindex"]);
  root.hidden = buttons.length === 0;
}

// ---------------------------------------------------------------- drag and drop from the hand

let draggedCard = null;

/** Start dragging a hand card: mark the destinations where it may be placed. */
export function startDrag(root, cardId, ctx) {
  draggedCard = cardId;
  const options = ctx.analysis.placements.get(cardId);
  root.classList.add("dragging");
  for (const zone of root.querySelectorAll("[data-dest]")) {
    zone.classList.toggle("drop-ok", Boolean(options && options.get(zone.dataset.dest)));
  }
}

export function endDrag(root) {
  draggedCard = null;
  root.classList.remove("dragging");
  for (const zone of root.querySelectorAll(".drop-ok, .drag-over")) {
    zone.classList.remove("drop-ok", "drag-over");
  }
}

function setupDragTargets(root, ctx) {
  for (const zone of root.querySelectorAll("[data-dest]")) {
    const actionFor = () => {
      const options = draggedCard === null ? null : ctx.analysis.placements.get(draggedCard);
      return options ? options.get(zone.dataset.dest) || null : null;
    };
    zone.addEventListener("dragover", (event) => {
      if (actionFor()) {
        event.preventDefault();
        zone.classList.add("drag-over");
      }
    });
    zone.addEventListener("dragleave", () => zone.classList.remove("drag-over"));
    zone.addEventListener("drop", (event) => {
      const action = actionFor();
      if (!action) return;
      event.preventDefault();
      endDrag(root);
      ctx.send(action);
    });
  }
}
