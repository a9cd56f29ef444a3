// The settings row: cutoffs k, gain, missing queries, metrics, the run's third column, and the
// error shown when a setting cannot be used.

import { $ } from "./dom.js";

export const settings = {
  k: $("k"), gain: $("gain"), missing: $("missing"), thirdColumn: $("third-column"),
  baselineThirdColumn: $("baseline-third-column"),
  optionsError: $("options-error"), examples: $("examples"),
  metrics: [...document.querySelectorAll('[data-testid=metrics-chooser] input[name=metric]')],
};

/** The options the worker is sent (`formats`: the format chosen for each box). */
export function settingsOptions(formats) {
  return {
    k: settings.k.value.trim(),
    gain: settings.gain.value,
    missing: settings.missing.value,
    metrics: settings.metrics.filter((box) => box.checked).map((box) => box.value),
    qrels_format: formats.qrels,
    run_format: formats.run,
    third_column: settings.thirdColumn.value,
    baseline_format: formats.baseline,
    baseline_third_column: settings.baselineThirdColumn.value,
  };
}

/** Shows the engine's error about a setting (or hides it when `error` is null). */
export function renderOptionsError(error) {
  settings.optionsError.hidden = !error;
  settings.optionsError.textContent = error ? error.message : "";
  settings.k.setAttribute("aria-invalid", error && error.field === "k" ? "true" : "false");
}

/** Wires the settings' events: `edited(delay)` schedules a score. */
export function initSettings({ edited }) {
  settings.k.addEventListener("input", () => edited());
  for (const el of [settings.gain, settings.missing, settings.thirdColumn, settings.baselineThirdColumn, ...settings.metrics]) {
    el.addEventListener("change", () => edited(0));
  }
}
