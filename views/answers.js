// The Answers mode: a references box and an answers box, exact match, token F1, ANLS and edit
// similarity per item and as means, notices, downloads. Its elements are built here into
// <main id="answers-main">; app.js sends its request to the worker and hands back the result.
// Everything the person typed is rendered as text (textContent), never as HTML.

import { acceptDrops, clip, el, fmt, nf } from "./dom.js";
import { blank, boxText, clearWithUndo, hideClearUndo, readFile, setBoxText, showBoxError } from "./inputs.js";
import { renderNotices } from "./notices.js";
import { saveFile } from "./downloads.js";
import { STALE_DOWNLOAD, drawStaleNote, drawStoppedEmpty } from "./stale.js";

const MAX_ROWS = 2000; // per-item rows drawn at once; downloads always have them all

export const ANSWER_METRICS = [
  { key: "exact_match", label: "Exact match", short: "EM", text: "SQuAD: lower case, no punctuation or a/an/the" },
  { key: "token_f1", label: "Token F1", short: "F1", text: "SQuAD: lower case, no punctuation or a/an/the" },
  { key: "anls", label: "ANLS", short: "ANLS", text: "lower case, spaces collapsed; below 0.5 counts 0" },
  { key: "edit_similarity", label: "Edit similarity", short: "Edit sim.", text: "the text as given" },
];

const FORMATS = [["auto", "detect"], ["jsonl", "JSONL"], ["json", "JSON"], ["csv", "CSV"], ["tsv", "TSV"]];

// Set by initAnswers: what the coordinator does when something changed.
const hooks = { edited: (delay) => {}, failed: (message) => {}, stop: () => {}, file: (kind) => Promise.reject(new Error("not ready")) };
let lastResult = null;
const sortState = { key: "order", dir: 1 };

// ---------------------------------------------------------------------------------------------
// Elements

/** Sets plain attributes that el() would set as properties (spellcheck, role, ...). */
function withAttributes(node, attributes, ...children) {
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  for (const child of children) node.append(child);
  return node;
}

function formatSelect(name) {
  const select = el("select", { id: `${name}-format`, "data-testid": `${name}-format` });
  for (const [value, text] of FORMATS) select.append(el("option", { value, text }));
  return select;
}

function buildBox(name, title, aka, placeholder) {
  const textarea = withAttributes(el("textarea", {
    id: `${name}-input`, "data-testid": `${name}-input`, placeholder, "aria-describedby": `${name}-detected ${name}-error`,
  }), { spellcheck: "false", autocomplete: "off", autocapitalize: "off", wrap: "off" });
  const file = el("input", { type: "file", id: `${name}-file`, "data-testid": `${name}-file`, class: "visually-hidden" });
  const clear = el("button", { type: "button", class: "button quiet clear-button", "data-testid": `${name}-clear`, text: "Clear" });
  const format = formatSelect(name);
  const root = el("div", { class: "box", id: `${name}-box`, "data-box": name },
    el("div", { class: "box-head" },
      el("h2", {}, el("label", { htmlFor: `${name}-input` }, `${title} `, el("span", { class: "aka", text: aka }))),
      el("div", { class: "box-tools" }, el("label", { class: "button file-button" }, "Open file…", file), clear)),
    el("div", { class: "box-options" }, el("label", { class: "select-inline" }, "Format", format)),
    el("div", { class: "drop-zone" }, textarea, el("div", { class: "drop-hint", "aria-hidden": "true", text: "Drop the file to load it" })),
    el("p", { class: "big-file", id: `${name}-big`, hidden: true }),
    el("p", { class: "detected", id: `${name}-detected`, "data-testid": `${name}-detected` }),
    withAttributes(el("div", { class: "error", id: `${name}-error`, "data-testid": `${name}-error`, hidden: true }), { role: "alert" }));
  return {
    name, root, textarea, format, file, clear,
    detected: root.querySelector(".detected"), error: root.querySelector(".error"), bigNote: root.querySelector(".big-file"),
    big: null,
    bytes: null, // a loaded file's own bytes (see boxInput)
  };
}

export const answerBoxes = {};
const parts = {};

