// Card faces, card backs, family blazons and card-type glyphs, all drawn as our own simple SVG.

import { el, svg } from "./dom.js";
import { t } from "./i18n.js";

/** Family colours by family index (same order as the engine). */
export const FAMILY_COLOURS = ["red", "blue", "green", "yellow", "purple"];

/** The 10 base card types, then the 10 Embrasement types (the Twin comes with the Prince). */
export const BASE_SET = [
  "archer", "soldier", "spy", "heir", "assassination",
  "royal_decree", "lord", "shapeshifter", "ambush", "conspiracy",
];
export const EMBRASEMENT_SET = [
  "prince", "queen", "cutthroat", "apothecary", "felon",
  "schemer", "usurpation", "machination", "trap", "corruption",
];
/** Intrigue types; every other type is a Character. */
const INTRIGUES = new Set([
  "assassination", "royal_decree", "ambush", "conspiracy",
  "usurpation", "machination", "trap", "corruption",
]);

let cardInfo = {};

/** Remember the card help texts from GET /api/cards ({slug: {name, kind, text, notes}}). */
export function setCardInfo(info) {
  cardInfo = info || {};
}

/** Help texts of a card type, or null while unknown. */
export function infoFor(slug) {
  return cardInfo[slug] || null;
}

/** Display name of a card type (from the server's texts; a readable fallback before they load). */
export function cardName(slug) {
  const info = cardInfo[slug];
  if (info && info.name) return info.name;
  const words = slug.split("_");
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");
}

/** "Character" or "Intrigue", in the UI language. */
export function kindName(slug) {
  return INTRIGUES.has(slug) ? t("kind_intrigue") : t("kind_character");
}

export function colourOf(family) {
  return FAMILY_COLOURS[family] || "red";
}

// ---------------------------------------------------------------- geometry helpers

function starPoints(cx, cy, outer, inner, count, rotation = -Math.PI / 2) {
  const points = [];
  for (let i = 0; i < count * 2; i += 1) {
    const radius = i % 2 === 0 ? outer : inner;
    const angle = rotation + (i * Math.PI) / count;
    points.push(`${(cx + radius * Math.cos(angle)).toFixed(2)},${(cy + radius * Math.sin(angle)).toFixed(2)}`);
  }
  return points.join(" ");
}

// ---------------------------------------------------------------- blazons

const SHIELD = "M3 3 H29 V16 C29 26 22 31 16 34 C10 31 3 26 3 16 Z";

const CHARGES = {
  red: () => [
    svg("polygon", { points: starPoints(16, 17, 10, 6.8, 12), class: "charge-alt" }),
    svg("circle", { cx: 16, cy: 17.5, r: 5.6, class: "charge" }),
    svg("circle", { cx: 14, cy: 16.3, r: 0.9, class: "charge-ink" }),
    svg("circle", { cx: 18, cy: 16.3, r: 0.9, class: "charge-ink" }),
    svg("path", { d: "M14.6 19 L17.4 19 L16 20.6 Z", class: "charge-ink" }),
  ],
  blue: () => [
    svg("path", { d: "M16 6 C19.5 10.5 19.5 14.5 16 19.5 C12.5 14.5 12.5 10.5 16 6 Z", class: "charge" }),
    svg("path", {
      d: "M15 19.5 C11 19.5 7.6 17.6 8 13.6 C8.4 11 11.4 10.8 12 13 C10.8 13 10.4 14.6 11.4 16 C12.4 17.4 13.8 18 15 18 Z",
      class: "charge",
    }),
    svg("path", {
      d: "M17 19.5 C21 19.5 24.4 17.6 24 13.6 C23.6 11 20.6 10.8 20 13 C21.2 13 21.6 14.6 20.6 16 C19.6 17.4 18.2 18 17 18 Z",
      class: "charge",
    }),
    svg("rect", { x: 10.5, y: 19.5, width: 11, height: 2.6, rx: 0.8, class: "charge" }),
    svg("path", { d: "M16 22 L12.6 28 L16 25.8 L19.4 28 Z", class: "charge" }),
  ],
  green: () => [
    svg("rect", { x: 14.6, y: 18, width: 2.8, height: 10, class: "charge" }),
    svg("circle", { cx: 16, cy: 11.5, r: 5.4, class: "charge" }),
    svg("circle", { cx: 11.2, cy: 15.6, r: 4.4, class: "charge" }),
    svg("circle", { cx: 20.8, cy: 15.6, r: 4.4, class: "charge" }),
    svg("path", { d: "M9 28 H23", class: "charge-line" }),
  ],
  yellow: () => [
    svg("polygon", { points: starPoints(16, 17, 11, 7, 12), class: "charge" }),
    svg("circle", { cx: 16, cy: 17, r: 5.2, class: "charge-alt" }),
  ],
  purple: () => [
    svg("path", { d: "M8 23 L8 12.5 L12 17 L16 9.5 L20 17 L24 12.5 L24 23 Z", class: "charge" }),
    svg("rect", { x: 7.5, y: 23, width: 17, height: 3.2, rx: 0.8, class: "charge" }),
    svg("circle", { cx: 8, cy: 11.5, r: 1.5, class: "charge" }),
    svg("circle", { cx: 16, cy: 8.5, r: 1.5, class: "charge" }),
    svg("circle", { cx: 24, cy: 11.5, r: 1.5, class: "charge" }),
  ],
};

