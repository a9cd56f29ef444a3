// The measure chooser people see: the chosen measures as removable chips, the few measures most
// reports add as one-click suggestions, and a filter (an ARIA combobox) over every measure of the
// engine's catalogue by name, label, definition and other tools' spellings. Whatever the filter
// cannot place in the catalogue (ndcg_cut_10, ranx:hits@5) is offered as written, as a -m name
// for the engine to read. The registry's groups of checkboxes (views/settings.js) stay the one
// state: ticking, a chip's removal and the filter all act on them or on the -m text field.

import { $, el } from "./dom.js";
import { infoButton } from "./explain.js";
import { splitMetrics } from "./metric-names.js";

// The measures most reports add to the defaults, offered one click away (catalogue values).
const SUGGESTED = ["map", "hit_rate", "rprec", "bpref"];
const MAX_OPTIONS = 8;

const state = {
  catalogue: [],
  boxes: () => [], // the chooser's checkboxes (views/settings.js)
  extra: null, // the -m text field
  changed: () => {},
  open: false, // the list is shown (with "no match" when it offers nothing)
  options: [], // what the open list offers: {entry} or {written}
  active: -1,
};

/** A catalogue entry as the chips and the list show it: MRR@k for a measure at every cutoff. */
const shownLabel = (entry) => entry.label + (entry.cutoff === "required" ? "@k" : "");

/** Wires the chooser to the checkboxes and the -m field; `changed()` when the choice changes. */
export function initMeasureChooser({ boxes, extra, changed }) {
  Object.assign(state, { boxes, extra, changed });
  const input = $("metric-filter");
  input.addEventListener("input", () => openList(input.value));
  input.addEventListener("focus", () => { if (input.value.trim()) openList(input.value); });
  input.addEventListener("keydown", onKey);
  input.addEventListener("blur", () => setTimeout(() => { if (document.activeElement !== input) closeList(); }, 0));
}

/** Takes the engine's catalogue (drawn by views/settings.js) and draws the chips. */
export function setChooserCatalogue(catalogue) {
  state.catalogue = catalogue;
  const button = $("all-measures-button");
  button.textContent = `All ${catalogue.length} measures`;
  drawChips();
}

/** Redraws the chips and suggestions from the checkboxes and the -m field (views/settings.js
 * calls it on every change of the settings). */
export function drawChips() {
  if (!state.extra) return; // not wired yet
  const chips = [];
  const byValue = new Map(state.catalogue.map((m) => [m.value, m]));
  for (const box of state.boxes()) {
    if (!box.checked) continue;
    const entry = byValue.get(box.value);
    const label = entry ? shownLabel(entry) : box.value;
    chips.push(chip(label, box.value, () => { box.checked = false; }));
  }
  for (const name of splitMetrics(state.extra.value)) {
    chips.push(chip(name, null, () => {
      state.extra.value = splitMetrics(state.extra.value).filter((n) => n !== name).join(", ");
    }));
  }
  $("metric-chips").replaceChildren(...chips);
  const suggestions = SUGGESTED.map((value) => state.boxes().find((box) => box.value === value))
    .filter((box) => box && !box.checked && byValue.has(box.value))
    .map((box) => {
      const entry = byValue.get(box.value);
      const button = el("button", { type: "button", class: "button quiet small suggestion", "data-testid": `suggest-${box.value}`,
        "aria-label": `Add ${entry.label}`, title: entry.description || undefined, text: `+ ${entry.label}` });
      button.addEventListener("click", () => {
        box.checked = true;
        state.changed();
        $("metric-filter").focus();
      });
      return button;
    });
  $("metric-suggestions").replaceChildren(...suggestions);
}

function chip(label, value, remove) {
  const button = el("button", { type: "button", class: "chip-remove", "aria-label": `Remove ${label}`, title: `Remove ${label}`, text: "×" });
  button.addEventListener("click", () => {
    const list = $("metric-chips");
    const index = [...list.children].indexOf(button.closest("li"));
    remove();
    state.changed(); // redraws the chips
    // The focus goes to the chip now in its place (the next one, else the previous), else to
    // the filter.
    const near = list.children[Math.min(index, list.children.length - 1)];
    (near?.querySelector(".chip-remove") || $("metric-filter")).focus();
  });
  const info = value ? infoButton(value) : null;
  return el("li", { class: "chip", "data-testid": `chip-${value || label}` },
    el("span", { class: "chip-label", text: label }), ...(info ? [info] : []), button);
}

// ---- the filter -------------------------------------------------------------------------------

const fold = (text) => String(text || "").toLowerCase().replace(/[^a-z0-9@:.]+/g, "");

/** The catalogue entries that match `query`, best first: an exact name, then a name or label that
 * starts with it, then one that contains it, then the definitions. */
