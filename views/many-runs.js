// Many runs at once: several result files (dropped or picked together, or the results box added
// as one), each a named run that can be renamed or removed, one chosen as the baseline. They are
// scored against the judgements box with the page's settings (retrieval_metrics.page.web.analyse_many in the
// worker) and shown as a systems x metrics table of means with confidence intervals, markers for
// significant differences from the baseline, a table of the differences (CI, W/T/L, effect size,
// raw and corrected p), LaTeX and Markdown for papers (copied to the clipboard), and every run's
// precision-recall curve on one chart. Names and texts are only ever set as text. The list
// (names, texts or files' bytes, the baseline) is kept across a reload as the boxes are
// (views/keep.js), and its Clear has the boxes' Undo.

import { $, acceptDrops, disclosure, el, fmt, nf, metricLabel, setDisclosure } from "./dom.js";
import { fmtDelta, fmtP } from "./comparison.js";
import { curveSvg, curveTable, downloadSvg } from "./charts.js";
import { renderNotices } from "./notices.js";
import { saveFile } from "./downloads.js";
import { foldBox, glossaryButton, infoButton } from "./explain.js";
import { hideClearUndo, offerUndo, wrapping } from "./inputs.js";
import { keepAlso, keepSoon } from "./keep.js";

const MARKS = { better: "▲", worse: "▼" };
const MAX_RUNS = 50;

const state = {
  lane: null, // the worker bridge's lane of this box's requests (views/worker-bridge.js)
  bridge: null,
  inputs: null, // () => the page's current request: {qrels, options}
  runText: null, // () => the results box's text
  runs: [], // [{id, name, text | bytes, lines, size, file}] (bytes: a file's own, decoded by the engine)
  baseline: null, // the baseline run's id
  nextId: 1,
  timer: 0,
  shownId: 0, // the request whose comparison is drawn (the worker keeps it, for the downloads)
  result: null,
  diffMetric: null, // the metric the differences table shows ("" = all); null: not chosen yet
  renders: 0,
  version: 0, // bumped on every change of the list, so views/keep.js writes it only then
  undo: {}, // the holder of Clear's Undo note (views/inputs.js offerUndo)
};

const KEEP_KEY = "many-runs";

function countLines(text) {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return text && !text.endsWith("\n") ? n + 1 : n;
}

/** The lines of a file's bytes, or null when they are gzip or UTF-16 (the engine says once read). */
function countByteLines(bytes) {
  if (wrapping(bytes.subarray(0, 4096))) return null;
  let n = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) n++;
  return bytes.length && bytes[bytes.length - 1] !== 10 ? n + 1 : n;
}

function formatBytes(n) {
  return n < 1e3 ? `${n} B` : n < 1e6 ? `${(n / 1e3).toFixed(1)} kB` : `${(n / 1e6).toFixed(1)} MB`;
}

/** A run's name from its file name: the name without its extension, unique among the runs. */
export function uniqueName(wanted, taken) {
  const base = (wanted || "run").trim() || "run";
  if (!taken.includes(base)) return base;
  for (let i = 2; ; i++) if (!taken.includes(`${base} (${i})`)) return `${base} (${i})`;
}


export function initManyRuns({ bridge, inputs, runText }) {
  // Ids never repeat, even across restarts: after one, the worker refuses an old id's download.
  Object.assign(state, { bridge, inputs, runText, lane: bridge.lane() });
  // Read by the tests and the page benchmark.
  window.__calculator.many = {
    renders: () => state.renders,
    busy: () => state.lane.busy() || Boolean(state.timer),
    timings: {},
    add: addRuns,
    result: () => state.result,
  };
  buildInputs();
  buildResult();
  keepAlso(KEEP_KEY, { version: () => state.version, value: keptValue, restore: restoreKept });
}

// ---------------------------------------------------------------------------------------------
// Kept across a reload (views/keep.js): each run as a Blob of its file's own bytes (so a gzip
// or UTF-16 run is read again as the file it was) or of its text, with its name.

/** The list changed: kept once things are still. */
function listChanged() {
  state.version++;
  keepSoon();
}

function keptValue() {
  if (!state.runs.length) return null; // deleted: an empty list comes back empty
  return {
    baseline: Math.max(0, state.runs.findIndex((r) => r.id === state.baseline)),
    runs: state.runs.map((r) => ({ name: r.name, file: r.file, kind: r.bytes ? "file" : "text", blob: new Blob([r.bytes || r.text]) })),
  };
}

