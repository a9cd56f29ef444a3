// The rankings mode (judgements and results, with a baseline): its request, and the drawing of
// the engine's answer (the means, notices, per-query table, comparison and charts), the staleness
// of the report shown, and bringing the results to the eye. app.js sends the request and hands
// the answer here, as it does the Answers mode's to views/answers.js.

import { $, countLines, el, fmt, nf, metricLabel } from "./dom.js";
import { boxes, boxBlank, boxInput, boxText, detectedText, showBoxError } from "./inputs.js";
import { renderOptionsError, settingsOptions } from "./settings.js";
import { renderMeans } from "./means.js";
import { renderNotices } from "./notices.js";
import { renderPerQuery } from "./per-query.js";
import { filterQueries, initPerQueryFilter, updatePerQueryFilter } from "./per-query-filter.js";
import { initQueryDetail, openQuery, updateQueryDetail } from "./query-detail.js";
import { initCharts, renderCharts } from "./charts.js";
import { renderComparison } from "./comparison.js";
import { download, initDownloads, offerComparison, offerDownloads } from "./downloads.js";
import { foldBox } from "./explain.js";
import { currentMode } from "./modes.js";
import { showProgress } from "./progress.js";
import { STALE_DOWNLOAD, drawStaleNote } from "./stale.js";

/** The rankings mode's boxes (their text, read only when asked for: a large file's text is
 * decoded then) and settings. */
export function currentRequest() {
  return {
    get qrels() { return boxText(boxes.qrels); },
    get run() { return boxText(boxes.run); },
    get baseline() { return boxText(boxes.baseline); },
    options: settingsOptions({ qrels: boxes.qrels.format.value, run: boxes.run.format.value, baseline: boxes.baseline.format.value }),
  };
}

/** The analyse request of what the boxes and settings say now (null in another mode). */
export function rankingsMessage() {
  if (currentMode() !== "rankings") return null;
  const request = currentRequest();
  if ($("report").hidden && !boxBlank(boxes.qrels) && !boxBlank(boxes.run)) $("empty").textContent = "Scoring…";
  const lines = boxes.run.big ? boxes.run.big.lines : countLines(request.run); // null: a large file, still counted
  showProgress(lines === null ? "reading results…" : `reading ${nf.format(lines)} result line${lines === 1 ? "" : "s"}…`, 250);
  // A file's own bytes rather than its text, so the engine decodes them as it decodes files.
  // `files`: where each box's text came from now, for the downloads' meta of this result.
  const message = { type: "analyse", options: request.options, files: boxSources() };
  for (const name of ["qrels", "run", "baseline"]) message[name] = boxInput(boxes[name]);
  return message;
}

let lastResult = null; // the last result with a report (what the downloads hold)
let lastSent = null; // ... and the request it answered: {files, options}, for the downloads' meta
let reveal = false; // "move" or "point": how the next drawn report is brought to the eye
let revealBox = null; // with "point": the box the person is working in
let baselineFold = null;
let hooks = { again: () => {}, pending: () => false, scrolled: () => {} };

/** Where each box's text came from (a file's name, "typed or pasted text"), null when blank. */
function boxSources() {
  const name = (box) => (boxBlank(box) ? null : box.fileName || "typed or pasted text");
  return { qrels: name(boxes.qrels), run: name(boxes.run), baseline: name(boxes.baseline) };
}

// The report on the page is of the input it was asked with. While the boxes or settings say
// something else (an edit waits or is being scored, the person pressed Stop, a setting cannot be
// used) it is marked as not current, and no file is offered from it (views/stale.js: the words).

/** `state`: "current", or why the report shown is not ("pending", "stopped", "options"). */
export function markReport(state) {
  const report = $("report");
  if (report.hidden && state !== "current") return;
  const stale = state !== "current";
  report.dataset.state = state;
  report.classList.toggle("stale", stale);
  drawStaleNote($("stale-note"), state, hooks.again);
  offerDownloads(!stale, STALE_DOWNLOAD[state]);
}

