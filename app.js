// The calculator page's coordinator: keeps the state, talks to the Pyodide worker (worker.js) and
// hands what the engine reports to the views (views/). Everything the person typed or dropped is
// rendered as text (textContent), never as HTML.

import { $, el, fmt, nf, metricLabel, watchScrollRegions } from "./views/dom.js";
import { boxes, blank, boxInput, boxText, countLines, detectedText, initInputs, showBoxError } from "./views/inputs.js";
import { drawMeasureChooser, initSettings, renderOptionsError, restoreSettings, settingsOptions } from "./views/settings.js";
import { renderMeans } from "./views/means.js";
import { renderNotices } from "./views/notices.js";
import { renderPerQuery } from "./views/per-query.js";
import { filterQueries, initPerQueryFilter, updatePerQueryFilter } from "./views/per-query-filter.js";
import { initQueryDetail, openQuery, updateQueryDetail } from "./views/query-detail.js";
import { initCharts, renderCharts } from "./views/charts.js";
import { initManyRuns, manyRunsEdited } from "./views/many-runs.js";
import { renderComparison } from "./views/comparison.js";
import { download, initDownloads, offerComparison, offerDownloads } from "./views/downloads.js";
import { foldBox } from "./views/explain.js";
import { forgetExample, initExamples } from "./views/examples.js";
import { hideProgress, setStatus, showProgress } from "./views/progress.js";
import { startOffline } from "./views/offline.js";
import { answerBoxes, answersBlank, answersRequest, answersSize, initAnswers, markAnswersPending, markAnswersStopped, renderAnswers, showAnswersBusy } from "./views/answers.js";
import { currentMode, initModes, modeMain } from "./views/modes.js";
import { WorkerBridge } from "./views/worker-bridge.js";
import { initKeep, keepSoon } from "./views/keep.js";
import { STALE_DOWNLOAD, drawStaleNote, drawStoppedEmpty } from "./views/stale.js";

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
// The worker (views/worker-bridge.js): one lane for the shown result of the mode on screen

let debounceTimer = 0;
const bridge = new WorkerBridge({
  url: config.workerURL || "worker.js",
  init: () => ({
    base: new URL(".", document.baseURI).href,
    indexURL: config.indexURL || "pyodide/",
    engineWheel: config.engineWheel,
    snapshot: config.snapshot || null,
  }),
  cancelAfterMs: CANCEL_AFTER_MS,
  // The measure chooser is drawn from the engine's registry before the first score is sent.
  prepare: async (b) => drawMeasureChooser(await b.call({ type: "measures" })),
  onStatus: (state, text) => {
    if (state === "failed") hideProgress();
    setStatus(state, text);
  },
  onReady: (info) => {
    const seconds = ((performance.now() - bridge.bootStart) / 1000).toFixed(1);
    window.__calculator.timings.ready = performance.now();
    window.__calculator.timings.bootSeconds = Number(seconds);
    setStatus("ready", `Python in Pyodide ${info.pyodide}, started in ${seconds} s`);
    window.__calculator.offline ??= startOffline(); // once: saves the page for offline use
  },
  onRestart: () => {
    shown.rankings = shown.answers = 0;
    if (main.wanted) showProgress("cancelled the previous computation; restarting the runtime…");
  },
});
const main = bridge.lane({
  onProgress: (msg) => {
    showProgress(msg.message, 0, msg.fraction);
    window.__calculator.progressLog.push({ stage: msg.stage, message: msg.message, fraction: msg.fraction ?? null });
    if (window.__calculator.progressLog.length > 200) window.__calculator.progressLog.shift();
  },
});
// The request ids whose results are drawn (the worker keeps their inputs, for questions and downloads).
const shown = { rankings: 0, answers: 0 };

// Read by the tests and the page benchmark: how many results were drawn, and whether more is coming.
const engine = {
  get ready() { return bridge.ready; },
  get failed() { return bridge.failed; },
  get info() { return bridge.info; },
  get restarts() { return bridge.restarts; },
  get cancels() { return bridge.cancels; },
  get interrupt() { return bridge.interrupt; },
  get running() { return main.running; }, // {id, started, size, type}
  get wanted() { return Boolean(main.wanted); },
  get lastAnswerTimings() { return bridge.lastAnswerTimings; },
  get shownId() { return shown.rankings; },
  bridge,
};
window.__calculator = {
  engine,
  timings: {},
  renders: 0,
  tuning: bridge.tuning, // {cancelAfterMs}: without isolation, how long a computation may run before an edit restarts the worker
  progressLog: [], // the worker's progress messages for the running request(s): {stage, message, fraction}
  busy: () => !bridge.ready || main.busy() || Boolean(debounceTimer) || restoring,
};

/**
 * Asks the worker about the rankings result on the page (`{type: "inspect", query, options}`,
 * `{type: "curve"}`, `{type: "file", kind, meta}`); resolves with the answer, or rejects (with
 * `stale: true` when that result is no longer the one the worker keeps, or it restarted).
 */
