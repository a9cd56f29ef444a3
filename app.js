// The calculator page: keeps the inputs and settings, talks to the Pyodide worker (worker.js) and
// renders what the engine reports. Everything the person typed or dropped is rendered as text
// (textContent), never as HTML.

import { renderComparison } from "./compare-view.js";
import { comparisonCsv, comparisonJson, meansCsv, reportCsv, reportJson, reportJsonl, strictJson } from "./report-files.js";
import { startOffline } from "./offline.js";

const config = JSON.parse(document.getElementById("build-config")?.textContent || "{}");

const $ = (id) => document.getElementById(id);
const BIG_FILE = 2_000_000; // characters: above this a file is kept out of the text box (preview only)
const PREVIEW_LINES = 200;
const MAX_ROWS = 2000; // per-query rows drawn at once; downloads always have them all
const CANCEL_AFTER_MS = 800; // a computation running this long is cancelled (worker restarted) by a new edit
const METRIC_NAMES = {
  recall: "Recall", precision: "Precision", mrr: "MRR", ndcg: "nDCG", hit_rate: "Hit rate", ap: "AP",
  judged: "Judged", map: "MAP", rprec: "R-prec", rr: "RR",
};
const WHOLE_RUN = ["map", "rprec", "rr"]; // metrics over the whole ranking, keyed without @k
const nf = new Intl.NumberFormat("en-US");

// ---------------------------------------------------------------------------------------------
// Inputs

const boxes = {};
for (const name of ["qrels", "run", "baseline"]) {
  boxes[name] = {
    name,
    root: $(`${name}-box`),
    textarea: $(`${name}-input`),
    format: $(`${name}-format`),
    file: $(`${name}-file`),
    detected: $(`${name}-detected`),
    error: $(`${name}-error`),
    bigNote: $(`${name}-big`),
    big: null, // {name, text, lines} when a large file is loaded
  };
}
const settings = {
  k: $("k"), gain: $("gain"), missing: $("missing"), thirdColumn: $("third-column"),
  baselineThirdColumn: $("baseline-third-column"),
  optionsError: $("options-error"), examples: $("examples"),
  metrics: [...document.querySelectorAll('[data-testid=metrics-chooser] input[name=metric]')],
};

function boxText(box) {
  return box.big ? box.big.text : box.textarea.value;
}

function blank(text) {
  return !/\S/.test(text);
}

function countLines(text) {
  if (!text) return 0;
  let n = 0;
  let i = -1;
  while ((i = text.indexOf("\n", i + 1)) !== -1) n++;
  return text.endsWith("\n") ? n : n + 1;
}

function formatBytes(n) {
  if (n < 1e3) return `${n} B`;
  if (n < 1e6) return `${(n / 1e3).toFixed(1)} kB`;
  return `${(n / 1e6).toFixed(1)} MB`;
}

function setBoxText(box, text, fileName = null) {
  box.editingBig = false;
  box.bytes = null; // a file's own bytes (loadFile), sent to the engine until the box is edited
  box.fileName = fileName; // recorded in the downloads' meta
  if (text.length > BIG_FILE) {
    const lines = countLines(text);
    let cut = 0;
    for (let i = 0; i < PREVIEW_LINES && cut !== -1; i++) cut = text.indexOf("\n", cut + 1);
    box.big = { name: fileName || "pasted text", text, lines };
    box.textarea.value = text.slice(0, cut === -1 ? text.length : cut);
    box.textarea.readOnly = true;
    box.root.classList.add("has-big");
    renderBigNote(box, text.length);
  } else {
    box.big = null;
    box.textarea.readOnly = false;
    box.root.classList.remove("has-big");
    box.bigNote.hidden = true;
    box.textarea.value = text;
  }
}

function renderBigNote(box, size) {
  const note = box.bigNote;
  note.replaceChildren();
  const strong = document.createElement("strong");
  strong.textContent = box.big.name;
  note.append(strong, ` is loaded (${formatBytes(size)}, ${nf.format(box.big.lines)} lines). ` +
    `The box shows its first ${PREVIEW_LINES} lines; all of it is scored. `);
  const edit = document.createElement("button");
  edit.type = "button";
  edit.className = "linkish";
  edit.textContent = box.big.lines > 200_000 ? "Edit the whole text (slow for a file this large)" : "Edit the whole text";
  edit.addEventListener("click", () => {
    const text = box.big.text;
    box.big = null;
    box.editingBig = true; // the person asked for it: keep the whole text in the box from now on
    box.textarea.readOnly = false;
    box.root.classList.remove("has-big");
    note.hidden = true;
    box.textarea.value = text;
    box.textarea.focus();
  });
  note.append(edit);
  note.hidden = false;
}