/** Puts the kept list back, unless runs were added before it was read (they win). */
async function restoreKept(value) {
  if (state.runs.length || !Array.isArray(value?.runs)) return false;
  const runs = [];
  for (const run of value.runs.slice(0, MAX_RUNS)) {
    if (!(run?.blob instanceof Blob)) continue;
    const kept = run.kind === "file" ? { bytes: new Uint8Array(await run.blob.arrayBuffer()) } : { text: await run.blob.text() };
    runs.push({ ...kept, name: String(run.name), file: run.file || null });
  }
  if (state.runs.length || !runs.length) return false; // added to meanwhile
  for (const run of runs) pushRun(run);
  state.baseline = state.runs[Math.min(Number(value.baseline) || 0, state.runs.length - 1)].id;
  drawList();
  schedule(0);
  return true;
}

/** The judgements or settings changed: score again (if there are runs). */
export function manyRunsEdited() {
  if (state.runs.length) schedule();
}

// The comparison shown is not of the runs and boxes any more: marked, and no file or copy from it
// until the new one is drawn.
function markPending(pending) {
  const section = $("many-result");
  if (!section) return;
  section.classList.toggle("stale", pending);
  section.dataset.state = pending ? "pending" : "current";
  for (const button of section.querySelectorAll("[data-copy], [data-file]")) button.disabled = pending;
}

function schedule(delay = 200) {
  markPending(true);
  clearTimeout(state.timer);
  state.timer = setTimeout(() => {
    state.timer = 0;
    send();
  }, delay);
}

// The message is made when the bridge sends it (once the runtime is ready and this box's
// previous request is done): what the runs and settings are then.
function message() {
  const page = state.inputs();
  const baseline = state.runs.find((r) => r.id === state.baseline) || state.runs[0];
  if (!baseline || !page.qrels.trim()) return null;
  $("many-status").textContent = `scoring ${state.runs.length} run${state.runs.length === 1 ? "" : "s"}…`;
  const options = {
    ...page.options, run_format: "auto", baseline: baseline.name,
    test: $("many-test").value, correction: $("many-correction").value, alpha: $("many-alpha").value.trim() || "0.05",
  };
  return { type: "analyse_many", qrels: page.qrels, options, runs: state.runs.map((r) => (r.bytes ? { name: r.name, bytes: r.bytes } : { name: r.name, text: r.text })) };
}

async function send() {
  if (!state.runs.length) {
    state.lane.clear();
    render(null);
    return;
  }
  if (!state.inputs().qrels.trim()) {
    state.lane.clear();
    render({ waiting: "Add judgements (qrels) above to score these runs." });
    return;
  }
  const started = performance.now();
  let answer;
  try {
    answer = await state.lane.submit(message);
  } catch (err) {
    if (err.stale) return; // a newer request is on its way
    render({ failure: err.message });
    return;
  }
  if (!answer) return;
  state.shownId = answer.id;
  const received = performance.now();
  render(answer.result);
  window.__calculator.many.timings = {
    ms: received - started, drawn: performance.now() - started, runs: state.runs.length,
    fromAdded: state.added ? performance.now() - state.added : null, worker: answer.timings,
  };
}

// ---------------------------------------------------------------------------------------------
// The input box

