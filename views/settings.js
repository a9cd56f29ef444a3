// The settings row: cutoffs k, gain, missing queries, the measures, the relevance threshold,
// queries with no relevant document, the run's third column; the error shown by the setting that
// cannot be used; and the settings kept across reloads (localStorage) and carried in the URL's
// fragment (#k=1,5,10&gain=exponential&metrics=bpref,P_5: the settings only, never the data).
//
// The measure chooser is drawn from the engine's registry (the worker's `measures` call, before
// the first score): one checkbox per entry, grouped at k / whole ranking / trec_eval's, and a
// text field of more names in the command line's -m syntax (P_5, ndcg_cut_10, rbp(p=0.9)),
// which the engine parses (an unknown name is the settings' error); a tool's prefix reads a name
// as that tool does (ranx:hits@5, ir_measures:P(rel=2)@5; docs/names.md).

import { $, clip, el, setCatalogue } from "./dom.js";
import { infoButton } from "./explain.js";
import { drawChips, initMeasureChooser, setChooserCatalogue } from "./measure-chooser.js";
import { splitMetrics } from "./metric-names.js";

export const settings = {
  k: $("k"), gain: $("gain"), missing: $("missing"), thirdColumn: $("third-column"),
  baselineThirdColumn: $("baseline-third-column"),
  threshold: $("relevance-threshold"), zeroDivision: $("zero-division"), ties: $("ties"),
  optionsError: $("options-error"), examples: $("examples"),
  metrics: [], // the chooser's checkboxes, once drawn
  extra: $("metrics-extra"),
};

// Until the chooser is drawn: the names the fragment or storage asked for (null: the defaults).
let wantedMetrics = null;
let edited = () => {};

// The chooser's groups, spoken (the catalogue's group_label is what is shown); a group the
// catalogue adds shows with its own label.
const SPOKEN = { cutoff: "Measures at each cutoff k", whole: "Measures over the whole ranking, no cutoff", trec: "trec_eval's other measures" };

/** Draws the chooser from the engine's catalogue ([{value, label, group, description,
 * trec_eval, default}]) and applies the names restored before it existed. */
export function drawMeasureChooser(catalogue) {
  setCatalogue(catalogue);
  const groups = new Map(); // group -> its element, in the catalogue's order
  settings.metrics = [];
  for (const m of catalogue) {
    if (!groups.has(m.group)) {
      const title = m.group_label || m.group;
      groups.set(m.group, el("div", { class: "metric-group", role: "group", "aria-label": SPOKEN[m.group] || title, "data-group": m.group },
        el("span", { class: "metric-group-label", "aria-hidden": "true", text: title })));
    }
    const box = el("input", { type: "checkbox", name: "metric", value: m.value, "data-testid": `metric-${m.value}`, checked: Boolean(m.default) });
    box.dataset.default = String(Boolean(m.default));
    box.addEventListener("change", () => changed(0));
    settings.metrics.push(box);
    const about = [m.description, m.trec_eval ? `trec_eval: ${m.trec_eval}` : "", m.citation || ""].filter(Boolean).join(" · ");
    const info = infoButton(m.value);
    groups.get(m.group).append(el("span", { class: "metric-item" }, el("label", { title: about || undefined }, box, ` ${m.label}`), ...(info ? [info] : [])));
  }
  const holder = $("metric-groups");
  holder.replaceChildren(...groups.values());
  holder.removeAttribute("aria-busy");
  setChooserCatalogue(catalogue);
  DEFAULTS.metrics = KEPT.metrics.get();
  if (wantedMetrics !== null) KEPT.metrics.set(wantedMetrics);
  wantedMetrics = null;
}

/** The names the engine is sent: the ticked boxes, in the chooser's order. */
function chosenMetrics() {
  if (!settings.metrics.length) {
    // Not drawn yet (nothing is scored before it is): what was asked for, else the defaults.
    return wantedMetrics === null ? null : splitMetrics(wantedMetrics);
  }
  return settings.metrics.filter((box) => box.checked).map((box) => box.value);
}

