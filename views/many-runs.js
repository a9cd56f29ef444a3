// Many runs at once: several result files (dropped or picked together, or the results box added
// as one), each a named run that can be renamed or removed, one chosen as the baseline. They are
// scored against the judgements box with the page's settings (the worker's `analyse_many` request:
// retrieval_metrics.page.session.Session.analyse_many) and shown as a systems x metrics table of means with confidence intervals, markers for
// significant differences from the baseline, a table of the differences (CI, W/T/L, effect size,
// raw and corrected p), LaTeX and Markdown for papers (copied to the clipboard), and every run's
// precision-recall curve on one chart. Names and texts are only ever set as text. The list
// (names, texts or files' bytes, the baseline) is kept across a reload as the boxes are
// (views/keep.js), and its Clear has the boxes' Undo.
//
// This module is the controller: the requests to the worker and keeping the list across a reload;
// views/many-runs-list.js draws the list, views/many-runs-result.js the comparison.

import { $ } from "./dom.js";
import { keepAlso, keepSoon } from "./keep.js";
import { addRuns, buildInputs, drawList, pushRun } from "./many-runs-list.js";
import { buildResult, render } from "./many-runs-result.js";
import { MAX_RUNS, hooks, state } from "./many-runs-state.js";

const KEEP_KEY = "many-runs";

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
  Object.assign(hooks, { schedule, listChanged, markPending });
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
  if ($("many-fuse").value) options.fuse = { method: $("many-fuse").value, norm: $("many-fuse-norm").value };
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