function buildInputs() {
  const file = el("input", { type: "file", multiple: true, id: "many-file", class: "visually-hidden", "data-testid": "many-file" });
  const test = el("select", { id: "many-test", "data-testid": "many-test" },
    el("option", { value: "randomisation", text: "paired randomisation" }), el("option", { value: "t", text: "paired t-test" }),
    el("option", { value: "bootstrap", text: "paired bootstrap" }));
  const correction = el("select", { id: "many-correction", "data-testid": "many-correction" },
    el("option", { value: "holm", text: "Holm" }), el("option", { value: "bonferroni", text: "Bonferroni" }),
    el("option", { value: "bh", text: "Benjamini-Hochberg" }), el("option", { value: "none", text: "none" }));
  const alpha = el("input", { type: "text", id: "many-alpha", "data-testid": "many-alpha", value: "0.05", inputMode: "decimal", size: 5, autocomplete: "off" });
  const addRun = el("button", { type: "button", class: "button quiet", "data-testid": "many-add-results", text: "Add the results box" });
  addRun.title = "Add the run in the results box above as one of the runs";
  const clear = el("button", { type: "button", class: "button quiet", "data-testid": "many-clear", text: "Clear" });
  clear.title = "Remove every run from the list";
  const box = el("div", { class: "box box-many", id: "many-box", "data-testid": "many-box" },
    el("div", { class: "box-head" },
      el("h2", {}, "Many runs ", el("span", { class: "aka", text: "optional: compare several runs at once, one of them the baseline" })),
      el("div", { class: "box-tools" },
        el("label", { class: "button file-button" }, "Add files…", file), addRun, clear)),
    el("div", { class: "many-drop", id: "many-drop", "data-testid": "many-drop" },
      el("p", { class: "many-empty", id: "many-empty", text: "Drop several run files here (or add them with “Add files…”). Each becomes a named run, scored against the judgements above with the same settings." }),
      el("div", { class: "table-scroll" }, el("table", { class: "many-list", id: "many-list", "data-testid": "many-list" }))),
    el("div", { class: "many-options", role: "group", "aria-label": "Significance test" },
      el("label", { class: "select-inline" }, "Test ", test),
      el("label", { class: "select-inline" }, "Correction ", correction),
      el("label", { class: "select-inline" }, "alpha ", alpha)),
    el("p", { class: "help many-names", id: "many-names", "data-testid": "many-names", role: "status", hidden: true }),
    el("p", { class: "error", id: "many-error", "data-testid": "many-error", role: "alert", hidden: true }));
  const after = $("baseline-box");
  after.parentNode.insertBefore(box, after.nextSibling);
  state.fold = foldBox(box, () => state.runs.length > 0, "Compare several runs…");

  file.addEventListener("change", () => {
    addFiles([...file.files]);
    file.value = "";
  });
  addRun.addEventListener("click", () => {
    const text = state.runText();
    if (!text.trim()) {
      showError("The results box is empty.");
      return;
    }
    addRuns([{ name: "results", text }]);
  });
  clear.addEventListener("click", () => {
    const before = { runs: state.runs, baseline: state.baseline };
    sayNames([]);
    state.runs = [];
    state.baseline = null;
    drawList();
    listChanged();
    schedule(0);
    if (!before.runs.length) return;
    // As a box's Clear: Undo puts the list back until runs are added again or the time is up.
    offerUndo(state.undo, clear, "many", () => {
      Object.assign(state, before);
      drawList();
      listChanged();
      schedule(0);
      clear.focus();
    });
  });
  for (const control of [test, correction]) control.addEventListener("change", () => state.runs.length && schedule(0));
  alpha.addEventListener("input", () => state.runs.length && schedule());
  acceptDrops(box, addFiles);
  drawList();
}

function showError(message) {
  const box = $("many-error");
  box.hidden = !message;
  box.textContent = message || "";
}

function sayNames(sentences) {
  const note = $("many-names");
  note.hidden = !sentences.length;
  note.textContent = sentences.length ? `Run names: ${sentences.join(" ")}` : "";
}

// Each file's own bytes go to the engine (which decodes gzip and UTF-16 itself, with a notice),
// and its run is named as the command line names it (web.run_names: x.trec and x.run are both
// kept, as "x.trec" and "x.run"), among the files already in the list.
async function addFiles(files) {
  const read = [];
  for (const file of files) {
    try {
      read.push({ bytes: new Uint8Array(await file.arrayBuffer()), file: file.name });
    } catch (err) {
      showError(`Could not read ${file.name}: ${err.message || err}`);
    }
  }
  if (!read.length) return;
  const before = state.runs.filter((r) => r.file).map((r) => r.file);
  let answer;
  try {
    await state.bridge.whenReady();
    answer = await state.bridge.call({ type: "run_names", paths: [...before, ...read.map((r) => r.file)] });
  } catch (err) {
    showError(`Could not name the runs: ${err.message || err}`);
    return;
  }
  read.forEach((run, i) => { run.name = answer.names[before.length + i]; });
  addRuns(read);
  sayNames(answer.notices || []);
}

/** Adds runs ({name, text | bytes, file?}); names are made unique (a name typed in the list may
 * take a file's). */
