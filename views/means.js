// The means tables: metric x cutoff, and the whole-run metrics (MAP, R-prec, RR) below them.

import { $, el, fmt, nf, cutoffMetrics, METRIC_NAMES, WHOLE_RUN } from "./dom.js";

/** `gain` is the gain setting the report was computed with ("linear" or "exponential"). */
export function renderMeans(report, gain) {
  const table = $("means-table");
  const head = el("tr", {}, el("th", { scope: "col", class: "label", text: "Metric" }));
  for (const k of report.k) head.append(el("th", { scope: "col", text: `@${k}` }));
  const body = el("tbody");
  for (const metric of cutoffMetrics(report)) {
    const row = el("tr", {}, el("th", { scope: "row", class: "label", text: METRIC_NAMES[metric] || metric }));
    for (const k of report.k) {
      const value = report.mean[`${metric}@${k}`];
      row.append(el("td", { "data-value": value === undefined ? "" : String(value), text: fmt(value) }));
    }
    body.append(row);
  }
  table.replaceChildren(el("thead", {}, head), body);
  renderWholeRunMeans(report);
  const n = report.scored_queries;
  $("means-caption").textContent = `over ${nf.format(n)} scored quer${n === 1 ? "y" : "ies"}` +
    (gain === "exponential" ? "; nDCG gain 2^grade − 1" : "");
}

// Metrics without a cutoff (MAP, R-prec, RR) get a small table of their own under the means.
function renderWholeRunMeans(report) {
  const whole = (report.metrics || []).filter((m) => WHOLE_RUN.includes(m));
  $("means-whole-wrap").hidden = !whole.length;
  const table = $("means-whole-table");
  if (!whole.length) {
    table.replaceChildren();
    return;
  }
  const head = el("tr", {}, el("th", { scope: "col", class: "label", text: "Whole run" }), el("th", { scope: "col", text: "no cutoff" }));
  const body = el("tbody");
  for (const metric of whole) {
    const value = report.mean[metric];
    body.append(el("tr", { "data-metric": metric }, el("th", { scope: "row", class: "label", text: METRIC_NAMES[metric] || metric }),
      el("td", { "data-value": value === undefined ? "" : String(value), text: fmt(value) })));
  }
  table.replaceChildren(el("thead", {}, head), body);
}
