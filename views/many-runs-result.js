// The many-runs comparison: a systems x metrics table of means with confidence intervals, markers
// for significant differences from the baseline, a table of the differences (CI, W/T/L, effect
// size, raw and corrected p), LaTeX and Markdown for papers (copied to the clipboard), the files
// (written by the engine), and every run's precision-recall curve on one chart.

import { $, disclosure, el, fmt, nf, metricLabel, setDisclosure } from "./dom.js";
import { fmtDelta, fmtP } from "./comparison.js";
import { curveSvg, curveTable, downloadSvg } from "./charts.js";
import { renderNotices } from "./notices.js";
import { saveFile } from "./downloads.js";
import { glossaryButton, infoButton } from "./explain.js";
import { FUSION_METHODS, drawList, showError } from "./many-runs-list.js";
import { hooks, state } from "./many-runs-state.js";

const MARKS = { better: "▲", worse: "▼" };

export function buildResult() {
  const section = el("section", { class: "many-wrap", id: "many-result", "data-testid": "many-result", hidden: true, "aria-labelledby": "many-title" },
    el("h3", { id: "many-title" }, "Many runs ", el("span", { class: "sub", id: "many-status", "aria-live": "polite" })),
    el("p", { class: "help many-description", id: "many-description", "data-testid": "many-description" }),
    el("p", { class: "help", id: "many-fused", "data-testid": "many-fused", hidden: true }),
    el("div", { class: "table-scroll" }, el("table", { class: "numbers many-means", id: "many-table", "data-testid": "many-table" })),
    el("p", { class: "help", id: "many-legend" }),
    el("div", { class: "many-exports", role: "group", "aria-label": "Tables for papers" },
      el("span", { class: "downloads-label", text: "Copy for a paper" }),
      el("button", { type: "button", class: "button", "data-copy": "latex", "data-testid": "many-copy-latex", text: "LaTeX" }),
      el("button", { type: "button", class: "button", "data-copy": "markdown", "data-testid": "many-copy-markdown", text: "Markdown" }),
      el("button", { type: "button", class: "button quiet", "data-file": "many-csv", "data-testid": "many-download-csv", text: "Download CSV" }),
      el("button", { type: "button", class: "button quiet", "data-file": "many-json", "data-testid": "many-download-json", text: "Download JSON" }),
      el("button", { type: "button", class: "button quiet", "data-file": "fused-run", "data-testid": "many-download-fused", text: "Download the fused run", title: "The fused run as a TREC run file", hidden: true }),
      el("button", { type: "button", class: "button", "data-file": "many-html", "data-testid": "many-save-report", text: "Save report", title: "One HTML file: settings, means with intervals, per-query values, the comparison, charts, the checks, the topic-set analysis and a methods paragraph; it opens offline" }),
      el("span", { class: "help", id: "many-copied", "data-testid": "many-copied", "aria-live": "polite" })),
    disclosure("many-export-text", "Show the LaTeX and Markdown", el("div", { id: "many-export-text" },
      el("pre", { id: "many-latex", "data-testid": "many-latex", tabIndex: 0 }), el("pre", { id: "many-markdown", "data-testid": "many-markdown", tabIndex: 0 }))),
    el("div", { class: "plot-head" }, el("h3", { text: "Differences from the baseline" }),
      el("label", { class: "select-inline" }, "Metric ", el("select", { id: "many-diff-metric", "data-testid": "many-diff-metric" }))),
    el("div", { class: "table-scroll" }, el("table", { class: "numbers many-diffs", id: "many-diffs", "data-testid": "many-diffs" })),
    el("p", { class: "help" }, glossaryButton()),
    el("ul", { class: "notices", id: "many-notices", "data-testid": "many-notices" }),
    el("figure", { class: "chart", "data-chart": "many-pr", "data-testid": "chart-many-pr" },
      el("figcaption", { class: "chart-title", text: "Precision-recall curves" }),
      el("div", { class: "chart-frame", id: "chart-many-pr-frame" }),
      el("div", { class: "chart-tools" },
        el("button", { type: "button", class: "button quiet small", "data-testid": "chart-many-pr-download", text: "Download SVG" }),
        disclosure("chart-data", "Show as a table", el("div", { class: "table-scroll", id: "chart-many-pr-table" })))));
  const report = $("report");
  report.parentNode.insertBefore(section, report.nextSibling);
  section.querySelector("[data-testid=chart-many-pr-download]").addEventListener("click", () => downloadSvg("many-pr"));
  for (const button of section.querySelectorAll("[data-copy]")) button.addEventListener("click", () => copy(button.dataset.copy));
  for (const button of section.querySelectorAll("[data-file]")) button.addEventListener("click", () => downloadFile(button.dataset.file));
  $("many-diff-metric").addEventListener("change", (e) => {
    state.diffMetric = e.target.value;
    drawDifferences();
  });
  if (typeof ResizeObserver !== "undefined") {
    let last = 0;
    new ResizeObserver(() => {
      const width = Math.round($("chart-many-pr-frame").clientWidth);
      if (state.result?.curves && Math.abs(width - last) >= 8) {
        last = width;
        drawCurve();
      }
    }).observe(section);
  }
}

