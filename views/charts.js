// Charts of the run's per-query values: the values of a chosen metric sorted (best query first)
// and their distribution (a histogram of ten bins), and trec_eval's 11-point interpolated
// precision-recall curve (iprec_at_recall) of every run on one chart. Each chart is an inline
// SVG that a screen reader hears as one image with a summary (role="img", <title>, <desc>),
// has its numbers as a table beside it, and downloads as a standalone .svg file.

import { $, el, fmt, nf, reportKeys, metricLabel, disclosure, svg } from "./dom.js";

const BINS = 10;
const TABLE_ROWS = 500; // rows in the sorted chart's data table (the per-query table has them all)
// The colours of the runs on the precision-recall chart (and their dash patterns, so the lines
// differ without colour too).
export const RUN_COLOURS = ["#2456c9", "#c2410c", "#15803d", "#7c3aed", "#b91c1c", "#0e7490", "#a16207", "#be185d", "#4d7c0f", "#475569"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 4", "6 2 2 2", "3 6", "12 3"];

// The page styles the charts with style.css / analysis.css; a downloaded file carries its own.
const EXPORT_STYLE = `
text { font: 12px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; fill: #1d1f23; }
.tick { fill: #5d636c; font-size: 11px; }
.grid line { stroke: #e4e6ea; }
.axis { stroke: #8a9099; }
.bar { fill: #2456c9; }
.bar-count { fill: #1d1f23; font-size: 11px; }
.area { fill: #e8eefc; stroke: none; }
.line { fill: none; stroke-width: 2; }
.point { stroke: #ffffff; stroke-width: 1; }
.legend-plate { fill: #ffffff; fill-opacity: 0.85; stroke: #e4e6ea; }
`;

const state = {
  ask: null,
  metric: null,
  report: null,
  comparison: null,
  curve: null,
  asked: 0,
  built: false,
  width: 0,
};


export function initCharts({ ask }) {
  state.ask = ask;
}

function build() {
  if (state.built) return;
  state.built = true;
  const select = el("select", { id: "chart-metric", "data-testid": "chart-metric-select" });
  select.addEventListener("change", () => {
    state.metric = select.value;
    drawValueCharts();
  });
  const figure = (name, title) => el("figure", { class: "chart", "data-chart": name, "data-testid": `chart-${name}` },
    el("figcaption", { class: "chart-title", id: `chart-${name}-title`, text: title }),
    el("div", { class: "chart-frame", id: `chart-${name}-frame` }),
    el("div", { class: "chart-tools" },
      el("button", { type: "button", class: "button quiet small", "data-download-svg": name, "data-testid": `chart-${name}-download`, text: "Download SVG" }),
      disclosure("chart-data", "Show as a table", el("div", { class: "table-scroll", id: `chart-${name}-table` }))));
  const section = el("section", { class: "charts-wrap", id: "charts", "data-testid": "charts", "aria-labelledby": "charts-title" },
    el("div", { class: "plot-head" }, el("h3", { id: "charts-title", text: "Charts" }),
      el("label", { class: "select-inline" }, "Metric ", select)),
    el("div", { class: "charts-grid" }, figure("sorted", "Per-query values, sorted"), figure("histogram", "Distribution")),
    figure("pr", "Precision-recall curve"));
  section.addEventListener("click", (event) => {
    const button = event.target.closest("[data-download-svg]");
    if (button) downloadSvg(button.dataset.downloadSvg);
  });
  const downloads = document.querySelector("#report .downloads");
  downloads.parentNode.insertBefore(section, downloads);
  if (typeof ResizeObserver !== "undefined") {
    let pending = 0;
    new ResizeObserver(() => {
      cancelAnimationFrame(pending);
      pending = requestAnimationFrame(() => {
        const width = Math.round($("chart-pr-frame").clientWidth);
        if (width && Math.abs(width - state.width) >= 8 && state.report) {
          drawValueCharts();
          drawCurve();
        }
      });
    }).observe(section);
  }
}

/** Draws the charts of a new result (the curve once the worker sends it). */
export function renderCharts(report, comparison) {
  build();
  state.report = report;
  state.comparison = comparison;
  const keys = reportKeys(report);
  if (!keys.includes(state.metric)) state.metric = keys.find((k) => k.startsWith("ndcg@")) || keys[0];
  const select = $("chart-metric");
  select.replaceChildren(...keys.map((key) => el("option", { value: key, text: metricLabel(key) })));
  select.value = state.metric;
  drawValueCharts();
  loadCurve();
}

async function loadCurve() {
  const asked = ++state.asked;
  const frame = $("chart-pr-frame");
  frame.closest(".chart").dataset.state = "loading";
  if (!state.curve) frame.replaceChildren(el("p", { class: "help", text: "computing the curve…" }));
  let curve;
  try {
    curve = await state.ask({ type: "precision_recall" });
  } catch (err) {
    if (asked === state.asked && !err.stale) frame.replaceChildren(el("p", { class: "error", text: `Could not compute the curve: ${err.message}` }));
    return;
  }
  if (asked !== state.asked) return;
  state.curve = curve.error ? null : curve;
  if (curve.error) {
    frame.replaceChildren(el("p", { class: "error", text: curve.error.message }));
    return;
  }
  drawCurve();
}

function frameWidth(frame) {
  return Math.max(260, Math.round(frame.clientWidth || 600));
}

function root(name, width, height, title, desc) {
  const node = svg("svg", {
    width, height, viewBox: `0 0 ${width} ${height}`, role: "img", class: `chart-svg chart-${name}`,
    "aria-labelledby": `svg-${name}-title svg-${name}-desc`, tabindex: "0", "data-testid": `chart-${name}-svg`,
  });
  node.append(svg("title", { id: `svg-${name}-title` }, title), svg("desc", { id: `svg-${name}-desc` }, desc));
  return node;
}

function yAxis(node, m, w, h, ticks, format, label) {
  const grid = svg("g", { class: "grid", "aria-hidden": "true" });
  for (const [value, y] of ticks) {
    grid.append(svg("line", { x1: m.left, x2: m.left + w, y1: y, y2: y }));
    grid.append(svg("text", { x: m.left - 6, y, class: "tick", "text-anchor": "end", "dominant-baseline": "middle" }, format(value)));
  }
  node.append(grid);
  node.append(svg("text", { class: "axis-label", "text-anchor": "middle", transform: `translate(13 ${m.top + h / 2}) rotate(-90)`, "aria-hidden": "true" }, label));
}

function values() {
  const { report, metric } = state;
  const out = [];
  for (const [qid, row] of Object.entries(report.per_query)) {
    const v = row[metric];
    if (typeof v === "number" && Number.isFinite(v)) out.push([qid, v]);
  }
  const collator = new Intl.Collator("en", { numeric: true });
  out.sort((a, b) => b[1] - a[1] || collator.compare(a[0], b[0]));
  return out;
}

function drawValueCharts() {
  if (!state.report || !state.metric) return;
  const rows = values();
  drawSorted(rows);
  drawHistogram(rows);
}

function drawSorted(rows) {
  const frame = $("chart-sorted-frame");
  const label = metricLabel(state.metric);
  const width = frameWidth(frame);
  state.width = Math.round($("chart-pr-frame").clientWidth || width);
  const height = 220;
  const m = { top: 12, right: 12, bottom: 32, left: 46 };
  const w = width - m.left - m.right;
  const h = height - m.top - m.bottom;
  const n = rows.length;
  const mean = n ? rows.reduce((s, r) => s + r[1], 0) / n : NaN;
  const median = n ? (n % 2 ? rows[(n - 1) / 2][1] : (rows[n / 2 - 1][1] + rows[n / 2][1]) / 2) : NaN;
  const zeros = rows.filter((r) => r[1] === 0).length;
  const title = `${label} per query, sorted from best to worst`;
  const desc = n
    ? `${nf.format(n)} quer${n === 1 ? "y" : "ies"}: highest ${fmt(rows[0][1])} (${rows[0][0]}), median ${fmt(median)}, ` +
      `lowest ${fmt(rows[n - 1][1])} (${rows[n - 1][0]}), mean ${fmt(mean)}; ${nf.format(zeros)} at 0.`
    : `No query has a value for ${label}.`;
  const node = root("sorted", width, height, title, desc);
  node.dataset.queries = String(n);
  const top = Math.max(1, n ? rows[0][1] : 1);
  const y = (v) => m.top + (1 - v / top) * h;
  yAxis(node, m, w, h, [0, 0.25, 0.5, 0.75, 1].map((f) => [f * top, y(f * top)]), (v) => v.toFixed(2), label);
  if (n) {
    // A step area through every query (sampled per pixel column when there are more queries than
    // pixels; the values are sorted, so sampling keeps the shape).
    const x = (i) => m.left + (n === 1 ? w / 2 : (i / (n - 1)) * w);
    const stepTo = Math.max(1, Math.floor(n / Math.max(1, w)));
    if (n === 1) {
      // One query is one value: a bar up to it (an area from the axis's corner would be a
      // triangle that means nothing), with its point below.
      const bar = Math.min(48, w / 3);
      node.append(svg("rect", { x: (x(0) - bar / 2).toFixed(1), y: y(rows[0][1]).toFixed(1), width: bar.toFixed(1),
        height: Math.max(0, y(0) - y(rows[0][1])).toFixed(1), class: "area", "data-testid": "chart-sorted-bar" }));
    }
    let d = `M${m.left} ${y(0)}`;
    for (let i = 0; i < n; i += stepTo) d += ` L${x(i).toFixed(1)} ${y(rows[i][1]).toFixed(1)}`;
    d += ` L${x(n - 1).toFixed(1)} ${y(rows[n - 1][1]).toFixed(1)} L${x(n - 1).toFixed(1)} ${y(0)} Z`;
    if (n > 1) node.append(svg("path", { d, class: "area" }));
    let line = "";
    for (let i = 0; i < n; i += stepTo) line += `${line ? " L" : "M"}${x(i).toFixed(1)} ${y(rows[i][1]).toFixed(1)}`;
    line += ` L${x(n - 1).toFixed(1)} ${y(rows[n - 1][1]).toFixed(1)}`;
    node.append(svg("path", { d: line, class: "line", stroke: RUN_COLOURS[0] }));
    if (n <= 60) {
      const dots = svg("g", { class: "points" });
      rows.forEach(([qid, v], i) => {
        const c = svg("circle", { cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 3, class: "point", fill: RUN_COLOURS[0], "data-qid": qid });
        c.append(svg("title", {}, `${qid}: ${fmt(v)}`));
        dots.append(c);
      });
      node.append(dots);
    }
    const meanY = y(mean);
    node.append(svg("line", { x1: m.left, x2: m.left + w, y1: meanY, y2: meanY, class: "mean-line", "stroke-dasharray": "4 3", stroke: "#5d636c" }));
    node.append(svg("text", { x: m.left + w - 2, y: meanY - 4, class: "tick", "text-anchor": "end" }, `mean ${fmt(mean)}`));
  }
  node.append(svg("line", { x1: m.left, x2: m.left + w, y1: y(0), y2: y(0), class: "axis" }));
  node.append(svg("text", { class: "axis-label", x: m.left + w / 2, y: height - 8, "text-anchor": "middle", "aria-hidden": "true" },
    n ? `${nf.format(n)} quer${n === 1 ? "y" : "ies"}, best first` : "no values"));
  frame.replaceChildren(node);

  const body = el("tbody");
  rows.slice(0, TABLE_ROWS).forEach(([qid, v], i) => body.append(el("tr", {}, el("td", { text: String(i + 1) }),
    el("th", { scope: "row", class: "label", text: qid }), el("td", { "data-value": String(v), text: fmt(v) }))));
  const table = el("table", { class: "numbers", "data-testid": "chart-sorted-table" },
    el("caption", { text: n > TABLE_ROWS ? `the best ${nf.format(TABLE_ROWS)} of ${nf.format(n)} queries (the per-query table lists all)` : `${label} per query, best first` }),
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "#" }), el("th", { scope: "col", class: "label", text: "Query" }), el("th", { scope: "col", text: label }))), body);
  $("chart-sorted-table").replaceChildren(table);
}

