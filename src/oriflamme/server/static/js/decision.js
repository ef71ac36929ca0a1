// Turns the view's list of legal actions into what the board can offer to click.
// Pure functions (no DOM), so they can be checked outside a browser.

/** Key of a placement destination: "front", "end" or "on:<top card id>". */
export function placementKey(to) {
  return typeof to === "number" ? `on:${to}` : String(to);
}

/**
 * Sort the legal actions of a view ({action, label} entries) by how the board offers them.
 * Returns {
 *   placements: Map<card id, Map<destination key, action>>  (place, and the Prince's Twin),
 *   twin: id of the Twin to place, or null,
 *   reveal: {card, reveal, leave} or null,
 *   targets: Map<card id, action>,
 *   gaps: Map<gap, action>, movingCard: id of the card the Royal Decree moves, or null,
 *   players: Map<player, action>,
 *   tokens: {gain, spend} (each an action or null),
 *   labels: Map<canonical action JSON, label>,
 * }
 */
export function analyseLegal(legal) {
  const result = {
    placements: new Map(),
    twin: null,
    reveal: null,
    targets: new Map(),
    gaps: new Map(),
    movingCard: null,
    players: new Map(),
    tokens: { gain: null, spend: null },
    labels: new Map(),
  };
  for (const entry of legal || []) {
    const action = entry.action;
    result.labels.set(JSON.stringify(action), entry.label);
    switch (action.kind) {
      case "place":
      case "twin": {
        if (!result.placements.has(action.card)) result.placements.set(action.card, new Map());
        result.placements.get(action.card).set(placementKey(action.to), action);
        if (action.kind === "twin") result.twin = action.card;
        break;
      }
      case "reveal":
      case "leave": {
        if (!result.reveal) result.reveal = { card: action.card, reveal: null, leave: null };
        result.reveal[action.kind] = action;
        break;
      }
      case "target":
        result.targets.set(action.card, action);
        break;
      case "move":
        result.gaps.set(action.gap, action);
        result.movingCard = action.card;
        break;
      case "player":
        result.players.set(action.player, action);
        break;
      case "gain":
      case "spend":
        result.tokens[action.kind] = action;
        break;
      default:
        break;
    }
  }
  return result;
}

/**
 * The card a placement starts from without a click: the Twin, or the only placeable card.
 * `selected` is kept when it is still placeable.
 */
export function effectiveSelection(analysis, selected) {
  if (analysis.twin !== null) return analysis.twin;
  if (selected !== null && analysis.placements.has(selected)) return selected;
  if (analysis.placements.size === 1) return analysis.placements.keys().next().value;
  return null;
}

/** The families (indices) played by a seat, from the observation. */
export function familiesOf(observation, seat) {
  if (seat === null || seat === undefined) return [];
  return observation.families.filter((f) => f.player === seat).map((f) => f.family);
}

/** Ids of every card in the Queue, for spotting cards that just arrived. */
export function queueIds(observation) {
  const ids = new Set();
  for (const stack of observation.queue || []) for (const card of stack) ids.add(card.id);
  return ids;
}
