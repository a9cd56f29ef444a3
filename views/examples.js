// The Example menu: loads a bundled example's judgements, results and settings into the page.
// The person's own text is never lost to it: what the boxes held is kept, and a notice beside the
// menu offers to put it back (Undo) until the person edits again.

import { $, el } from "./dom.js";
import { blank, boxes, setBoxText, textToRestore } from "./inputs.js";
import { chooseDefaultMetrics, chooseMetrics, chosenMetricNames, dropExampleSettings, keepSettings, leaveExampleSettings, personSettings, settings, settingsFromExample } from "./settings.js";

let shown = ""; // the id of the example the boxes hold, untouched ("" when the person's own text)
let saved = null; // what the boxes and settings held before the example replaced them

/** The measures the example is about (its settings.json's `metrics`, -m names), through the
 * chooser and its text field as if the person had ticked them. An example without any gives
 * the person's own measures (`person`: personSettings().metrics, not those a previous example
 * set), and leaves them as they are when they are already the person's. */
function applyMetrics(names, person) {
  if (Array.isArray(names) && names.length) chooseMetrics(names.join(","));
  else if (person === chosenMetricNames()) return;
  else if (person) chooseMetrics(person);
  else chooseDefaultMetrics();
}

export function hideExampleNote() {
  $("example-note").hidden = true;
}

function hideUndo() {
  saved = null;
  const undo = $("example-undo");
  undo.hidden = true;
  undo.replaceChildren();
  delete undo.dataset.kind;
}

// How the line beside the menu names a setting given back (k and the measures are said apart).
const SETTING_WORDS = { gain: "the nDCG gain", missing: "judged queries missing from results",
  relevance: "the relevance grade", zero_division: "queries with no relevant document", ties: "equal scores" };

/** Forgets the chosen example (the person changed the text): the menu shows no example, and the
 * settings the example set go back to the person's (said beside the menu), so that the person's
 * own data is never scored with an example's k unasked. */
export function forgetExample() {
  settings.examples.value = "";
  shown = "";
  hideExampleNote();
  if ($("example-undo").dataset.kind === "settings") saved = null; // the line below stays, said once
  else hideUndo();
  const back = leaveExampleSettings();
  if (!back.length) return;
  const undo = $("example-undo");
  const said = back.map(([name, , person]) => name === "k" ? `k = ${person}` : name === "metrics" ? "your measures" : SETTING_WORDS[name] || name);
  undo.replaceChildren(`Your own text: ${said.join(", ")} again, as before the example.`);
  undo.dataset.kind = "settings";
  undo.hidden = false;
}

const SETTING_FIELDS = ["k", "gain", "missing", "thirdColumn"];

function snapshot() {
  const texts = {};
  for (const [name, box] of Object.entries(boxes)) {
    texts[name] = { text: textToRestore(box), name: box.fileName, bytes: box.bytes, format: box.format.value };
  }
  const values = Object.fromEntries(SETTING_FIELDS.map((f) => [f, settings[f].value]));
  values.metrics = chosenMetricNames();
  return { texts, values, example: shown, note: [...$("example-note").childNodes].map((n) => n.cloneNode(true)), noteShown: !$("example-note").hidden };
}

function restore(state, edited) {
  for (const [name, box] of Object.entries(boxes)) {
    const t = state.texts[name];
    setBoxText(box, t.text, t.name, t.bytes);
    box.format.value = t.format;
  }
  for (const f of SETTING_FIELDS) settings[f].value = state.values[f];
  if (state.values.metrics) chooseMetrics(state.values.metrics);
  dropExampleSettings();
  shown = state.example;
  settings.examples.value = state.example;
  const note = $("example-note");
  note.replaceChildren(...state.note);
  note.hidden = !state.noteShown;
  keepSettings();
  edited(0);
}

function offerUndo(edited) {
  const undo = $("example-undo");
  const button = el("button", { type: "button", class: "button small", "data-testid": "example-undo-button", text: "Undo" });
  button.addEventListener("click", () => {
    const state = saved;
    hideUndo();
    if (state) restore(state, edited);
    settings.examples.focus();
  });
  undo.replaceChildren("This example replaced your text.", button);
  undo.dataset.kind = "undo";
  undo.hidden = false;
}

async function loadExample(id, edited) {
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
  const before = snapshot();
  const person = personSettings();
  const held = (t) => Boolean(t.bytes) || !blank(t.text);
  const hadText = !before.example && (held(before.texts.qrels) || held(before.texts.run));
  setBoxText(boxes.qrels, qrels, example.qrels);
  setBoxText(boxes.run, run, example.run);
  settings.k.value = example.k ?? "10";
  settings.gain.value = example.gain ?? "linear";
  settings.missing.value = example.missing ?? "zero";
  boxes.qrels.format.value = example.qrels_format ?? "auto";
  boxes.run.format.value = example.run_format ?? "auto";
  settings.thirdColumn.value = example.third_column ?? "auto";
  applyMetrics(example.metrics, person.metrics);
  settingsFromExample(person);
  const note = $("example-note");
  note.replaceChildren(el("strong", { text: example.title }), ". ", example.description || "");
  if (example.attribution) note.append(" ", el("span", { class: "attribution", text: example.attribution }));
  note.hidden = false;
  shown = id;
  if (hadText) {
    saved = before;
    offerUndo(edited);
  } else {
    hideUndo();
  }
  edited(0, true);
}

/** Fills the menu from the build's list; `edited(delay)` schedules a score. An example that cannot
 * be loaded is said beside the menu, which goes back to what the boxes hold. */
export function initExamples(examples, { edited }) {
  for (const example of examples || []) {
    settings.examples.append(el("option", { value: example.id, text: example.title }));
  }
  settings.examples.addEventListener("change", () => {
    const id = settings.examples.value;
    const error = $("examples-error");
    error.hidden = true;
    if (!id) return;
    const title = settings.examples.selectedOptions[0]?.textContent || id;
    loadExample(id, edited).catch((err) => {
      // Nothing was replaced: the menu goes back to what the boxes hold, and says why.
      settings.examples.value = shown;
      error.textContent = `Could not load the example “${title}”: ${err.message || err}. The boxes are unchanged.`;
      error.hidden = false;
    });
  });
}
