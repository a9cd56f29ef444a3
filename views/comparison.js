// The comparison with a baseline: a table of every metric key (means, difference, wins / ties /
// losses, p-value and how it was computed), the comparison's notices, and a per-query difference
// plot (inline SVG) for a chosen metric. Query ids are only ever set as text (textContent, SVG
// <title> text), never parsed as HTML.

import { el, nf, svg } from "./dom.js";

const SIGNIFICANCE = 0.05;
const MIN_BAR_PX = 2; // below this, consecutive queries (in difference order) share a bar
const MAX_BAR_PX = 48;



const finite = (v) => typeof v === "number" && Number.isFinite(v);

export function fmtValue(v) {
  return finite(v) ? v.toFixed(4) : "—";
}

/** A signed difference: +0.1234, −0.1234 (a real minus sign), 0.0000. */
export function fmtDelta(v, digits = 4) {
  if (!finite(v)) return "—";
  const text = Math.abs(v).toFixed(digits);
  if (Number(text) === 0) return (0).toFixed(digits);
  return (v > 0 ? "+" : "−") + text;
}

export function fmtP(p) {
  if (!finite(p)) return "—";
  if (p >= 0.001) return String(Number(p.toPrecision(3)));
  return p.toExponential(2).replace("e-", "e−");
}

/** How a p-value was computed, in words: "exact, 2^12 patterns" or "100,000 samples, seed 0". */
export function methodText(record) {
  if (!record.n) return "no paired queries";
  if (record.method === "exact") return `exact, 2^${record.n} patterns`;
  return `${nf.format(record.samples ?? 0)} samples, seed ${record.seed ?? 0}`;
}

const state = {
  plotKey: null, // the metric the person chose for the plot (kept across re-scores)
  comparison: null,
  label: (key) => key,
  observer: null,
  width: 0,
};

/**
 * Draws the comparison section, or hides it when `comparison` is null.
 * options: {label(key) -> "nDCG@10", renderNotices(list, notices)}
 */
export function renderComparison(comparison, options = {}) {
  const root = document.getElementById("comparison");
  if (options.offerDownloads) options.offerDownloads(Boolean(comparison));
  state.comparison = comparison;
  if (!comparison) {
    root.hidden = true;
    return;
  }
  if (options.label) state.label = options.label;
  root.hidden = false;
  renderTable(comparison);
  const list = document.getElementById("comparison-notices");
  const notices = comparison.notices || [];
  list.hidden = !notices.length;
  if (notices.length && options.renderNotices) options.renderNotices(notices, list);
  else list.replaceChildren();
  renderPlotChooser(comparison);
  drawPlot();
  watchWidth();
}

function renderTable(comparison) {
  const label = state.label;
  const table = document.getElementById("comparison-table");
  const columns = [
    ["Metric", "label"], ["Baseline", ""], ["Candidate", ""], ["Difference", ""],
    ["Wins", "wtl"], ["Ties", "wtl"], ["Losses", "wtl"], ["p", ""], ["Test", "label method"],
  ];
  const head = el("tr");
  for (const [text, cls] of columns) head.append(el("th", { scope: "col", class: cls || undefined, text }));
  // The baseline scored with other settings (gain, missing, ...): the difference mixes the runs
  // with the settings, so no p-value is shown as significant.
  const mixed = (comparison.notices || []).some((n) => n.code === "settings_differ");
  const body = el("tbody");
  for (const r of comparison.metrics) {
    const sign = !finite(r.delta) || r.delta === 0 ? "zero" : r.delta > 0 ? "up" : "down";
    const significant = !mixed && finite(r.p_value) && r.p_value < SIGNIFICANCE;
    const num = (field, text, cls) => el("td", {
      "data-field": field, "data-value": r[field] === undefined || r[field] === null ? "" : String(r[field]),
      class: cls, text,
    });
    const row = el("tr", { "data-metric": r.metric },
      el("th", { scope: "row", class: "label", text: label(r.metric) }),
      num("baseline_mean", fmtValue(r.baseline_mean)),
      num("candidate_mean", fmtValue(r.candidate_mean)),
      num("delta", fmtDelta(r.delta), `delta ${sign}`),
      num("wins", nf.format(r.wins), "wtl win"),
      num("ties", nf.format(r.ties), "wtl"),
      num("losses", nf.format(r.losses), "wtl loss"),
      num("p_value", fmtP(r.p_value), mixed ? "p muted" : significant ? "p significant" : "p"),
      el("td", { "data-field": "method", "data-value": r.method, class: "method", text: methodText(r) }),
    );
    body.append(row);
  }
  table.replaceChildren(el("thead", {}, head), body);
  const n = comparison.paired_queries;
  document.getElementById("comparison-caption").textContent =
    `over ${nf.format(n)} quer${n === 1 ? "y" : "ies"} scored in both`;
  renderExplanation(comparison, mixed);
}