function build(main) {
  answerBoxes.references = buildBox("references", "References", "gold answers",
    'Paste or drop the reference answers:\nJSONL {"id": "q1", "references": ["Paris", "City of Paris"]}\nCSV   q1,Paris  (repeat an id for more)\nJSON  {"q1": ["Paris", "City of Paris"]}');
  answerBoxes.answers = buildBox("answers", "Answers", "generated",
    'Paste or drop the answers to score:\nJSONL {"id": "q1", "answer": "Paris, France"}\nCSV   q1,"Paris, France"\nJSON  {"q1": "Paris, France"}');
  parts.examples = el("select", { id: "answers-examples", "data-testid": "answers-examples-select" },
    el("option", { value: "", text: "Load an example…" }));
  parts.missing = el("select", { id: "answers-missing", "data-testid": "answers-missing-select" },
    el("option", { value: "zero", text: "score 0" }), el("option", { value: "skip", text: "leave out" }));
  parts.optionsError = withAttributes(el("p", { class: "error options-error", id: "answers-options-error", "data-testid": "answers-options-error", hidden: true }), { role: "alert" });
  const settings = el("section", { class: "settings", "aria-label": "Answers settings" },
    el("div", { class: "field field-examples" }, el("label", { htmlFor: "answers-examples", text: "Example" }), parts.examples),
    el("div", { class: "field" }, el("label", { htmlFor: "answers-missing", text: "Items without an answer" }), parts.missing),
    el("p", { class: "help answers-help", text: "Each item counts its best reference. Exact match and token F1 compare text as SQuAD does " +
      "(lower case, punctuation and a/an/the removed); ANLS compares lower-cased text with spaces collapsed and counts a similarity " +
      "below 0.5 as 0; edit similarity compares the text as given. Similarity = 1 − edit distance / longer length, in characters." }),
    parts.optionsError);
  const inputs = el("section", { class: "inputs", "aria-label": "References and answers" }, answerBoxes.references.root, answerBoxes.answers.root);

  parts.empty = el("p", { class: "empty", "data-testid": "answers-empty" });
  parts.busyText = el("span", { text: "scoring…" });
  parts.stop = el("button", { type: "button", class: "button quiet small", "data-testid": "answers-cancel", text: "Stop" });
  parts.busy = el("p", { class: "answers-busy", "data-testid": "answers-busy", hidden: true },
    el("span", { class: "spinner", "aria-hidden": "true" }), parts.busyText, parts.stop);
  parts.staleNote = el("p", { class: "stale-note", "data-testid": "answers-stale-note", hidden: true });
  parts.note = el("p", { class: "example-note", "data-testid": "answers-example-note", hidden: true });
  parts.meansCaption = el("span", { class: "sub" });
  parts.means = el("table", { class: "numbers means answers-means", "data-testid": "answers-means-table" });
  parts.notices = el("ul", { class: "notices", "data-testid": "answers-notices" });
  parts.perItemCaption = el("span", { class: "sub" });
  parts.perItem = el("table", { class: "numbers per-item", "data-testid": "answers-per-item-table" });
  parts.more = el("p", { class: "help", hidden: true });
  parts.downloadKind = el("select", { id: "answers-download-kind", "data-testid": "answers-download-kind" },
    el("option", { value: "csv", text: "per-item table, CSV (references as a JSON list)" }),
    el("option", { value: "jsonl", text: "per-item table, JSONL (one line per item)" }),
    el("option", { value: "means-csv", text: "means, CSV" }),
    el("option", { value: "json", text: "report, JSON (means, items, notices, settings)" }));
  parts.downloadButton = el("button", { type: "button", class: "button", id: "answers-download-button", "data-testid": "answers-download-button", text: "Download" });
  parts.report = el("div", { class: "report", "data-testid": "answers-report", hidden: true }, parts.staleNote,
    el("div", { class: "means-wrap" }, el("h3", {}, "Means ", parts.meansCaption), el("div", { class: "table-scroll", "data-label": "Means of the answer metrics" }, parts.means)),
    el("div", { class: "notices-wrap" }, el("h3", { text: "Notices" }), parts.notices),
    withAttributes(el("div", { class: "answer-downloads" }), { role: "group", "aria-labelledby": "answers-download-label" },
      el("label", { htmlFor: "answers-download-kind", id: "answers-download-label", class: "downloads-label", text: "Download" }),
      parts.downloadKind, parts.downloadButton),
    el("div", { class: "per-query-wrap" }, el("h3", {}, "Per item ", parts.perItemCaption),
      el("div", { class: "table-scroll tall", "data-label": "Per-item scores" }, parts.perItem), parts.more));
  parts.results = el("section", { class: "results", id: "answers-results", tabIndex: -1, "aria-labelledby": "answers-results-title" },
    el("div", { class: "results-head" }, el("h2", { id: "answers-results-title", text: "Results" }), parts.busy),
    parts.empty, parts.note, parts.report);
  main.replaceChildren(settings, inputs, parts.results);
  parts.empty.textContent = emptyMessage(null);
}

