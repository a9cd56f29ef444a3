// The calculator page's coordinator: keeps the state, talks to the Pyodide worker (worker.js) and
// hands what the engine reports to the views (views/). Everything the person typed or dropped is
// rendered as text (textContent), never as HTML.

import { $, el, fmt, nf, metricLabel, watchScrollRegions } from "./views/dom.js";
import { boxes, blank, boxInput, boxText, countLines, detectedText, initInputs, showBoxError } from "./views/inputs.js";
import { initSettings, renderOptionsError, restoreSettings, settingsOptions } from "./views/settings.js";
import { renderMeans } from "./views/means.js";
import { renderNotices } from "./views/notices.js";
import { renderPerQuery } from "./views/per-query.js";
import { filterQueries, initPerQueryFilter, updatePerQueryFilter } from "./views/per-query-filter.js";
import { initQueryDetail, openQuery, updateQueryDetail } from "./views/query-detail.js";
import { initCharts, renderCharts } from "./views/charts.js";
import { initManyRuns, manyRunsEdited, manyRunsReady } from "./views/many-runs.js";
import { renderComparison } from "./views/comparison.js";
import { initDownloads, offerComparison } from "./views/downloads.js";
import { forgetExample, initExamples } from "./views/examples.js";
import { hideProgress, setStatus, showProgress } from "./views/progress.js";
import { startOffline } from "./views/offline.js";
import { answersBlank, answersRequest, answersSize, initAnswers, renderAnswers, showAnswersBusy } from "./views/answers.js";
import { currentMode, initModes, modeMain } from "./views/modes.js";

const config = JSON.parse(document.getElementById("build-config")?.textContent || "{}");

const CANCEL_AFTER_MS = 800; // a computation running this long is cancelled (worker restarted) by a new edit