/** What the columns mean, in visible text (not tooltips): reachable by touch and keyboard. */
function renderExplanation(comparison, mixed) {
  const box = document.getElementById("comparison-explain");
  const tested = comparison.metrics.filter((r) => finite(r.p_value)).length;
  const anySignificant = comparison.metrics.some((r) => finite(r.p_value) && r.p_value < SIGNIFICANCE);
  const items = [
    ["Difference", "candidate mean − baseline mean."],
    ["Wins, ties, losses", "queries where the candidate scores higher than, the same as, or lower than the baseline."],
    ["p", `the chance of a mean difference at least this large if the two runs were interchangeable: a two-sided ` +
      `paired randomisation test that flips the sign of each query's difference` +
      (mixed ? "." : anySignificant ? `; p < ${SIGNIFICANCE} is in bold.` : ".")],
    ["Test", `exact (every one of the 2^n sign patterns) up to ${nf.format(comparison.exact_max_n)} queries, ` +
      "else that many random samples with the seed shown, so the p-value can be reproduced."],
  ];
  const list = el("dl", { class: "explain-list" });
  for (const [term, text] of items) list.append(el("dt", { text: term }), el("dd", { text }));
  const parts = [list];
  if (tested > 1) {
    const bonferroni = SIGNIFICANCE / tested;
    parts.push(el("p", { class: "multiple", "data-testid": "multiple-testing",
      text: `${nf.format(tested)} p-values are shown, one per metric. When the runs do not differ, about 1 in 20 ` +
        `tests still gives p < ${SIGNIFICANCE} by chance, so with ${nf.format(tested)} some can: correct for ` +
        `multiple testing before calling a difference significant (Bonferroni: p < ${fmtP(bonferroni)}), ` +
        "or choose the one metric that matters before looking." }));
  }
  if (mixed) {
    parts.push(el("p", { class: "mixed", "data-testid": "p-muted-note",
      text: "The baseline was scored with other settings (see the warning below), so each difference mixes the " +
        "runs with the settings: the p-values are greyed out and none is marked significant. Score both with " +
        "the same settings to test the runs." }));
  }
  box.replaceChildren(...parts);
}

function renderPlotChooser(comparison) {
  const select = document.getElementById("plot-metric");
  const keys = comparison.metrics.map((r) => r.metric);
  if (!keys.includes(state.plotKey)) {
    state.plotKey = keys.find((k) => k.startsWith("ndcg@")) || keys[0] || null;
  }
  select.replaceChildren(...keys.map((key) => el("option", { value: key, text: state.label(key) })));
  if (state.plotKey) select.value = state.plotKey;
  if (!select.dataset.wired) {
    select.dataset.wired = "1";
    select.addEventListener("change", () => {
      state.plotKey = select.value;
      drawPlot();
    });
  }
}

function watchWidth() {
  if (state.observer || typeof ResizeObserver === "undefined") return;
  const frame = document.getElementById("difference-plot-frame");
  let pending = 0;
  state.observer = new ResizeObserver(() => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(() => {
      const width = Math.round(frame.clientWidth);
      if (width && Math.abs(width - state.width) >= 8 && state.comparison) drawPlot();
    });
  });
  state.observer.observe(frame);
}