/** The heraldic shield of a family colour, as an SVG element. */
export function blazon(colour, className = "blazon") {
  const draw = CHARGES[colour] || CHARGES.red;
  return svg("svg", { viewBox: "0 0 32 36", class: `${className} fam-${colour}`, "aria-hidden": "true" }, [
    svg("path", { d: SHIELD, class: "shield" }),
    ...draw(),
  ]);
}

// ---------------------------------------------------------------- card-type glyphs

const P = (d, extra = {}) => ["path", { d, ...extra }];
const C = (cx, cy, r, extra = {}) => ["circle", { cx, cy, r, ...extra }];
const FILLED = { class: "filled" };

const GLYPHS = {
  archer: [P("M7 3 C15 6 15 18 7 21"), P("M7 3 L7 21", { class: "thin" }), P("M4 12 H20"), P("M17 9 L20 12 L17 15"), P("M3 10 L5 12 L3 14")],
  soldier: [P("M12 2 L14 5 V15 H10 V5 Z"), P("M7 15.5 H17"), P("M12 16 V20"), C(12, 21.5, 1.3, FILLED)],
  spy: [P("M2 12 C6 5 18 5 22 12 C18 19 6 19 2 12 Z"), C(12, 12, 3.2), C(12, 12, 1.2, FILLED)],
  heir: [C(8, 8, 4), P("M11 11 L20 20"), P("M16 16 L18.5 13.5"), P("M18 18 L20.5 15.5")],
  assassination: [P("M12 22 L9.6 11.5 H14.4 Z", FILLED), P("M7 11 H17"), P("M12 11 V5"), C(12, 3.8, 1.3, FILLED)],
  royal_decree: [["rect", { x: 5, y: 3.5, width: 14, height: 16, rx: 2 }], P("M8 8 H16"), P("M8 11 H16"), P("M8 14 H12.5"), C(16, 18.5, 2.6, FILLED)],
  lord: [P("M6 21 V8 H8 V5 H10 V8 H14 V5 H16 V8 H18 V21 Z"), P("M10.5 21 V17.5 A1.5 1.5 0 0 1 13.5 17.5 V21")],
  shapeshifter: [P("M4 5 C8 7 16 7 20 5 C20 14 17 19 12 20.5 C7 19 4 14 4 5 Z"), P("M7.3 10 L10 11.2"), P("M16.7 10 L14 11.2"), P("M9 15 C11 16.6 13 16.6 15 15")],
  ambush: [P("M4 20 L18 6"), P("M13.5 5.5 H18.5 V10.5"), P("M20 20 L6 6"), P("M5.5 10.5 V5.5 H10.5"), P("M3 21 H21", { class: "thin" })],
  conspiracy: [C(12, 5, 2.6), C(5, 18, 2.6), C(19, 18, 2.6), P("M10.6 7.2 L6.4 15.8"), P("M13.4 7.2 L17.6 15.8"), P("M7.6 18 H16.4"), C(12, 13.5, 1.1, FILLED)],
  prince: [P("M5 17 L4 8 L9 12 L12 6 L15 12 L20 8 L19 17 Z"), P("M5 20 H19")],
  twin: [C(8, 7, 2.6), C(16, 7, 2.6), P("M4 20 C4 13.5 12 13.5 12 20"), P("M12 20 C12 13.5 20 13.5 20 20")],
  queen: [P("M4 18 L3 8 L7.5 12 L9.5 6 L12 11 L14.5 6 L16.5 12 L21 8 L20 18 Z"), P("M4 21 H20"), C(3, 7, 1, FILLED), C(9.5, 5, 1, FILLED), C(14.5, 5, 1, FILLED), C(21, 7, 1, FILLED)],
  cutthroat: [P("M6 18 C9 12 14 7.5 20.5 3.5 C18.5 10 13.5 15 8.5 19.5 Z"), P("M6.5 19 L3 22.5")],
  apothecary: [P("M9.5 3 H14.5"), P("M10.8 3 V9 L5.5 18.8 A2 2 0 0 0 7.3 21.8 H16.7 A2 2 0 0 0 18.5 18.8 L13.2 9 V3"), P("M7.6 15.5 H16.4")],
  felon: [["rect", { x: 2.5, y: 9, width: 11, height: 6, rx: 3 }], ["rect", { x: 10.5, y: 9, width: 11, height: 6, rx: 3 }]],
  schemer: [P("M20 3 C12 5 7 11 6 18 L8 18 C9 13 13 8 20 3 Z"), P("M6.5 18 L4 21.5"), P("M10 21.5 H20", { class: "thin" })],
  usurpation: [P("M7 21 V11 H17 V21"), P("M7 15 H17"), P("M8.5 11 V4 H15.5 V11"), P("M10.5 7.5 H13.5", { class: "thin" })],
  machination: [["polygon", { points: starPoints(12, 12, 9.5, 7, 8, 0) }], C(12, 12, 3.2)],
  trap: [P("M3 14 H21"), P("M4 14 L6 9 L8 14 L10 9 L12 14 L14 9 L16 14 L18 9 L20 14"), P("M3 14 C3 20 21 20 21 14")],
  corruption: [C(9.5, 14, 6.2), P("M7 14 H12", { class: "thin" }), P("M17.5 2.5 C17.5 2.5 21.5 7.5 21.5 10 A4 4 0 0 1 13.5 10 C13.5 7.5 17.5 2.5 17.5 2.5 Z", FILLED)],
};

