// The download buttons: report, per-query and means files built from the last result.

import { $, el } from "./dom.js";
import { blank, boxes, boxText } from "./inputs.js";
import { comparisonCsv, comparisonJson, meansCsv, reportCsv, reportJson, reportJsonl, strictJson } from "./report-files.js";

// Set by initDownloads: the last result drawn, the settings it was asked with, the engine's version.
const source = { result: () => null, options: () => ({}), engine: () => "" };

function usedSettings() {
  const o = source.options();
  const { report } = source.result();
  return { k: report.k, gain: o.gain, missing: o.missing, metrics: report.metrics, zero_division: report.zero_division,
    relevance_threshold: report.relevance_threshold ?? o.relevance_threshold,
    qrels_format: o.qrels_format, run_format: o.run_format, third_column: o.third_column };
}

// What made a download: the same keys as the CLI's `-o json` meta. JSON only: every CSV stays
// one plain table (the one dialect of report-files.js, equal to the CLI's CSV byte for byte).
function meta() {
  const name = (box) => (blank(boxText(box)) ? null : box.fileName || "typed or pasted text");
  return {
    engine: `retrieval-metrics ${source.engine() || ""}`.trim(),
    created: new Date().toISOString().replace(/\.\d+Z$/, "+00:00"),
    files: { qrels: name(boxes.qrels), run: name(boxes.run), baseline: name(boxes.baseline) },
    settings: usedSettings(),
  };
}

function downloads(kind) {
  const result = source.result();
  const report = result && result.report;
  if (!report) return null;
  if (kind === "per-query-csv") return { name: "retrieval-metrics-per-query.csv", type: "text/csv", text: reportCsv(report) };
  if (kind === "means-csv") return { name: "retrieval-metrics-means.csv", type: "text/csv", text: meansCsv(report) };
  if (kind === "per-query-json") {
    const data = { meta: meta(), per_query: report.per_query, missing_queries: report.missing_queries || [] };
    return { name: "retrieval-metrics-per-query.json", type: "application/json", text: strictJson(data, 1) + "\n" };
  }
  if (kind === "report-json") return { name: "retrieval-metrics-report.json", type: "application/json", text: reportJson(report, meta()) };
  if (kind === "report-jsonl") return { name: "retrieval-metrics-report.jsonl", type: "application/jsonl", text: reportJsonl(report) };
  if (kind === "report-csv") return { name: "retrieval-metrics-report.csv", type: "text/csv", text: reportCsv(report) };
  const comparison = result.comparison;
  if (kind === "comparison-json" && comparison) {
    return { name: "retrieval-metrics-comparison.json", type: "application/json", text: comparisonJson({ meta: meta(), ...comparison }) };
  }
  if (kind === "comparison-csv" && comparison) {
    return { name: "retrieval-metrics-comparison.csv", type: "text/csv", text: comparisonCsv(comparison) };
  }
  if (kind === "means-json") {
    const data = { meta: meta(), scored_queries: report.scored_queries, mean: report.mean };
    return { name: "retrieval-metrics-means.json", type: "application/json", text: strictJson(data, 1) + "\n" };
  }
  return null;
}

/** Saves the chosen kind of file (the value of the download menu) to the person's disk. */
export function download(kind) {
  const file = downloads(kind);
  if (!file) return;
  const url = URL.createObjectURL(new Blob([file.text], { type: `${file.type};charset=utf-8` }));
  const a = el("a", { href: url, download: file.name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Shows or hides the comparison's files in the menu (there is one only with a baseline). */
export function offerComparison(shown) {
  const group = $("downloads-compare");
  group.hidden = !shown;
  group.disabled = !shown;
  const menu = $("download-kind");
  if (!shown && menu.value.startsWith("comparison-")) menu.value = "report-json";
}

/** Wires the download menu and button; `result()` gives the last result, `options()` the settings
 * sent, `engine()` the engine's version. */
export function initDownloads({ result, options, engine = () => "" }) {
  source.result = result;
  source.options = options;
  source.engine = engine;
  $("download-button").addEventListener("click", () => download($("download-kind").value));
}
