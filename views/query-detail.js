// One query looked at closely: a dialog opened from the per-query table (click the query, or
// Enter / Space on its button) with the query's ranking to depth k, each document's judgement,
// the relevant documents the run never returned, and the query's values; with a baseline run,
// the two rankings side by side. The worker answers from the inputs it kept for the shown result
// (nothing is sent again). Document and query ids are only ever set as text.

import { el, fmt, nf, metricLabel } from "./dom.js";
import { fmtDelta } from "./comparison.js";

const DEPTHS = [10, 20, 50, 100, 1000];

const state = {
  ask: null, // (message) => Promise: the coordinator's question to the worker
  dialog: null,
  query: null,
  order: [], // the queries in the per-query table's order, for previous / next
  report: null,
  comparison: null,
  depth: null, // null: the largest k
  opener: null, // the element focus returns to on close
  asked: 0, // the latest question; older answers are dropped
};

export function initQueryDetail({ ask }) {
  state.ask = ask;
}

/** The shown result changed: forget the old one, and refresh an open dialog. */
export function updateQueryDetail(report, comparison) {
  state.report = report;
  state.comparison = comparison;
  if (!state.dialog?.open) return;
  if (!report) {
    state.dialog.close();
    return;
  }
  load();
}

/** Opens the dialog on `query`; `order` lists the table's queries (for previous / next). */
export function openQuery(query, order = [], opener = document.activeElement) {
  const dialog = ensureDialog();
  state.query = query;
  state.order = order;
  state.opener = opener;
  if (!dialog.open) dialog.showModal();
  dialog.querySelector(".qd-title").focus(); // a screen reader hears which query; Tab reaches the controls
  load();
}

function ensureDialog() {
  if (state.dialog) return state.dialog;
  const dialog = el("dialog", { class: "query-detail", "data-testid": "query-detail", "aria-labelledby": "query-detail-title" });
  const close = el("button", { type: "button", class: "button quiet", "data-testid": "query-detail-close", text: "Close" });
  close.addEventListener("click", () => dialog.close());
  const prev = el("button", { type: "button", class: "button quiet", "data-testid": "query-detail-prev", "aria-label": "Previous query", text: "← Previous" });
  const next = el("button", { type: "button", class: "button quiet", "data-testid": "query-detail-next", "aria-label": "Next query", text: "Next →" });
  prev.addEventListener("click", () => step(-1));
  next.addEventListener("click", () => step(1));
  const depth = el("select", { id: "query-detail-depth", "data-testid": "query-detail-depth" });
  depth.addEventListener("change", () => {
    state.depth = Number(depth.value) || null;
    load();
  });
  const head = el("div", { class: "qd-head" },
    el("h2", { id: "query-detail-title", class: "qd-title", tabIndex: -1 }),
    el("div", { class: "qd-nav" },
      el("label", { class: "select-inline" }, "Show top ", depth), prev, next, close));
  const body = el("div", { class: "qd-body", id: "query-detail-body", "aria-live": "polite" });
  dialog.append(head, body);
  dialog.addEventListener("close", () => {
    state.query = null;
    state.opener?.isConnected && state.opener.focus();
  });
  // A click on the backdrop (outside the dialog's box) closes it, as Escape does.
  dialog.addEventListener("click", (event) => {
    if (event.target !== dialog) return;
    const r = dialog.getBoundingClientRect();
    const inside = event.clientX >= r.left && event.clientX <= r.right && event.clientY >= r.top && event.clientY <= r.bottom;
    if (!inside) dialog.close();
  });
  document.body.append(dialog);
  state.dialog = dialog;
  state.prev = prev;
  state.next = next;
  state.depthSelect = depth;
  return dialog;
}

function step(delta) {
  const i = state.order.indexOf(state.query);
  const target = state.order[i + delta];
  if (target === undefined) return;
  state.query = target;
  load();
}

function fillDepths() {
  const k = state.report ? Math.max(...state.report.k) : 10;
  if (state.depthK !== k) state.depth = null; // a depth chosen for another k is forgotten
  state.depthK = k;
  const depths = [...new Set([k, ...DEPTHS])].sort((a, b) => a - b);
  const chosen = state.depth ?? k;
  state.depthSelect.replaceChildren(...depths.map((d) => el("option", { value: String(d), text: d === k ? `${d} (k)` : String(d) })));
  state.depthSelect.value = String(chosen);
}