function ask(message) {
  if (!bridge.ready || !shown.rankings) return Promise.reject(Object.assign(new Error("nothing is scored yet"), { stale: true }));
  return bridge.call({ ...message, of: shown.rankings });
}

// `reveal`: the edit loaded a whole example or file, so the results are shown once drawn.
function schedule(delay, reveal = false) {
  if (reveal || pastedInto === "drop") revealNext = "move";
  else if (pastedInto === "paste") revealNext = "point";
  else if (delay === undefined) revealNext = false;
  pastedInto = false;
  baselineFold?.();
  // The boxes or settings changed: the report shown is not of them any more.
  if (currentMode() === "rankings") markReport("pending");
  else markAnswersPending();
  keepSoon(); // the boxes, kept in this browser for a reload
  hideJump();
  manyRunsEdited(); // the judgements and settings are the many runs' too
  clearTimeout(debounceTimer);
  if (delay === undefined) {
    const size = currentMode() === "answers" ? answersSize()
      : boxText(boxes.qrels).length + boxText(boxes.run).length + boxText(boxes.baseline).length;
    delay = size > 5_000_000 ? 700 : size > 500_000 ? 350 : 150;
  }
  debounceTimer = setTimeout(dispatch, delay);
  if (!bridge.ready && !bridge.failed) showProgress("waiting for the Python runtime…");
}

function dispatch() {
  debounceTimer = 0;
  const mode = currentMode();
  if (mode === "answers" ? answersBlank() : blank(boxText(boxes.qrels)) && blank(boxText(boxes.run))) {
    main.clear();
    hideProgress();
    shown[mode] = 0;
    render(null, mode);
    return;
  }
  if (!bridge.ready && !bridge.failed) showProgress("waiting for the Python runtime…");
  // The message is made when it is sent (at once, or when the runtime or the running request is
  // done), so it always holds what the boxes and settings say then.
  main.submit(mode === "answers" ? answersMessage : rankingsMessage).then((answer) => {
    hideProgress();
    if (!answer) return;
    const answers = answer.message.type === "analyse_answers";
    shown[answers ? "answers" : "rankings"] = answer.id;
    const received = performance.now();
    render(answer.result, answers ? "answers" : "rankings", answer.message);
    if (!answers) {
      window.__calculator.timings.lastScore = {
        ms: answer.ms, sent: received - answer.ms, received, drawn: performance.now(), worker: answer.timings,
      };
    }
  }, (err) => {
    if (err.stale && !err.cancelled) return; // a newer request is on its way (or nothing is wanted)
    hideProgress();
    showAnswersBusy(false);
    if (!err.cancelled) showInternalError(err.message);
  });
}

function rankingsMessage() {
  if (currentMode() !== "rankings") return null;
  const request = currentRequest();
  if ($("report").hidden && !blank(request.qrels) && !blank(request.run)) $("empty").textContent = "Scoring…";
  const lines = boxes.run.big ? boxes.run.big.lines : countLines(request.run);
  showProgress(`reading ${nf.format(lines)} result line${lines === 1 ? "" : "s"}…`, 250);
  // A file's own bytes rather than its text, so the engine decodes them as it decodes files.
  // `files`: where each box's text came from now, for the downloads' meta of this result.
  const message = { type: "analyse", ...request, files: boxSources() };
  for (const name of ["qrels", "run", "baseline"]) message[name] = boxInput(boxes[name]);
  return message;
}

// The Answers mode's request: references and answers, scored by web.analyse_answers.
function answersMessage() {
  if (currentMode() !== "answers") return null;
  showAnswersBusy(true);
  return { type: "analyse_answers", ...answersRequest() };
}

// Stop (the rankings' progress bar, the Answers mode's "scoring…" line): the running request is
// cancelled at once (interrupted, or the worker restarted), the report shown stays marked as
// stopped with "Score again", and the page takes the next edit as usual.
function cancelRunning() {
  if (!main.running) return;
  const isolated = Boolean(bridge.interrupt);
  const again = () => schedule(0);
  if (main.running.type === "analyse") {
    markReport("stopped");
    if ($("report").hidden) drawStoppedEmpty($("empty"), again);
  } else if (main.running.type === "analyse_answers") {
    markAnswersStopped(again);
  }
  main.clear({ stop: true });
  if (isolated) {
    showProgress("stopping…");
    showAnswersBusy(true, "stopping…");
  } else {
    hideProgress();
    showAnswersBusy(false);
  }
}
$("progress-cancel")?.addEventListener("click", cancelRunning);
// ---------------------------------------------------------------------------------------------
// Rendering

let lastResult = null; // the last result with a report (what the downloads hold)
let lastSent = null; // ... and the request it answered: {files, options}, for the downloads' meta
let revealNext = false;
let pastedInto = false; // "paste" or "drop" into a box: its score points to (or shows) the results
let baselineFold = null;

