// The many-runs box's list: the box itself (files, the results box added as a run, the test's
// settings, Clear with Undo), each run named as the command line names its file (web.run_names),
// renamed or removed, one chosen as the baseline. Names and texts are only ever set as text.

import { $, acceptDrops, countByteLines, countLines, el, formatBytes, nf } from "./dom.js";
import { foldBox } from "./explain.js";
import { hideClearUndo, offerUndo, wrapping } from "./inputs.js";
import { MAX_RUNS, hooks, state } from "./many-runs-state.js";

// The methods and normalisations the engine's page/fusion.py offers (METHODS, NORMS).
export const FUSION_METHODS = { rrf: "RRF", sum: "CombSUM", mnz: "CombMNZ", anz: "CombANZ", max: "CombMAX", min: "CombMIN", med: "CombMED", isr: "ISR", log_isr: "log ISR", logn_isr: "logN ISR", bordafuse: "BordaFuse", condorcet: "Condorcet" };
const FUSION_NORMS = [["min-max", "min-max"], ["max", "max"], ["sum", "sum"], ["zmuv", "z-score"], ["rank", "rank"], ["borda", "Borda"], ["none", "none"]];

/** The lines of a file's bytes, or null when they are gzip or UTF-16 (the engine says once read). */
function runLines(bytes) {
  return wrapping(bytes.subarray(0, 4096)) ? null : countByteLines(bytes);
}

/** A run's name from its file name: the name without its extension, unique among the runs. */
function uniqueName(wanted, taken) {
  const base = (wanted || "run").trim() || "run";
  if (!taken.includes(base)) return base;
  for (let i = 2; ; i++) if (!taken.includes(`${base} (${i})`)) return `${base} (${i})`;
}


export function buildInputs() {
  const file = el("input", { type: "file", multiple: true, id: "many-file", class: "visually-hidden", "data-testid": "many-file" });
  const test = el("select", { id: "many-test", "data-testid": "many-test" },
    el("option", { value: "randomisation", text: "paired randomisation" }), el("option", { value: "t", text: "paired t-test" }),
    el("option", { value: "bootstrap", text: "paired bootstrap" }));
  const correction = el("select", { id: "many-correction", "data-testid": "many-correction" },
    el("option", { value: "holm", text: "Holm" }), el("option", { value: "bonferroni", text: "Bonferroni" }),
    el("option", { value: "bh", text: "Benjamini-Hochberg" }), el("option", { value: "none", text: "none" }));
  const alpha = el("input", { type: "text", id: "many-alpha", "data-testid": "many-alpha", value: "0.05", inputMode: "decimal", size: 5, autocomplete: "off" });
  // Fusion (py/retrieval_metrics/page/fusion.py): the runs fused into one more run, by ranx's
  // methods and normalisations, scored beside them and offered as a TREC run.
  const fuse = el("select", { id: "many-fuse", "data-testid": "many-fuse" },
    el("option", { value: "", text: "no fusion" }),
    ...Object.entries(FUSION_METHODS).map(([value, text]) => el("option", { value, text })));
  const fuseNorm = el("select", { id: "many-fuse-norm", "data-testid": "many-fuse-norm" },
    ...FUSION_NORMS.map(([value, text]) => el("option", { value, text })));
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
    el("div", { class: "many-options", role: "group", "aria-label": "Fusion" },
      el("label", { class: "select-inline" }, "Fuse the runs ", fuse),
      el("label", { class: "select-inline" }, "normalised by ", fuseNorm)),
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
    hooks.listChanged();
    hooks.schedule(0);
    if (!before.runs.length) return;
    // As a box's Clear: Undo puts the list back until runs are added again or the time is up.
    offerUndo(state.undo, clear, "many", () => {
      Object.assign(state, before);
      drawList();
      hooks.listChanged();
      hooks.schedule(0);
      clear.focus();
    });
  });
  for (const control of [test, correction, fuse, fuseNorm]) control.addEventListener("change", () => state.runs.length && hooks.schedule(0));
  const normFollows = () => { fuseNorm.disabled = !fuse.value; }; // a normalisation only with a method
  fuse.addEventListener("change", normFollows);
  normFollows();
  alpha.addEventListener("input", () => state.runs.length && hooks.schedule());
  acceptDrops(box, addFiles);
  drawList();
}

export function showError(message) {
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
  hooks.listChanged();
  hooks.schedule(0);
}

export function pushRun(run) {
  const name = uniqueName(run.name, state.runs.map((r) => r.name));
  const lines = run.bytes ? runLines(run.bytes) : countLines(run.text);
  state.runs.push({ id: state.nextId++, name, text: run.text ?? null, bytes: run.bytes ?? null, lines, size: run.bytes?.length ?? null, file: run.file || null });
}

export function drawList() {
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
      hooks.listChanged();
      hooks.schedule(0);
    });
    const name = el("input", { type: "text", value: run.name, class: "many-name", "aria-label": "run name", "data-testid": "many-name", autocomplete: "off" });
    name.addEventListener("change", () => {
      const others = state.runs.filter((r) => r !== run).map((r) => r.name);
      run.name = uniqueName(name.value, others);
      name.value = run.name;
      drawList();
      hooks.listChanged();
      hooks.schedule(0);
    });
    const remove = el("button", { type: "button", class: "button quiet small", "data-testid": "many-remove", "aria-label": `Remove ${run.name}`, text: "Remove" });
    remove.addEventListener("click", () => {
      const i = state.runs.indexOf(run);
      state.runs.splice(i, 1);
      if (state.baseline === run.id) state.baseline = state.runs[0]?.id ?? null;
      drawList();
      hooks.listChanged();
      hooks.schedule(0);
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

