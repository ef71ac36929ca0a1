// The players around the table: Influence, hand size, set-aside, piles, turn and connection.

import { button, el, replace } from "./dom.js";
import { blazon, cardElement, coin, colourOf } from "./cards.js";
import { makeActionable } from "./board.js";
import { bankTag } from "./clock.js";
import { t } from "./i18n.js";

/** Seats of the view, one per player (built from the observation if the view has none). */
export function seatsOf(view) {
  const players = view.observation.config.players;
  const seats = [];
  for (let seat = 0; seat < players; seat += 1) {
    const given = (view.seats || []).find((s) => s.seat === seat) || {};
    seats.push({
      seat,
      name: given.name || t("player_n", { n: seat + 1 }),
      kind: given.kind || "human",
      colour: given.colour || colourOf(seat),
      level: given.level || null,
      connected: given.connected !== false,
      away: Boolean(given.away),
      left: Boolean(given.left),
      replaceable: Boolean(given.replaceable),
      bankLeft: typeof given.bank_left === "number" ? given.bank_left : null,
    });
  }
  return seats;
}

/** Render every player's panel into `root`. */
export function renderPlayers(root, ctx) {
  const obs = ctx.view.observation;
  const panels = seatsOf(ctx.view).map((seat) => playerPanel(seat, obs, ctx));
  replace(root, panels);
}

function playerPanel(seat, obs, ctx) {
  const families = obs.families.filter((f) => f.player === seat.seat);
  const colours = families.map((f) => colourOf(f.family));
  const deciding = obs.decision && obs.decision.player === seat.seat;
  const panel = el("div", {
    className: `player-panel fam-${colours[0] || "red"}`,
    testid: "player",
    dataset: { seat: seat.seat, colour: colours.join(" ") },
  });
  if (seat.seat === ctx.you) panel.classList.add("is-you");
  if (deciding) panel.classList.add("is-turn");
  if (obs.result && obs.result.winners.includes(seat.seat)) panel.classList.add("is-winner");

  const nameLine = el("div", { className: "player-name-line" }, [
    el("span", { className: "player-blazons" }, colours.map((c) => blazon(c, "player-blazon"))),
    el("span", {
      className: "player-name",
      testid: "player-name",
      text: seat.kind === "open" ? t("open_seat") : seat.name,
      title: seat.name,
    }),
  ]);
  if (seat.seat === ctx.you) nameLine.append(el("span", { className: "tag tag-you", text: t("you") }));
  if (seat.kind === "bot") {
    nameLine.append(el("span", { className: "tag tag-bot", text: seat.level ? t("bot_level", { level: t(`level_${seat.level}`) }) : t("bot") }));
  } else if (seat.kind === "open") {
    panel.classList.add("is-open");
  } else {
    nameLine.append(el("span", {
      className: `conn-dot ${seat.connected ? "online" : "offline"}`,
      testid: "connection",
      title: seat.connected ? t("online") : t("offline"),
      attrs: { role: "img", "aria-label": seat.connected ? t("online") : t("offline") },
    }));
  }
  if (seat.left) {  // left the game for good (an account's seat): a bot plays it to the end
    nameLine.append(el("span", { className: "tag tag-left", testid: "seat-left", text: t("left_tag") }));
  } else if (seat.away) {
    nameLine.append(el("span", { className: "tag tag-away", testid: "away", text: t("away") }));
  }
  if (obs.first_player === seat.seat && obs.phase !== "over") {
    nameLine.append(el("span", { className: "tag tag-first", text: t("first_player_short"), title: t("first_player") }));
  }

  const influence = (obs.influence || [])[seat.seat] ?? 0;
  const score = coin(influence, "influence-coin");
  // Read as "5 Influence" with its label: not "on this card", a card's coin's name.
  score.removeAttribute("aria-label");
  score.removeAttribute("title");
  const stats = el("div", { className: "player-stats" }, [
    el("span", { className: "influence", testid: "influence", title: t("influence") }, [
      score,
      el("span", { className: "stat-label", text: t("influence") }),
    ]),
  ]);
  const counts = el("div", { className: "player-counts" });
  for (const family of families) {
    const prefix = families.length > 1 ? `${t(`colour_${colourOf(family.family)}`)} · ` : "";
    counts.append(el("span", { className: "count", testid: "family-counts", dataset: { family: family.family } }, [
      prefix,
      t("hand_count", { count: family.hand_size }),
      " · ",
      t("set_aside_count", { count: family.set_aside_size }),
      family.pile_size ? ` · ${t("pile_count", { count: family.pile_size })}` : "",
    ]));
  }
  stats.append(counts);
  panel.append(nameLine, stats);

  if (seat.kind === "open") {
    panel.append(el("div", { className: "turn-line", testid: "open-seat", text: t("waiting_for_join") }));
  } else if (deciding && obs.phase !== "over" && !ctx.view.waiting_for_players && !ctx.view.closed) {
    const line = el("div", {
      className: "turn-line",
      testid: "turn-indicator",
      text: seat.seat === ctx.you ? t("your_turn") : t("deciding"),
    });
    // The real deadline: the clock's end, or sooner the end of the player's absence.
    const due = ctx.view.deadline;
    if (due && due.seat === seat.seat && seat.kind === "human") {
      line.append(el("span", {
        className: "clock",
        testid: "clock",
        title: t("clock_title"),
        dataset: { deadline: String(due.at), reason: due.reason },
      }));
    }
    panel.append(line);
  }
  const bank = bankTag(seat, ctx.view, deciding && obs.phase !== "over");
  if (bank) panel.append(bank);

  const zones = el("div", { className: "player-zones" });
  for (const family of families) {
    addZone(zones, t("reserve"), family.reserve, "reserve");
    addZone(zones, t("discarded"), family.discarded, "discarded");
    addZone(zones, t("eliminated"), family.eliminated, "eliminated");
  }
  if (zones.childNodes.length) panel.append(zones);

  const stealAction = ctx.analysis.players.get(seat.seat);
  if (stealAction) {
    panel.classList.add("choosable");
    const choose = button(t("choose_player"), {
      className: "choose-player",
      testid: "player-choice",
      title: ctx.labelOf(stealAction),
    });
    makeActionable(choose, stealAction, ctx);
    panel.append(choose);
  }
  if (ctx.canHandToBot && seat.kind === "open") {
    panel.append(button(t("fill_with_bot"), {
      className: "link-button",
      testid: "fill-with-bot",
      on: { click: () => ctx.handToBot(seat.seat) },
    }));
  } else if (ctx.canHandToBot && seat.kind === "human" && seat.replaceable && seat.seat !== ctx.you) {
    panel.append(button(t("hand_to_bot"), {
      className: "link-button",
      testid: "hand-to-bot",
      on: { click: () => ctx.handToBot(seat.seat) },
    }));
  }
  return panel;
}

function addZone(zones, title, cards, kind) {
  if (!cards || !cards.length) return;
  zones.append(el("div", { className: `zone zone-${kind}`, testid: `zone-${kind}` }, [
    el("span", { className: "zone-title", text: title }),
    el("span", { className: "zone-cards" }, cards.map((card) => cardElement(
      { ...card, face_up: true },
      { size: "thumb", testid: `${kind}-card` },
    ))),
  ]));
}