// A file of the comparison shown, written by the engine (web.download).
async function downloadFile(kind) {
  const said = $("many-copied");
  if (!state.shownId) return;
  try {
    saveFile(await state.bridge.call({ type: "download", kind, of: state.shownId }));
    said.textContent = "";
  } catch (err) {
    said.textContent = err.stale ? "The runs changed meanwhile: download again once they are shown." : `Could not write that file: ${err.message}`;
  }
}

async function copy(kind) {
  const text = state.result?.exports?.[kind];
  const said = $("many-copied");
  if (!text) return;
  try {
    await navigator.clipboard.writeText(text);
    said.textContent = `${kind === "latex" ? "LaTeX" : "Markdown"} copied to the clipboard.`;
  } catch {
    // No clipboard (permissions): select the text instead, for Ctrl+C.
    const pre = $(`many-${kind}`);
    setDisclosure(pre.closest(".disclosure-wrap"), true);
    const range = document.createRange();
    range.selectNodeContents(pre);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    pre.focus();
    said.textContent = "The clipboard is not available here: the text is selected, copy it with Ctrl+C (⌘C).";
  }
}

export function render(result) {
  hooks.markPending(Boolean(state.timer) || state.lane.busy());
  state.result = result && result.inputs ? result : null;
  state.renders++;
  const section = $("many-result");
  drawList();
  section.hidden = !state.runs.length;
  $("many-status").textContent = "";
  showError("");
  const parts = ["many-description", "many-legend"];
  for (const id of parts) $(id).textContent = "";
  const hide = (hidden) => {
    for (const node of section.querySelectorAll(":scope > :not(h3)")) node.hidden = hidden;
  };
  if (!result || result.waiting || result.failure) {
    hide(true);
    if (result?.waiting) $("many-status").textContent = result.waiting;
    if (result?.failure) showError(`Something went wrong inside the calculator: ${result.failure}`);
    return;
  }
  const errors = result.errors || {};
  const problems = [errors.options?.message, errors.comparison?.message, errors.qrels?.message,
    ...Object.values(errors.runs || {}).map((e) => e?.message)].filter(Boolean);
  if (problems.length) showError(problems.join(" "));
  if (!result.comparison) {
    hide(true);
    $("many-status").textContent = problems.length ? "— fix the input marked above" : "";
    return;
  }
  hide(false);
  const c = result.comparison;
  $("many-status").textContent = `${nf.format(c.systems.length)} runs, baseline ${c.baseline}`;
  $("many-description").textContent = c.description;
  const fused = result.fused;
  $("many-result").querySelector("[data-testid=many-download-fused]").hidden = !fused;
  $("many-fused").hidden = !fused;
  $("many-fused").textContent = fused ? `The run “${fused.name}” is the other runs fused by ${FUSION_METHODS[fused.method] || fused.method}${fused.norm ? ` after ${fused.norm} normalisation` : " without normalisation"}, as ranx fuses them; it is scored and tested like any run, and “Download the fused run” gives it as a TREC run.` : "";
  $("many-latex").textContent = result.exports.latex;
  $("many-markdown").textContent = result.exports.markdown;
  $("many-copied").textContent = "";
  drawMeans(result);
  const select = $("many-diff-metric");
  if (state.diffMetric === null || (state.diffMetric !== "" && !c.metrics.includes(state.diffMetric))) {
    state.diffMetric = c.metrics.find((m) => m.startsWith("ndcg@")) || c.metrics[0] || ""; // one metric at first; "all" on demand
  }
  select.replaceChildren(el("option", { value: "", text: "all" }), ...c.metrics.map((m) => el("option", { value: m, text: metricLabel(m) })));
  select.value = state.diffMetric;
  drawDifferences();
  const notices = c.notices || [];
  $("many-notices").hidden = !notices.length;
  if (notices.length) renderNotices(notices, $("many-notices"));
  drawCurve();
}