export function addRuns(runs) {
  state.added = performance.now();
  showError("");
  hideClearUndo(state.undo); // Undo would throw these away
  for (const run of runs) {
    if (state.runs.length >= MAX_RUNS) {
      showError(`At most ${MAX_RUNS} runs at once.`);
      break;
    }
    pushRun(run);
  }
  if (state.baseline === null && state.runs.length) state.baseline = state.runs[0].id;
  drawList();
  listChanged();
  schedule(0);
}

function pushRun(run) {
  const name = uniqueName(run.name, state.runs.map((r) => r.name));
  const lines = run.bytes ? countByteLines(run.bytes) : countLines(run.text);
  state.runs.push({ id: state.nextId++, name, text: run.text ?? null, bytes: run.bytes ?? null, lines, size: run.bytes?.length ?? null, file: run.file || null });
}

function drawList() {
  state.fold?.();
  const table = $("many-list");
  $("many-empty").hidden = state.runs.length > 0;
  table.hidden = !state.runs.length;
  if (!state.runs.length) {
    table.replaceChildren();
    return;
  }
  const inputs = (state.result && state.result.inputs && state.result.inputs.runs) || {};
  const errors = (state.result && state.result.errors && state.result.errors.runs) || {};
  const head = el("tr", {}, el("th", { scope: "col", text: "Baseline" }), el("th", { scope: "col", class: "label", text: "Name" }),
    el("th", { scope: "col", class: "label", text: "Read as" }), el("th", { scope: "col", text: "" }));
  const body = el("tbody");
  for (const run of state.runs) {
    const radio = el("input", { type: "radio", name: "many-baseline", value: String(run.id), checked: run.id === state.baseline, "aria-label": `${run.name} is the baseline` });
    radio.addEventListener("change", () => {
      state.baseline = run.id;
      listChanged();
      schedule(0);
    });
    const name = el("input", { type: "text", value: run.name, class: "many-name", "aria-label": "run name", "data-testid": "many-name", autocomplete: "off" });
    name.addEventListener("change", () => {
      const others = state.runs.filter((r) => r !== run).map((r) => r.name);
      run.name = uniqueName(name.value, others);
      name.value = run.name;
      drawList();
      listChanged();
      schedule(0);
    });
    const remove = el("button", { type: "button", class: "button quiet small", "data-testid": "many-remove", "aria-label": `Remove ${run.name}`, text: "Remove" });
    remove.addEventListener("click", () => {
      const i = state.runs.indexOf(run);
      state.runs.splice(i, 1);
      if (state.baseline === run.id) state.baseline = state.runs[0]?.id ?? null;
      drawList();
      listChanged();
      schedule(0);
      (table.querySelectorAll("[data-testid=many-remove]")[Math.min(i, state.runs.length - 1)] || $("many-file").parentNode).focus();
    });
    const error = errors[run.name];
    const detected = inputs[run.name];
    const status = error ? el("span", { class: "error-text", text: error.message })
      : el("span", { class: "help", text: detected ? detected.description : `${run.lines === null ? formatBytes(run.size) : `${nf.format(run.lines)} line${run.lines === 1 ? "" : "s"}`}${run.file ? ` from ${run.file}` : ""}` });
    body.append(el("tr", { "data-run": run.name, class: error ? "has-error" : undefined },
      el("td", { class: "many-radio" }, radio), el("td", { class: "label" }, name), el("td", { class: "label many-read" }, status),
      el("td", {}, remove)));
  }
  table.replaceChildren(el("thead", {}, head), body);
}

// ---------------------------------------------------------------------------------------------
// The result

