// The per-query table: one row per query, sortable by any column, the first MAX_ROWS rows drawn.
// hooks (optional): filter(ids) -> the ids to show (views/per-query-filter.js), and
// open(qid, ids, button) when a query is clicked or chosen with the keyboard (views/query-detail.js).

import { $, clip, el, fmt, nf, layoutKeys, metricLabel } from "./dom.js";

const MAX_ROWS = 2000; // per-query rows drawn at all; downloads always have them all
// A long table is drawn FIRST_ROWS rows at once (more than its scroll box shows), the rest in
// parts of LATER_ROWS after the first paint: laying out 2,000 rows of cells takes the browser
// about a tenth of a second a thousand rows, which the scores would otherwise wait for.
const FIRST_ROWS = 150;
const LATER_ROWS = 250;
let drawing = 0; // the table being drawn (a newer draw stops an older one's later parts)
let rowsPending = false;

/** Whether rows of the table are still being added (tests and the bench wait for them). */
export function perQueryPending() {
  return rowsPending;
}
// One query has a reciprocal rank, not a mean of them: MRR@k's column here is RR@k.
const PER_QUERY_NAMES = { mrr: "RR" };
const name = (metric) => metricLabel(metric, PER_QUERY_NAMES);

const sortState = { key: "query", dir: 1 };
const collator = new Intl.Collator("en", { numeric: true });

let lastHooks = {};
let lastShown = [];

/** The queries the table lists now, in its order (after sorting and filtering). */
export function shownQueries() {
  return lastShown;
}

/** The measures at k, the headline one first (nDCG: what the line under the boxes and most
 * papers lead with), so that it is the group in view when a wide table scrolls sideways. */
function headlineFirst(grid) {
  const i = grid.findIndex((row) => row.name === "ndcg");
  return i > 0 ? [grid[i], ...grid.slice(0, i), ...grid.slice(i + 1)] : grid;
}

/** The direction a first click on `key` sorts: descending (the best first), unless the rows
 * shown are in that order already, when it sorts ascending: a click always changes something. */
function firstDirection(report, key) {
  const values = lastShown.map((qid) => report.per_query[qid]?.[key] ?? -1);
  const descending = values.every((v, i) => i === 0 || values[i - 1] >= v);
  return descending && values.length > 1 && values[0] !== values[values.length - 1] ? 1 : -1;
}