const STORE_KEY = "retrieval-metrics:settings";
// The settings that persist, by their short name in the fragment.
const KEPT = {
  k: { get: () => settings.k.value.trim(), set: (v) => { settings.k.value = v; } },
  gain: { get: () => settings.gain.value, set: (v) => setSelect(settings.gain, v) },
  missing: { get: () => settings.missing.value, set: (v) => setSelect(settings.missing, v) },
  // The -m syntax: a chooser's value ticks its box; any other name goes to the extra field.
  metrics: {
    get: () => {
      if (!settings.metrics.length) return wantedMetrics ?? "";
      return [...chosenMetrics(), ...splitMetrics(settings.extra.value)].join(",");
    },
    set: (v) => {
      if (!settings.metrics.length) {
        wantedMetrics = v;
        return;
      }
      const names = splitMetrics(v);
      if (!names.length) return;
      const values = new Set(settings.metrics.map((box) => box.value));
      const chosen = new Set(names.filter((n) => values.has(n)));
      for (const box of settings.metrics) box.checked = chosen.has(box.value);
      settings.extra.value = names.filter((n) => !values.has(n)).join(", ");
      drawChips();
    },
  },
  // The "More settings" panel, open or closed (kept like the settings it holds).
  more: { get: () => (panelOpen("more-settings") ? "open" : ""), set: (v) => showPanel("more-settings", v === "open") },
  relevance: { get: () => settings.threshold.value.trim(), set: (v) => { if (/^-?\d+$/.test(v)) settings.threshold.value = v; } },
  zero_division: { get: () => settings.zeroDivision.value, set: (v) => setSelect(settings.zeroDivision, v) },
  ties: { get: () => settings.ties.value, set: (v) => setSelect(settings.ties, v) },
};
/** The measures asked for, in the -m syntax (the chooser's ticks, then the text field). */
export function chosenMetricNames() {
  return KEPT.metrics.get();
}

/** Asks for these measures (-m names, comma separated): a chooser's entry ticks its box (every
 * other box is unticked), any other name goes to the text field; before the chooser is drawn,
 * once it is. */
export function chooseMetrics(names) {
  KEPT.metrics.set(names);
}

/** Asks for the page's default measures (the catalogue's defaults, nothing in the text field). */
export function chooseDefaultMetrics() {
  if (!settings.metrics.length) {
    wantedMetrics = null;
    return;
  }
  for (const box of settings.metrics) box.checked = box.dataset.default === "true";
  settings.extra.value = "";
  drawChips();
}

// ---- the disclosures: "More settings" and "All measures" ---------------------------------------

function panelOpen(id) {
  return !$(id).hidden;
}

function showPanel(id, open) {
  $(id).hidden = !open;
  document.querySelector(`[aria-controls="${id}"]`)?.setAttribute("aria-expanded", String(open));
}

// The kept settings behind "More settings" (and its -m field): the button counts those that
// differ from the page's defaults.
const BEHIND_MORE = ["relevance", "zero_division", "ties"];

function countHiddenChanges() {
  const n = BEHIND_MORE.filter((name) => KEPT[name].get() !== DEFAULTS[name]).length + (settings.extra.value.trim() ? 1 : 0);
  $("more-settings-changed").textContent = n ? ` (${n} changed)` : "";
}

const DEFAULTS = Object.fromEntries(Object.entries(KEPT).map(([name, s]) => [name, s.get()]));

function setSelect(select, value) {
  if ([...select.options].some((o) => o.value === value)) select.value = value;
}

/** The options the worker is sent (`formats`: the format chosen for each box). */
export function settingsOptions(formats) {
  const threshold = settings.threshold.value.trim();
  return {
    k: settings.k.value.trim(),
    gain: settings.gain.value,
    missing: settings.missing.value,
    metrics: chosenMetrics() ?? undefined,
    metrics_extra: settings.extra.value,
    relevance_threshold: /^[+-]?\d+$/.test(threshold) ? Number(threshold) : threshold,
    zero_division: settings.zeroDivision.value,
    ties: settings.ties.value,
    qrels_format: formats.qrels,
    run_format: formats.run,
    third_column: settings.thirdColumn.value,
    baseline_format: formats.baseline,
    baseline_third_column: settings.baselineThirdColumn.value,
  };
}

// An error about one setting is shown under that setting; any other under the settings row.
const FIELD_ERRORS = { k: [settings.k, "k-error"], relevance_threshold: [settings.threshold, "threshold-error"], metrics: [settings.extra, "metrics-error"] };

/** Shows the engine's error about a setting (or hides every one when `error` is null). */
export function renderOptionsError(error) {
  const field = error && FIELD_ERRORS[error.field] ? error.field : null;
  for (const [name, [input, id]] of Object.entries(FIELD_ERRORS)) {
    const mine = field === name;
    $(id).hidden = !mine;
    $(id).textContent = mine ? clip(error.message) : "";
    input.setAttribute("aria-invalid", mine ? "true" : "false");
  }
  if (field === "relevance_threshold") showPanel("more-settings", true); // the error is seen
  const general = error && !field;
  settings.optionsError.hidden = !general;
  settings.optionsError.textContent = general ? clip(error.message) : "";
}

