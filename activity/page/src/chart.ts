// The end-of-match chart of running totals, drawn as SVG from the figures in the frame (as cogs/charts.py
// draws the chat's PNG): a line per seat in colours colour-blind readers tell apart, each line's final total
// at its end, and a key below naming each colour, so no colour has to be matched by eye alone.
import { el, svg } from "./dom";
import type { FinalScreen } from "./types";

// The Okabe-Ito palette, then brown, black and grey: the chat chart's colours, seat by seat.
export const LINE_COLOURS = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#d55e00", "#8a7a00", "#7b4a12", "#000000", "#999999"];
const LEFT = 52; // the plot's left edge, or further right where a tick is wider ("-600"), clear of the axis's title
const DIGIT = 8.5; // about how wide a digit or minus sign is at the ticks' font size
const TOP = 14;
const LABEL_GAP = 14; // the least distance between two totals written at the line ends
const SMALL_SCORES = 20; // at most this far from 0, totals are drawn as steps with a dot at every deal
const AXIS = "#4e5058";
const GRID = "#e3e5e8";

type Chart = NonNullable<FinalScreen["chart"]>;

/** Round, evenly spaced values covering low..high, at most `most` of them. */
export function ticks(low: number, high: number, most: number): number[] {
  const span = Math.max(high - low, 1);
  let step = 1;
  while (span / step > most) {
    const factor = [2, 5, 10].find((f) => span / (step * f) <= most);
    step *= factor ?? 10;
  }
  const first = Math.floor(low / step) * step;
  const out: number[] = [];
  for (let value = first; value < high + step; value += step) out.push(value);
  return out;
}

/** Positions for labels wanted at `wanted` (in order, top first): each at least `gap` below the one before, a group
 *  that would touch spread evenly about where its labels want to be, all within `top`..`bottom` where they fit. */
export function spacedApart(wanted: number[], gap: number, top: number, bottom: number): number[] {
  // runs of labels that touch, each placed as a whole at the mean of where its labels want it
  const runs: { first: number; count: number; sum: number }[] = [];
  const startOf = (run: { count: number; sum: number }): number => run.sum / run.count;
  wanted.forEach((y, index) => {
    let run = { first: index, count: 1, sum: y };
    for (let before = runs[runs.length - 1]; before && startOf(before) + before.count * gap > startOf(run); before = runs[runs.length - 1]) {
      runs.pop();
      run = { first: before.first, count: before.count + run.count, sum: before.sum + run.sum - run.count * before.count * gap };
    }
    runs.push(run);
  });
  const out = [...wanted];
  for (const run of runs) for (let k = 0; k < run.count; k++) out[run.first + k] = startOf(run) + k * gap;
  const last = out.length - 1;
  // within the bottom, then the top (which wins only where they cannot all fit)
  for (let i = last; i >= 0; i--) out[i] = Math.min(out[i] ?? 0, i === last ? bottom : (out[i + 1] ?? bottom) - gap);
  for (let i = 0; i <= last; i++) out[i] = Math.max(out[i] ?? 0, i ? (out[i - 1] ?? 0) + gap : top);
  return out;
}

function text(x: number, y: number, content: string, attrs: Record<string, string | number> = {}): SVGTextElement {
  const node = svg("text", { x, y, fill: AXIS, "font-size": 13, ...attrs });
  node.textContent = content;
  return node;
}

export function colourOf(seat: number): string {
  return LINE_COLOURS[seat % LINE_COLOURS.length] ?? "#000000";
}