async function loadFile(box, file) {
  if (!file) return;
  box.detected.textContent = `reading ${file.name}…`;
  const timings = window.__calculator.timings;
  timings.file = { start: performance.now() };
  try {
    // The engine gets the file's bytes, so it reads them exactly as the CLI reads the file
    // (a line that is not UTF-8 as Windows-1252, with a warning); the box shows the same text.
    const bytes = new Uint8Array(await file.arrayBuffer());
    const text = bytesAsText(bytes);
    timings.file.read = performance.now();
    setBoxText(box, text, file.name);
    box.bytes = bytes;
    timings.file.shown = performance.now();
    box.detected.textContent = "";
    settings.examples.value = "";
    hideExampleNote();
    schedule(0);
  } catch (err) {
    showBoxError(box, { message: `Could not read ${file.name}: ${err.message || err}` });
  }
}

// What the engine reads in bytes (py/retrieval_metrics/source.py, decode_bytes): UTF-8, and each
// line that is not UTF-8 as Windows-1252 (the browser's windows-1252 is the engine's table).
function bytesAsText(bytes) {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    const legacy = new TextDecoder("windows-1252");
    const end = bytes.includes(10) || !bytes.includes(13) ? 10 : 13;
    const lines = [];
    let start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    while (start <= bytes.length) {
      let stop = bytes.indexOf(end, start);
      if (stop === -1) stop = bytes.length;
      const line = bytes.subarray(start, stop);
      try {
        lines.push(utf8.decode(line));
      } catch {
        lines.push(legacy.decode(line));
      }
      start = stop + 1;
    }
    return lines.join(String.fromCharCode(end));
  }
}

for (const box of Object.values(boxes)) {
  box.textarea.addEventListener("input", () => {
    box.bytes = null; // edited: the text in the box is what counts now
    if (box.fileName && !box.fileName.endsWith(" (edited)")) box.fileName += " (edited)";
    // A huge paste would freeze the page while the browser lays out every line of the box:
    // keep the text aside and show a preview instead (before the next frame is drawn).
    if (!box.big && !box.editingBig && box.textarea.value.length > BIG_FILE) {
      setBoxText(box, box.textarea.value, "pasted text");
    }
    settings.examples.value = "";
    hideExampleNote();
    schedule();
  });
  box.format.addEventListener("change", () => schedule(0));
  box.file.addEventListener("change", () => {
    loadFile(box, box.file.files[0]);
    box.file.value = "";
  });
  const zone = box.root;
  zone.addEventListener("dragenter", (e) => { e.preventDefault(); zone.classList.add("dragging"); });
  zone.addEventListener("dragover", (e) => {
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = "copy";
    zone.classList.add("dragging");
  });
  zone.addEventListener("dragleave", (e) => {
    if (!zone.contains(e.relatedTarget)) zone.classList.remove("dragging");
  });
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    e.stopPropagation();
    zone.classList.remove("dragging");
    const dt = e.dataTransfer;
    if (dt && dt.files && dt.files.length) {
      loadFile(box, dt.files[0]);
    } else if (dt) {
      const text = dt.getData("text/plain");
      if (text) {
        setBoxText(box, text);
        schedule(0);
      }
    }
  });
}
// A file dropped beside the boxes must not make the browser navigate away from the page.
window.addEventListener("dragover", (e) => e.preventDefault());
window.addEventListener("drop", (e) => e.preventDefault());

for (const button of document.querySelectorAll("[data-clear]")) {
  button.addEventListener("click", () => {
    const box = boxes[button.dataset.clear];
    setBoxText(box, "");
    settings.examples.value = "";
    hideExampleNote();
    box.textarea.focus();
    schedule(0);
  });
}

settings.k.addEventListener("input", () => schedule());
for (const el of [settings.gain, settings.missing, settings.thirdColumn, settings.baselineThirdColumn, ...settings.metrics]) {
  el.addEventListener("change", () => schedule(0));
}

