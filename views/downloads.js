// The download menu of the Rankings mode. The page writes no file itself: it asks the engine
// (the worker's `download` request: retrieval_metrics.page.session.Session.download) for the text of the file of
// the result it shows, so every file is the one the command line writes for the same input (the
// report's JSON, JSONL and CSV byte for byte, but for the JSON's meta). A download is only
// offered for the result on the page: while it is shown as stale (a setting cannot be used) the
// button is off, and a result replaced meanwhile is refused by the worker rather than saved.

import { $, el } from "./dom.js";

// Set by initDownloads: the last result drawn, the settings it was asked with, the engine's
// version, and the question to the worker about the result shown.
const source = { result: () => null, options: () => ({}), files: () => ({}), engine: () => "", ask: null };

// The formats the boxes were read with; the engine fills in the settings themselves (the same
// keys as the CLI's, from one place: scoring/settings.py settings_record).
function usedSettings() {
  const o = source.options();
  return { qrels_format: o.qrels_format, run_format: o.run_format, third_column: o.third_column };
}

// What made a download: the same keys as the CLI's `-o json` meta (the JSON files only: every
// CSV stays one plain table, the CLI's CSV byte for byte).
// The files are those the result shown was asked with, never what the boxes hold since.
function meta() {
  return {
    engine: `retrieval-metrics ${source.engine() || ""}`.trim(),
    created: new Date().toISOString().replace(/\.\d+Z$/, "+00:00"),
    files: source.files(),
    settings: usedSettings(),
  };
}

/** Saves a file the engine wrote ({name, type, text}) to the person's disk. */
export function saveFile(file) {
  const url = URL.createObjectURL(new Blob([file.text], { type: `${file.type};charset=utf-8` }));
  const a = el("a", { href: url, download: file.name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function say(text) {
  const note = $("download-note");
  note.textContent = text;
  note.hidden = !text;
}

/** Saves the chosen kind of file (the value of the download menu). */
export async function download(kind) {
  const result = source.result();
  if (!result || !result.report) return;
  say("");
  try {
    saveFile(await source.ask({ type: "download", kind, meta: meta() }));
  } catch (err) {
    say(err.stale ? "The results changed meanwhile: download again once they are shown."
      : `Could not write that file: ${err.message}`);
  }
}

/** Offers the downloads (the result shown is current) or not (it is shown as stale; `why`
 * says why, as the button's tooltip). */
export function offerDownloads(offered, why = "Fix the setting marked above: the files are of the results shown once it works") {
  const button = $("download-button");
  button.disabled = !offered;
  button.title = offered ? "" : why;
  if (!offered) say("");
}

/** Shows or hides the comparison's files in the menu (there is one only with a baseline). */
export function offerComparison(shown) {
  const group = $("downloads-compare");
  group.hidden = !shown;
  group.disabled = !shown;
  const menu = $("download-kind");
  if (!shown && menu.value.startsWith("comparison-")) menu.value = "report-json";
}

/** Wires the download menu and button; `result()` gives the last result, `options()` the settings
 * sent, `engine()` the engine's version, `ask(message)` asks the worker about the result shown. */
export function initDownloads({ result, options, files = () => ({}), engine = () => "", ask }) {
  Object.assign(source, { result, options, files, engine, ask });
  $("download-button").addEventListener("click", () => download($("download-kind").value));
}