/** Draws an analyse answer (`sent`: the message it answered; null for "nothing to score"). */
export function renderRankings(result, sent = null) {
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
  if (!inputs.baseline && !errors.baseline && !boxBlank(boxes.baseline)) {
    boxes.baseline.detected.textContent = "Compared once the judgements and results above are scored.";
  }
  renderOptionsError(errors.options || null);

  const empty = $("empty");
  updateQueryDetail(report || null, (result && result.comparison) || null);
  if (!report) {
    // A setting half typed (k "5,") must not take the report away: the last one stays, marked
    // as the scores of the last settings that worked, while the error shows by the setting.
    const keep = errors.options && !errors.qrels && !errors.run && lastResult && !boxBlank(boxes.qrels) && !boxBlank(boxes.run);
    if (keep) {
      markReport("options");
      return;
    }
    lastResult = lastSent = null;
    $("report").hidden = true;
    hideJump(); // no scores: the line pointing to them goes too
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
  markReport(hooks.pending() ? "pending" : "current");
  renderMeans(report, currentRequest().options.gain, result.readings);
  renderNotices(report.notices || []);
  updatePerQueryFilter(report, result.unjudged_in_top);
  renderPerQuery(report, { filter: filterQueries, open: openQuery });
  renderComparison(result.comparison || null, { label: metricLabel, renderNotices, offerDownloads: offerComparison });
  renderCharts(report, result.comparison || null);
  hooks.scrolled();
  if (reveal) {
    const how = reveal;
    reveal = false;
    pointToResults(report, how);
  } else if (!$("results-jump").hidden) {
    fillJump(report); // the line stays where it is (nothing below it moves), with the new mean
  }
}

// After an example, an opened or a dropped file, the means are brought into view (and the focus
// to the results) when they are not in the window: on wide screens they are beside the boxes and
// nothing moves. After a paste or a typed edit the view stays with the box, and a line right
// under it gives the headline mean and a link to the results: on a phone or a tablet the results
// are a screen or more below, and the line is scrolled into view only as far as it takes (the
// box stays where it is, give or take the line's height).
const SIDE_BY_SIDE = "(min-width: 1100px)"; // style.css: the results beside the boxes
function pointToResults(report, how) {
  const means = $("means-table").getBoundingClientRect();
  if (means.top >= 0 && means.top < window.innerHeight - 60) return;
  if (how === "move") {
    goToResults();
    return;
  }
  const jump = $("results-jump");
  const home = $("results");
  const beside = !revealBox || window.matchMedia?.(SIDE_BY_SIDE).matches;
  if (beside) {
    if (jump.nextElementSibling !== home) home.before(jump); // the line's place in the grid
  } else if (revealBox.nextElementSibling !== jump) {
    revealBox.after(jump);
  }
  fillJump(report);
  if (!beside) jump.scrollIntoView({ block: "nearest" });
}

function fillJump(report) {
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

export function hideJump() {
  $("results-jump").hidden = true;
}

export function goToResults() {
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
  if (boxBlank(boxes.qrels)) return "Add judgements (qrels) to score these results.";
  if (boxBlank(boxes.run)) return "Add results (a run) to score against these judgements.";
  return "No scores for this input.";
}

/** How the next drawn report is brought to the eye: "move" (an example, an opened or dropped
 * file: the view goes to the means), "point" (a paste or a typed edit in `box`: a line under
 * that box gives the headline mean and points to the results), false. */
export function setReveal(how, box = null) {
  reveal = how;
  revealBox = box;
}

/**
 * Wires the mode: `again()` scores the boxes again (the stale note's button), `pending()` says
 * an edit is waiting or being scored, `scrolled()` re-checks the scroll regions after a draw,
 * `ask(message)` asks the worker about the result shown, `engine()` names the engine.
 */
export function initRankings({ again, pending, scrolled, ask, engine }) {
  hooks = { again, pending, scrolled };
  initDownloads({ result: () => lastResult, options: () => lastSent.options, files: () => lastSent.files, engine, ask });
  initPerQueryFilter({ changed: () => lastResult?.report && renderPerQuery(lastResult.report) });
  initQueryDetail({ ask });
  initCharts({ ask });
  baselineFold = foldBox($("baseline-box"), () => !boxBlank(boxes.baseline), "Compare with a baseline…");
  $("save-report").addEventListener("click", () => download("report-html"));
}

/** The baseline box folds again when it is blank (each edit asks). */
export function foldBaseline() {
  baselineFold?.();
}