function matches(query, catalogue) {
  const q = fold(query);
  if (!q) return [];
  const ranked = [];
  for (const m of catalogue) {
    const names = [m.value, m.label, ...Object.values(m.names || {})].map(fold);
    const trec = m.trec_eval ? fold(m.trec_eval) : "";
    const trecPattern = trec && trec.endsWith("k") ? new RegExp(`^${trec.slice(0, -1).replace(/[.]/g, "\\.")}\\d+$`) : null;
    let rank = -1;
    if (names.includes(q) || trec === q) rank = 0;
    else if (trecPattern?.test(q)) rank = 1;
    else if (names.some((n) => n.startsWith(q)) || trec.startsWith(q)) rank = 2;
    else if (names.some((n) => n.includes(q)) || trec.includes(q)) rank = 3;
    else if (fold(m.description).includes(q)) rank = 4;
    if (rank >= 0) ranked.push([rank, ranked.length, m]);
  }
  ranked.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return ranked.map((r) => r[2]);
}

function openList(text) {
  state.open = true;
  const query = text.trim();
  const found = matches(query, state.catalogue).slice(0, MAX_OPTIONS);
  const exact = found.some((m) => m.value === query);
  // A name the catalogue does not hold as such (a cutoff, parameters, a tool's prefix) is
  // offered as written: the engine reads it as -m does, and says so if it cannot.
  const written = query && !exact && !/\s/.test(query) && (/[\d@:(_=]/.test(query) || !found.length);
  state.options = [...(written ? [{ written: query }] : []), ...found.map((entry) => ({ entry }))];
  state.active = state.options.length ? 0 : -1;
  drawList();
}

function drawList() {
  const list = $("metric-options");
  const input = $("metric-filter");
  const chosen = new Set(state.boxes().filter((b) => b.checked).map((b) => b.value));
  const items = state.options.map((option, i) => {
    const id = `metric-option-${i}`;
    let main;
    let detail;
    if (option.written) {
      main = `Add “${option.written}” as written`;
      detail = "read as the command line's -m reads it";
    } else {
      const m = option.entry;
      main = shownLabel(m) + (chosen.has(m.value) ? " (chosen)" : "");
      const names = [m.trec_eval && `trec_eval ${m.trec_eval}`, ...Object.entries(m.names || {}).map(([tool, n]) => `${tool} ${n}`)];
      detail = [m.description, names.filter(Boolean).join(", ")].filter(Boolean).join(" · ");
    }
    const item = el("li", { id, role: "option", class: "measure-option", "aria-selected": String(i === state.active), "data-testid": option.written ? "metric-option-written" : `metric-option-${option.entry.value}` },
      el("span", { class: "option-main", text: main }), el("span", { class: "option-detail", text: detail }));
    item.addEventListener("mousedown", (e) => e.preventDefault()); // the filter keeps the focus
    item.addEventListener("click", () => choose(i));
    return item;
  });
  if (!items.length && state.open && input.value.trim()) {
    items.push(el("li", { class: "measure-option empty", role: "option", "aria-disabled": "true", "aria-selected": "false", id: "metric-option-none", text: "No measure matches; try a trec_eval or ir_measures name" }));
  }
  list.replaceChildren(...items);
  const open = items.length > 0;
  list.hidden = !open;
  input.setAttribute("aria-expanded", String(open));
  if (state.active >= 0) {
    input.setAttribute("aria-activedescendant", `metric-option-${state.active}`);
    list.children[state.active]?.scrollIntoView?.({ block: "nearest" });
  } else {
    input.removeAttribute("aria-activedescendant");
  }
}

function closeList() {
  state.open = false;
  state.options = [];
  state.active = -1;
  drawList();
}

function choose(i) {
  const option = state.options[i];
  if (!option) return;
  if (option.written) {
    const names = splitMetrics(state.extra.value);
    if (!names.includes(option.written)) state.extra.value = [...names, option.written].join(", ");
  } else {
    const box = state.boxes().find((b) => b.value === option.entry.value);
    if (box) box.checked = true;
  }
  $("metric-filter").value = "";
  closeList();
  state.changed();
}

function onKey(e) {
  const n = state.options.length;
  if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    e.preventDefault();
    if (!n) {
      openList(e.target.value);
      return;
    }
    state.active = e.key === "ArrowDown" ? (state.active + 1) % n : (state.active - 1 + n) % n;
    drawList();
  } else if (e.key === "Enter") {
    if (state.active >= 0) {
      e.preventDefault();
      choose(state.active);
    }
  } else if (e.key === "Escape") {
    if (n) {
      e.preventDefault();
      closeList();
    } else if (e.target.value) {
      e.target.value = "";
    }
  }
}
