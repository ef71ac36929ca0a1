// SVG chart of each player's chance to win over a game, from the analysis of its decisions.

import { el, svg } from "./dom.js";
import { percent, rt } from "./review_i18n.js";

// About the width the side panel gives it, so that its 12-unit labels show at about 12 px.
const WIDTH = 340;
const HEIGHT = 200;
const PAD = { left: 40, right: 10, top: 12, bottom: 24 };

/**
 * The chart: `steps` are the analysed decisions ({step, player, win: [per player]}), `series`
 * one {name, colour} per player, `total` the number of actions of the game, `worst` the steps of
 * the costliest moves (marked), `onStep(step)` called when a point is clicked. Returns
 * {figure, setCursor(step)}.
 */
export function winChart(steps, series, total, worst, onStep) {
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (step) => PAD.left + (plotW * step) / Math.max(1, total);
  const y = (chance) => PAD.top + plotH - plotH * chance;
  const chart = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    class: "win-chart",
    role: "img",
    "data-testid": "win-chart",
    "aria-label": rt("win_chart_title"),
  });
  chart.append(svg("title", {}, [rt("win_chart_title")]));
  for (const chance of [0, 0.25, 0.5, 0.75, 1]) {
    chart.append(
      svg("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(chance), y2: y(chance), class: "grid" }),
      svg("text", { x: PAD.left - 5, y: y(chance) + 4, class: "axis-label", "text-anchor": "end" }, [`${percent(chance)}%`]),
    );
  }
  chart.append(svg("text", {
    x: WIDTH - PAD.right, y: HEIGHT - 4, class: "axis-title", "text-anchor": "end",
  }, [rt("win_axis")]));
  const cursor = svg("line", { x1: x(0), x2: x(0), y1: PAD.top, y2: PAD.top + plotH, class: "cursor-line" });
  chart.append(cursor);
  const marked = new Set(worst);
  const readout = el("p", { className: "win-readout", testid: "win-readout", attrs: { "aria-live": "polite" } });
  series.forEach((player, index) => {
    const points = steps.map((s) => [s.step, x(s.step), y(s.win[index] ?? 0)]);
    const group = svg("g", { class: `series fam-${player.colour}`, "data-player": index });
    if (points.length > 1) {
      group.append(svg("polyline", {
        points: points.map(([, px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(" "),
        class: "line",
      }));
    }
    steps.forEach((s, i) => {
      if (s.player !== index) return;
      const [, px, py] = points[i];
      const costly = marked.has(s.step);
      const dot = svg("circle", {
        cx: px.toFixed(1),
        cy: py.toFixed(1),
        r: costly ? 5.5 : 3,
        class: costly ? "dot costly" : "dot",
        "data-step": s.step,
        "data-testid": costly ? "costly-point" : "win-point",
        tabindex: "0",
      }, [svg("title", {}, [`${player.name} — ${rt("step_of", { n: s.step, total })}: ${percent(s.win[index])}%`])]);
      dot.addEventListener("click", () => onStep(s.step));
      // The value, readable on hover and keyboard focus (not only in a tooltip).
      const show = () => { readout.textContent = `${player.name} — ${rt("step_of", { n: s.step, total })}: ${percent(s.win[index])}%`; };
      dot.addEventListener("mouseenter", show);
      dot.addEventListener("focus", show);
      dot.addEventListener("keydown", (event) => { if (event.key === "Enter") onStep(s.step); });
      group.append(dot);
    });
    chart.append(group);
  });
  const legend = el("ul", { className: "chart-legend" }, series.map((player) => el("li", {
    className: `fam-${player.colour}`,
  }, [el("span", { className: "legend-swatch" }), el("span", { className: "legend-name", text: player.name })])));
  const figure = el("figure", { className: "chart-figure win-figure" }, [chart, readout, el("figcaption", {}, [legend])]);
  return {
    figure,
    setCursor(step) {
      cursor.setAttribute("x1", x(step).toFixed(1));
      cursor.setAttribute("x2", x(step).toFixed(1));
    },
  };
}