function buildResult() {
  const section = el("section", { class: "many-wrap", id: "many-result", "data-testid": "many-result", hidden: true, "aria-labelledby": "many-title" },
    el("h3", { id: "many-title" }, "Many runs ", el("span", { class: "sub", id: "many-status", "aria-live": "polite" })),
    el("p", { class: "help many-description", id: "many-description", "data-testid": "many-description" }),
    el("div", { class: "table-scroll" }, el("table", { class: "numbers many-means", id: "many-table", "data-testid": "many-table" })),
    el("p", { class: "help", id: "many-legend" }),
    el("div", { class: "many-exports", role: "group", "aria-label": "Tables for papers" },
      el("span", { class: "downloads-label", text: "Copy for a paper" }),
      el("button", { type: "button", class: "button", "data-copy": "latex", "data-testid": "many-copy-latex", text: "LaTeX" }),
      el("button", { type: "button", class: "button", "data-copy": "markdown", "data-testid": "many-copy-markdown", text: "Markdown" }),
      el("button", { type: "button", class: "button quiet", "data-file": "many-csv", "data-testid": "many-download-csv", text: "Download CSV" }),
      el("button", { type: "button", class: "button quiet", "data-file": "many-json", "data-testid": "many-download-json", text: "Download JSON" }),
      el("button", { type: "button", class: "button", "data-file": "many-html", "data-testid": "many-save-report", text: "Save report", title: "One HTML file: settings, means with intervals, per-query values, the comparison, charts, the checks, the topic-set analysis and a methods paragraph; it opens offline" }),
      el("span", { class: "help", id: "many-copied", "data-testid": "many-copied", "aria-live": "polite" })),
    disclosure("many-export-text", "Show the LaTeX and Markdown", el("div", { id: "many-export-text" },
      el("pre", { id: "many-latex", "data-testid": "many-latex", tabIndex: 0 }), el("pre", { id: "many-markdown", "data-testid": "many-markdown", tabIndex: 0 }))),
    el("div", { class: "plot-head" }, el("h3", { text: "Differences from the baseline" }),
      el("label", { class: "select-inline" }, "Metric ", el("select", { id: "many-diff-metric", "data-testid": "many-diff-metric" }))),
    el("div", { class: "table-scroll" }, el("table", { class: "numbers many-diffs", id: "many-diffs", "data-testid": "many-diffs" })),
    el("p", { class: "help" }, glossaryButton()),
    el("ul", { class: "notices", id: "many-notices", "data-testid": "many-notices" }),
    el("figure", { class: "chart", "data-chart": "many-pr", "data-testid": "chart-many-pr" },
      el("figcaption", { class: "chart-title", text: "Precision-recall curves" }),
      el("div", { class: "chart-frame", id: "chart-many-pr-frame" }),
      el("div", { class: "chart-tools" },
        el("button", { type: "button", class: "button quiet small", "data-testid": "chart-many-pr-download", text: "Download SVG" }),
        disclosure("chart-data", "Show as a table", el("div", { class: "table-scroll", id: "chart-many-pr-table" })))));
  const report = $("report");
  report.parentNode.insertBefore(section, report.nextSibling);
  section.querySelector("[data-testid=chart-many-pr-download]").addEventListener("click", () => downloadSvg("many-pr"));
  for (const button of section.querySelectorAll("[data-copy]")) button.addEventListener("click", () => copy(button.dataset.copy));
  for (const button of section.querySelectorAll("[data-file]")) button.addEventListener("click", () => downloadFile(button.dataset.file));
  $("many-diff-metric").addEventListener("change", (e) => {
    state.diffMetric = e.target.value;
    drawDifferences();
  });
  if (typeof ResizeObserver !== "undefined") {
    let last = 0;
    new ResizeObserver(() => {
      const width = Math.round($("chart-many-pr-frame").clientWidth);
      if (state.result?.curves && Math.abs(width - last) >= 8) {
        last = width;
        drawCurve();
      }
    }).observe(section);
  }
}

// A file of the comparison shown, written by the engine (web.download).
async function downloadFile(kind) {
  const said = $("many-copied");
  if (!state.shownId) return;
  try {
    saveFile(await state.bridge.call({ type: "file", kind, of: state.shownId }));
    said.textContent = "";
  } catch (err) {
    said.textContent = err.stale ? "The runs changed meanwhile: download again once they are shown." : `Could not write that file: ${err.message}`;
  }
}

async function copy(kind) {
  const text = state.result?.exports?.[kind];
  const said = $("many-copied");
  if (!text) return;
  try {
    await navigator.clipboard.writeText(text);
    said.textContent = `${kind === "latex" ? "LaTeX" : "Markdown"} copied to the clipboard.`;
  } catch {
    // No clipboard (permissions): select the text instead, for Ctrl+C.
    const pre = $(`many-${kind}`);
    setDisclosure(pre.closest(".disclosure-wrap"), true);
    const range = document.createRange();
    range.selectNodeContents(pre);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    pre.focus();
    said.textContent = "The clipboard is not available here: the text is selected, copy it with Ctrl+C (⌘C).";
  }
}