// ---------------------------------------------------------------------------------------------
// Requests and results

/** What app.js sends to the worker for this mode. */
export function answersRequest() {
  return {
    references: boxInput(answerBoxes.references),
    answers: boxInput(answerBoxes.answers),
    options: {
      references_format: answerBoxes.references.format.value,
      answers_format: answerBoxes.answers.format.value,
      missing: parts.missing.value,
    },
  };
}

export function answersBlank() {
  return blank(boxText(answerBoxes.references)) && blank(boxText(answerBoxes.answers));
}

// A file's own bytes go to the engine while the box is unedited, so it decodes them as it decodes
// the rankings' files and the CLI's (py/retrieval_metrics/source.py); the box shows them as text.
function boxInput(box) {
  return box.bytes || boxText(box);
}

function setText(box, text, fileName = null, bytes = null) {
  setBoxText(box, text, fileName, bytes);
}

export function answersSize() {
  return boxText(answerBoxes.references).length + boxText(answerBoxes.answers).length;
}

/** The "scoring…" line with its Stop button (`text`: "stopping…" once Stop was pressed). */
export function showAnswersBusy(busy, text = "scoring…") {
  const stopping = text !== "scoring…";
  parts.busy.hidden = !busy;
  parts.busyText.textContent = text;
  parts.stop.hidden = stopping;
  if (busy) parts.results.setAttribute("aria-busy", "true");
  else parts.results.removeAttribute("aria-busy");
  if (busy && !stopping && parts.report.hidden && !blank(boxText(answerBoxes.references)) && !blank(boxText(answerBoxes.answers))) {
    parts.empty.textContent = "Scoring…";
  }
}

/** The boxes or the setting changed: the report shown is not of them any more, so it is marked
 * and offers no file until the new one is drawn. */
export function markAnswersPending() {
  markReport("pending");
}

/** Stop was pressed while this mode scored: the report shown (if any) is marked stopped, with
 * the rankings' words and a "Score again" button that calls `again()`. */
export function markAnswersStopped(again) {
  if (parts.report.hidden) drawStoppedEmpty(parts.empty, again, "answers-score-again");
  else markReport("stopped", again);
}

// "current", or why the report shown is not (views/stale.js).
function markReport(state, again = () => {}) {
  if (!parts.report || (parts.report.hidden && state !== "current")) return;
  const stale = state !== "current";
  parts.report.classList.toggle("stale", stale);
  parts.report.dataset.state = state;
  drawStaleNote(parts.staleNote, state, again, "answers-score-again");
  parts.downloadButton.disabled = stale;
  parts.downloadButton.title = stale ? STALE_DOWNLOAD[state] : "";
}

export function renderAnswers(result) {
  lastResult = result;
  markReport("current");
  showAnswersBusy(false);
  const report = result && result.report;
  const inputs = (result && result.inputs) || {};
  const errors = (result && result.errors) || {};
  for (const name of ["references", "answers"]) {
    const box = answerBoxes[name];
    const summary = inputs[name];
    box.detected.textContent = summary ? `Detected: ${clip(summary.description)}` : "";
    showBoxError(box, errors[name] || null);
  }
  const optionsError = errors.options || null;
  parts.optionsError.hidden = !optionsError;
  parts.optionsError.textContent = optionsError ? clip(optionsError.message) : "";
  if (!report) {
    parts.report.hidden = true;
    parts.empty.hidden = false;
    parts.empty.textContent = emptyMessage(result);
    return;
  }
  parts.empty.hidden = true;
  parts.report.hidden = false;
  renderMeans(report);
  renderNotices(report.notices || [], parts.notices, ["item", "items"]);
  renderPerItem(report);
}

function emptyMessage(result) {
  if (!result) return "Paste or drop reference answers and generated answers above, or load an example, and the scores appear here.";
  const { errors = {}, inputs = {} } = result;
  if (errors.references || errors.answers) return "Fix the input marked above and the scores appear here.";
  if (errors.options) return "Fix the settings marked above and the scores appear here.";
  const refs = inputs.references || inputs.answers;
  if (!refs || !refs.references) return "Add the reference answers to score these answers.";
  return "Add the answers to score against these references.";
}

