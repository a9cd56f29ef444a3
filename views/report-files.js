// Report files the page offers for download, in the same shapes as the engine's own writers
// (py/retrieval_metrics/render.py: `retrieval-metrics -o json|jsonl|csv`), so a file from the page
// and one from the command line read the same way, and a JSON report downloaded here can be
// loaded back as the baseline of a comparison.
//
// The report and comparison come from Python through Pyodide, where None arrives as `undefined`:
// every writer turns undefined (and NaN or an infinity) into null / an empty cell, so the JSON is
// strict.

const WHOLE_RUN = new Set(["map", "rprec", "rr"]);

/** JSON.stringify that writes null for undefined values and non-finite numbers. */
export function strictJson(data, indent = 2) {
  return JSON.stringify(data, (key, value) => {
    if (value === undefined) return null;
    if (typeof value === "number" && !Number.isFinite(value)) return null;
    return value;
  }, indent);
}

/** The metric keys of a report in the engine's order (cutoff metrics by k, then whole-run ones). */
export function reportKeys(report) {
  if (Array.isArray(report.keys) && report.keys.length) return report.keys;
  const metrics = report.metrics || ["recall", "precision", "mrr", "ndcg"];
  const keys = [];
  for (const m of metrics) if (!WHOLE_RUN.has(m)) for (const k of report.k) keys.push(`${m}@${k}`);
  for (const m of metrics) if (WHOLE_RUN.has(m)) keys.push(m);
  return keys;
}

/** A number as the engine writes it in CSV (Python's repr: 1.0, 0.25), an empty cell when undefined. */
export function csvNumber(value) {
  if (typeof value !== "number" || !Number.isFinite(value)) return "";
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}

export function csvCell(value) {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvLines(rows) {
  return rows.map((row) => row.map(csvCell).join(",")).join("\n") + "\n";
}

/** The whole report (what `retrieval-metrics -o json` writes); loadable as a baseline. */
export function reportJson(report) {
  const { per_query, mean, notices, inputs, ...rest } = report;
  const ordered = { per_query, mean, notices, inputs, ...rest };
  return strictJson(ordered, 2) + "\n";
}

/** One JSON object per query: query, missing, then each metric (pandas.read_json(lines=True)). */
export function reportJsonl(report) {
  const missing = new Set(report.missing_queries || []);
  const keys = reportKeys(report);
  const lines = [];
  for (const [query, values] of Object.entries(report.per_query)) {
    const row = { query, missing: missing.has(query) };
    for (const key of keys) row[key] = values[key];
    lines.push(strictJson(row, 0));
  }
  return lines.join("\n") + (lines.length ? "\n" : "");
}

/** One row per query, then the means as query `all` (trec_eval's name for it). */
export function reportCsv(report) {
  const keys = reportKeys(report);
  const missing = new Set(report.missing_queries || []);
  const rows = [["query", ...keys, "missing"]];
  for (const [query, values] of Object.entries(report.per_query)) {
    rows.push([query, ...keys.map((k) => csvNumber(values[k])), missing.has(query) ? 1 : 0]);
  }
  if (report.mean && Object.keys(report.mean).length) {
    rows.push(["all", ...keys.map((k) => csvNumber(report.mean[k])), ""]);
  }
  return csvLines(rows);
}

/** The comparison as the engine returns it (compare(...).to_dict()), strict JSON. */
export function comparisonJson(comparison) {
  return strictJson(comparison, 2) + "\n";
}

const COMPARISON_FIELDS = ["metric", "baseline_mean", "candidate_mean", "delta", "wins", "ties", "losses",
  "p_value", "n", "method", "samples", "seed"];
const FLOAT_FIELDS = new Set(["baseline_mean", "candidate_mean", "delta", "p_value"]);

/** One row per metric key (the engine's comparison_csv). */
export function comparisonCsv(comparison) {
  const rows = [COMPARISON_FIELDS];
  for (const record of comparison.metrics) {
    rows.push(COMPARISON_FIELDS.map((f) => {
      const v = record[f];
      if (v === undefined || v === null) return "";
      return FLOAT_FIELDS.has(f) ? csvNumber(v) : v;
    }));
  }
  return csvLines(rows);
}
