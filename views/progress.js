// The status line (loading / ready / failed) and the progress bar shown while the worker computes.

import { $ } from "./dom.js";

// `fraction` (0..1): how much of the runtime has arrived, shown as a bar beside the words while
// it loads (the words say the amount: "4.1 of 6.3 MB").
export function setStatus(state, detail, fraction) {
  const status = $("status");
  status.textContent = state;
  status.dataset.state = state;
  $("status-dot").dataset.state = state;
  if (detail !== undefined) $("status-detail").textContent = detail;
  const bar = $("status-progress");
  if (!bar) return;
  const measured = state === "loading" && typeof fraction === "number" && Number.isFinite(fraction);
  if (measured) bar.value = fraction;
  bar.hidden = !measured;
}

// Progress: shown after a short delay so quick re-scores do not flicker; the clock shows the page
// is alive while the worker computes.
let progressTimer = 0;
let progressShowTimer = 0;
let progressStart = 0;
// `fraction` (0..1) fills the bar; without one the bar is indeterminate (the worker reads a box
// a megabyte at a time and says how far it is; scoring itself has no measure).
export function showProgress(message, delay = 0, fraction = null) {
  const box = $("progress");
  $("progress-text").textContent = message;
  const bar = $("progress-bar");
  if (typeof fraction === "number" && Number.isFinite(fraction)) {
    bar.value = fraction;
    box.dataset.fraction = String(fraction);
  } else {
    bar.removeAttribute("value"); // indeterminate
    delete box.dataset.fraction;
  }
  if (!box.hidden || progressShowTimer) return;
  progressStart = performance.now();
  const reveal = () => {
    progressShowTimer = 0;
    box.hidden = false;
    $("results").setAttribute("aria-busy", "true");
    clearInterval(progressTimer);
    progressTimer = setInterval(() => {
      const s = (performance.now() - progressStart) / 1000;
      $("progress-clock").textContent = s >= 1 ? `${s.toFixed(1)} s` : "";
    }, 100);
  };
  if (delay) progressShowTimer = setTimeout(reveal, delay);
  else reveal();
}
export function hideProgress() {
  clearTimeout(progressShowTimer);
  progressShowTimer = 0;
  clearInterval(progressTimer);
  $("progress").hidden = true;
  $("progress-clock").textContent = "";
  $("results").removeAttribute("aria-busy");
}

