// The mode switch at the top of the page: Rankings (judgements + results) or Answers (references +
// answers). Each mode has its own <main>; the address keeps the mode (#mode=answers, beside the
// rankings' settings that views/settings.js keeps there; a bare #answers works too) so a reload
// or a bookmark opens the same one.

import { $ } from "./dom.js";

const TAGLINES = {
  answers: "Exact match, token F1, ANLS and edit similarity of generated answers against reference answers. " +
    "Computed in this browser tab; nothing is uploaded.",
};
const FOOTERS = {
  answers: "Answers: each item counts its best reference; lengths and edit distances count Unicode code points. ",
};
const state = { mode: "rankings", changed: (mode) => {} };

export function currentMode() {
  return state.mode;
}

function tabs() {
  return [...document.querySelectorAll("[data-mode-tab]")];
}

function modeFromHash() {
  const hash = location.hash.slice(1);
  if (hash === "answers" || hash === "rankings") return hash;
  const mode = new URLSearchParams(hash).get("mode");
  return mode === "answers" || mode === "rankings" ? mode : null;
}

/** The address with the mode set in its fragment, the other parameters kept. */
function addressWith(mode) {
  const params = new URLSearchParams(location.hash.slice(1));
  params.delete("answers");
  params.delete("rankings");
  if (mode === "answers") params.set("mode", "answers");
  else params.delete("mode");
  const fragment = params.toString().replace(/%2C/g, ",");
  return fragment ? `#${fragment}` : location.pathname + location.search;
}

/** Shows one mode; `remember` writes it into the address (without adding a history entry). */
export function setMode(mode, { remember = true } = {}) {
  if (mode !== "answers") mode = "rankings";
  const changed = mode !== state.mode;
  state.mode = mode;
  for (const tab of tabs()) tab.setAttribute("aria-pressed", tab.dataset.modeTab === mode ? "true" : "false");
  for (const main of document.querySelectorAll("main[data-mode]")) main.hidden = main.dataset.mode !== mode;
  const tagline = document.querySelector(".tagline");
  if (tagline) {
    tagline.dataset.rankings ??= tagline.textContent;
    tagline.textContent = TAGLINES[mode] || tagline.dataset.rankings;
  }
  // The footer's first sentences (before "Runs in Pyodide ...") are about rankings.
  const intro = document.querySelector(".footer p")?.firstChild;
  if (intro && intro.nodeType === Node.TEXT_NODE) {
    intro.rankings ??= intro.textContent;
    intro.textContent = FOOTERS[mode] ? `${FOOTERS[mode]}Runs in ` : intro.rankings;
  }
  if (remember && (modeFromHash() || "rankings") !== mode) history.replaceState(history.state, "", addressWith(mode));
  if (changed) state.changed(mode);
}

/** Wires the two toggle buttons; `changed(mode)` hears every switch (the starting mode is set
 * before it is wired). */
export function initModes({ changed }) {
  setMode(modeFromHash() || "rankings", { remember: false });
  state.changed = changed;
  for (const tab of tabs()) tab.addEventListener("click", () => setMode(tab.dataset.modeTab));
  window.addEventListener("hashchange", () => {
    const mode = modeFromHash();
    if (mode) setMode(mode, { remember: false });
  });
}

export const modeMain = (mode) => $(`${mode}-main`);
