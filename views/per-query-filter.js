// Filters for the per-query table: by query id (substring, any case), by status (judged but
// missing from the results; unjudged documents in the top k, or none), and by a metric's value
// range. The filters stay as they are when the inputs are scored again; the downloads always
// have every query.

import { $, el, reportKeys, metricLabel } from "./dom.js";

const STATUSES = [
  ["all", "all queries"],
  ["missing", "missing from the results"],
  ["unjudged", "unjudged documents in the top k"],
  ["judged", "fully judged top k"],
];

const state = {
  text: "",
  status: "all",
  metric: "",
  min: null,
  max: null,
  report: null,
  unjudged: {}, // {query: unjudged documents in its top max(k)}
  changed: () => {},
  inputs: null,
};

function number(input) {
  const text = input.value.trim();
  if (text === "") return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** Builds the filter bar above the per-query table; `changed()` redraws the table. */
export function initPerQueryFilter({ changed }) {
  state.changed = changed;
  const text = el("input", { type: "search", id: "filter-query", "data-testid": "filter-query", placeholder: "e.g. 30", autocomplete: "off" });
  const status = el("select", { id: "filter-status", "data-testid": "filter-status" },
    ...STATUSES.map(([value, label]) => el("option", { value, text: label })));
  const metric = el("select", { id: "filter-metric", "data-testid": "filter-metric" });
  const min = el("input", { type: "number", id: "filter-min", "data-testid": "filter-min", step: "any", inputMode: "decimal", placeholder: "min", "aria-label": "lowest value" });
  const max = el("input", { type: "number", id: "filter-max", "data-testid": "filter-max", step: "any", inputMode: "decimal", placeholder: "max", "aria-label": "highest value" });
  const clear = el("button", { type: "button", class: "button quiet small", "data-testid": "filter-clear", text: "Clear filters" });
  const field = (label, control, cls) => el("label", { class: `filter-field ${cls || ""}` }, el("span", { class: "filter-label", text: label }), control);
  const bar = el("div", { class: "per-query-filter", role: "search", "aria-label": "Filter the per-query table", "data-testid": "per-query-filter" },
    field("Query id contains", text, "grow"),
    field("Show", status),
    el("div", { class: "filter-field filter-range", role: "group", "aria-labelledby": "filter-range-label" },
      el("span", { class: "filter-label", id: "filter-range-label", text: "Value range" }),
      el("span", { class: "filter-range-inputs" }, metric, el("span", { class: "filter-between", "aria-hidden": "true", text: "from" }), min,
        el("span", { class: "filter-between", "aria-hidden": "true", text: "to" }), max)),
    clear);
  metric.setAttribute("aria-label", "metric to filter by");
  const update = () => {
    state.text = text.value.trim().toLowerCase();
    state.status = status.value;
    state.metric = metric.value;
    state.min = number(min);
    state.max = number(max);
    state.changed();
  };
  let timer = 0;
  text.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(update, 120); });
  for (const control of [status, metric]) control.addEventListener("change", update);
  for (const control of [min, max]) control.addEventListener("input", update);
  clear.addEventListener("click", () => {
    text.value = "";
    status.value = "all";
    min.value = "";
    max.value = "";
    update();
    text.focus();
  });
  state.inputs = { text, status, metric, min, max };
  const wrap = $("per-query-table").closest(".table-scroll");
  wrap.parentNode.insertBefore(bar, wrap);
}

/** The shown result changed: the metric choices follow its columns (the chosen one is kept). */
export function updatePerQueryFilter(report, unjudgedInTop) {
  state.report = report;
  state.unjudged = unjudgedInTop || {};
  if (!report || !state.inputs) return;
  const keys = reportKeys(report);
  const select = state.inputs.metric;
  if (!keys.includes(state.metric)) state.metric = keys.find((k) => k.startsWith("ndcg@")) || keys[0] || "";
  select.replaceChildren(...keys.map((key) => el("option", { value: key, text: metricLabel(key) })));
  select.value = state.metric;
}

/** Whether any filter is set. */
export function filtering() {
  return Boolean(state.text) || state.status !== "all" || state.min !== null || state.max !== null;
}

/** The ids (in their order) that pass every filter. */
export function filterQueries(ids) {
  const report = state.report;
  if (!report || !filtering()) return ids;
  const missing = new Set(report.missing_queries || []);
  const { text, status, metric, min, max } = state;
  return ids.filter((qid) => {
    if (text && !qid.toLowerCase().includes(text)) return false;
    if (status === "missing" && !missing.has(qid)) return false;
    if (status === "unjudged" && !state.unjudged[qid]) return false;
    if (status === "judged" && (state.unjudged[qid] || missing.has(qid))) return false;
    if (min !== null || max !== null) {
      const value = report.per_query[qid]?.[metric];
      if (typeof value !== "number" || !Number.isFinite(value)) return false;
      if (min !== null && value < min) return false;
      if (max !== null && value > max) return false;
    }
    return true;
  });
}