/** Counts per bin of width 0.1 over [0, 1] (the last bin holds 1.0; values above 1 go there too). */
export function histogram(vals, bins = BINS) {
  const counts = new Array(bins).fill(0);
  for (const v of vals) counts[Math.max(0, Math.min(bins - 1, Math.floor(v * bins + 1e-9)))]++;
  return counts;
}

function binLabel(i) {
  const lo = (i / BINS).toFixed(1);
  const hi = ((i + 1) / BINS).toFixed(1);
  return i === BINS - 1 ? `${lo}–${hi}` : `${lo}–<${hi}`;
}

function drawHistogram(rows) {
  const frame = $("chart-histogram-frame");
  const label = metricLabel(state.metric);
  const width = frameWidth(frame);
  const height = 220;
  const m = { top: 18, right: 12, bottom: 32, left: 46 };
  const w = width - m.left - m.right;
  const h = height - m.top - m.bottom;
  const counts = histogram(rows.map((r) => r[1]));
  const n = rows.length;
  const most = Math.max(1, ...counts);
  const stepCount = Math.max(1, Math.ceil(most / 4));
  const topCount = stepCount * Math.ceil(most / stepCount);
  const y = (c) => m.top + (1 - c / topCount) * h;
  const title = `Distribution of ${label} over ${nf.format(n)} quer${n === 1 ? "y" : "ies"}`;
  const desc = n
    ? "Queries per value range: " + counts.map((c, i) => `${binLabel(i)}: ${nf.format(c)}`).join("; ") + "."
    : `No query has a value for ${label}.`;
  const node = root("histogram", width, height, title, desc);
  const ticks = [];
  for (let c = 0; c <= topCount; c += stepCount) ticks.push([c, y(c)]);
  yAxis(node, m, w, h, ticks, (c) => nf.format(c), "queries");
  const slot = w / BINS;
  const bars = svg("g", { class: "bars" });
  counts.forEach((c, i) => {
    const x = m.left + i * slot + 1;
    const rect = svg("rect", { x: x.toFixed(1), y: y(c).toFixed(1), width: Math.max(1, slot - 2).toFixed(1), height: Math.max(0, y(0) - y(c)).toFixed(1), class: "bar", "data-count": c });
    rect.append(svg("title", {}, `${binLabel(i)}: ${nf.format(c)} quer${c === 1 ? "y" : "ies"}`));
    bars.append(rect);
    if (c && slot >= 18) bars.append(svg("text", { x: (x + slot / 2 - 1).toFixed(1), y: (y(c) - 4).toFixed(1), class: "bar-count", "text-anchor": "middle" }, nf.format(c)));
  });
  node.append(bars);
  node.append(svg("line", { x1: m.left, x2: m.left + w, y1: y(0), y2: y(0), class: "axis" }));
  const axis = svg("g", { "aria-hidden": "true" });
  const every = slot < 28 ? 5 : slot < 40 ? 2 : 1;
  for (let i = 0; i <= BINS; i += every) {
    axis.append(svg("text", { x: m.left + i * slot, y: m.top + h + 14, class: "tick", "text-anchor": "middle" }, (i / BINS).toFixed(1)));
  }
  node.append(axis);
  node.append(svg("text", { class: "axis-label", x: m.left + w / 2, y: height - 4, "text-anchor": "middle", "aria-hidden": "true" }, label));
  frame.replaceChildren(node);

  const body = el("tbody");
  counts.forEach((c, i) => body.append(el("tr", {}, el("th", { scope: "row", class: "label", text: binLabel(i) }), el("td", { "data-value": String(c), text: nf.format(c) }))));
  $("chart-histogram-table").replaceChildren(el("table", { class: "numbers", "data-testid": "chart-histogram-table" },
    el("caption", { text: title }),
    el("thead", {}, el("tr", {}, el("th", { scope: "col", class: "label", text: label }), el("th", { scope: "col", text: "Queries" }))), body));
}