/** The glyph of a card type, as an SVG element. */
export function typeGlyph(slug, className = "glyph") {
  const parts = GLYPHS[slug] || [C(12, 12, 8)];
  return svg("svg", { viewBox: "0 0 24 24", class: className, "aria-hidden": "true" },
    parts.map(([tag, attrs]) => svg(tag, attrs)));
}

// ---------------------------------------------------------------- cards

/**
 * A card element.
 * card: {id, family, type, face_up}; `type` null means unknown to the viewer.
 * options.size: "queue" | "hand" | "thumb"; options.label: accessible label (server card_label).
 * A face-down card whose type the viewer knows shows its name in a "peek" ribbon.
 */
export function cardElement(card, options = {}) {
  const size = options.size || "queue";
  const colour = colourOf(card.family);
  const faceUp = card.face_up !== false;
  const known = typeof card.type === "string";
  const classes = ["card", `card-${size}`, `fam-${colour}`, faceUp ? "face-up" : "face-down"];
  if (known && INTRIGUES.has(card.type)) classes.push("intrigue");
  const node = el("div", {
    className: classes.join(" "),
    testid: options.testid || "card",
    dataset: {
      cardId: card.id,
      family: card.family,
      cardType: known ? card.type : null,
      faceUp: faceUp ? "true" : "false",
    },
    attrs: { role: "img", "aria-label": options.label || (known ? cardName(card.type) : t("face_down_card")) },
  });
  if (faceUp && known) {
    node.append(...faceParts(card.type, colour, size));
  } else {
    node.append(...backParts(colour));
    if (known && size !== "thumb") {
      node.append(el("div", { className: "peek", text: cardName(card.type), title: t("you_know_card") }));
    }
  }
  return node;
}

function faceParts(slug, colour, size) {
  const parts = [
    el("div", { className: "card-band" }, [
      blazon(colour, "band-blazon"),
      el("span", { className: "card-kind", text: kindName(slug) }),
    ]),
    el("div", { className: "card-art" }, [typeGlyph(slug, "art-glyph")]),
    el("div", { className: "card-name", text: cardName(slug) }),
  ];
  if (size === "hand") {
    const info = infoFor(slug);
    parts.push(el("div", { className: "card-text", text: info ? info.text : "" }));
  }
  return parts;
}

function backParts(colour) {
  return [el("div", { className: "card-back" }, [blazon(colour, "back-blazon")])];
}

/** A small coin badge showing a number of Influence tokens. */
export function coin(count, testid = "tokens") {
  return el("span", {
    className: "coin",
    testid,
    text: count,
    title: t("tokens_title", { count }),
    attrs: { "aria-label": t("tokens_title", { count }) },
  });
}

/** The Corruption token of a family, as a badge in that family's colour. */
export function corruptionBadge(family) {
  const colour = colourOf(family);
  return el("span", {
    className: `corruption-badge fam-${colour}`,
    testid: "corruption",
    dataset: { family },
    title: t("corrupted_by", { colour: t(`colour_${colour}`) }),
    attrs: { "aria-label": t("corrupted_by", { colour: t(`colour_${colour}`) }) },
  }, [typeGlyph("corruption", "badge-glyph")]);
}

const NAME_MIN_PX = 8;

/**
 * Shrink every card name under `root` that is wider than its card until it fits, never breaking
 * a word ("SHAPESHIFTER", not "SHAPESHIFT ER"): names wrap only between words.
 */
export function fitCardNames(root) {
  for (const name of root.querySelectorAll(".card-name")) {
    name.style.removeProperty("font-size");
    let size = parseFloat(getComputedStyle(name).fontSize);
    while (name.scrollWidth > name.clientWidth + 0.5 && size > NAME_MIN_PX) {
      size -= 0.5;
      name.style.setProperty("font-size", `${size}px`);
    }
  }
}
