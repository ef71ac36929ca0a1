// The end-of-game screen: final scores, tie-break, winners, Influence chart, play again.

import { button, el, replace } from "./dom.js";
import { blazon, colourOf } from "./cards.js";
import { chartWithLegend } from "./chart.js";
import { seatsOf } from "./players.js";
import { t } from "./i18n.js";
import { rt } from "./review_i18n.js";

/** Ranking of the players: most Influence first, then most cards in the Queue (R-END-1). */
export function ranking(result) {
  return result.scores
    .map((score, seat) => ({ seat, score, queueCards: result.queue_cards[seat] }))
    .sort((a, b) => b.score - a.score || b.queueCards - a.queueCards || a.seat - b.seat);
}

/** Render the end screen into `root` (hidden while the game is on or once dismissed). */
export function renderEndScreen(root, ctx) {
  const result = ctx.view.result || ctx.view.observation.result;
  if (!result || ctx.endDismissed) {
    root.hidden = true;
    replace(root, []);
    return;
  }
  const obs = ctx.view.observation;
  const seats = seatsOf(ctx.view);
  const colourOfSeat = (seat) => {
    const family = obs.families.find((f) => f.player === seat);
    return colourOf(family ? family.family : seat);
  };
  const winners = result.winners.map((seat) => seats[seat].name);
  const youWon = ctx.you !== null && result.winners.includes(ctx.you);
  const shared = result.winners.length > 1;

  const rows = ranking(result).map((entry) => {
    const isWinner = result.winners.includes(entry.seat);
    return el("tr", {
      className: `fam-${colourOfSeat(entry.seat)}${isWinner ? " winner" : ""}`,
      testid: "final-score-row",
      dataset: { seat: entry.seat, winner: isWinner ? "true" : "false" },
    }, [
      el("td", { className: "rank-cell", text: isWinner ? "♛" : "" }),
      el("td", { className: "name-cell" }, [el("span", { className: "name-inner" }, [
        blazon(colourOfSeat(entry.seat), "mini-blazon"),
        el("span", { text: seats[entry.seat].name }),
        entry.seat === ctx.you ? el("span", { className: "tag tag-you", text: t("you") }) : null,
      ])]),
      el("td", { className: "num", testid: "final-influence", text: entry.score }),
      el("td", { className: "num", testid: "final-queue-cards", text: entry.queueCards }),
    ]);
  });

  const table = el("table", { className: "final-scores", testid: "final-scores" }, [
    el("thead", {}, [el("tr", {}, [
      el("th", {}),
      el("th", { text: t("player") }),
      el("th", { className: "num", text: t("influence") }),
      el("th", { className: "num", text: t("tie_break"), title: t("tie_break_title") }),
    ])]),
    el("tbody", {}, rows),
  ]);

  const series = seats.map((seat) => ({ name: seat.name, colour: colourOfSeat(seat.seat) }));
  const actions = el("div", { className: "end-actions" });
  if (ctx.canRematch) {
    const again = button(t("play_again"), {
      className: "primary",
      testid: "play-again",
      on: { click: () => ctx.rematch() },
    });
    if (ctx.busy) again.disabled = true;
    actions.append(again);
  }
  if (ctx.replayUrl) {
    actions.append(el("a", {
      className: "button-link replay-link",
      testid: "replay-link",
      text: rt("replay_and_analyse"),
      attrs: { href: ctx.replayUrl(null) },
    }));
  }
  if (ctx.shareReplay) {
    actions.append(button(rt("share_replay"), {
      testid: "share-replay",
      title: rt("share_replay_title"),
      on: { click: () => ctx.shareReplay() },
    }));
  }
  actions.append(button(t("see_table"), {
    testid: "close-end-screen",
    on: { click: () => ctx.dismissEnd() },
  }));

  const dialog = el("div", {
    className: "end-dialog",
    attrs: { role: "dialog", "aria-modal": "true", "aria-labelledby": "end-title" },
  }, [
    el("h2", { attrs: { id: "end-title" }, text: youWon ? t("you_won") : t("game_over") }),
    el("p", {
      className: "winners",
      testid: "winners",
      text: shared ? t("winners_shared", { names: winners.join(", ") }) : t("winner_is", { names: winners[0] }),
    }),
    table,
    el("p", { className: "tie-break-note", text: t("tie_break_note") }),
    el("h3", { text: t("chart_title") }),
    chartWithLegend(
      ctx.view.scores_by_round || obs.scores_by_round, series, result.scores,
      ctx.replayUrl ? (round) => window.location.assign(ctx.replayUrl(round)) : null,
    ),
    ctx.replayUrl ? el("p", { className: "tie-break-note", text: rt("chart_click_hint") }) : null,
    actions,
  ]);
  replace(root, [dialog]);
  root.hidden = false;
}
