// The viewer's hand (both families' cards in the two-families variant) and set-aside cards.

import { button, el, replace, replaceIfChanged } from "./dom.js";
import { blazon, cardElement, cardName, colourOf } from "./cards.js";
import { endDrag, startDrag } from "./board.js";
import { t } from "./i18n.js";

/** Render the hand region of the viewer into `root`. */
export function renderHand(root, ctx) {
  const obs = ctx.view.observation;
  if (ctx.you === null) {
    replace(root, [el("p", { className: "hand-empty", testid: "spectating", text: t("spectating_hand") })]);
    return;
  }
  const families = obs.families.filter((f) => f.player === ctx.you);
  const twoFamilies = families.length > 1;
  const children = [handHint(ctx)];
  for (const family of families) {
    const colour = colourOf(family.family);
    const group = el("div", { className: `hand-group fam-${colour}`, dataset: { family: family.family } });
    if (twoFamilies) {
      group.append(el("div", { className: "hand-group-title" }, [
        blazon(colour, "mini-blazon"),
        el("span", { text: t(`colour_${colour}`) }),
      ]));
    }
    const cards = el("div", {
      className: "hand-cards",
      dataset: { roving: `hand-${family.family}` },
      attrs: { role: "group", "aria-label": t("a11y_hand") },
    });
    for (const card of family.hand || []) cards.append(handCard(card, ctx, false));
    for (const card of family.reserve || []) {
      if (ctx.analysis.twin === card.id) cards.append(handCard(card, ctx, true));
    }
    cards.style.setProperty("--n", String(Math.max(2, cards.childElementCount)));
    if (!cards.childNodes.length) cards.append(el("p", { className: "hand-empty", text: t("hand_empty") }));
    group.append(cards);
    const setAside = family.set_aside || [];
    if (setAside.length) {
      group.append(el("div", { className: "set-aside", testid: "set-aside" }, [
        el("span", { className: "set-aside-title", text: t("set_aside_yours") }),
        ...setAside.map((card) => cardElement({ ...card, face_up: true }, {
          size: "thumb",
          testid: "set-aside-card",
        })),
      ]));
    }
    children.push(group);
  }
  // Drawn again only when the hand changed: a view that leaves it as it was must not replace a
  // card while it is being clicked (equal nodes: the same card, selection and state).
  replaceIfChanged(root, children, ["tabindex"]);
}

function handHint(ctx) {
  const analysis = ctx.analysis;
  if (analysis.placements.size === 0) return null;
  if (ctx.selected === null) {
    return el("p", { className: "hand-hint", testid: "hand-hint", text: t("hint_choose_card") });
  }
  const type = ctx.cardTypeOf(ctx.selected);
  const hint = el("p", { className: "hand-hint", testid: "hand-hint" }, [
    el("span", { text: t("hint_choose_place", { card: type ? cardName(type) : "" }) }),
  ]);
  if (analysis.twin === null && analysis.placements.size > 1) {
    hint.append(button(t("cancel"), {
      className: "link-button",
      testid: "cancel-selection",
      on: { click: () => ctx.select(null) },
    }));
  }
  return hint;
}

function handCard(card, ctx, isTwin) {
  const node = cardElement({ ...card, face_up: true }, {
    size: "hand",
    testid: "hand-card",
    label: ctx.view.cards && ctx.view.cards[String(card.id)],
  });
  if (isTwin) {
    node.classList.add("reserve-card");
    node.append(el("span", { className: "reserve-tag", text: t("reserve") }));
  }
  const placeable = ctx.analysis.placements.has(card.id);
  node.dataset.inspect = "true"; // reachable with the keyboard, to read it (keyboard.js)
  if (!placeable) {
    if (ctx.analysis.placements.size > 0) node.classList.add("not-placeable");
    return node;
  }
  node.classList.add("selectable");
  node.setAttribute("role", "button");
  node.tabIndex = 0;
  node.dataset.selectable = "true";
  if (ctx.selected === card.id) {
    node.classList.add("selected");
    node.setAttribute("aria-pressed", "true");
  } else {
    node.setAttribute("aria-pressed", "false");
  }
  if (ctx.busy) node.classList.add("disabled");
  const toggle = () => {
    if (!ctx.busy && !isTwin) ctx.select(ctx.selected === card.id ? null : card.id);
  };
  node.addEventListener("click", toggle);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      toggle();
    }
  });
  if (!ctx.busy) {
    node.draggable = true;
    node.addEventListener("dragstart", (event) => {
      event.dataTransfer.setData("text/plain", String(card.id));
      event.dataTransfer.effectAllowed = "move";
      startDrag(ctx.queueRoot, card.id, ctx);
    });
    node.addEventListener("dragend", () => endDrag(ctx.queueRoot));
  }
  return node;
}