async function load() {
  const query = state.query;
  const i = state.order.indexOf(query);
  state.prev.disabled = i <= 0;
  state.next.disabled = i < 0 || i >= state.order.length - 1;
  state.dialog.querySelector(".qd-title").textContent = `Query ${query}`;
  state.dialog.dataset.query = query;
  fillDepths();
  const body = document.getElementById("query-detail-body");
  body.setAttribute("aria-busy", "true");
  state.dialog.dataset.state = "loading";
  const asked = ++state.asked;
  let answer;
  try {
    answer = await state.ask({ type: "inspect", query, options: state.depth ? { depth: state.depth } : {} });
  } catch (err) {
    if (asked !== state.asked) return;
    body.removeAttribute("aria-busy");
    state.dialog.dataset.state = "error";
    body.replaceChildren(el("p", { class: "help", text: err.stale ? "The inputs changed; showing the new result in a moment…" : `Could not look at this query: ${err.message}` }));
    return;
  }
  if (asked !== state.asked || !state.dialog.open) return; // a newer question was asked
  body.removeAttribute("aria-busy");
  if (answer.error) {
    state.dialog.dataset.state = "error";
    body.replaceChildren(el("p", { class: "error", text: answer.error.message }));
    return;
  }
  body.replaceChildren(...renderAnswer(answer));
  state.dialog.dataset.state = "ready";
}

function judgement(row) {
  if (row.status === "unjudged") return "unjudged";
  return row.status === "relevant" ? `relevant (${row.grade})` : `not relevant (${row.grade})`;
}

function summary(a) {
  if (!a.judged) return "This query has no judgements: it is not scored, and every document it returned is unjudged.";
  const parts = [`${nf.format(a.judged_documents)} judged document${a.judged_documents === 1 ? "" : "s"}, ${nf.format(a.relevant)} relevant`];
  if (!a.relevant) parts.push("no relevant document, so the query is not scored unless the zero-division setting says otherwise");
  return parts.join("; ") + ".";
}

function sideSummary(side, depth, name) {
  if (!side.in_results) return `${name} has no results for this query` + (side.values ? ": it scores 0 on every metric (trec_eval -c)." : ".");
  return `${name} returned ${nf.format(side.retrieved)} document${side.retrieved === 1 ? "" : "s"}, ` +
    `${nf.format(side.relevant_retrieved)} of them relevant; in the top ${nf.format(depth)}: ` +
    `${nf.format(side.relevant_in_depth)} relevant, ${nf.format(side.unjudged_in_depth)} unjudged.`;
}

function renderAnswer(a) {
  const comparing = Boolean(a.baseline);
  const out = [el("p", { class: "qd-summary", "data-testid": "query-detail-summary", text: summary(a) })];
  out.push(valuesTable(a, comparing));
  const sides = el("div", { class: comparing ? "qd-sides two" : "qd-sides" });
  sides.append(sideBlock(a, a.run, comparing ? "Results (candidate)" : "Results", "run", comparing ? "baseline" : null));
  if (comparing) sides.append(sideBlock(a, a.baseline, "Baseline", "baseline", "results"));
  out.push(sides);
  return out;
}