function render(result) {
  markPending(Boolean(state.timer) || state.lane.busy());
  state.result = result && result.inputs ? result : null;
  state.renders++;
  const section = $("many-result");
  drawList();
  section.hidden = !state.runs.length;
  $("many-status").textContent = "";
  showError("");
  const parts = ["many-description", "many-legend"];
  for (const id of parts) $(id).textContent = "";
  const hide = (hidden) => {
    for (const node of section.querySelectorAll(":scope > :not(h3)")) node.hidden = hidden;
  };
  if (!result || result.waiting || result.failure) {
    hide(true);
    if (result?.waiting) $("many-status").textContent = result.waiting;
    if (result?.failure) showError(`Something went wrong inside the calculator: ${result.failure}`);
    return;
  }
  const errors = result.errors || {};
  const problems = [errors.options?.message, errors.comparison?.message, errors.qrels?.message,
    ...Object.values(errors.runs || {}).map((e) => e?.message)].filter(Boolean);
  if (problems.length) showError(problems.join(" "));
  if (!result.comparison) {
    hide(true);
    $("many-status").textContent = problems.length ? "— fix the input marked above" : "";
    return;
  }
  hide(false);
  const c = result.comparison;
  $("many-status").textContent = `${nf.format(c.systems.length)} runs, baseline ${c.baseline}`;
  $("many-description").textContent = c.description;
  $("many-latex").textContent = result.exports.latex;
  $("many-markdown").textContent = result.exports.markdown;
  $("many-copied").textContent = "";
  drawMeans(result);
  const select = $("many-diff-metric");
  if (state.diffMetric === null || (state.diffMetric !== "" && !c.metrics.includes(state.diffMetric))) {
    state.diffMetric = c.metrics.find((m) => m.startsWith("ndcg@")) || c.metrics[0] || ""; // one metric at first; "all" on demand
  }
  select.replaceChildren(el("option", { value: "", text: "all" }), ...c.metrics.map((m) => el("option", { value: m, text: metricLabel(m) })));
  select.value = state.diffMetric;
  drawDifferences();
  const notices = c.notices || [];
  $("many-notices").hidden = !notices.length;
  if (notices.length) renderNotices(notices, $("many-notices"));
  drawCurve();
}

/** 3 decimals with a real minus sign for negatives, no sign for positives. */
function signed(v) {
  return v < 0 && Number(v.toFixed(3)) !== 0 ? `−${Math.abs(v).toFixed(3)}` : Math.abs(v).toFixed(3);
}

function drawMeans(result) {
  const c = result.comparison;
  const table = $("many-table");
  const head = el("tr", {}, el("th", { scope: "col", class: "label", text: "Run" }));
  // Each measure's heading has the single-run means table's (i) button: its definition from the
  // engine's registry (views/explain.js).
  for (const m of c.metrics) head.append(el("th", { scope: "col", "data-metric": m }, metricLabel(m), infoButton(m)));
  // The best mean per column (to 4 decimals, as shown) in bold.
  const best = {};
  for (const m of c.metrics) {
    const shown = c.systems.map((s) => c.means[s][m].mean).filter((v) => typeof v === "number").map((v) => v.toFixed(4));
    best[m] = shown.length ? shown.reduce((a, b) => (Number(b) > Number(a) ? b : a)) : null;
  }
  const body = el("tbody");
  for (const system of c.systems) {
    const isBase = system === c.baseline;
    const row = el("tr", { "data-run": system, class: isBase ? "baseline" : undefined },
      el("th", { scope: "row", class: "label" }, el("span", { class: "run-name", text: system }), isBase ? el("span", { class: "badge", text: "baseline" }) : null));
    for (const m of c.metrics) {
      const mean = c.means[system][m];
      const diff = isBase ? null : c.differences[system][m];
      const marker = diff?.marker;
      const td = el("td", { "data-metric": m, "data-value": mean.mean ?? "", class: marker ? `marked ${marker}` : undefined });
      const value = el("span", { class: "many-mean", text: fmt(mean.mean) });
      if (best[m] !== null && typeof mean.mean === "number" && mean.mean.toFixed(4) === best[m]) value.classList.add("best");
      td.append(value);
      if (marker) {
        td.append(el("span", { class: `marker ${marker}`, "aria-hidden": "true", text: MARKS[marker] }));
        td.dataset.marker = marker;
      }
      if (typeof mean.low === "number") td.append(el("span", { class: "ci", text: `[${signed(mean.low)}, ${signed(mean.high)}]` }));
      td.title = `${system}, ${metricLabel(m)}: mean ${fmt(mean.mean)}` +
        (typeof mean.low === "number" ? `, ${Math.round(c.confidence * 100)}% CI ${fmt(mean.low)} to ${fmt(mean.high)}` : "") +
        (diff ? `; difference from ${c.baseline} ${fmtDelta(diff.delta)}, corrected p ${fmtP(diff.p_corrected)}` +
          (marker ? ` (significantly ${marker === "better" ? "higher" : "lower"})` : "") : "");
      if (marker) td.append(el("span", { class: "visually-hidden", text: ` significantly ${marker === "better" ? "higher" : "lower"} than ${c.baseline}` }));
      row.append(td);
    }
    body.append(row);
  }
  table.replaceChildren(el("caption", { class: "visually-hidden", text: "Mean of each metric per run, with its confidence interval" }), el("thead", {}, head), body);
  $("many-legend").textContent = `Means over each run's scored queries, ${Math.round(c.confidence * 100)}% confidence intervals in brackets; ` +
    `best per column in bold; ${MARKS.better} / ${MARKS.worse}: significantly higher / lower than ${c.baseline} ` +
    `(corrected p < ${c.alpha}).`;
}

