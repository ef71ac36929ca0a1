// SVG line chart of each player's Influence, round by round.

import { el, svg } from "./dom.js";
import { t } from "./i18n.js";

const WIDTH = 420;
const HEIGHT = 230;
const PAD = { left: 34, right: 14, top: 14, bottom: 30 };
const ROUNDS = 6;
const STARTING_INFLUENCE = 1;

/** A step of the vertical axis that gives about 5 grid lines. */
export function niceStep(max) {
  const rough = Math.max(1, max) / 5;
  for (const step of [1, 2, 5, 10, 20, 25, 50, 100]) if (step >= rough) return step;
  return Math.ceil(rough / 100) * 100;
}

/**
 * The chart: `scoresByRound` is the view's list of per-round Influence lists; `series` is one
 * {name, colour} per player. Every player starts the game with 1 Influence (round 0).
 */
function influenceChart(scoresByRound, series, onRound) {
  const rows = [series.map(() => STARTING_INFLUENCE), ...(scoresByRound || [])];
  const maxValue = Math.max(1, ...rows.flat());
  const step = niceStep(maxValue);
  const top = Math.ceil(maxValue / step) * step;
  const rounds = Math.max(ROUNDS, rows.length - 1);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (round) => PAD.left + (plotW * round) / rounds;
  const y = (value) => PAD.top + plotH - (plotH * value) / top;

  const chart = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    class: "influence-chart",
    role: "img",
    "data-testid": "influence-chart",
    "aria-label": t("chart_title"),
  });
  chart.append(svg("title", {}, [t("chart_title")]));

  for (let value = 0; value <= top; value += step) {
    chart.append(
      svg("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(value), y2: y(value), class: "grid" }),
      svg("text", { x: PAD.left - 6, y: y(value) + 4, class: "axis-label", "text-anchor": "end" }, [String(value)]),
    );
  }
  for (let round = 0; round <= rounds; round += 1) {
    chart.append(svg("text", {
      x: x(round), y: HEIGHT - PAD.bottom + 16, class: "axis-label", "text-anchor": "middle",
    }, [round === 0 ? t("chart_start") : String(round)]));
  }
  chart.append(svg("text", {
    x: WIDTH - PAD.right, y: HEIGHT - 2, class: "axis-title", "text-anchor": "end",
  }, [t("chart_round_axis")]));

  if (onRound) {
    // A column per round: clicking it opens that round (the replay, from the end screen).
    for (let round = 0; round < rows.length; round += 1) {
      const hit = svg("rect", {
        x: x(round) - plotW / rounds / 2, y: PAD.top, width: plotW / rounds, height: plotH,
        class: "round-hit", "data-round": round, "data-testid": "chart-round",
      });
      hit.addEventListener("click", () => onRound(round));
      chart.append(hit);
    }
  }
  series.forEach((player, index) => {
    const points = rows.map((row, round) => [x(round), y(row[index] ?? 0)]);
    const group = svg("g", { class: `series fam-${player.colour}`, "data-player": index });
    group.append(svg("polyline", {
      points: points.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(" "),
      class: "line",
    }));
    points.forEach(([px, py], round) => {
      group.append(svg("circle", { cx: px.toFixed(1), cy: py.toFixed(1), r: 3.2, class: "dot" }, [
        svg("title", {}, [`${player.name} — ${round === 0 ? t("chart_start") : t("round_n", { n: round })}: ${rows[round][index]}`]),
      ]));
    });
    chart.append(group);
  });
  return chart;
}

/**
 * The chart with its legend (one entry per player with their current Influence); with
 * `onRound`, clicking a round calls `onRound(round)`.
 */
export function chartWithLegend(scoresByRound, series, finalScores, onRound = null) {
  const legend = el("ul", { className: "chart-legend" }, series.map((player, index) => el("li", {
    className: `fam-${player.colour}`,
  }, [
    el("span", { className: "legend-swatch" }),
    el("span", { className: "legend-name", text: player.name }),
    el("span", { className: "legend-value", text: String((finalScores || [])[index] ?? "") }),
  ])));
  return el("figure", { className: "chart-figure" }, [
    influenceChart(scoresByRound, series, onRound),
    el("figcaption", {}, [legend]),
  ]);
}