/** 3 decimals with a real minus sign for negatives, no sign for positives. */
function signed(v) {
  return v < 0 && Number(v.toFixed(3)) !== 0 ? `−${Math.abs(v).toFixed(3)}` : Math.abs(v).toFixed(3);
}

function drawMeans(result) {
  const c = result.comparison;
  const table = $("many-table");
  const head = el("tr", {}, el("th", { scope: "col", class: "label", text: "Run" }));
  // Each measure's heading has the single-run means table's (i) button: its definition from the
  // engine's registry (views/explain.js).
  for (const m of c.metrics) head.append(el("th", { scope: "col", "data-metric": m }, metricLabel(m), infoButton(m)));
  // The best mean per column (to 4 decimals, as shown) in bold.
  const best = {};
  for (const m of c.metrics) {
    const shown = c.systems.map((s) => c.means[s][m].mean).filter((v) => typeof v === "number").map((v) => v.toFixed(4));
    best[m] = shown.length ? shown.reduce((a, b) => (Number(b) > Number(a) ? b : a)) : null;
  }
  const body = el("tbody");
  for (const system of c.systems) {
    const isBase = system === c.baseline;
    const row = el("tr", { "data-run": system, class: isBase ? "baseline" : undefined },
      el("th", { scope: "row", class: "label" }, el("span", { class: "run-name", text: system }), isBase ? el("span", { class: "badge", text: "baseline" }) : null));
    for (const m of c.metrics) {
      const mean = c.means[system][m];
      const diff = isBase ? null : c.differences[system][m];
      const marker = diff?.marker;
      const td = el("td", { "data-metric": m, "data-value": mean.mean ?? "", class: marker ? `marked ${marker}` : undefined });
      const value = el("span", { class: "many-mean", text: fmt(mean.mean) });
      if (best[m] !== null && typeof mean.mean === "number" && mean.mean.toFixed(4) === best[m]) value.classList.add("best");
      td.append(value);
      if (marker) {
        td.append(el("span", { class: `marker ${marker}`, "aria-hidden": "true", text: MARKS[marker] }));
        td.dataset.marker = marker;
      }
      if (typeof mean.low === "number") td.append(el("span", { class: "ci", text: `[${signed(mean.low)}, ${signed(mean.high)}]` }));
      td.title = `${system}, ${metricLabel(m)}: mean ${fmt(mean.mean)}` +
        (typeof mean.low === "number" ? `, ${Math.round(c.confidence * 100)}% CI ${fmt(mean.low)} to ${fmt(mean.high)}` : "") +
        (diff ? `; difference from ${c.baseline} ${fmtDelta(diff.delta)}, corrected p ${fmtP(diff.p_corrected)}` +
          (marker ? ` (significantly ${marker === "better" ? "higher" : "lower"})` : "") : "");
      if (marker) td.append(el("span", { class: "visually-hidden", text: ` significantly ${marker === "better" ? "higher" : "lower"} than ${c.baseline}` }));
      row.append(td);
    }
    body.append(row);
  }
  table.replaceChildren(el("caption", { class: "visually-hidden", text: "Mean of each metric per run, with its confidence interval" }), el("thead", {}, head), body);
  $("many-legend").textContent = `Means over each run's scored queries, ${Math.round(c.confidence * 100)}% confidence intervals in brackets; ` +
    `best per column in bold; ${MARKS.better} / ${MARKS.worse}: significantly higher / lower than ${c.baseline} ` +
    `(corrected p < ${c.alpha}).`;
}