function currentRequest() {
  return {
    qrels: boxText(boxes.qrels),
    run: boxText(boxes.run),
    baseline: boxText(boxes.baseline),
    options: settingsOptions({ qrels: boxes.qrels.format.value, run: boxes.run.format.value, baseline: boxes.baseline.format.value }),
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
  asked: new Map(), // id -> {resolve, reject}: questions about the shown result (views ask them)
  shownId: 0, // the analyse request whose result is drawn (the worker keeps its inputs)
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

/**
 * Asks the worker about the result on the page (`{type: "inspect", query, options}` or
 * `{type: "curve"}`); resolves with the answer, or rejects (a stale answer rejects with
 * `stale: true`, and so does any question when the worker restarts).
 */
function ask(message) {
  if (!engine.ready || !engine.shownId) return Promise.reject(Object.assign(new Error("nothing is scored yet"), { stale: true }));
  const id = engine.nextId++;
  return new Promise((resolve, reject) => {
    engine.asked.set(id, { resolve, reject });
    engine.worker.postMessage({ ...message, id, of: engine.shownId });
  });
}

/** Sends a request that needs no shown result (`{type: "analyse_many", ...}`); as `ask`. */
function request(message) {
  if (!engine.ready) return Promise.reject(Object.assign(new Error("the runtime is not ready"), { stale: true }));
  const id = engine.nextId++;
  return new Promise((resolve, reject) => {
    engine.asked.set(id, { resolve, reject });
    engine.worker.postMessage({ ...message, id });
  });
}

function answer(msg) {
  const waiting = engine.asked.get(msg.id);
  if (!waiting) return false;
  engine.asked.delete(msg.id);
  engine.lastAnswerTimings = msg.timings || null; // the worker's own clock, for the benchmarks
  if (msg.type === "result") waiting.resolve(msg.result);
  else waiting.reject(Object.assign(new Error(msg.message), { stale: Boolean(msg.stale || msg.cancelled) }));
  return true;
}

function startWorker() {
  for (const waiting of engine.asked.values()) waiting.reject(Object.assign(new Error("restarted"), { stale: true }));
  engine.asked.clear();
  engine.shownId = 0;
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
  if ((msg.type === "result" || msg.type === "error") && answer(msg)) return;
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
        manyRunsReady();
      } else if (engine.running && msg.id === engine.running.id) {
        const elapsed = performance.now() - engine.running.started;
        const mode = engine.running.mode;
        engine.running = null;
        hideProgress();
        if (engine.wanted) {
          send(); // the answer is already stale: a newer edit is waiting
        } else {
          const received = performance.now();
          engine.shownId = msg.id;
          render(msg.result, mode);
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

// `reveal`: the edit loaded a whole example or file, so point to the results once they are drawn.
function schedule(delay, reveal = false) {
  if (reveal) revealNext = true;
  else if (delay === undefined) revealNext = false;
  hideJump();
  manyRunsEdited(); // the judgements and settings are the many runs' too
  engine.wanted = true;
  clearTimeout(debounceTimer);
  if (delay === undefined) {
    const size = currentMode() === "answers" ? answersSize()
      : boxText(boxes.qrels).length + boxText(boxes.run).length + boxText(boxes.baseline).length;
    delay = size > 5_000_000 ? 700 : size > 500_000 ? 350 : 150;
  }
  debounceTimer = setTimeout(dispatch, delay);
}

function dispatch() {
  debounceTimer = 0;
  // The edit this timer was for may already have been sent (a finished computation sends what is
  // waiting at once): interrupting that request would then lose it, as nothing would be waiting.
  if (!engine.wanted) return;
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
  if (currentMode() === "answers") {
    sendAnswers();
    return;
  }
  const request = currentRequest();
  if (blank(request.qrels) && blank(request.run)) {
    engine.shownId = 0;
    render(null);
    return;
  }
  const id = engine.nextId++;
  const size = request.qrels.length + request.run.length + request.baseline.length;
  engine.running = { id, started: performance.now(), size, mode: "rankings" };
  if ($("report").hidden && !blank(request.qrels) && !blank(request.run)) $("empty").textContent = "Scoring…";
  const lines = boxes.run.big ? boxes.run.big.lines : countLines(request.run);
  showProgress(`reading ${nf.format(lines)} result line${lines === 1 ? "" : "s"}…`, 250);
  // A file's own bytes rather than its text, so the engine decodes them as it decodes files.
  const message = { type: "analyse", id, ...request };
  for (const name of ["qrels", "run", "baseline"]) message[name] = boxInput(boxes[name]);
  engine.worker.postMessage(message);
}

// The Answers mode's request: references and answers, scored by web.analyse_answers.
function sendAnswers() {
  const request = answersRequest();
  if (answersBlank()) {
    render(null, "answers");
    return;
  }
  const id = engine.nextId++;
  engine.running = { id, started: performance.now(), size: answersSize(), mode: "answers" };
  showAnswersBusy(true);
  engine.worker.postMessage({ type: "analyse_answers", id, ...request });
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

// ---------------------------------------------------------------------------------------------
// Rendering

let lastResult = null; // the last result with a report (what the downloads hold)
let revealNext = false;

function showInternalError(message) {
  const box = $(currentMode() === "answers" ? "answers-options-error" : "options-error");
  box.textContent = `Something went wrong inside the calculator: ${message}`;
  box.hidden = false;
}

function render(result, mode = "rankings") {
  if (mode === "answers") {
    window.__calculator.renders++;
    renderAnswers(result);
    checkScrollRegions();
    return;
  }
  window.__calculator.renders++;
  const report = result && result.report;
  const inputs = (result && result.inputs) || {};
  const errors = (result && result.errors) || {};
  const notices = (report && report.notices) || [];
  for (const name of ["qrels", "run", "baseline"]) {
    const box = boxes[name];
    const text = detectedText(inputs[name], notices, name);
    box.detected.textContent = text ? `Detected: ${text}` : "";
    showBoxError(box, errors[name] || box.localError || null);
  }
  if (!inputs.baseline && !errors.baseline && !blank(boxText(boxes.baseline))) {
    boxes.baseline.detected.textContent = "Compared once the judgements and results above are scored.";
  }
  renderOptionsError(errors.options || null);

  const empty = $("empty");
  updateQueryDetail(report || null, (result && result.comparison) || null);
  if (!report) {
    // A setting half typed (k "5,") must not take the report away: the last one stays, marked
    // as the scores of the last settings that worked, while the error shows by the setting.
    const keep = errors.options && !errors.qrels && !errors.run && lastResult && !blank(boxText(boxes.qrels)) && !blank(boxText(boxes.run));
    $("stale-note").hidden = !keep;
    $("report").classList.toggle("stale", Boolean(keep));
    if (keep) return;
    lastResult = null;
    $("report").hidden = true;
    empty.hidden = false;
    empty.textContent = emptyMessage(result);
    return;
  }
  lastResult = result;
  $("stale-note").hidden = true;
  $("report").classList.remove("stale");
  empty.hidden = true;
  $("report").hidden = false;
  renderMeans(report, currentRequest().options.gain);
  renderNotices(report.notices || []);
  updatePerQueryFilter(report, result.unjudged_in_top);
  renderPerQuery(report, { filter: filterQueries, open: openQuery });
  renderComparison(result.comparison || null, { label: metricLabel, renderNotices, offerDownloads: offerComparison });
  renderCharts(report, result.comparison || null);
  checkScrollRegions();
  if (revealNext) {
    revealNext = false;
    pointToResults(report);
  }
}

// After an example or a file is loaded the results may be far below: a small summary at the
// bottom of the window says they are ready and links to them, until they come into view.
function pointToResults(report) {
  const top = $("results").getBoundingClientRect().top;
  if (top < window.innerHeight - 80) return;
  const first = Object.keys(report.mean).find((key) => key.startsWith("ndcg@")) || Object.keys(report.mean)[0];
  const jump = $("results-jump");
  const link = el("a", { href: "#results", class: "button small", text: "Show the results" });
  link.addEventListener("click", (e) => {
    e.preventDefault();
    goToResults();
  });
  const n = report.scored_queries;
  jump.replaceChildren(el("span", { text: `Scored: ${first ? `${metricLabel(first)} ${fmt(report.mean[first])} ` : ""}over ` +
    `${nf.format(n)} quer${n === 1 ? "y" : "ies"}. ` }), link);
  jump.hidden = false;
  if (!jumpWatcher && typeof IntersectionObserver !== "undefined") {
    jumpWatcher = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) hideJump();
    });
    jumpWatcher.observe($("results-title"));
  }
}
let jumpWatcher = null;

function hideJump() {
  $("results-jump").hidden = true;
}

function goToResults() {
  hideJump();
  const results = $(currentMode() === "answers" ? "answers-results" : "results");
  results.focus({ preventScroll: true });
  results.scrollIntoView({ block: "start" });
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

// ---------------------------------------------------------------------------------------------
// Start: the page is usable now; the runtime boots behind it. Anything typed before this script
// ran (or while the runtime boots) is kept and scored once the runtime is ready.

const examplesOf = (mode) => (config.examples || []).filter((e) => (e.mode || "rankings") === mode);
initAnswers(modeMain("answers"), { edited: schedule, failed: showInternalError, examples: examplesOf("answers") });
const checkScrollRegions = watchScrollRegions(); // after the Answers mode has built its tables
restoreSettings();
initInputs({ edited: schedule, replaced: forgetExample });
initSettings({ edited: schedule });
initDownloads({ result: () => lastResult, options: () => currentRequest().options, engine: () => engine.info?.engine });
initExamples(examplesOf("rankings"), { edited: schedule });
initModes({ changed: () => { hideJump(); schedule(0); checkScrollRegions(); } });

// The skip link moves the focus to the results (a plain fragment link leaves it on the body).
document.querySelector("a.skip")?.addEventListener("click", (e) => {
  e.preventDefault();
  goToResults();
});
initPerQueryFilter({ changed: () => lastResult?.report && renderPerQuery(lastResult.report) });
initQueryDetail({ ask });
initCharts({ ask });
initManyRuns({ request, inputs: () => currentRequest(), runText: () => boxText(boxes.run) });

window.__calculator.timings.usable = performance.now();
startWorker();
if (boxText(boxes.qrels) || boxText(boxes.run) || answersSize()) schedule(0);