/** The chart and its key: a figure whose picture is labelled for screen readers. */
export function totalsChart(chart: Chart, narrow = false): HTMLElement {
  // a phone draws it smaller in units, so that its words stay readable once scaled to the screen
  const [WIDTH, HEIGHT] = narrow ? [400, 260] : [640, 300];
  const RIGHT = WIDTH - 40;
  const BOTTOM = HEIGHT - 44;
  const lines = chart.lines;
  const deals = Math.max(1, ...lines.map((line) => line.length - 1));
  const values = lines.flat();
  const steps = Math.max(0, ...values.map(Math.abs)) <= SMALL_SCORES;
  const yTicks = ticks(Math.min(0, ...values), Math.max(0, ...values), 6);
  const low = yTicks[0] ?? 0;
  const last = yTicks[yTicks.length - 1] ?? 1;
  const high = last > low ? last : low + 1;
  const left = Math.max(LEFT, 26 + DIGIT * Math.max(...yTicks.map((tick) => String(tick).length)));
  const x = (deal: number): number => left + ((RIGHT - left) * deal) / deals;
  const y = (value: number): number => BOTTOM - ((BOTTOM - TOP) * (value - low)) / (high - low);
  const root = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "chart", role: "img", "aria-label": chart.title });
  root.append(svg("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, rx: 10, fill: "#ffffff" }));
  for (const tick of yTicks) {
    root.append(svg("line", { x1: left, x2: RIGHT, y1: y(tick), y2: y(tick), stroke: tick === 0 ? AXIS : GRID }));
    root.append(text(left - 6, y(tick) + 4, String(tick), { "text-anchor": "end" }));
  }
  for (const deal of ticks(0, deals, 12)) {
    if (deal <= deals) root.append(text(x(deal), BOTTOM + 16, String(deal), { "text-anchor": "middle" }));
  }
  root.append(svg("path", { d: `M${left} ${TOP}V${BOTTOM}H${RIGHT}`, stroke: AXIS, fill: "none" }));
  root.append(text((left + RIGHT) / 2, HEIGHT - 6, chart.x, { "text-anchor": "middle" }));
  root.append(text(14, (TOP + BOTTOM) / 2, chart.y, { "text-anchor": "middle", transform: `rotate(-90 14 ${(TOP + BOTTOM) / 2})`, "font-size": 12 }));
  const spread = 2.5; // lines that run together (a tie, partners) sit side by side, not on top of each other
  const ends: { x: number; y: number; total: number; colour: string }[] = [];
  lines.forEach((line, seat) => {
    const colour = colourOf(seat);
    const shift = (seat - (lines.length - 1) / 2) * spread;
    const points = line.map((value, deal): [number, number] => [x(deal), y(value) + shift]);
    const drawn: [number, number][] = [];
    for (const point of points) {
      const previous = drawn[drawn.length - 1];
      if (steps && previous) drawn.push([point[0], previous[1]]);
      drawn.push(point);
    }
    root.append(svg("polyline", {
      points: drawn.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(" "),
      fill: "none", stroke: colour, "stroke-width": 3, "stroke-linejoin": "round", "data-seat": seat,
    }));
    if (steps) for (const [px, py] of points) root.append(svg("circle", { cx: px, cy: py, r: 3, fill: colour }));
    const end = points[points.length - 1];
    if (end) {
      root.append(svg("circle", { cx: end[0], cy: end[1], r: 5, fill: colour, stroke: AXIS }));
      ends.push({ x: end[0], y: end[1], total: line[line.length - 1] ?? 0, colour });
    }
  });
  // Every total written at its line's end (a tie once: the key has them all), totals close together moved apart
  // and joined to their line by a short stroke (a total a few points from another was left out).
  const groups = new Map<number, { x: number; y: number; colours: Set<string> }>();
  for (const end of ends) {
    const group = groups.get(end.total);
    if (group) {
      group.colours.add(end.colour);
      group.y = Math.min(group.y, end.y);
    } else groups.set(end.total, { x: end.x, y: end.y, colours: new Set([end.colour]) });
  }
  const labels = [...groups.entries()].map(([total, group]) => ({ total, ...group })).sort((a, b) => a.y - b.y);
  const at = spacedApart(labels.map((label) => label.y), LABEL_GAP, TOP, HEIGHT - 4);
  labels.forEach((label, index) => {
    const placed = at[index] ?? label.y;
    const [only] = label.colours.size === 1 ? [...label.colours] : [AXIS];
    const colour = only === undefined || only === "#999999" ? AXIS : only;
    if (Math.abs(placed - label.y) > 2) {
      root.append(svg("line", { x1: label.x + 5, y1: label.y, x2: label.x + 9, y2: placed, stroke: colour, "stroke-width": 1 }));
    }
    root.append(text(label.x + 10, placed + 4, String(label.total), { fill: colour, "font-weight": 700 }));
  });
  const key = el("ul", { class: "chart-key" });
  const order = lines.map((line, seat) => ({ seat, total: line[line.length - 1] ?? 0 })).sort((a, b) => b.total - a.total);
  for (const { seat, total } of order) {
    key.append(el("li", {}, [
      el("span", { class: "swatch", style: `background:${colourOf(seat)}`, "aria-hidden": "true" }),
      el("span", { class: "name", text: chart.names[seat] ?? String(seat + 1) }),
      el("span", { class: "score", text: String(total) }),
    ]));
  }
  return el("figure", { class: "chart-box" }, [root, key, el("figcaption", { class: "muted", text: chart.title })]);
}
