// Card help: hover a card (or long-press it on a touch screen) to read its ability.

import { el, replace } from "./dom.js";
import { cardName, infoFor, kindName } from "./cards.js";
import { getLang, t } from "./i18n.js";

const HOVER_DELAY_MS = 250;
const LONG_PRESS_MS = 450;
const LEAVE_GRACE_MS = 300; // time to move the pointer from a card onto its help

let tip = null;
let hoverTimer = null;
let leaveTimer = null;
let pressTimer = null;
let suppressClick = false;
let current = null;

function tooltipNode() {
  if (!tip) {
    tip = el("div", { className: "card-tooltip", testid: "card-tooltip", attrs: { role: "tooltip", hidden: true, id: "card-tooltip" } });
    document.body.append(tip);
  }
  return tip;
}

function describe(card) {
  const type = card.dataset.cardType;
  const faceDown = card.dataset.faceUp === "false";
  const children = [];
  if (type) {
    const info = infoFor(type);
    children.push(el("div", { className: "tip-title" }, [
      el("strong", { text: cardName(type) }),
      el("span", { className: "tip-kind", text: info && info.kind ? localKind(info.kind, type) : kindName(type) }),
    ]));
    if (faceDown) children.push(el("p", { className: "tip-note", text: t("tip_face_down_yours") }));
    if (info && info.text) children.push(el("p", { className: "tip-text", text: info.text }));
    if (info && info.notes) children.push(el("p", { className: "tip-notes", text: info.notes }));
    // The card's entry on the rules page, in a new tab: the game stays open.
    children.push(el("a", {
      className: "tip-rules",
      testid: "tip-rules-link",
      text: t("tip_rules_link"),
      attrs: { href: `/rules?lang=${getLang()}#card-${type}`, target: "_blank", rel: "noopener" },
    }));
  } else {
    children.push(el("div", { className: "tip-title" }, [
      el("strong", { text: card.getAttribute("aria-label") || t("face_down_card") }),
    ]));
    children.push(el("p", { className: "tip-note", text: t("tip_face_down_hidden") }));
  }
  return children;
}

/** The server may send the kind as a slug ("character") or as a display name. */
function localKind(kind, type) {
  return kind === "character" || kind === "intrigue" ? kindName(type) : kind;
}

function show(card) {
  const node = tooltipNode();
  clearTimeout(leaveTimer);
  current = card;
  replace(node, describe(card));
  node.hidden = false;
  const rect = card.getBoundingClientRect();
  const tipRect = node.getBoundingClientRect();
  const margin = 8;
  const width = tipRect.width;
  const height = tipRect.height;
  let left = rect.right + margin;
  let top = rect.top;
  if (left + width > window.innerWidth - margin) left = rect.left - width - margin;
  if (left < margin) {
    // Neither side has room (phones): below the card, or above it.
    left = clamp(rect.left + rect.width / 2 - width / 2, margin, window.innerWidth - width - margin);
    top = rect.bottom + margin;
    if (top + height > window.innerHeight - margin) top = rect.top - height - margin;
  }
  top = clamp(top, margin, window.innerHeight - height - margin);
  node.style.setProperty("left", `${Math.round(left)}px`);
  node.style.setProperty("top", `${Math.round(top)}px`);
}

function clamp(value, low, high) {
  return Math.max(low, Math.min(value, high));
}

function hideSoon() {
  clearTimeout(leaveTimer);
  leaveTimer = setTimeout(hideCardHelp, LEAVE_GRACE_MS);
}

/** Hide the card help. */
export function hideCardHelp() {
  clearTimeout(hoverTimer);
  clearTimeout(leaveTimer);
  current = null;
  if (tip) tip.hidden = true;
}

/** Listen for hovers and long presses on every `.card` of the page. */
export function installCardHelp() {
  document.addEventListener("mouseover", (event) => {
    const card = event.target instanceof Element ? event.target.closest(".card") : null;
    if (card === current) clearTimeout(leaveTimer);
    if (!card || card === current) return;
    clearTimeout(hoverTimer);
    hoverTimer = setTimeout(() => show(card), HOVER_DELAY_MS);
  });
  document.addEventListener("mouseout", (event) => {
    const card = event.target instanceof Element ? event.target.closest(".card") : null;
    const into = event.relatedTarget instanceof Element ? event.relatedTarget.closest(".card") : null;
    if (!card || into === card) return;
    clearTimeout(hoverTimer);
    hideSoon();
  });
  // The help stays open while the pointer is on it (to follow its link to the rules).
  tooltipNode().addEventListener("mouseenter", () => clearTimeout(leaveTimer));
  tooltipNode().addEventListener("mouseleave", (event) => {
    const into = event.relatedTarget instanceof Element ? event.relatedTarget.closest(".card") : null;
    if (into !== current) hideSoon();
  });
  document.addEventListener("pointerdown", (event) => {
    if (event.pointerType !== "touch") return;
    if (tip && event.target instanceof Node && tip.contains(event.target)) return;
    const card = event.target instanceof Element ? event.target.closest(".card") : null;
    if (!card) {
      hideCardHelp();
      return;
    }
    clearTimeout(pressTimer);
    pressTimer = setTimeout(() => {
      suppressClick = true;
      show(card);
    }, LONG_PRESS_MS);
  });
  for (const type of ["pointerup", "pointercancel", "pointermove"]) {
    document.addEventListener(type, (event) => {
      if (type === "pointermove" && Math.abs(event.movementX) + Math.abs(event.movementY) < 6) return;
      clearTimeout(pressTimer);
    });
  }
  // A long press must not also count as a click on the card.
  document.addEventListener("click", (event) => {
    if (!suppressClick) return;
    suppressClick = false;
    event.preventDefault();
    event.stopPropagation();
  }, true);
  document.addEventListener("contextmenu", (event) => {
    if (event.target instanceof Element && event.target.closest(".card")) event.preventDefault();
  });
  window.addEventListener("scroll", hideCardHelp, true);
  // The keyboard: a card (or a stack, its top card) focused from the keyboard shows its help,
  // read with it (aria-describedby); Escape or leaving hides it (WCAG 1.4.13).
  document.addEventListener("focusin", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target || !target.matches(":focus-visible")) return;
    const card = target.closest(".card") || target.querySelector(".stack-cards > .card:last-child");
    if (!card) return;
    show(card);
    target.setAttribute("aria-describedby", "card-tooltip");
  });
  document.addEventListener("focusout", (event) => {
    if (event.target instanceof Element && event.target.getAttribute("aria-describedby") === "card-tooltip") {
      event.target.removeAttribute("aria-describedby");
      hideCardHelp();
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") hideCardHelp();
  });
}