function runName(name) {
  return name === "run" ? (state.comparison ? "results (candidate)" : "results") : name;
}

function drawCurve() {
  const curve = state.curve;
  const frame = $("chart-pr-frame");
  if (!curve) return;
  frame.closest(".chart").dataset.state = "ready";
  const width = frameWidth(frame);
  state.width = width;
  frame.replaceChildren(curveSvg(curve, width, runName, "pr"));
  $("chart-pr-table").replaceChildren(curveTable(curve, runName, "chart-pr-table"));
}

/**
 * The precision-recall chart of `curve` ({recall, runs: [{name, precision, queries}]}) as an SVG
 * `width` pixels wide; `label(name)` names a run in the legend. `name` keys its test ids.
 */
export function curveSvg(curve, width, label = (n) => n, name = "pr") {
  const runs = curve.runs;
  const longest = Math.max(0, ...runs.map((r) => label(r.name).length));
  // The legend sits in the top-right corner when it is small, else under the chart (a phone,
  // or many runs), in as many columns as fit.
  const below = runs.length > 4 || width < 560 && runs.length > 2;
  const legendWidth = below ? Math.min(width - 60, Math.max(90, longest * 7 + 36)) : Math.min(Math.max(90, longest * 7 + 36), Math.round(width * 0.45));
  const columns = below ? Math.max(1, Math.floor((width - 50) / (legendWidth + 12))) : 1;
  const legendRows = below ? Math.ceil(runs.length / columns) : 0;
  const plotHeight = width < 560 ? 260 : 300;
  const height = plotHeight + (below ? legendRows * 18 + 8 : 0);
  const m = { top: 14, right: 16, bottom: 40 + (below ? legendRows * 18 + 8 : 0), left: 46 };
  const w = width - m.left - m.right;
  const h = height - m.top - m.bottom;
  const x = (r) => m.left + r * w;
  const y = (p) => m.top + (1 - p) * h;
  const title = `Interpolated precision at 11 recall levels (trec_eval iprec_at_recall), mean over ${nf.format(runs[0]?.queries ?? 0)} queries`;
  const desc = runs.map((r) => `${label(r.name)}: ` + curve.recall.map((rec, i) => `${rec.toFixed(1)} → ${fmt(r.precision[i])}`).join(", ")).join(". ") + ".";
  const node = root(name, width, height, title, desc);
  node.dataset.runs = String(runs.length);
  yAxis(node, m, w, h, [0, 0.2, 0.4, 0.6, 0.8, 1].map((p) => [p, y(p)]), (p) => p.toFixed(1), "precision");
  const axis = svg("g", { "aria-hidden": "true" });
  for (let i = 0; i <= 10; i += w < 360 ? 2 : 1) axis.append(svg("text", { x: x(i / 10), y: m.top + h + 14, class: "tick", "text-anchor": "middle" }, (i / 10).toFixed(1)));
  node.append(axis);
  node.append(svg("line", { x1: m.left, x2: m.left + w, y1: y(0), y2: y(0), class: "axis" }));
  node.append(svg("text", { class: "axis-label", x: m.left + w / 2, y: m.top + h + 34, "text-anchor": "middle", "aria-hidden": "true" }, "recall"));
  runs.forEach((r, k) => {
    const colour = RUN_COLOURS[k % RUN_COLOURS.length];
    const g = svg("g", { class: "run", "data-run": r.name });
    const d = r.precision.map((p, i) => `${i ? "L" : "M"}${x(curve.recall[i]).toFixed(1)} ${y(p).toFixed(1)}`).join(" ");
    g.append(svg("path", { d, class: "line", stroke: colour, "stroke-dasharray": DASHES[k % DASHES.length] || undefined }));
    r.precision.forEach((p, i) => {
      const c = svg("circle", { cx: x(curve.recall[i]).toFixed(1), cy: y(p).toFixed(1), r: 3.5, class: "point", fill: colour });
      c.append(svg("title", {}, `${label(r.name)}: precision ${fmt(p)} at recall ${curve.recall[i].toFixed(1)}`));
      g.append(c);
    });
    node.append(g);
  });
  // The legend inside the chart (so the downloaded file has it), top right, on a plate.
  const legend = svg("g", { class: "legend", "aria-hidden": "true" });
  if (!below) {
    legend.append(svg("rect", { x: m.left + w - legendWidth - 6, y: m.top, width: legendWidth + 4, height: runs.length * 16 + 6, class: "legend-plate" }));
  }
  runs.forEach((r, k) => {
    const lx = below ? 16 + (k % columns) * (legendWidth + 12) : m.left + w - legendWidth;
    const ly = below ? m.top + h + 52 + Math.floor(k / columns) * 18 : m.top + 11 + k * 16;
    legend.append(svg("line", { x1: lx, x2: lx + 22, y1: ly, y2: ly, class: "line", stroke: RUN_COLOURS[k % RUN_COLOURS.length], "stroke-dasharray": DASHES[k % DASHES.length] || undefined }));
    const text = label(r.name);
    const room = Math.floor((legendWidth - 34) / 7);
    legend.append(svg("text", { x: lx + 28, y: ly, "dominant-baseline": "middle" }, text.length > room ? text.slice(0, room - 1) + "…" : text));
  });
  node.append(legend);
  return node;
}