export function renderPerQuery(report, hooks = lastHooks) {
  lastHooks = hooks;
  const table = $("per-query-table");
  const laid = layoutKeys(report);
  const grid = headlineFirst(laid.grid);
  const other = laid.other;
  const keys = [...grid.flatMap((row) => row.keys), ...other]; // the columns, left to right
  if (sortState.key !== "query" && !keys.includes(sortState.key)) Object.assign(sortState, { key: "query", dir: 1 });
  const missing = new Set(report.missing_queries || []);
  const ids = Object.keys(report.per_query);
  const { key, dir } = sortState;
  if (key === "query") ids.sort((a, b) => dir * collator.compare(a, b));
  else ids.sort((a, b) => dir * ((report.per_query[a][key] ?? -1) - (report.per_query[b][key] ?? -1)) || collator.compare(a, b));
  const total = ids.length;
  const shown = hooks.filter ? hooks.filter(ids) : ids;
  lastShown = shown;

  // Two header rows: the metric over its cutoffs, then one sortable column per cutoff.
  const sortBy = (sortKey, focus) => {
    if (sortState.key === sortKey) sortState.dir = -sortState.dir;
    else Object.assign(sortState, { key: sortKey, dir: sortKey === "query" ? 1 : firstDirection(report, sortKey) });
    renderPerQuery(report);
    table.querySelector(focus)?.focus();
  };
  const header = (label, sortKey, cls, spoken) => {
    const active = sortState.key === sortKey;
    const th = el("th", { scope: "col", class: cls, "aria-sort": active ? (dir > 0 ? "ascending" : "descending") : "none" });
    const button = el("button", { type: "button", class: "sort", "data-sort": sortKey, "aria-label": spoken },
      el("span", { text: label }), el("span", { class: "sort-mark", "aria-hidden": "true", text: active ? (dir > 0 ? "▲" : "▼") : "" }));
    button.addEventListener("click", () => sortBy(sortKey, `button[data-sort="${CSS.escape(sortKey)}"]`));
    th.append(button);
    return th;
  };
  const top = el("tr");
  const bottom = el("tr");
  const queryHead = header("Query", "query", "label");
  queryHead.rowSpan = 2;
  top.append(queryHead);
  for (const row of grid) {
    // The metric's own header sorts too, by its largest cutoff (the k sub-headers by theirs).
    const last = row.keys[row.keys.length - 1];
    const groupButton = el("button", { type: "button", class: "sort", "data-sort-group": row.name, "aria-label": `${name(row.name)}: sort by ${name(last)}` },
      el("span", { text: name(row.name) }));
    groupButton.addEventListener("click", () => sortBy(last, `button[data-sort-group="${CSS.escape(row.name)}"]`));
    top.append(el("th", { scope: "colgroup", class: "group first", colSpan: report.k.length }, groupButton));
    row.keys.forEach((key, i) => bottom.append(header(`@${report.k[i]}`, key, i === 0 ? "cut first" : "cut", name(key))));
  }
  for (const key of other) {
    const th = header(name(key), key, "first");
    th.rowSpan = 2;
    top.append(th);
  }
  const head = [top, bottom];

  const firstColumns = new Set([...grid.map((row) => row.keys[0]), ...other]);
  const body = el("tbody");
  const makeRow = (qid) => {
    const values = report.per_query[qid];
    const idCell = el("th", { scope: "row", class: "label qid" }, hooks.open
      ? el("button", { type: "button", class: "qid-text qid-open", "data-open": qid, title: "Look at this query: its ranking, judgements and values", text: clip(qid, 300) })
      : el("span", { class: "qid-text", text: clip(qid, 300) }));
    if (missing.has(qid)) idCell.append(el("span", { class: "badge", title: "judged, but missing from the results: scored 0", text: "missing" }));
    const row = el("tr", { "data-query": qid }, idCell);
    if (missing.has(qid)) row.className = "missing";
    for (const k of keys) {
      row.append(el("td", { class: firstColumns.has(k) ? "first" : undefined, "data-key": k,
        "data-value": values[k] === undefined ? "" : String(values[k]), text: fmt(values[k]) }));
    }
    return row;
  };
  const rows = shown.slice(0, MAX_ROWS);
  const drawn = ++drawing;
  const addRows = (from, to) => {
    const frag = document.createDocumentFragment();
    for (let i = from; i < to; i++) frag.append(makeRow(rows[i]));
    body.append(frag);
  };
  const first = rows.length <= FIRST_ROWS + LATER_ROWS ? rows.length : FIRST_ROWS;
  addRows(0, first);
  rowsPending = first < rows.length;
  if (rowsPending) {
    let at = first;
    const later = () => {
      if (drawn !== drawing) return;
      addRows(at, Math.min(rows.length, at + LATER_ROWS));
      at += LATER_ROWS;
      if (at < rows.length) setTimeout(later, 0);
      else rowsPending = false;
    };
    requestAnimationFrame(() => setTimeout(later, 0)); // after the frame that shows the scores
  }
  if (hooks.open && !table.dataset.opens) {
    table.dataset.opens = "1"; // one listener for every row: a click anywhere on a row opens its query
    table.addEventListener("click", (event) => {
      const row = event.target.closest("tr[data-query]");
      if (!row || event.target.closest("thead") || !lastHooks.open) return;
      lastHooks.open(row.dataset.query, lastShown, row.querySelector("button.qid-open"));
    });
  }
  table.replaceChildren(el("thead", {}, ...head), body);
  const n = shown.length;
  $("per-query-caption").textContent = (n < total ? `${nf.format(n)} of ${nf.format(total)} queries shown` : `${nf.format(n)} quer${n === 1 ? "y" : "ies"}`) +
    `${missing.size ? `, ${nf.format(missing.size)} missing from the results` : ""}` +
    (grid.some((row) => row.name === "mrr") ? "; RR@k is each query's reciprocal rank, their mean is MRR@k" : "");
  const more = $("per-query-more");
  more.hidden = n <= MAX_ROWS;
  more.textContent = n > MAX_ROWS ? `Showing the first ${nf.format(MAX_ROWS)} of ${nf.format(n)} queries in this order; the downloads have all of them.` : "";
}
