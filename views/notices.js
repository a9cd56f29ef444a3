// The list of notices (warnings and notes) the engine reports about the input.

import { $, clip, disclosure, el, nf } from "./dom.js";

/** `nouns`: what the listed ids are, one and many ("query"/"queries"; the Answers mode's "item"/"items"). */
export function renderNotices(notices, list = $("notices"), nouns = ["query", "queries"]) {
  list.replaceChildren();
  if (!notices.length) {
    list.append(el("li", { class: "notice none", text: "Nothing to report: every line was read and used." }));
    return;
  }
  for (const notice of notices) {
    const item = el("li", { class: `notice ${notice.level === "warning" ? "warning" : "info"}`, "data-code": notice.code });
    item.append(el("span", { class: "notice-level", text: notice.level === "warning" ? "Warning" : "Note" }));
    item.append(el("span", { class: "notice-message", text: clip(notice.message, 2000) }));
    const queries = notice.queries || [];
    if (queries.length) {
      const shown = queries.slice(0, 50);
      const ids = el("p", { class: "ids" });
      shown.forEach((q, i) => {
        if (i) ids.append(", ");
        ids.append(el("code", { text: clip(q, 200) }));
      });
      if (notice.count > shown.length) ids.append(` and ${nf.format(notice.count - shown.length)} more`);
      item.append(disclosure("notice-queries", `which ${queries.length === 1 ? nouns[0] : nouns[1]}`, ids));
    }
    list.append(item);
  }
}