/** Groups the sorted rows into at most `slots` bars (one per query when they fit). */
function bars(rows, slots) {
  if (rows.length <= slots) return rows.map((r, i) => ({ from: i, to: i, value: r.delta, rows: [r] }));
  const out = [];
  for (let b = 0; b < slots; b++) {
    const from = Math.floor((b * rows.length) / slots);
    const to = Math.floor(((b + 1) * rows.length) / slots) - 1;
    if (to < from) continue;
    let sum = 0;
    for (let i = from; i <= to; i++) sum += rows[i].delta;
    out.push({ from, to, value: sum / (to - from + 1), rows: rows.slice(from, to + 1) });
  }
  return out;
}

function niceStep(range) {
  const raw = range / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}

export function drawPlot() {
  const frame = document.getElementById("difference-plot-frame");
  const legend = document.getElementById("plot-legend");
  const comparison = state.comparison;
  const key = state.plotKey;
  const rows = (comparison && key && comparison.per_query[key]) || [];
  const label = state.label(key || "");
  document.getElementById("plot-title").textContent = `Per-query difference${key ? `: ${label}` : ""}`;
  const width = Math.max(260, Math.round(frame.clientWidth || 720));
  state.width = width;
  const height = width < 560 ? 200 : 240;
  const m = { top: 14, right: 12, bottom: 30, left: 58 };
  const w = width - m.left - m.right;
  const h = height - m.top - m.bottom;

  let lo = 0;
  let hi = 0;
  let wins = 0;
  let losses = 0;
  for (const r of rows) {
    if (r.delta < lo) lo = r.delta;
    if (r.delta > hi) hi = r.delta;
    if (r.delta > 0) wins++;
    else if (r.delta < 0) losses++;
  }
  const ties = rows.length - wins - losses;
  if (hi === lo) { hi = 1; lo = -1; }
  const step = niceStep(hi - lo);
  hi = Math.ceil(hi / step - 1e-9) * step;
  lo = Math.floor(lo / step + 1e-9) * step;
  const y = (v) => m.top + ((hi - v) / (hi - lo)) * h;
  let digits = 0; // as many decimals as the tick step needs (0.25 -> 2, 0.5 -> 1)
  while (digits < 6 && Math.abs(Math.round(step * 10 ** digits) - step * 10 ** digits) > 1e-9) digits++;
  digits = Math.max(1, digits);

  const summary = rows.length
    ? `Per-query difference in ${label}, candidate minus baseline, over ${nf.format(rows.length)} ` +
      `quer${rows.length === 1 ? "y" : "ies"} sorted by difference: candidate better on ${nf.format(wins)}, ` +
      `tied on ${nf.format(ties)}, baseline better on ${nf.format(losses)}; ` +
      `largest loss ${fmtDelta(rows[0].delta)} (${rows[0].qid}), largest gain ${fmtDelta(rows[rows.length - 1].delta)} ` +
      `(${rows[rows.length - 1].qid}).`
    : `No query is scored in both runs for ${label}.`;

  const root = svg("svg", {
    width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": summary,
    class: "difference-plot", "data-testid": "difference-plot", "data-metric": key || "",
    "data-queries": rows.length, focusable: "true", tabindex: "0",
  });
  root.append(svg("title", {}, summary));

  // Grid lines and y tick labels.
  const grid = svg("g", { class: "grid", "aria-hidden": "true" });
  for (let v = lo, i = 0; v <= hi + step / 2 && i < 50; v += step, i++) {
    const value = Math.abs(v) < step / 1e6 ? 0 : v;
    const yy = y(value);
    grid.append(svg("line", { x1: m.left, x2: m.left + w, y1: yy, y2: yy, class: value === 0 ? "zero" : "tick-line" }));
    grid.append(svg("text", { x: m.left - 6, y: yy, class: "tick", "text-anchor": "end", "dominant-baseline": "middle" },
      fmtDelta(value, digits)));
  }
  root.append(grid);
  root.append(svg("text", {
    class: "axis-label", "text-anchor": "middle", transform: `translate(14 ${m.top + h / 2}) rotate(-90)`, "aria-hidden": "true",
  }, "difference"));
  root.append(svg("text", { class: "axis-label", x: m.left + w / 2, y: height - 8, "text-anchor": "middle", "aria-hidden": "true" },
    rows.length ? `${nf.format(rows.length)} quer${rows.length === 1 ? "y" : "ies"}, sorted by difference` : "no paired queries"));

  // Bars: one per query when they fit at MIN_BAR_PX, else runs of neighbouring queries averaged.
  const slots = Math.max(1, Math.floor(w / MIN_BAR_PX));
  const groups = bars(rows, slots);
  const slot = groups.length ? Math.min(MAX_BAR_PX, w / groups.length) : 0;
  const start = m.left + (w - slot * groups.length) / 2;
  const gap = slot >= 6 ? Math.min(4, slot * 0.15) : 0;
  const zero = y(0);
  const layer = svg("g", { class: "bars" });
  const aggregated = rows.length > groups.length;
  groups.forEach((g, i) => {
    const v = g.value;
    const kind = v > 0 ? "win" : v < 0 ? "loss" : "tie";
    let top = Math.min(y(v), zero);
    let bar = Math.abs(y(v) - zero);
    if (kind === "tie") { top = zero - 1; bar = 2; } else if (bar < 1) { bar = 1; if (v > 0) top = zero - 1; }
    const rect = svg("rect", {
      x: (start + i * slot + gap / 2).toFixed(2), y: top.toFixed(2), width: Math.max(0.5, slot - gap).toFixed(2),
      height: bar.toFixed(2), class: `bar ${kind}`,
    });
    if (aggregated) {
      rect.setAttribute("data-queries", g.rows.length);
      const first = g.rows[0];
      const last = g.rows[g.rows.length - 1];
      rect.append(svg("title", {}, `queries ${nf.format(g.from + 1)}–${nf.format(g.to + 1)} of ${nf.format(rows.length)} ` +
        `by difference (${g.rows.length}): from ${fmtDelta(first.delta)} (${first.qid}) to ${fmtDelta(last.delta)} ` +
        `(${last.qid}), mean ${fmtDelta(v)}`));
    } else {
      const r = g.rows[0];
      rect.setAttribute("data-qid", r.qid);
      rect.append(svg("title", {}, `${r.qid}: baseline ${fmtValue(r.baseline)}, candidate ${fmtValue(r.candidate)}, ` +
        `difference ${fmtDelta(r.delta)}`));
    }
    layer.append(rect);
  });
  root.append(layer);
  root.append(svg("line", { x1: m.left, x2: m.left + w, y1: zero, y2: zero, class: "zero-line", "aria-hidden": "true" }));
  frame.replaceChildren(root);

  const swatch = (cls, text) => el("span", { class: "legend-item" }, el("span", { class: `swatch ${cls}`, "aria-hidden": "true" }), text);
  legend.replaceChildren(
    swatch("win", `candidate better (${nf.format(wins)})`),
    swatch("tie", `tied (${nf.format(ties)})`),
    swatch("loss", `baseline better (${nf.format(losses)})`),
  );
  if (aggregated) {
    const sizes = groups.map((g) => g.rows.length);
    const few = Math.min(...sizes);
    const many = Math.max(...sizes);
    const each = few === many ? `${nf.format(few)} neighbouring quer${few === 1 ? "y" : "ies"}`
      : `${nf.format(few)} or ${nf.format(many)} neighbouring queries`;
    legend.append(el("span", { class: "legend-note",
      text: `${nf.format(rows.length)} queries in ${nf.format(groups.length)} bars: each bar is the mean difference of ` +
        `${each} (hover for their range).` }));
  } else if (rows.length) {
    legend.append(el("span", { class: "legend-note", text: "One bar per query; hover a bar for its query and values." }));
  }
}
