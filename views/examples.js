// The Example menu: loads a bundled example's judgements, results and settings into the page.

import { $, el } from "./dom.js";
import { boxes, setBoxText } from "./inputs.js";
import { settings } from "./settings.js";

export function hideExampleNote() {
  $("example-note").hidden = true;
}

/** Forgets the chosen example (the person changed the text): the menu shows no example. */
export function forgetExample() {
  settings.examples.value = "";
  hideExampleNote();
}

async function loadExample(id, edited) {
  const base = `examples/${encodeURIComponent(id)}/`;
  const get = async (path, json) => {
    const response = await fetch(base + path, { cache: "no-cache" });
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
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
  edited(0);
}

/** Fills the menu from the build's list; `edited(delay)` schedules a score, `failed(message)` reports. */
export function initExamples(examples, { edited, failed }) {
  for (const example of examples || []) {
    settings.examples.append(el("option", { value: example.id, text: example.title }));
  }
  settings.examples.addEventListener("change", () => {
    const id = settings.examples.value;
    if (!id) return;
    loadExample(id, edited).catch((err) => failed(`could not load the example (${err.message || err})`));
  });
}