/** The curve's numbers as a table: a recall level per row, a run per column. */
export function curveTable(curve, label = (n) => n, testid = "chart-pr-table") {
  const runs = curve.runs;
  const head = el("tr", {}, el("th", { scope: "col", class: "label", text: "Recall" }), ...runs.map((r) => el("th", { scope: "col", text: label(r.name) })));
  const body = el("tbody");
  curve.recall.forEach((rec, i) => body.append(el("tr", {}, el("th", { scope: "row", class: "label", text: rec.toFixed(1) }),
    ...runs.map((r) => el("td", { "data-value": String(r.precision[i]), text: fmt(r.precision[i]) })))));
  return el("table", { class: "numbers", "data-testid": testid }, el("caption", { text: "Interpolated precision at each recall level" }), el("thead", {}, head), body);
}

/** The chart as a standalone SVG file: its own styles, an XML declaration, no page CSS needed. */
export function svgFile(name) {
  const node = document.querySelector(`[data-testid=chart-${name}-svg]`);
  if (!node) return null;
  const copy = node.cloneNode(true);
  copy.removeAttribute("tabindex");
  copy.insertBefore(svg("style", {}, EXPORT_STYLE), copy.firstChild.nextSibling.nextSibling);
  copy.insertBefore(svg("rect", { width: "100%", height: "100%", fill: "#ffffff" }), copy.querySelector("style").nextSibling);
  const text = '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(copy) + "\n";
  const metric = name.endsWith("pr") ? "" : `-${state.metric.replace(/[^A-Za-z0-9_.-]+/g, "_")}`;
  const file = { sorted: "per-query-sorted", histogram: "per-query-histogram", pr: "precision-recall", "many-pr": "precision-recall-runs" }[name];
  return { name: `retrieval-metrics-${file}${metric}.svg`, text };
}

export function downloadSvg(name) {
  const file = svgFile(name);
  if (!file) return;
  const url = URL.createObjectURL(new Blob([file.text], { type: "image/svg+xml;charset=utf-8" }));
  const a = el("a", { href: url, download: file.name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