/** Where each box's text came from (a file's name, "typed or pasted text"), null when blank. */
function boxSources() {
  const name = (box) => (blank(boxText(box)) ? null : box.fileName || "typed or pasted text");
  return { qrels: name(boxes.qrels), run: name(boxes.run), baseline: name(boxes.baseline) };
}

// The report on the page is of the input it was asked with. While the boxes or settings say
// something else (an edit waits or is being scored, the person pressed Stop, a setting cannot be
// used) it is marked as not current, and no file is offered from it (views/stale.js: the words).

/** `state`: "current", or why the report shown is not ("pending", "stopped", "options"). */
function markReport(state) {
  const report = $("report");
  if (report.hidden && state !== "current") return;
  const stale = state !== "current";
  report.dataset.state = state;
  report.classList.toggle("stale", stale);
  drawStaleNote($("stale-note"), state, () => schedule(0));
  offerDownloads(!stale, STALE_DOWNLOAD[state]);
}

function showInternalError(message) {
  const box = $(currentMode() === "answers" ? "answers-options-error" : "options-error");
  box.textContent = `Something went wrong inside the calculator: ${message}`;
  box.hidden = false;
}

function render(result, mode = "rankings", sent = null) {
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
    if (keep) {
      markReport("options");
      return;
    }
    lastResult = lastSent = null;
    $("report").hidden = true;
    markReport("current");
    empty.hidden = false;
    empty.textContent = emptyMessage(result);
    return;
  }
  lastResult = result;
  lastSent = sent ? { files: sent.files, options: sent.options } : { files: boxSources(), options: currentRequest().options };
  empty.hidden = true;
  $("report").hidden = false;
  // An edit made while this was scored is not in it: it stays marked until that one is drawn.
  markReport(debounceTimer || main.busy() ? "pending" : "current");
  renderMeans(report, currentRequest().options.gain, result.readings);
  renderNotices(report.notices || []);
  updatePerQueryFilter(report, result.unjudged_in_top);
  renderPerQuery(report, { filter: filterQueries, open: openQuery });
  renderComparison(result.comparison || null, { label: metricLabel, renderNotices, offerDownloads: offerComparison });
  renderCharts(report, result.comparison || null);
  checkScrollRegions();
  if (revealNext) {
    const how = revealNext;
    revealNext = false;
    pointToResults(report, how);
  }
}

// After an example, an opened or a dropped file, the means are brought into view (and the focus
// to the results) when they are not in the window: on wide screens they are beside the boxes and
// nothing moves. After a paste the view stays with the box pasted into, and a line under the boxes
// gives the first mean and a link to the results.
function pointToResults(report, how) {
  const means = $("means-table").getBoundingClientRect();
  if (means.top >= 0 && means.top < window.innerHeight - 60) return;
  if (how === "move") {
    goToResults();
    return;
  }
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
initAnswers(modeMain("answers"), {
  edited: schedule, failed: showInternalError, examples: examplesOf("answers"), stop: cancelRunning,
  file: (kind) => (shown.answers ? bridge.call({ type: "file", kind, of: shown.answers })
    : Promise.reject(Object.assign(new Error("nothing is scored yet"), { stale: true }))),
});
const checkScrollRegions = watchScrollRegions(); // after the Answers mode has built its tables
restoreSettings();
initInputs({ edited: schedule, replaced: forgetExample });
initSettings({ edited: schedule });
initDownloads({ result: () => lastResult, options: () => lastSent.options, files: () => lastSent.files, engine: () => engine.info?.engine, ask });
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
initManyRuns({ bridge, inputs: () => currentRequest(), runText: () => boxText(boxes.run) });
baselineFold = foldBox($("baseline-box"), () => !blank(boxText(boxes.baseline)), "Compare with a baseline…");
for (const type of ["paste", "drop"]) {
  $("rankings-main").addEventListener(type, (e) => { if (e.target.closest?.("[data-box]")) pastedInto = type; }, true);
}
$("save-report").addEventListener("click", () => download("report-html"));
for (const button of document.querySelectorAll("[data-glossary]")) {
  button.addEventListener("click", () => {
    $("glossary").addEventListener("close", () => button.focus(), { once: true });
    $("glossary").showModal();
  });
}

window.__calculator.timings.usable = performance.now();
bridge.start();
if (boxText(boxes.qrels) || boxText(boxes.run) || answersSize()) schedule(0);
// What the boxes held before the reload (kept in this browser: views/keep.js), into the blank ones.
let restoring = true;
initKeep({ ...boxes, ...answerBoxes }, [[document.querySelector("#rankings-main > .inputs"), "keep-note"],
  [document.querySelector("#answers-main > .inputs"), "answers-keep-note"]]).then((filled) => {
  restoring = false;
  if (filled) schedule(0);
});
