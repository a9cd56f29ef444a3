// The settings row: cutoffs k, gain, missing queries, metrics, the relevance threshold, queries
// with no relevant document, the run's third column; the error shown by the setting that cannot be
// used; and the settings kept across reloads (localStorage) and carried in the URL's fragment
// (#k=1,5,10&gain=exponential: the settings only, never the data).

import { $, clip } from "./dom.js";

export const settings = {
  k: $("k"), gain: $("gain"), missing: $("missing"), thirdColumn: $("third-column"),
  baselineThirdColumn: $("baseline-third-column"),
  threshold: $("relevance-threshold"), zeroDivision: $("zero-division"),
  optionsError: $("options-error"), examples: $("examples"),
  metrics: [...document.querySelectorAll('[data-testid=metrics-chooser] input[name=metric]')],
};

const STORE_KEY = "retrieval-metrics:settings";
// The settings that persist, by their short name in the fragment.
const KEPT = {
  k: { get: () => settings.k.value.trim(), set: (v) => { settings.k.value = v; } },
  gain: { get: () => settings.gain.value, set: (v) => setSelect(settings.gain, v) },
  missing: { get: () => settings.missing.value, set: (v) => setSelect(settings.missing, v) },
  metrics: {
    get: () => settings.metrics.filter((box) => box.checked).map((box) => box.value).join(","),
    set: (v) => {
      const chosen = new Set(v.split(",").filter(Boolean));
      if (!settings.metrics.some((box) => chosen.has(box.value))) return;
      for (const box of settings.metrics) box.checked = chosen.has(box.value);
    },
  },
  relevance: { get: () => settings.threshold.value.trim(), set: (v) => { if (/^-?\d+$/.test(v)) settings.threshold.value = v; } },
  zero_division: { get: () => settings.zeroDivision.value, set: (v) => setSelect(settings.zeroDivision, v) },
};
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
    metrics: settings.metrics.filter((box) => box.checked).map((box) => box.value),
    relevance_threshold: /^[+-]?\d+$/.test(threshold) ? Number(threshold) : threshold,
    zero_division: settings.zeroDivision.value,
    qrels_format: formats.qrels,
    run_format: formats.run,
    third_column: settings.thirdColumn.value,
    baseline_format: formats.baseline,
    baseline_third_column: settings.baselineThirdColumn.value,
  };
}

// An error about one setting is shown under that setting; any other under the settings row.
const FIELD_ERRORS = { k: [settings.k, "k-error"], relevance_threshold: [settings.threshold, "threshold-error"] };

/** Shows the engine's error about a setting (or hides every one when `error` is null). */
export function renderOptionsError(error) {
  const field = error && FIELD_ERRORS[error.field] ? error.field : null;
  for (const [name, [input, id]] of Object.entries(FIELD_ERRORS)) {
    const mine = field === name;
    $(id).hidden = !mine;
    $(id).textContent = mine ? clip(error.message) : "";
    input.setAttribute("aria-invalid", mine ? "true" : "false");
  }
  const general = error && !field;
  settings.optionsError.hidden = !general;
  settings.optionsError.textContent = general ? clip(error.message) : "";
}

/** The persisted settings that differ from the page's defaults, as {name: text}. */
function changedSettings() {
  const out = {};
  for (const [name, s] of Object.entries(KEPT)) if (s.get() !== DEFAULTS[name]) out[name] = s.get();
  return out;
}

/** Saves the settings (localStorage) and puts them in the URL's fragment; the data never goes there. */
export function keepSettings() {
  const changed = changedSettings();
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify(changed));
  } catch { /* storage refused (private mode, a full quota): the fragment still carries them */ }
  const fragment = new URLSearchParams(changed).toString().replace(/%2C/g, ",");
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
}

/** Wires the settings' events: `edited(delay)` schedules a score. */
export function initSettings({ edited }) {
  const changed = (delay) => {
    keepSettings();
    edited(delay);
  };
  settings.k.addEventListener("input", () => changed());
  settings.threshold.addEventListener("input", () => changed());
  for (const el of [settings.gain, settings.missing, settings.zeroDivision, settings.thirdColumn, settings.baselineThirdColumn, ...settings.metrics]) {
    el.addEventListener("change", () => changed(0));
  }
  window.addEventListener("hashchange", () => {
    restoreSettings();
    edited(0);
  });
}