function renderMeans(report) {
  const body = el("tbody");
  for (const metric of ANSWER_METRICS) {
    const value = report.mean[metric.key];
    body.append(el("tr", { "data-metric": metric.key },
      el("th", { scope: "row", class: "label", text: metric.label }),
      el("td", { "data-value": value === undefined ? "" : String(value), text: fmt(value) }),
      el("td", { class: "how", text: metric.text })));
  }
  parts.means.replaceChildren(el("thead", {}, el("tr", {},
    el("th", { scope: "col", class: "label", text: "Metric" }), el("th", { scope: "col", text: "Mean" }),
    el("th", { scope: "col", class: "how", text: "Text compared" }))), body);
  const n = report.scored_items;
  parts.meansCaption.textContent = `over ${nf.format(n)} item${n === 1 ? "" : "s"}` +
    (report.missing === "skip" && report.missing_items.length ? `; ${nf.format(report.missing_items.length)} without an answer left out` : "");
}

const collator = new Intl.Collator("en", { numeric: true });

function renderPerItem(report) {
  const rows = report.per_item.map((row, order) => ({ ...row, order }));
  const { key, dir } = sortState;
  if (key === "order") rows.sort((a, b) => dir * (a.order - b.order));
  else if (key === "id") rows.sort((a, b) => dir * collator.compare(a.id, b.id));
  else rows.sort((a, b) => dir * (a[key] - b[key]) || a.order - b.order);

  const header = (label, sortKey, cls, title) => {
    const active = sortState.key === sortKey;
    const th = el("th", { scope: "col", class: cls, title, "aria-sort": active ? (dir > 0 ? "ascending" : "descending") : "none" });
    const button = el("button", { type: "button", class: "sort", "data-sort": sortKey },
      el("span", { text: label }), el("span", { class: "sort-mark", "aria-hidden": "true", text: active ? (dir > 0 ? "▲" : "▼") : "" }));
    button.addEventListener("click", () => {
      if (sortState.key === sortKey) sortState.dir = -sortState.dir;
      else Object.assign(sortState, { key: sortKey, dir: sortKey === "id" || sortKey === "order" ? 1 : -1 });
      renderPerItem(report);
      parts.perItem.querySelector(`button[data-sort="${CSS.escape(sortKey)}"]`)?.focus();
    });
    th.append(button);
    return th;
  };
  const head = el("tr", {}, header("#", "order", "order"), header("Item", "id", "label"),
    el("th", { scope: "col", class: "text", text: "Answer" }), el("th", { scope: "col", class: "text", text: "References" }));
  for (const metric of ANSWER_METRICS) head.append(header(metric.short, metric.key, undefined, metric.label));

  const body = el("tbody");
  const frag = document.createDocumentFragment();
  for (const row of rows.slice(0, MAX_ROWS)) {
    const missing = row.answer === null || row.answer === undefined;
    const answerCell = el("td", { class: "text answer" });
    if (missing) answerCell.append(el("span", { class: "badge", title: "no answer for this item: scored 0", text: "no answer" }));
    else answerCell.textContent = clip(row.answer); // the downloads keep the whole text
    const refsCell = el("td", { class: "text refs" });
    row.references.forEach((ref, i) => {
      if (i) refsCell.append(el("span", { class: "ref-sep", "aria-hidden": "true", text: " | " }));
      refsCell.append(el("span", { class: "ref", text: clip(ref) }));
    });
    const tr = el("tr", { "data-item": row.id, class: missing ? "missing" : undefined },
      el("td", { class: "order", text: String(row.order + 1) }),
      el("th", { scope: "row", class: "label qid" }, el("span", { class: "qid-text", text: clip(row.id, 200) })),
      answerCell, refsCell);
    for (const metric of ANSWER_METRICS) {
      tr.append(el("td", { "data-key": metric.key, "data-value": String(row[metric.key]), text: fmt(row[metric.key]) }));
    }
    frag.append(tr);
  }
  body.append(frag);
  parts.perItem.replaceChildren(el("thead", {}, head), body);
  const n = rows.length;
  const missingCount = report.per_item.filter((r) => r.answer === null || r.answer === undefined).length;
  parts.perItemCaption.textContent = `${nf.format(n)} item${n === 1 ? "" : "s"}` +
    (missingCount ? `, ${nf.format(missingCount)} without an answer` : "");
  parts.more.hidden = n <= MAX_ROWS;
  parts.more.textContent = n > MAX_ROWS ? `Showing the first ${nf.format(MAX_ROWS)} of ${nf.format(n)} items in this order; the downloads have all of them.` : "";
}

