// A rating's history as an inline SVG line chart (no library): one point per rated game.

import { svg } from "./dom.js";

const WIDTH = 480;
const HEIGHT = 160;
const PAD = { left: 44, right: 10, top: 10, bottom: 22 };

/** The chart of `points` ([{rating, at}], oldest first), titled `label` for screen readers. */
export function ratingChart(points, label) {
  const ratings = points.map((p) => p.rating);
  let low = Math.min(...ratings);
  let high = Math.max(...ratings);
  if (high - low < 40) {
    const middle = (high + low) / 2;
    low = middle - 20;
    high = middle + 20;
  }
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i) => PAD.left + (points.length === 1 ? innerW / 2 : (i * innerW) / (points.length - 1));
  const y = (r) => PAD.top + ((high - r) * innerH) / (high - low);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  const ticks = [high, Math.round((high + low) / 2), low].map((r) => Math.round(r));
  return svg("svg", {
    class: "rating-chart",
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: "img",
    "aria-label": label,
    "data-testid": "rating-chart",
  }, [
    ...ticks.map((r) => svg("line", {
      class: "rating-grid", x1: PAD.left, x2: WIDTH - PAD.right, y1: y(r), y2: y(r),
    })),
    ...ticks.map((r) => {
      const text = svg("text", { class: "rating-tick", x: PAD.left - 6, y: y(r) + 4, "text-anchor": "end" });
      text.textContent = String(r);
      return text;
    }),
    svg("polyline", { class: "rating-line", points: line, fill: "none" }),
    ...points.map((p, i) => {
      const dot = svg("circle", { class: "rating-dot", cx: x(i), cy: y(p.rating), r: 3, "data-testid": "rating-point" });
      const title = svg("title");
      title.textContent = `${p.rating} — ${new Date(p.at * 1000).toLocaleDateString()}`;
      dot.append(title);
      return dot;
    }),
  ]);
}
