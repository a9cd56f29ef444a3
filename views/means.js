// The means tables: the measures computed at every cutoff k (measure x k), and every other key of
// the report below them (whole-ranking measures such as MAP or bpref, names with their own cutoff
// such as P_5, measures with parameters). Each value cell carries data-key, the report's key.

import { $, el, fmt, nf, layoutKeys, metricLabel } from "./dom.js";
import { infoButton } from "./explain.js";

// The row heading: the measure's label and its (i) button (the button adds no text).
const rowHead = (name, label) => {
  const info = infoButton(name);
  return el("th", { scope: "row", class: "label", text: label }, ...(info ? [info] : []));
};

const valueCell = (report, key) => {
  const value = report.mean[key];
  return el("td", { "data-key": key, "data-value": value === undefined || value === null ? "" : String(value), text: fmt(value) });
};

/** `gain` is the gain setting the report was computed with ("linear" or "exponential"). */
export function renderMeans(report, gain) {
  const { grid, other } = layoutKeys(report);
  const table = $("means-table");
  table.closest(".table-scroll").hidden = !grid.length;
  const head = el("tr", {}, el("th", { scope: "col", class: "label", text: "Metric" }));
  for (const k of report.k) head.append(el("th", { scope: "col", text: `@${k}` }));
  const body = el("tbody");
  for (const row of grid) {
    const tr = el("tr", { "data-metric": row.name }, rowHead(row.name, metricLabel(row.name)));
    for (const key of row.keys) tr.append(valueCell(report, key));
    body.append(tr);
  }
  table.replaceChildren(el("thead", {}, head), body);
  renderOtherMeans(report, other);
  const n = report.scored_queries;
  $("means-caption").textContent = `over ${nf.format(n)} scored quer${n === 1 ? "y" : "ies"}` +
    (gain === "exponential" ? "; nDCG gain 2^grade − 1" : "");
}

// Every key outside the grid: one row each, the measure's label (with its cutoff or parameters).
function renderOtherMeans(report, keys) {
  $("means-whole-wrap").hidden = !keys.length;
  const table = $("means-whole-table");
  if (!keys.length) {
    table.replaceChildren();
    return;
  }
  const head = el("tr", {}, el("th", { scope: "col", class: "label", text: "Metric" }), el("th", { scope: "col", text: "mean" }));
  const body = el("tbody");
  for (const key of keys) {
    const label = metricLabel(key);
    const th = rowHead(key, label);
    if (label !== key) th.title = key;
    body.append(el("tr", { "data-metric": key }, th, valueCell(report, key)));
  }
  table.replaceChildren(el("thead", {}, head), body);
}
