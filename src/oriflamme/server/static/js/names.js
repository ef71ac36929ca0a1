// Players named in the server's sentences (prompts, options, the log): each name comes wrapped
// in Unicode isolates (U+2068 … U+2069, docs/server.md "Names in sentences"); the page shows it
// as the player's own mark, in their colour.

import { el } from "./dom.js";

const ISOLATED = /\u2068([^\u2069]*)\u2069/g;

/** `text` as nodes: plain strings, and each named player as a <bdi> in their colour. */
export function namedNodes(text, seats) {
  const colourOf = new Map((seats || []).map((seat) => [seat.name, seat.colour]));
  const nodes = [];
  let last = 0;
  for (const match of String(text || "").matchAll(ISOLATED)) {
    if (match.index > last) nodes.push(text.slice(last, match.index));
    const colour = colourOf.get(match[1]);
    nodes.push(el("bdi", {
      className: colour ? `player-mark fam-${colour}` : "player-mark",
      testid: "player-mark",
      text: match[1],
    }));
    last = match.index + match[0].length;
  }
  if (last < String(text || "").length) nodes.push(text.slice(last));
  return nodes;
}
