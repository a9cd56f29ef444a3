// The calculator page's coordinator: keeps the state, talks to the Pyodide worker (worker.js) and
// hands what the engine reports to the views (views/). Everything the person typed or dropped is
// rendered as text (textContent), never as HTML.

import { $, watchScrollRegions } from "./views/dom.js";
import { boxBlank, boxes, boxSize, boxText, initInputs } from "./views/inputs.js";
import { drawMeasureChooser, initSettings, restoreSettings } from "./views/settings.js";
import { currentRequest, foldBaseline, goToResults, hideJump, initRankings, markReport, rankingsMessage, renderRankings, setReveal } from "./views/rankings.js";
import { initManyRuns, manyRunsEdited } from "./views/many-runs.js";
import { forgetExample, initExamples } from "./views/examples.js";
import { hideProgress, setStatus, showProgress } from "./views/progress.js";
import { startOffline } from "./views/offline.js";
import { answerBoxes, answersBlank, answersRequest, answersSize, initAnswers, markAnswersPending, markAnswersStopped, renderAnswers, showAnswersBusy } from "./views/answers.js";
import { currentMode, initModes, modeMain } from "./views/modes.js";
import { WorkerBridge } from "./views/worker-bridge.js";
import { initKeep, keepSoon } from "./views/keep.js";
import { drawStoppedEmpty } from "./views/stale.js";
import { perQueryPending } from "./views/per-query.js";

const config = JSON.parse(document.getElementById("build-config")?.textContent || "{}");

const CANCEL_AFTER_MS = 800; // a computation running this long is cancelled (worker restarted) by a new edit

// ---------------------------------------------------------------------------------------------
// The worker (views/worker-bridge.js): one lane for the shown result of the mode on screen

let debounceTimer = 0;
let bootFailed = false; // the runtime could not start: later "loading" words are stale
const bridge = new WorkerBridge({
  url: config.workerURL || "worker.js",
  init: () => ({
    base: new URL(".", document.baseURI).href,
    indexURL: config.indexURL || "pyodide/",
    engineWheel: config.engineWheel,
    snapshot: config.snapshot || null,
    snapshotPolicy: window.__calculatorTuning?.snapshotPolicy ?? "cached",
    runtimeFiles: config.runtimeFiles || null,
    // Where a large run starts to be scored in parts (worker.js); the tests set them lower.
    parts: window.__calculatorTuning?.parts ?? null,
  }),
  cancelAfterMs: CANCEL_AFTER_MS,
  // The measure chooser is drawn from the engine's registry before the first score is sent: from
  // the build's copy of it at once (below), else from the engine once it runs.
  prepare: config.measures ? null : async (b) => drawMeasureChooser(await b.call({ type: "measures" })),
  onStatus: (state, text, fraction) => {
    // A download count that arrives after the failure (a file still in flight when another
    // failed) must not hide what failed and what to do.
    if (state === "loading" && bootFailed) return;
    if (state === "failed") {
      bootFailed = true;
      hideProgress();
    }
    setStatus(state, text, fraction);
  },
  onReady: (info) => {
    const seconds = ((performance.now() - bridge.bootStart) / 1000).toFixed(1);
    window.__calculator.timings.ready = performance.now();
    window.__calculator.timings.bootSeconds = Number(seconds);
    setStatus("ready", `Pyodide ${info.pyodide}, started in ${seconds} s`); // as short as the loading words: no reflow
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
  busy: () => !bridge.ready || main.busy() || Boolean(debounceTimer) || restoring || perQueryPending(),
};

/**
 * Asks the worker about the rankings result on the page (`{type: "inspect", query, options}`,
 * `{type: "precision_recall"}`, `{type: "download", kind, meta}`); resolves with the answer, or rejects (with
 * `stale: true` when that result is no longer the one the worker keeps, or it restarted).
 */
function ask(message) {
  if (!bridge.ready || !shown.rankings) return Promise.reject(Object.assign(new Error("nothing is scored yet"), { stale: true }));
  return bridge.call({ ...message, of: shown.rankings });
}

let pastedInto = false; // "paste", "drop" or "type" into a box: its score points to (or shows) the results
let editedBox = null; // the box of that edit: the line pointing to the results goes under it

// `reveal`: the edit loaded a whole example or file, so the results are shown once drawn.
function schedule(delay, reveal = false) {
  if (reveal || pastedInto === "drop") setReveal("move");
  else if (pastedInto === "paste" || pastedInto === "type") setReveal("point", editedBox);
  else if (delay === undefined) setReveal(false);
  pastedInto = false;
  foldBaseline();
  // The boxes or settings changed: the report shown is not of them any more.
  if (currentMode() === "rankings") markReport("pending");
  else markAnswersPending();
  keepSoon(); // the boxes, kept in this browser for a reload
  // (the line pointing to the results stays until the next report replaces its mean: hiding it
  // at each keystroke would move everything below it)
  manyRunsEdited(); // the judgements and settings are the many runs' too
  clearTimeout(debounceTimer);
  if (delay === undefined) {
    const size = currentMode() === "answers" ? answersSize()
      : boxSize(boxes.qrels) + boxSize(boxes.run) + boxSize(boxes.baseline);
    delay = size > 5_000_000 ? 700 : size > 500_000 ? 350 : 150;
  }
  debounceTimer = setTimeout(dispatch, delay);
  if (!bridge.ready && !bridge.failed) {
    showProgress("this will be scored as soon as Python is ready…");
    // the Results panel never says the boxes are empty when they are not
    if (currentMode() === "rankings" && $("report").hidden && !boxBlank(boxes.qrels) && !boxBlank(boxes.run)) {
      $("empty").textContent = "Python is still starting: these boxes will be scored as soon as it is ready.";
    }
  }
}

function dispatch() {
  debounceTimer = 0;
  const mode = currentMode();
  if (mode === "answers" ? answersBlank() : boxBlank(boxes.qrels) && boxBlank(boxes.run)) {
    main.clear();
    hideProgress();
    shown[mode] = 0;
    render(null, mode);
    return;
  }
  if (!bridge.ready && !bridge.failed) showProgress("this will be scored as soon as Python is ready…");
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
        means: answer.result?.report?.mean ?? null, // the engine's means as computed (the bench checks them)
      };
    }
  }, (err) => {
    if (err.stale && !err.cancelled) return; // a newer request is on its way (or nothing is wanted)
    hideProgress();
    showAnswersBusy(false);
    if (!err.cancelled) showInternalError(err.message);
  });
}