function drawDifferences() {
  const c = state.result?.comparison;
  if (!c) return;
  const table = $("many-diffs");
  const metrics = state.diffMetric ? [state.diffMetric] : c.metrics;
  const cols = [["Run", "label"], ["Metric", "label"], ["Difference", ""], [`${Math.round(c.confidence * 100)}% CI`, ""], ["W/T/L", ""],
    ["Effect size", ""], ["p", ""], ["p corrected", ""], ["", "label"]];
  const head = el("tr", {}, ...cols.map(([text, cls]) => el("th", { scope: "col", class: cls || undefined, text })));
  head.children[5].title = "mean difference / standard deviation of the differences";
  head.children[7].title = `${c.correction} correction over ${c.family_size} comparisons`;
  const body = el("tbody");
  for (const system of c.systems) {
    if (system === c.baseline) continue;
    for (const m of metrics) {
      const d = c.differences[system][m];
      const sign = typeof d.delta !== "number" || d.delta === 0 ? "zero" : d.delta > 0 ? "up" : "down";
      body.append(el("tr", { "data-run": system, "data-metric": m, class: d.significant ? "significant" : undefined },
        el("th", { scope: "row", class: "label", text: system }),
        el("td", { class: "label", text: metricLabel(m) }),
        el("td", { class: `delta ${sign}`, "data-field": "delta", "data-value": d.delta ?? "", text: fmtDelta(d.delta) }),
        el("td", { "data-field": "ci", text: typeof d.low === "number" ? `${fmtDelta(d.low, 3)} to ${fmtDelta(d.high, 3)}` : "—" }),
        el("td", { "data-field": "wtl", text: `${nf.format(d.wins)}/${nf.format(d.ties)}/${nf.format(d.losses)}` }),
        el("td", { "data-field": "effect_size", "data-value": d.effect_size ?? "", text: typeof d.effect_size === "number" ? d.effect_size.toFixed(2) : "—" }),
        el("td", { "data-field": "p_value", "data-value": d.p_value ?? "", text: fmtP(d.p_value) }),
        el("td", { "data-field": "p_corrected", "data-value": d.p_corrected ?? "", class: d.significant ? "p significant" : "p", text: fmtP(d.p_corrected) }),
        el("td", { class: "label", "data-field": "marker", text: d.marker ? `${MARKS[d.marker]} ${d.marker}` : "" })));
    }
  }
  table.replaceChildren(el("caption", { class: "visually-hidden", text: `Each run against ${c.baseline}` }), el("thead", {}, head), body);
}

function drawCurve() {
  const curves = state.result?.curves;
  const frame = $("chart-many-pr-frame");
  if (!curves) {
    frame.replaceChildren();
    return;
  }
  const width = Math.max(260, Math.round(frame.clientWidth || 600));
  frame.replaceChildren(curveSvg(curves, width, (n) => n, "many-pr"));
  $("chart-many-pr-table").replaceChildren(curveTable(curves, (n) => n, "chart-many-pr-table"));
}
