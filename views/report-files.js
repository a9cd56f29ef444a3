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

// One CSV dialect for every CSV the page and the engine write (py/retrieval_metrics/csvcells.py):
// comma, `"` quoting when a cell needs it, CRLF line ends; floats as Python's repr (1.0, 0.25,
// 2e-05); counts as integers; booleans true/false; undefined as an empty cell; and text cells
// that a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR) prefixed with
// `'` (OWASP), numbers never. JSON and JSONL keep every id exact.

/** A float as Python's repr writes it (shortest round-trip digits; exponent form below 1e-4 and from 1e16). */
export function csvNumber(value) {
  if (typeof value !== "number" || !Number.isFinite(value)) return "";
  if (Object.is(value, -0)) return "-0.0";
  const [mantissa, exp] = value.toExponential().split("e"); // shortest digits, e.g. "2.5", "-7"
  const e = Number(exp);
  const negative = mantissa.startsWith("-");
  const digits = mantissa.replace("-", "").replace(".", "");
  let text;
  if (e < -4 || e >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    text = `${m}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  } else if (e < 0) {
    text = `0.${"0".repeat(-e - 1)}${digits}`;
  } else if (digits.length > e + 1) {
    text = `${digits.slice(0, e + 1)}.${digits.slice(e + 1)}`;
  } else {
    text = `${digits}${"0".repeat(e + 1 - digits.length)}.0`;
  }
  return negative ? `-${text}` : text;
}

/** A text cell, neutralised when a spreadsheet would run it as a formula. */
export function csvText(value) {
  const text = String(value);
  return /^[=+\-@\t\r']/.test(text) ? `'${text}` : text; // a leading ' doubled: reading drops one
}

export function csvCell(value) {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows of formatted cells as CSV text (what Python's csv.writer writes). */
export function csvLines(rows) {
  return rows.map((row) => row.map(csvCell).join(",") + "\r\n").join("");
}

/** The whole report (what `retrieval-metrics -o json` writes); loadable as a baseline.
 * `meta` (files, engine version, settings, date), when given, comes first. */
export function reportJson(report, meta = null) {
  const { per_query, mean, notices, inputs, ...rest } = report;
  const ordered = { ...(meta ? { meta } : {}), per_query, mean, notices, inputs, ...rest };
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

/** One row per query (scope `query`), then the means (scope `mean`, no query id), so a query
 * named `all` stays a query: what `retrieval-metrics -o csv` writes, byte for byte. */
export function reportCsv(report) {
  const keys = reportKeys(report);
  const missing = new Set(report.missing_queries || []);
  const rows = [["scope", "query", ...keys, "missing"]];
  for (const [query, values] of Object.entries(report.per_query)) {
    rows.push(["query", csvText(query), ...keys.map((k) => csvNumber(values[k])), missing.has(query) ? "true" : "false"]);
  }
  if (report.mean && Object.keys(report.mean).length) {
    rows.push(["mean", "", ...keys.map((k) => csvNumber(report.mean[k])), ""]);
  }
  return csvLines(rows);
}

/** The means alone: one row per metric and k (whole-run metrics with an empty k). */
export function meansCsv(report) {
  const rows = [["metric", "k", "value", "scored_queries"]];
  for (const key of reportKeys(report)) {
    const [metric, k = ""] = key.split("@");
    rows.push([metric, k, csvNumber(report.mean[key]), String(report.scored_queries)]);
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

/** One row per metric key (the engine's comparison_csv, byte for byte). */
export function comparisonCsv(comparison) {
  const rows = [COMPARISON_FIELDS];
  for (const record of comparison.metrics) {
    rows.push(COMPARISON_FIELDS.map((f) => {
      const v = record[f];
      if (v === undefined || v === null) return "";
      if (FLOAT_FIELDS.has(f)) return csvNumber(v);
      return typeof v === "string" ? csvText(v) : String(Math.trunc(v));
    }));
  }
  return csvLines(rows);
}
