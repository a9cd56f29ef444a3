// The means tables: the measures computed at every cutoff k (measure x k), and every other key of
// the report below them (whole-ranking measures such as MAP or bpref, names with their own cutoff
// such as P_5, measures with parameters). Each value cell carries data-key, the report's key.
// A key read in another tool's dialect (ranx:hits@5, ir_measures:P(rel=2)@5: the engine's
// `readings`) is shown by its name in that tool with a small tag naming the tool, whose title is
// the definition used, so a number is never taken for another tool's measure of the same name.

import { $, el, fmt, nf, layoutKeys, metricLabel } from "./dom.js";
import { infoButton } from "./explain.js";


const valueCell = (report, key) => {
  const value = report.mean[key];
  return el("td", { "data-key": key, "data-value": value === undefined || value === null ? "" : String(value), text: fmt(value) });
};

// The row header of a measure: its label, and for another tool's reading the tool's tag.
// The row heading: the measure's label (or its name in the tool it was read as, with a tag),
// and its (i) button, which opens the measure's definition (the button adds no text).
function labelCell(key, label, reading, titled = true) {
  const th = el("th", { scope: "row", class: "label" });
  const info = infoButton(key);
  if (!reading) {
    th.textContent = label;
    if (titled && label !== key) th.title = key;
    if (info) th.append(info);
    return th;
  }
  const definition = `${key}: read as ${reading.tool} reads it; ${reading.definition}`;
  th.title = definition;
  th.append(reading.name,
    el("span", { class: "reading-tag", "data-testid": "reading-tag", "data-tool": reading.tool, title: definition, "aria-hidden": "true", text: reading.tool }),
    el("span", { class: "visually-hidden", text: ` (as ${reading.tool} reads it: ${reading.definition})` }));
  if (info) th.append(info);
  return th;
}

/** `gain` is the gain setting the report was computed with ("linear" or "exponential");
 * `readings` the engine's list of keys read in another tool's dialect ({key, tool, name,
 * definition}). */
export function renderMeans(report, gain, readings = []) {
  const byKey = new Map((readings || []).map((r) => [r.key, r]));
  const { grid, other } = layoutKeys(report);
  const table = $("means-table");
  table.closest(".table-scroll").hidden = !grid.length;
  const head = el("tr", {}, el("th", { scope: "col", class: "label", text: "Metric" }));
  for (const k of report.k) head.append(el("th", { scope: "col", text: `@${k}` }));
  const body = el("tbody");
  for (const row of grid) {
    const reading = byKey.get(row.keys[0]);
    const rowReading = reading && { ...reading, name: reading.name.replace(/@\d+$/, "") };
    const tr = el("tr", { "data-metric": row.name }, labelCell(row.name, metricLabel(row.name), rowReading, false));
    for (const key of row.keys) tr.append(valueCell(report, key));
    body.append(tr);
  }
  table.replaceChildren(el("thead", {}, head), body);
  renderOtherMeans(report, other, byKey);
  const n = report.scored_queries;
  $("means-caption").textContent = `over ${nf.format(n)} scored quer${n === 1 ? "y" : "ies"}` +
    (gain === "exponential" ? "; nDCG gain 2^grade − 1" : "");
}

// Every key outside the grid: one row each, the measure's label (with its cutoff or parameters).
function renderOtherMeans(report, keys, byKey) {
  $("means-whole-wrap").hidden = !keys.length;
  const table = $("means-whole-table");
  if (!keys.length) {
    table.replaceChildren();
    return;
  }
  const head = el("tr", {}, el("th", { scope: "col", class: "label", text: "Metric" }), el("th", { scope: "col", text: "mean" }));
  const body = el("tbody");
  for (const key of keys) {
    body.append(el("tr", { "data-metric": key }, labelCell(key, metricLabel(key), byKey.get(key)), valueCell(report, key)));
  }
  table.replaceChildren(el("thead", {}, head), body);
}