function currentRequest() {
  return {
    qrels: boxText(boxes.qrels),
    run: boxText(boxes.run),
    baseline: boxText(boxes.baseline),
    options: {
      k: settings.k.value.trim(),
      gain: settings.gain.value,
      missing: settings.missing.value,
      metrics: settings.metrics.filter((box) => box.checked).map((box) => box.value),
      qrels_format: boxes.qrels.format.value,
      run_format: boxes.run.format.value,
      third_column: settings.thirdColumn.value,
      baseline_format: boxes.baseline.format.value,
      baseline_third_column: settings.baselineThirdColumn.value,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The worker: boot, requests, stale results, cancellation

let debounceTimer = 0;
const engine = {
  worker: null,
  ready: false,
  failed: false,
  nextId: 1,
  initId: 0,
  bootStart: 0,
  running: null, // {id, started, size}
  wanted: false, // an edit is waiting to be scored
  info: null,
  restarts: 0,
  interrupt: null, // Uint8Array on a SharedArrayBuffer when the page is cross-origin isolated
  cancels: 0,
};
// Read by the tests and the page benchmark: how many results were drawn, and whether more is coming.
window.__calculator = {
  engine,
  timings: {},
  renders: 0,
  tuning: { cancelAfterMs: CANCEL_AFTER_MS }, // without isolation: how long a computation may run before an edit restarts the worker
  progressLog: [], // the worker's progress messages for the running request(s): {stage, message, fraction}
  busy: () => !engine.ready || Boolean(engine.running) || engine.wanted || Boolean(debounceTimer),
};

function setStatus(state, detail) {
  const status = $("status");
  status.textContent = state;
  status.dataset.state = state;
  $("status-dot").dataset.state = state;
  if (detail !== undefined) $("status-detail").textContent = detail;
}

function startWorker() {
  engine.ready = false;
  engine.failed = false;
  engine.bootStart = performance.now();
  setStatus("loading", engine.restarts ? "restarting the Python runtime…" : "starting the Python runtime…");
  engine.interrupt = self.crossOriginIsolated ? new Uint8Array(new SharedArrayBuffer(1)) : null;
  const worker = new Worker(config.workerURL || "worker.js", { type: "module" });
  engine.worker = worker;
  engine.initId = engine.nextId++;
  worker.onmessage = (event) => onWorkerMessage(worker, event.data);
  worker.onerror = (event) => {
    if (worker !== engine.worker) return;
    event.preventDefault?.();
    fatal(event.message || "the worker could not start");
  };
  worker.postMessage({
    type: "init",
    id: engine.initId,
    base: new URL(".", document.baseURI).href,
    indexURL: config.indexURL || "pyodide/",
    engineWheel: config.engineWheel,
    snapshot: config.snapshot || null,
    interruptBuffer: engine.interrupt,
  });
}

function fatal(message) {
  engine.failed = true;
  engine.ready = false;
  engine.running = null;
  hideProgress();
  if (/failed to fetch|networkerror|load failed|importing a module script failed/i.test(message)) {
    message = navigator.onLine === false
      ? "this device is offline, and the calculator's files are not saved on it yet: open the page once while online, and it works offline from then on"
      : "a file it needs could not be downloaded; check the connection";
  }
  setStatus("failed", `The Python runtime could not start: ${message}. Reload the page to try again.`);
}

function onWorkerMessage(worker, msg) {
  if (worker !== engine.worker || !msg || typeof msg !== "object") return; // a terminated worker's last words
  switch (msg.type) {
    case "progress":
      if (msg.id === engine.initId) setStatus("loading", msg.message);
      else if (engine.running && msg.id === engine.running.id) {
        showProgress(msg.message, 0, msg.fraction);
        window.__calculator.progressLog.push({ stage: msg.stage, message: msg.message, fraction: msg.fraction ?? null });
        if (window.__calculator.progressLog.length > 200) window.__calculator.progressLog.shift();
      }
      break;
    case "result":
      if (msg.id === engine.initId) {
        engine.ready = true;
        engine.info = msg.result;
        const seconds = ((performance.now() - engine.bootStart) / 1000).toFixed(1);
        window.__calculator.timings.ready = performance.now();
        window.__calculator.timings.bootSeconds = Number(seconds);
        setStatus("ready", `Python in Pyodide ${msg.result.pyodide}, started in ${seconds} s`);
        window.__calculator.offline ??= startOffline(); // once: saves the page for offline use
        if (engine.wanted) send();
      } else if (engine.running && msg.id === engine.running.id) {
        const elapsed = performance.now() - engine.running.started;
        engine.running = null;
        hideProgress();
        if (engine.wanted) {
          send(); // the answer is already stale: a newer edit is waiting
        } else {
          const received = performance.now();
          render(msg.result);
          window.__calculator.timings.lastScore = {
            ms: elapsed, sent: received - elapsed, received, drawn: performance.now(), worker: msg.timings,
          };
        }
      }
      break;
    case "error":
      if (engine.running && msg.id === engine.running.id) {
        engine.running = null;
        hideProgress();
        if (!msg.cancelled) showInternalError(msg.message);
        if (engine.wanted) send();
      }
      break;
    case "fatal":
      fatal(msg.message);
      break;
    default:
      break;
  }
}

function schedule(delay) {
  engine.wanted = true;
  clearTimeout(debounceTimer);
  if (delay === undefined) {
    const size = boxText(boxes.qrels).length + boxText(boxes.run).length + boxText(boxes.baseline).length;
    delay = size > 5_000_000 ? 700 : size > 500_000 ? 350 : 150;
  }
  debounceTimer = setTimeout(dispatch, delay);
}

function dispatch() {
  debounceTimer = 0;
  if (!engine.ready) {
    if (!engine.failed && engine.wanted) showProgress("waiting for the Python runtime…");
    return; // sent once ready
  }
  if (engine.running) {
    if (engine.interrupt) {
      // Python stops at once (KeyboardInterrupt); the worker answers and the edit is sent then.
      if (!engine.running.interrupted) {
        engine.running.interrupted = true;
        engine.cancels++;
        engine.interrupt[0] = 2;
      }
    } else if (performance.now() - engine.running.started >= window.__calculator.tuning.cancelAfterMs) {
      // Python cannot be interrupted from here without cross-origin isolation: start afresh.
      engine.running = null;
      engine.worker.terminate();
      engine.restarts++;
      startWorker();
      showProgress("cancelled the previous computation; restarting the runtime…");
    }
    return; // sent when the running one answers (or the new runtime is ready)
  }
  send();
}

function send() {
  engine.wanted = false;
  const request = currentRequest();
  if (blank(request.qrels) && blank(request.run)) {
    render(null);
    return;
  }
  const id = engine.nextId++;
  const size = request.qrels.length + request.run.length + request.baseline.length;
  engine.running = { id, started: performance.now(), size };
  if ($("report").hidden && !blank(request.qrels) && !blank(request.run)) $("empty").textContent = "Scoring…";
  const lines = boxes.run.big ? boxes.run.big.lines : countLines(request.run);
  showProgress(`reading ${nf.format(lines)} result line${lines === 1 ? "" : "s"}…`, 250);
  const message = { type: "analyse", id, ...request };
  for (const name of ["qrels", "run", "baseline"]) if (boxes[name].bytes) message[name] = boxes[name].bytes;
  engine.worker.postMessage(message);
}

function cancelRunning() {
  if (!engine.running) return;
  engine.wanted = false;
  engine.cancels++;
  if (engine.interrupt) {
    engine.running.interrupted = true;
    engine.interrupt[0] = 2;
    showProgress("stopping…");
    return;
  }
  engine.running = null;
  engine.worker.terminate();
  engine.restarts++;
  hideProgress();
  startWorker();
}
$("progress-cancel")?.addEventListener("click", cancelRunning);

// Progress: shown after a short delay so quick re-scores do not flicker; the clock shows the page
// is alive while the worker computes.
let progressTimer = 0;
let progressShowTimer = 0;
let progressStart = 0;
// `fraction` (0..1) fills the bar; without one the bar is indeterminate (the worker reads a box
// a megabyte at a time and says how far it is; scoring itself has no measure).
function showProgress(message, delay = 0, fraction = null) {
  const box = $("progress");
  $("progress-text").textContent = message;
  const bar = $("progress-bar");
  if (typeof fraction === "number" && Number.isFinite(fraction)) {
    bar.value = fraction;
    box.dataset.fraction = String(fraction);
  } else {
    bar.removeAttribute("value"); // indeterminate
    delete box.dataset.fraction;
  }
  if (!box.hidden || progressShowTimer) return;
  progressStart = performance.now();
  const reveal = () => {
    progressShowTimer = 0;
    box.hidden = false;
    $("results").setAttribute("aria-busy", "true");
    clearInterval(progressTimer);
    progressTimer = setInterval(() => {
      const s = (performance.now() - progressStart) / 1000;
      $("progress-clock").textContent = s >= 1 ? `${s.toFixed(1)} s` : "";
    }, 100);
  };
  if (delay) progressShowTimer = setTimeout(reveal, delay);
  else reveal();
}
function hideProgress() {
  clearTimeout(progressShowTimer);
  progressShowTimer = 0;
  clearInterval(progressTimer);
  $("progress").hidden = true;
  $("progress-clock").textContent = "";
  $("results").removeAttribute("aria-busy");
}

// ---------------------------------------------------------------------------------------------
// Rendering

let lastResult = null;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("data-") || key.startsWith("aria-") || key === "scope" || key === "title") node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

function metricLabel(key) {
  const [name, k] = key.split("@");
  const label = METRIC_NAMES[name] || name;
  return k === undefined ? label : `${label}@${k}`;
}

function fmt(value) {
  return typeof value === "number" && Number.isFinite(value) ? value.toFixed(4) : "—";
}

function showBoxError(box, error) {
  box.error.replaceChildren();
  box.root.classList.toggle("has-error", Boolean(error));
  if (!error) {
    box.error.hidden = true;
    return;
  }
  box.error.append(el("p", { class: "error-message", text: error.message || String(error) }));
  if (error.text) {
    const line = el("code", { class: "error-line", text: error.text });
    box.error.append(el("p", { class: "error-detail" }, el("span", { class: "error-label", text: "Line: " }), line));
  }
  if (error.expected && !(error.message || "").includes(error.expected)) {
    box.error.append(el("p", { class: "error-detail" }, el("span", { class: "error-label", text: "Expected: " }), error.expected));
  }
  if (error.line && !box.big) {
    const go = el("button", { type: "button", class: "linkish", text: `Show line ${nf.format(error.line)} in the box` });
    go.addEventListener("click", () => selectLine(box.textarea, error.line));
    box.error.append(el("p", { class: "error-detail" }, go));
  }
  box.error.hidden = false;
}

function selectLine(textarea, line) {
  const text = textarea.value;
  let start = 0;
  for (let i = 1; i < line && start !== -1; i++) start = text.indexOf("\n", start) + 1 || -1;
  if (start === -1) return;
  let end = text.indexOf("\n", start);
  if (end === -1) end = text.length;
  textarea.focus();
  textarea.setSelectionRange(start, end);
  const lineHeight = parseFloat(getComputedStyle(textarea).lineHeight) || 18;
  textarea.scrollTop = Math.max(0, (line - 3) * lineHeight);
}

function showInternalError(message) {
  const box = $("options-error");
  box.textContent = `Something went wrong inside the calculator: ${message}`;
  box.hidden = false;
}

function detectedText(summary, notices, source) {
  if (!summary) return "";
  let text = summary.description || summary.label || "";
  if (source === "run") {
    const codes = new Set((notices || []).map((n) => n.code));
    if (codes.has("scores_detected") && !/score/i.test(text)) text += "; third column read as scores";
    if (codes.has("ranks_detected") && !/rank/i.test(text)) text += "; third column read as ranks";
  }
  return text;
}

function render(result) {
  lastResult = result;
  window.__calculator.renders++;
  const report = result && result.report;
  const inputs = (result && result.inputs) || {};
  const errors = (result && result.errors) || {};
  const notices = (report && report.notices) || [];
  for (const name of ["qrels", "run", "baseline"]) {
    const box = boxes[name];
    const text = detectedText(inputs[name], notices, name);
    box.detected.textContent = text ? `Detected: ${text}` : "";
    showBoxError(box, errors[name] || null);
  }
  if (!inputs.baseline && !errors.baseline && !blank(boxText(boxes.baseline))) {
    boxes.baseline.detected.textContent = "Compared once the judgements and results above are scored.";
  }
  const optionsError = errors.options;
  settings.optionsError.hidden = !optionsError;
  settings.optionsError.textContent = optionsError ? optionsError.message : "";
  settings.k.setAttribute("aria-invalid", optionsError && optionsError.field === "k" ? "true" : "false");

  const empty = $("empty");
  if (!report) {
    $("report").hidden = true;
    empty.hidden = false;
    empty.textContent = emptyMessage(result);
    return;
  }
  empty.hidden = true;
  $("report").hidden = false;
  renderMeans(report);
  renderNotices(report.notices || []);
  renderPerQuery(report);
  renderComparison(result.comparison || null, { label: metricLabel, renderNotices });
}

function emptyMessage(result) {
  if (!result) return "Paste or drop judgements and results above, or load an example, and the scores appear here.";
  const { errors = {} } = result;
  if (errors.qrels || errors.run) return "Fix the input marked above and the scores appear here.";
  if (errors.options) return "Fix the settings marked above and the scores appear here.";
  if (!boxText(boxes.qrels).trim()) return "Add judgements (qrels) to score these results.";
  if (!boxText(boxes.run).trim()) return "Add results (a run) to score against these judgements.";
  return "No scores for this input.";
}

function cutoffMetrics(report) {
  const metrics = report.metrics || ["recall", "precision", "mrr", "ndcg"];
  return metrics.filter((m) => !WHOLE_RUN.includes(m));
}

function columnKeys(report) {
  const keys = [];
  for (const metric of cutoffMetrics(report)) for (const k of report.k) keys.push(`${metric}@${k}`);
  for (const metric of report.metrics || []) if (WHOLE_RUN.includes(metric)) keys.push(metric);
  return keys;
}

function renderMeans(report) {
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
    (settings.gain.value === "exponential" ? "; nDCG gain 2^grade − 1" : "");
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

function renderNotices(notices, list = $("notices")) {
  list.replaceChildren();
  if (!notices.length) {
    list.append(el("li", { class: "notice none", text: "Nothing to report: every line was read and used." }));
    return;
  }
  for (const notice of notices) {
    const item = el("li", { class: `notice ${notice.level === "warning" ? "warning" : "info"}`, "data-code": notice.code });
    item.append(el("span", { class: "notice-level", text: notice.level === "warning" ? "Warning" : "Note" }));
    item.append(el("span", { class: "notice-message", text: notice.message }));
    const queries = notice.queries || [];
    if (queries.length) {
      const shown = queries.slice(0, 50);
      const details = el("details", { class: "notice-queries" },
        el("summary", { text: `which quer${queries.length === 1 ? "y" : "ies"}` }));
      const ids = el("p", { class: "ids" });
      shown.forEach((q, i) => {
        if (i) ids.append(", ");
        ids.append(el("code", { text: q }));
      });
      if (notice.count > shown.length) ids.append(` and ${nf.format(notice.count - shown.length)} more`);
      details.append(ids);
      item.append(details);
    }
    list.append(item);
  }
}

const sortState = { key: "query", dir: 1 };
const collator = new Intl.Collator("en", { numeric: true });

function renderPerQuery(report) {
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
    top.append(el("th", { scope: "colgroup", class: "group first", colSpan: report.k.length, text: METRIC_NAMES[metric] || metric }));
    for (const k of report.k) bottom.append(header(`@${k}`, `${metric}@${k}`, k === report.k[0] ? "cut first" : "cut", `${METRIC_NAMES[metric] || metric}@${k}`));
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
    const idCell = el("th", { scope: "row", class: "label qid" }, el("span", { class: "qid-text", text: qid }));
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
  $("per-query-caption").textContent = `${nf.format(n)} quer${n === 1 ? "y" : "ies"}${missing.size ? `, ${nf.format(missing.size)} missing from the results` : ""}`;
  const more = $("per-query-more");
  more.hidden = n <= MAX_ROWS;
  more.textContent = n > MAX_ROWS ? `Showing the first ${nf.format(MAX_ROWS)} of ${nf.format(n)} queries in this order; the downloads have all of them.` : "";
}

// ---------------------------------------------------------------------------------------------
// Downloads

function usedSettings() {
  const o = currentRequest().options;
  return { k: lastResult.report.k, gain: o.gain, missing: o.missing, metrics: lastResult.report.metrics,
    zero_division: lastResult.report.zero_division, qrels_format: o.qrels_format, run_format: o.run_format,
    third_column: o.third_column };
}

// What made a download (JSON only; CSV stays one plain table): the same keys as the CLI's -o json.
function downloadMeta() {
  const name = (box) => (blank(boxText(box)) ? null : box.fileName || "typed or pasted text");
  return {
    engine: `retrieval-metrics ${(engine.info && engine.info.engine) || ""}`.trim(),
    created: new Date().toISOString().replace(/\.\d+Z$/, "+00:00"),
    files: { qrels: name(boxes.qrels), run: name(boxes.run), baseline: name(boxes.baseline) },
    settings: usedSettings(),
  };
}

function downloads(kind) {
  const report = lastResult && lastResult.report;
  if (!report) return null;
  if (kind === "per-query-csv") return { name: "retrieval-metrics-per-query.csv", type: "text/csv", text: reportCsv(report) };
  if (kind === "means-csv") return { name: "retrieval-metrics-means.csv", type: "text/csv", text: meansCsv(report) };
  if (kind === "per-query-json") {
    const data = { meta: downloadMeta(), per_query: report.per_query, missing_queries: report.missing_queries || [] };
    return { name: "retrieval-metrics-per-query.json", type: "application/json", text: strictJson(data, 1) + "\n" };
  }
  if (kind === "report-json") return { name: "retrieval-metrics-report.json", type: "application/json", text: reportJson(report, downloadMeta()) };
  if (kind === "report-jsonl") return { name: "retrieval-metrics-report.jsonl", type: "application/jsonl", text: reportJsonl(report) };
  if (kind === "report-csv") return { name: "retrieval-metrics-report.csv", type: "text/csv", text: reportCsv(report) };
  const comparison = lastResult.comparison;
  if (kind === "comparison-json" && comparison) {
    return { name: "retrieval-metrics-comparison.json", type: "application/json", text: comparisonJson({ meta: downloadMeta(), ...comparison }) };
  }
  if (kind === "comparison-csv" && comparison) {
    return { name: "retrieval-metrics-comparison.csv", type: "text/csv", text: comparisonCsv(comparison) };
  }
  if (kind === "means-json") {
    const data = { meta: downloadMeta(), scored_queries: report.scored_queries, mean: report.mean };
    return { name: "retrieval-metrics-means.json", type: "application/json", text: strictJson(data, 1) + "\n" };
  }
  return null;
}

for (const button of document.querySelectorAll("[data-download]")) {
  button.addEventListener("click", () => {
    const file = downloads(button.dataset.download);
    if (!file) return;
    const url = URL.createObjectURL(new Blob([file.text], { type: `${file.type};charset=utf-8` }));
    const a = el("a", { href: url, download: file.name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  });
}

// ---------------------------------------------------------------------------------------------
// Examples

function hideExampleNote() {
  $("example-note").hidden = true;
}

for (const example of config.examples || []) {
  settings.examples.append(el("option", { value: example.id, text: example.title }));
}

async function loadExample(id) {
  const base = `examples/${encodeURIComponent(id)}/`;
  const get = async (path, json) => {
    let response;
    try {
      response = await fetch(base + path, { cache: "no-cache" });
    } catch {
      throw new Error(navigator.onLine === false
        ? "this device is offline and the example is not saved on it yet"
        : "its files could not be downloaded (no answer from the server)");
    }
    if (!response.ok) throw new Error(`the server answered ${response.status} for ${path}`);
    return json ? response.json() : response.text();
  };
  const example = await get("settings.json", true);
  const [qrels, run] = await Promise.all([get(example.qrels), get(example.run)]);
  setBoxText(boxes.qrels, qrels, example.qrels);
  setBoxText(boxes.run, run, example.run);
  settings.k.value = example.k ?? "10";
  settings.gain.value = example.gain ?? "linear";
  settings.missing.value = example.missing ?? "zero";
  boxes.qrels.format.value = example.qrels_format ?? "auto";
  boxes.run.format.value = example.run_format ?? "auto";
  settings.thirdColumn.value = example.third_column ?? "auto";
  const note = $("example-note");
  note.replaceChildren(el("strong", { text: example.title }), ". ", example.description || "");
  if (example.attribution) note.append(" ", el("span", { class: "attribution", text: example.attribution }));
  note.hidden = false;
  schedule(0);
}

settings.examples.addEventListener("change", () => {
  const id = settings.examples.value;
  const error = $("examples-error");
  error.hidden = true;
  if (!id) return;
  const title = settings.examples.selectedOptions[0]?.textContent || id;
  loadExample(id).catch((err) => {
    // The menu must not claim an example the boxes do not hold.
    settings.examples.value = "";
    error.textContent = `Could not load the example “${title}”: ${err.message || err}. The boxes are unchanged.`;
    error.hidden = false;
  });
});

// ---------------------------------------------------------------------------------------------
// Start: the page is usable now; the runtime boots behind it. Anything typed before this script
// ran (or while the runtime boots) is kept and scored once the runtime is ready.

window.__calculator.timings.usable = performance.now();
startWorker();
if (boxText(boxes.qrels) || boxText(boxes.run)) schedule(0);
