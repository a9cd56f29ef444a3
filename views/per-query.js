// The per-query table: one row per query, sortable by any column, the first MAX_ROWS rows drawn.

import { $, clip, el, fmt, nf, columnKeys, cutoffMetrics, metricLabel, METRIC_NAMES } from "./dom.js";

const MAX_ROWS = 2000; // per-query rows drawn at once; downloads always have them all
// One query has a reciprocal rank, not a mean of them: MRR@k's column here is RR@k.
const PER_QUERY_NAMES = { ...METRIC_NAMES, mrr: "RR" };
const name = (metric) => PER_QUERY_NAMES[metric] || metric;

const sortState = { key: "query", dir: 1 };
const collator = new Intl.Collator("en", { numeric: true });

export function renderPerQuery(report) {
  const table = $("per-query-table");
  const keys = columnKeys(report);
  if (sortState.key !== "query" && !keys.includes(sortState.key)) Object.assign(sortState, { key: "query", dir: 1 });
  const missing = new Set(report.missing_queries || []);
  const ids = Object.keys(report.per_query);
  const { key, dir } = sortState;
  if (key === "query") ids.sort((a, b) => dir * collator.compare(a, b));
  else ids.sort((a, b) => dir * ((report.per_query[a][key] ?? -1) - (report.per_query[b][key] ?? -1)) || collator.compare(a, b));

  // Two header rows: the metric over its cutoffs, then one sortable column per cutoff.
  const header = (label, sortKey, cls, spoken) => {
    const active = sortState.key === sortKey;
    const th = el("th", { scope: "col", class: cls, "aria-sort": active ? (dir > 0 ? "ascending" : "descending") : "none" });
    const button = el("button", { type: "button", class: "sort", "data-sort": sortKey, "aria-label": spoken },
      el("span", { text: label }), el("span", { class: "sort-mark", "aria-hidden": "true", text: active ? (dir > 0 ? "▲" : "▼") : "" }));
    button.addEventListener("click", () => {
      if (sortState.key === sortKey) sortState.dir = -sortState.dir;
      else Object.assign(sortState, { key: sortKey, dir: sortKey === "query" ? 1 : -1 });
      renderPerQuery(report);
      table.querySelector(`button[data-sort="${CSS.escape(sortKey)}"]`)?.focus();
    });
    th.append(button);
    return th;
  };
  const top = el("tr");
  const bottom = el("tr");
  const queryHead = header("Query", "query", "label");
  queryHead.rowSpan = 2;
  top.append(queryHead);
  for (const metric of cutoffMetrics(report)) {
    top.append(el("th", { scope: "colgroup", class: "group first", colSpan: report.k.length, text: name(metric) }));
    for (const k of report.k) bottom.append(header(`@${k}`, `${metric}@${k}`, k === report.k[0] ? "cut first" : "cut", `${name(metric)}@${k}`));
  }
  for (const key of keys.filter((k) => !k.includes("@"))) {
    const th = header(metricLabel(key), key);
    th.rowSpan = 2;
    top.append(th);
  }
  const head = [top, bottom];

  const body = el("tbody");
  const frag = document.createDocumentFragment();
  for (const qid of ids.slice(0, MAX_ROWS)) {
    const values = report.per_query[qid];
    const idCell = el("th", { scope: "row", class: "label qid" }, el("span", { class: "qid-text", text: clip(qid, 300) }));
    if (missing.has(qid)) idCell.append(el("span", { class: "badge", title: "judged, but missing from the results: scored 0", text: "missing" }));
    const row = el("tr", { "data-query": qid }, idCell);
    if (missing.has(qid)) row.className = "missing";
    const firstCut = `@${report.k[0]}`;
    for (const k of keys) {
      row.append(el("td", { class: k.endsWith(firstCut) || !k.includes("@") ? "first" : undefined, "data-key": k,
        "data-value": values[k] === undefined ? "" : String(values[k]), text: fmt(values[k]) }));
    }
    frag.append(row);
  }
  body.append(frag);
  table.replaceChildren(el("thead", {}, ...head), body);
  const n = ids.length;
  $("per-query-caption").textContent = `${nf.format(n)} quer${n === 1 ? "y" : "ies"}${missing.size ? `, ${nf.format(missing.size)} missing from the results` : ""}` +
    (cutoffMetrics(report).includes("mrr") ? "; RR@k is each query's reciprocal rank, their mean is MRR@k" : "");
  const more = $("per-query-more");
  more.hidden = n <= MAX_ROWS;
  more.textContent = n > MAX_ROWS ? `Showing the first ${nf.format(MAX_ROWS)} of ${nf.format(n)} queries in this order; the downloads have all of them.` : "";
}