function drawDifferences() {
  const c = state.result?.comparison;
  if (!c) return;
  const table = $("many-diffs");
  const metrics = state.diffMetric ? [state.diffMetric] : c.metrics;
  const cols = [["Run", "label"], ["Metric", "label"], ["Difference", ""], [`${Math.round(c.confidence * 100)}% CI`, ""], ["W/T/L", ""],
    ["Effect size", ""], ["p", ""], ["p corrected", ""], ["", "label"]];
  const head = el("tr", {}, ...cols.map(([text, cls]) => el("th", { scope: "col", class: cls || undefined, text })));
  head.children[5].title = "mean difference / standard deviation of the differences";
  head.children[7].title = `${c.correction} correction over ${c.family_size} comparisons`;
  const body = el("tbody");
  for (const system of c.systems) {
    if (system === c.baseline) continue;
    for (const m of metrics) {
      const d = c.differences[system][m];
      const sign = typeof d.delta !== "number" || d.delta === 0 ? "zero" : d.delta > 0 ? "up" : "down";
      body.append(el("tr", { "data-run": system, "data-metric": m, class: d.significant ? "significant" : undefined },
        el("th", { scope: "row", class: "label", text: system }),
        el("td", { class: "label", text: metricLabel(m) }),
        el("td", { class: `delta ${sign}`, "data-field": "delta", "data-value": d.delta ?? "", text: fmtDelta(d.delta) }),
        el("td", { "data-field": "ci", text: typeof d.low === "number" ? `${fmtDelta(d.low, 3)} to ${fmtDelta(d.high, 3)}` : "—" }),
        el("td", { "data-field": "wtl", text: `${nf.format(d.wins)}/${nf.format(d.ties)}/${nf.format(d.losses)}` }),
        el("td", { "data-field": "effect_size", "data-value": d.effect_size ?? "", text: typeof d.effect_size === "number" ? d.effect_size.toFixed(2) : "—" }),
        el("td", { "data-field": "p_value", "data-value": d.p_value ?? "", text: fmtP(d.p_value) }),
        el("td", { "data-field": "p_corrected", "data-value": d.p_corrected ?? "", class: d.significant ? "p significant" : "p", text: fmtP(d.p_corrected) }),
        el("td", { class: "label", "data-field": "marker", text: d.marker ? `${MARKS[d.marker]} ${d.marker}` : "" })));
    }
  }
  table.replaceChildren(el("caption", { class: "visually-hidden", text: `Each run against ${c.baseline}` }), el("thead", {}, head), body);
}

function drawCurve() {
  const curves = state.result?.curves;
  const frame = $("chart-many-pr-frame");
  if (!curves) {
    frame.replaceChildren();
    return;
  }
  const width = Math.max(260, Math.round(frame.clientWidth || 600));
  frame.replaceChildren(curveSvg(curves, width, (n) => n, "many-pr"));
  $("chart-many-pr-table").replaceChildren(curveTable(curves, (n) => n, "chart-many-pr-table"));
}
