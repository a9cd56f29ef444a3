// Why the report on the page is not of what the boxes hold, in one set of words for every mode
// (the rankings report and the Answers report): an edit is being scored ("pending"), the person
// pressed Stop ("stopped", with a "Score again" button), or a setting cannot be used
// ("options"). The report stays on screen, marked, and offers no file until it is current.

import { el } from "./dom.js";

export const STALE = {
  pending: "Not current: the boxes or settings changed since these scores, and the new ones are on their way.",
  stopped: "Stopped. These scores are of the earlier input, not of what the boxes and settings hold now.",
  options: "These are the scores for the last settings that worked; fix the setting marked above and they update.",
};

// The title of a download button while the report is marked.
export const STALE_DOWNLOAD = {
  pending: "The results are being updated: the files are of the results shown once they are current",
  stopped: "These results are not of the boxes' content: score again to download",
  options: "Fix the setting marked above: the files are of the results shown once it works",
};

// Said in place of the report when Stop came before any scores were drawn.
const STOPPED_EMPTY = "Stopped before the scores were ready.";

function scoreAgainButton(again, testid) {
  const button = el("button", { type: "button", class: "button small", "data-testid": testid, text: "Score again" });
  button.addEventListener("click", again);
  return button;
}

/** Fills `note` with the words of `state` ("current" hides it); a stopped note gets a "Score
 * again" button that calls `again()`. */
export function drawStaleNote(note, state, again, testid = "score-again") {
  note.hidden = state === "current";
  if (note.hidden) return;
  note.replaceChildren(STALE[state]);
  if (state === "stopped") note.append(" ", scoreAgainButton(again, testid));
}

/** Puts the stopped words and "Score again" into the empty message (no report was shown yet). */
export function drawStoppedEmpty(empty, again, testid = "score-again") {
  empty.replaceChildren(`${STOPPED_EMPTY} `, scoreAgainButton(again, testid));
}