// The query's values as the means table shows means: a metric per row, a cutoff per column (then
// the whole-run metrics); with a baseline each cell adds the baseline's value and the difference.
function valuesTable(a, comparing) {
  const run = a.run.values;
  const base = comparing ? a.baseline.values : null;
  if (!run && !base) {
    return el("p", { class: "help", "data-testid": "query-detail-values", text: "No values: this query is not scored." });
  }
  const keys = Object.keys(run || base);
  const cuts = [...new Set(keys.filter((k) => k.includes("@")).map((k) => k.split("@")[1]))];
  const metrics = [...new Set(keys.map((k) => k.split("@")[0]))];
  const head = el("tr", {}, el("th", { scope: "col", class: "label", text: comparing ? "Candidate (baseline, difference)" : "Metric" }));
  for (const k of cuts) head.append(el("th", { scope: "col", text: `@${k}` }));
  const whole = metrics.filter((m) => keys.includes(m));
  if (whole.length) head.append(el("th", { scope: "col", text: "no cutoff" }));
  const cell = (key) => {
    if (!keys.includes(key)) return el("td", { text: "" });
    const v = run ? run[key] : null;
    const td = el("td", { "data-key": key, "data-value": v ?? "" }, el("span", { class: "qd-value", text: fmt(v) }));
    if (comparing) {
      const b = base ? base[key] : null;
      const d = typeof v === "number" && typeof b === "number" ? v - b : null;
      td.dataset.baseline = b ?? "";
      td.append(el("span", { class: "qd-base" }, `${fmt(b)}, `,
        el("span", { class: `delta ${d > 0 ? "up" : d < 0 ? "down" : "zero"}`, text: d === null ? "—" : fmtDelta(d) })));
      td.title = `candidate ${fmt(v)}, baseline ${fmt(b)}, difference ${d === null ? "—" : fmtDelta(d)}`;
    }
    return td;
  };
  const body = el("tbody");
  for (const metric of metrics) {
    const row = el("tr", {}, el("th", { scope: "row", class: "label", text: metricLabel(metric) }));
    if (keys.includes(metric)) {
      for (const _ of cuts) row.append(el("td", { text: "" }));
      row.append(cell(metric));
    } else {
      for (const k of cuts) row.append(cell(`${metric}@${k}`));
      if (whole.length) row.append(el("td", { text: "" }));
    }
    body.append(row);
  }
  const caption = el("caption", { class: "visually-hidden", text: `Values of query ${a.query}` });
  return el("div", { class: "table-scroll qd-values-wrap" },
    el("table", { class: `numbers qd-values${comparing ? " comparing" : ""}`, "data-testid": "query-detail-values" }, caption, el("thead", {}, head), body));
}

function sideBlock(a, side, title, name, otherName) {
  const depth = a.depth;
  const block = el("section", { class: "qd-side", "data-side": name, "aria-label": title });
  block.append(el("h3", { text: title }), el("p", { class: "help", text: sideSummary(side, depth, title) }));
  if (side.ranking.length) {
    const head = el("tr", {}, el("th", { scope: "col", text: "Rank" }), el("th", { scope: "col", class: "label", text: "Document" }),
      el("th", { scope: "col", class: "label", text: "Judgement" }));
    if (otherName) head.append(el("th", { scope: "col", text: `In ${otherName}`, title: `the document's rank in the ${otherName}, if it returned it` }));
    const body = el("tbody");
    for (const row of side.ranking) {
      const tr = el("tr", { class: `doc ${row.status}`, "data-doc": row.doc, "data-status": row.status },
        el("td", { text: String(row.rank) }),
        el("th", { scope: "row", class: "label doc-id" }, el("code", { text: row.doc })),
        el("td", { class: "label judgement" }, el("span", { class: `mark ${row.status}`, "aria-hidden": "true" }), judgement(row)));
      if (otherName) tr.append(el("td", { "data-value": row.other_rank ?? "", text: row.other_rank ? `#${nf.format(row.other_rank)}` : "—" }));
      body.append(tr);
    }
    block.append(el("div", { class: "table-scroll qd-ranking-wrap" },
      el("table", { class: "numbers qd-ranking", "data-testid": `query-detail-${name}-ranking` },
        el("caption", { class: "visually-hidden", text: `${title}: top ${depth} documents with their judgements` }),
        el("thead", {}, head), body)));
  }
  const never = side.never_retrieved;
  const list = el("div", { class: "qd-never", "data-testid": `query-detail-${name}-never` });
  if (never.length) {
    list.append(el("h4", { text: `Relevant, never returned (${nf.format(never.length)})` }));
    const ul = el("ul", { class: "doc-list" });
    for (const d of never.slice(0, 200)) ul.append(el("li", { "data-doc": d.doc }, el("code", { text: d.doc }), ` grade ${d.grade}`));
    if (never.length > 200) ul.append(el("li", { text: `and ${nf.format(never.length - 200)} more` }));
    list.append(ul);
  } else if (a.relevant) {
    list.append(el("p", { class: "help", text: "Every relevant document was returned (at some rank)." }));
  }
  block.append(list);
  return block;
}