// ---------------------------------------------------------------------------------------------
// Downloads

// Every file is the engine's (web.download): the page asks the worker for the text of the shown
// result's file, so there is one writer per format.
async function downloadFile(kind) {
  try {
    saveFile(await hooks.file(`answers-${kind}`));
  } catch (err) {
    hooks.failed(err.stale ? "the results changed meanwhile: download again once they are shown" : `could not write that file (${err.message})`);
  }
}

// ---------------------------------------------------------------------------------------------
// Examples

function forgetExample() {
  parts.examples.value = "";
  parts.note.hidden = true;
}

async function loadExample(id) {
  const base = `examples/${encodeURIComponent(id)}/`;
  const get = async (path, json) => {
    const response = await fetch(base + path, { cache: "no-cache" });
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    return json ? response.json() : response.text();
  };
  const example = await get("settings.json", true);
  const [references, answers] = await Promise.all([get(example.references), get(example.answers)]);
  setText(answerBoxes.references, references, example.references);
  setText(answerBoxes.answers, answers, example.answers);
  answerBoxes.references.format.value = example.references_format ?? "auto";
  answerBoxes.answers.format.value = example.answers_format ?? "auto";
  parts.missing.value = example.missing ?? "zero";
  parts.note.replaceChildren(el("strong", { text: example.title }), ". ", example.description || "");
  parts.note.hidden = false;
  hooks.edited(0);
}

// ---------------------------------------------------------------------------------------------
// Events

async function loadFile(box, file) {
  if (!file) return;
  box.detected.textContent = `reading ${file.name}…`;
  try {
    // Its own bytes go to the engine; a gzip or UTF-16 file is shown decoded, never as bytes.
    const { bytes, text } = await readFile(file);
    setText(box, text, file.name, bytes);
    box.detected.textContent = "";
    forgetExample();
    hooks.edited(0);
  } catch (err) {
    showBoxError(box, { message: `Could not read ${file.name}: ${err.message || err}` });
  }
}

function wireBox(box) {
  box.textarea.addEventListener("input", () => {
    hideClearUndo(box);
    box.bytes = null; // edited: the text in the box is what counts now
    if (!box.big && !box.editingBig && box.textarea.value.length > 2_000_000) setText(box, box.textarea.value, "pasted text");
    forgetExample();
    hooks.edited();
  });
  box.format.addEventListener("change", () => hooks.edited(0));
  box.file.addEventListener("change", () => {
    loadFile(box, box.file.files[0]);
    box.file.value = "";
  });
  box.clear.addEventListener("click", () => {
    clearWithUndo(box, box.clear, () => {
      forgetExample();
      hooks.edited(0);
    });
    forgetExample();
    box.textarea.focus();
    hooks.edited(0);
  });
  acceptDrops(box.root, (files) => loadFile(box, files[0]), (text) => {
    setText(box, text);
    forgetExample();
    hooks.edited(0);
  });
}

/** Builds the mode into `main`; `edited(delay)` schedules a score, `failed(message)` reports;
 * `examples`: the build's examples whose mode is "answers". */
export function initAnswers(main, { edited, failed, examples, file, stop }) {
  hooks.edited = edited;
  hooks.failed = failed;
  hooks.file = file; // (kind) => Promise of the engine's file {name, type, text} of the shown result
  hooks.stop = stop; // the Stop button: cancels the running request (app.js)
  build(main);
  parts.stop.addEventListener("click", () => hooks.stop());
  for (const box of Object.values(answerBoxes)) wireBox(box);
  parts.missing.addEventListener("change", () => edited(0));
  for (const example of examples || []) parts.examples.append(el("option", { value: example.id, text: example.title }));
  parts.examples.addEventListener("change", () => {
    const id = parts.examples.value;
    if (id) loadExample(id).catch((err) => failed(`could not load the example (${err.message || err})`));
  });
  parts.downloadButton.addEventListener("click", () => {
    if (lastResult && lastResult.report) downloadFile(parts.downloadKind.value);
  });
}