// The Answers mode's request: references and answers, scored by web.analyse_answers.
function answersMessage() {
  if (currentMode() !== "answers") return null;
  showAnswersBusy(true);
  return { type: "analyse_answers", ...answersRequest() };
}

/** A failure of the calculator itself (not of the input), said where the settings' errors go. */
function showInternalError(message) {
  const box = $(currentMode() === "answers" ? "answers-options-error" : "options-error");
  box.textContent = `Something went wrong inside the calculator: ${message}`;
  box.hidden = false;
}


/** Draws an answer of the mode's request (null: nothing to score). */
function render(result, mode = "rankings", sent = null) {
  window.__calculator.renders++;
  if (mode === "answers") {
    renderAnswers(result);
    checkScrollRegions();
    return;
  }
  renderRankings(result, sent);
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
// Start: the page is usable now; the runtime boots behind it. Anything typed before this script
// ran (or while the runtime boots) is kept and scored once the runtime is ready.

const examplesOf = (mode) => (config.examples || []).filter((e) => (e.mode || "rankings") === mode);
initAnswers(modeMain("answers"), {
  edited: schedule, failed: showInternalError, examples: examplesOf("answers"), stop: cancelRunning,
  file: (kind) => (shown.answers ? bridge.call({ type: "download", kind, of: shown.answers })
    : Promise.reject(Object.assign(new Error("nothing is scored yet"), { stale: true }))),
});
const checkScrollRegions = watchScrollRegions(); // after the Answers mode has built its tables
restoreSettings();
initInputs({
  edited: schedule, replaced: forgetExample,
  // A results file is coming (the picker opened: size 0; a file being read: its size): the
  // worker starts the helpers that score a large run's parts (worker.js, start_helpers).
  fileComing: (size) => bridge.ready && bridge.call({ type: "start_helpers", size }).catch(() => {}),
});
initSettings({ edited: schedule });
// The chips and the chooser before the runtime is ready (the build's copy of the registry's
// catalogue): nothing in the settings moves when it is.
if (config.measures) drawMeasureChooser(config.measures);
initExamples(examplesOf("rankings"), { edited: schedule });
initModes({ changed: () => { hideJump(); schedule(0); checkScrollRegions(); } });

// The skip links (the first two Tab stops) move the focus to the judgements box and to the
// results (a plain fragment link leaves it on the body, and the address's fragment holds the
// settings).
document.querySelector("a.skip[data-skip=results]")?.addEventListener("click", (e) => {
  e.preventDefault();
  goToResults();
});
document.querySelector("a.skip[data-skip=qrels]")?.addEventListener("click", (e) => {
  e.preventDefault();
  const box = currentMode() === "answers" ? document.querySelector("#answers-main textarea") : boxes.qrels.textarea;
  box?.focus();
});
initRankings({ again: () => schedule(0), pending: () => Boolean(debounceTimer) || main.busy(), scrolled: () => checkScrollRegions(), ask, engine: () => engine.info?.engine });
initManyRuns({ bridge, inputs: () => currentRequest(), runText: () => boxText(boxes.run) });
for (const type of ["paste", "drop", "input"]) {
  $("rankings-main").addEventListener(type, (e) => {
    const box = e.target.closest?.("[data-box]");
    if (!box || (type === "input" && e.target.tagName !== "TEXTAREA")) return;
    if (type !== "input" || pastedInto !== "paste") pastedInto = type === "input" ? "type" : type;
    editedBox = box;
  }, true);
}
for (const button of document.querySelectorAll("[data-glossary]")) {
  button.addEventListener("click", () => {
    $("glossary").addEventListener("close", () => button.focus(), { once: true });
    $("glossary").showModal();
  });
}

window.__calculator.timings.usable = performance.now();
bridge.start();
if (boxSize(boxes.qrels) || boxSize(boxes.run) || answersSize()) schedule(0);
// What the boxes held before the reload (kept in this browser: views/keep.js), into the blank ones.
let restoring = true;
initKeep({ ...boxes, ...answerBoxes }, [[document.querySelector("#rankings-main > .inputs"), "keep-note"],
  [document.querySelector("#answers-main > .inputs"), "answers-keep-note"]]).then((filled) => {
  restoring = false;
  if (filled) schedule(0);
});
