// The page explains itself: each measure's definition and trec_eval equivalent one click away (an
// (i) button by the measure in the chooser, in the means table and in the many-runs table's
// headings opens a small dialog, drawn from the engine's registry: description, trec_eval name,
// citation, other tools' names), a
// glossary of the statistics (p, corrected p, effect size, W/T/L, intervals; index.html's
// #glossary dialog) opened from the comparison and many-runs tables, and boxes that stay folded
// (one short line) until they are used. Native <dialog>s: focus moves in, Escape closes, focus
// goes back to the button.

import { $, el, measureEntry } from "./dom.js";

let infoDialog = null;
let opener = null;

function dialog() {
  if (infoDialog) return infoDialog;
  infoDialog = el("dialog", { class: "info-dialog", id: "measure-info", "data-testid": "measure-info", "aria-labelledby": "measure-info-title" });
  infoDialog.addEventListener("close", () => opener?.focus());
  infoDialog.addEventListener("click", (e) => { if (e.target === infoDialog) infoDialog.close(); }); // the backdrop
  document.body.append(infoDialog);
  return infoDialog;
}

/** Opens the measure's dialog (from `button`, where focus returns). */
export function showMeasure(entry, button = null) {
  const d = dialog();
  opener = button;
  const names = Object.entries(entry.names || {}).map(([tool, name]) => `${tool}: ${name}`);
  d.replaceChildren(
    el("h3", { id: "measure-info-title", text: entry.label }),
    el("p", { "data-testid": "measure-info-description", text: entry.description || "No description in the registry." }),
    el("dl", {},
      el("dt", { text: "trec_eval" }),
      el("dd", { "data-testid": "measure-info-trec-eval" }, entry.trec_eval ? el("code", { text: entry.trec_eval }) : "no trec_eval equivalent"),
      el("dt", { text: "Name here" }), el("dd", {}, el("code", { text: entry.value }),
        entry.cutoff === "required" ? " at each cutoff k" : entry.cutoff === "optional" ? " (a cutoff may be given)" : ""),
      ...(names.length ? [el("dt", { text: "Other tools" }), el("dd", { text: names.join(", ") })] : []),
      ...(entry.citation ? [el("dt", { text: "Source" }), el("dd", { text: entry.citation })] : [])),
    el("form", { method: "dialog" }, el("button", { class: "button small", "data-testid": "measure-info-close", text: "Close" })));
  d.showModal();
}

/** An (i) button opening the dialog of the measure of `key` (null when the registry has none).
 * Its icon is drawn by CSS, so the cell's text stays the measure's label. */
export function infoButton(key) {
  const entry = measureEntry(key);
  if (!entry) return null;
  const button = el("button", { type: "button", class: "info-button", "aria-label": `About ${entry.label}`, title: `About ${entry.label}`, "data-info": entry.value });
  button.addEventListener("click", (e) => {
    e.preventDefault(); // inside a <label>: do not tick the box
    e.stopPropagation();
    showMeasure(entry, button);
  });
  return button;
}

/** A link-like button that opens the glossary of the statistics (index.html's #glossary). */
export function glossaryButton(text = "What do p, corrected p, effect size, W/T/L and the intervals mean?") {
  const button = el("button", { type: "button", class: "link-button glossary-link", "data-testid": "glossary-link", text });
  button.addEventListener("click", () => {
    const g = $("glossary");
    g.addEventListener("close", () => button.focus(), { once: true });
    g.showModal();
  });
  return button;
}

/**
 * Folds `box` to its heading and one short line until it is used: `used()` says whether it
 * holds something (then it stays open). The fold button, the box's own controls, a focus inside
 * it or a drop on it open it.
 */
export function foldBox(box, used, label) {
  const head = box.querySelector(".box-head");
  const button = el("button", { type: "button", class: "button quiet small fold-button", "aria-expanded": "false", "data-testid": `${box.id}-fold`, text: label });
  head.append(button);
  let opened = false;
  const update = () => {
    const folded = !opened && !used();
    box.classList.toggle("folded", folded);
    button.hidden = !folded;
    button.setAttribute("aria-expanded", String(!folded));
  };
  const open = () => {
    opened = true;
    update();
  };
  button.addEventListener("click", () => {
    open();
    (box.querySelector("textarea") || box.querySelector("select, input:not([type=file])"))?.focus();
  });
  box.addEventListener("focusin", (e) => { if (e.target !== button) open(); });
  box.addEventListener("dragenter", open);
  box.addEventListener("drop", open, true);
  update();
  return update;
}
