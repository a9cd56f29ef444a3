// The download buttons: report, per-query and means files built from the last result.

import { $, el, columnKeys, cutoffMetrics, WHOLE_RUN } from "./dom.js";
import { comparisonCsv, comparisonJson, reportCsv, reportJson, reportJsonl } from "./report-files.js";

// Set by initDownloads: the last result drawn and the settings it was asked with.
const source = { result: () => null, options: () => ({}) };

function csvCell(value) {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function usedSettings() {
  const o = source.options();
  const { report } = source.result();
  return { k: report.k, gain: o.gain, missing: o.missing, metrics: report.metrics };
}

function downloads(kind) {
  const result = source.result();
  const report = result && result.report;
  if (!report) return null;
  const keys = columnKeys(report);
  const missing = new Set(report.missing_queries || []);
  const ids = Object.keys(report.per_query);
  if (kind === "per-query-csv") {
    const lines = [["query", ...keys, "missing_from_results"].map(csvCell).join(",")];
    for (const q of ids) lines.push([q, ...keys.map((k) => report.per_query[q][k] ?? ""), missing.has(q) ? "true" : "false"].map(csvCell).join(","));
    return { name: "retrieval-metrics-per-query.csv", type: "text/csv", text: lines.join("\r\n") + "\r\n" };
  }
  if (kind === "means-csv") {
    const lines = ["metric,k,value,scored_queries"];
    for (const metric of cutoffMetrics(report)) for (const k of report.k) {
      const v = report.mean[`${metric}@${k}`];
      lines.push([metric, k, v ?? "", report.scored_queries].map(csvCell).join(","));
    }
    for (const metric of (report.metrics || []).filter((m) => WHOLE_RUN.includes(m))) {
      lines.push([metric, "", report.mean[metric] ?? "", report.scored_queries].map(csvCell).join(","));
    }
    return { name: "retrieval-metrics-means.csv", type: "text/csv", text: lines.join("\r\n") + "\r\n" };
  }
  if (kind === "per-query-json") {
    const data = { settings: usedSettings(), per_query: report.per_query, missing_queries: report.missing_queries || [] };
    return { name: "retrieval-metrics-per-query.json", type: "application/json", text: JSON.stringify(data, null, 1) + "\n" };
  }
  if (kind === "report-json") return { name: "retrieval-metrics-report.json", type: "application/json", text: reportJson(report) };
  if (kind === "report-jsonl") return { name: "retrieval-metrics-report.jsonl", type: "application/jsonl", text: reportJsonl(report) };
  if (kind === "report-csv") return { name: "retrieval-metrics-report.csv", type: "text/csv", text: reportCsv(report) };
  const comparison = result.comparison;
  if (kind === "comparison-json" && comparison) {
    return { name: "retrieval-metrics-comparison.json", type: "application/json", text: comparisonJson(comparison) };
  }
  if (kind === "comparison-csv" && comparison) {
    return { name: "retrieval-metrics-comparison.csv", type: "text/csv", text: comparisonCsv(comparison) };
  }
  if (kind === "means-json") {
    const data = { settings: usedSettings(), scored_queries: report.scored_queries, mean: report.mean };
    return { name: "retrieval-metrics-means.json", type: "application/json", text: JSON.stringify(data, null, 1) + "\n" };
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

/** Wires the download menu and button; `result()` gives the last result, `options()` the settings sent. */
export function initDownloads({ result, options }) {
  source.result = result;
  source.options = options;
  $("download-button").addEventListener("click", () => download($("download-kind").value));
}