/** The persisted settings that differ from the page's defaults, as {name: text}. */
// The settings an example set ({name: {example, person}}: its value, and the person's from
// before it). They stay with the example: stored and put in the address as the person's, and
// given back when the person replaces or clears the example's text (leaveExampleSettings), unless
// the person changed them meanwhile.
let exampleOverlay = null;

/** The settings as the person chose them: an example's values read as the person's before it. */
export function personSettings() {
  const out = {};
  for (const [name, s] of Object.entries(KEPT)) {
    const set = exampleOverlay?.[name];
    out[name] = set && s.get() === set.example ? set.person : s.get();
  }
  return out;
}

/** An example has just set the settings; `before`: personSettings() from before it. */
export function settingsFromExample(before) {
  exampleOverlay = {};
  for (const [name, s] of Object.entries(KEPT)) {
    if (name !== "more" && s.get() !== before[name]) exampleOverlay[name] = { example: s.get(), person: before[name] };
  }
  keepSettings();
}

/** The example's text is gone: each setting it set and the person left alone goes back to the
 * person's. Returns [[name, example's value, person's value]] of those given back. */
export function leaveExampleSettings() {
  const overlay = exampleOverlay;
  exampleOverlay = null;
  if (!overlay) return [];
  const back = [];
  for (const [name, set] of Object.entries(overlay)) {
    if (KEPT[name].get() !== set.example) continue; // the person chose it since
    if (name === "metrics" && !set.person) chooseDefaultMetrics();
    else KEPT[name].set(set.person);
    back.push([name, set.example, set.person]);
  }
  drawChips();
  countHiddenChanges();
  keepSettings();
  return back;
}

/** The example's settings are replaced by others (Undo puts back what was there before it). */
export function dropExampleSettings() {
  exampleOverlay = null;
}

function changedSettings() {
  const person = personSettings();
  const out = {};
  for (const name of Object.keys(KEPT)) if (person[name] !== DEFAULTS[name]) out[name] = person[name];
  return out;
}

/** Saves the settings (localStorage) and puts them in the URL's fragment; the data never goes there. */
export function keepSettings() {
  const changed = changedSettings();
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify(changed));
  } catch { /* storage refused (private mode, a full quota): the fragment still carries them */ }
  // Commas, brackets, =, @ and : stay readable (P_5,rbp(p=0.9),nDCG@10,ranx:hits@5): a value
  // ends only at &.
  const fragment = new URLSearchParams(changed).toString()
    .replace(/%2C/gi, ",").replace(/%28/gi, "(").replace(/%29/gi, ")").replace(/%3D/gi, "=").replace(/%40/gi, "@")
    .replace(/%3A/gi, ":");
  const url = new URL(location.href);
  url.hash = fragment;
  if (url.href !== location.href) history.replaceState(history.state, "", fragment ? url.href : url.pathname + url.search);
}

/** Restores the settings: the URL's fragment first, else what this browser saved last time. */
export function restoreSettings() {
  let saved = {};
  const hash = location.hash.slice(1);
  const params = new URLSearchParams(hash);
  if (hash && [...params.keys()].some((key) => key in KEPT)) {
    saved = Object.fromEntries(params);
  } else {
    try {
      saved = JSON.parse(localStorage.getItem(STORE_KEY) || "{}") || {};
    } catch { saved = {}; }
  }
  for (const [name, value] of Object.entries(saved)) {
    if (name in KEPT && typeof value === "string") KEPT[name].set(value);
  }
  countHiddenChanges();
}

function changed(delay) {
  drawChips();
  countHiddenChanges();
  keepSettings();
  edited(delay);
}

/** Wires the settings' events: `edited(delay)` schedules a score. */
export function initSettings({ edited: onEdit }) {
  edited = onEdit;
  settings.k.addEventListener("input", () => changed());
  settings.threshold.addEventListener("input", () => changed());
  settings.extra.addEventListener("input", () => changed());
  for (const el of [settings.gain, settings.missing, settings.zeroDivision, settings.ties, settings.thirdColumn, settings.baselineThirdColumn]) {
    el.addEventListener("change", () => changed(0));
  }
  initMeasureChooser({ boxes: () => settings.metrics, extra: settings.extra, changed: () => changed(0) });
  for (const id of ["more-settings", "all-measures"]) {
    document.querySelector(`[aria-controls="${id}"]`).addEventListener("click", () => {
      showPanel(id, !panelOpen(id));
      keepSettings();
    });
  }
  window.addEventListener("hashchange", () => {
    restoreSettings();
    edited(0);
  });
}
