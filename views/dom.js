// Small helpers every view shares: element lookup and creation (text only ever set as textContent,
// never parsed as HTML), number formatting and the metric names shown on the page.

export const $ = (id) => document.getElementById(id);
export const nf = new Intl.NumberFormat("en-US");

// The engine's catalogue of measures (web.measures(): the chooser's entries), kept once for every
// view: measure name -> {value, label, group, description, trec_eval, ...}.
const CATALOGUE = new Map();
const KEY_NAME = /^([^@(]+)(.*)$/; // a report key: its measure's name, then parameters and cutoff

/** Takes the engine's catalogue ([{value, label, ...}]). */
export function setCatalogue(catalogue) {
  CATALOGUE.clear();
  for (const m of catalogue || []) CATALOGUE.set(m.value, m);
}

/** The catalogue entry of a measure name or report key ("ndcg@10" -> ndcg's), or undefined. */
export function measureEntry(key) {
  const match = KEY_NAME.exec(String(key));
  return CATALOGUE.get(String(key)) || (match ? CATALOGUE.get(match[1]) : undefined);
}

/** How many lines a text has (a last line without a newline counts). */
export function countLines(text) {
  if (!text) return 0;
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n : n + 1;
}

function lineEnds(bytes) {
  let n = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) n++;
  return n;
}

const unendedLine = (bytes) => (bytes.length && bytes[bytes.length - 1] !== 10 ? 1 : 0);

/** How many lines a file's bytes have (a last line without a line end counts). */
export function countByteLines(bytes) {
  return lineEnds(bytes) + unendedLine(bytes);
}

/** countByteLines of a large file's bytes, 8 MB at a time with a pause between, so that
 * counting never holds the page (a 287 MB file takes about 0.4 s). */
export async function countByteLinesInSlices(bytes) {
  const SLICE = 8 << 20;
  let n = 0;
  for (let start = 0; start < bytes.length; start += SLICE) {
    n += lineEnds(bytes.subarray(start, Math.min(bytes.length, start + SLICE)));
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return n + unendedLine(bytes);
}

/** A size in bytes as a person reads it: "512 B", "3.4 kB", "257.0 MB". */
export function formatBytes(n) {
  if (n < 1e3) return `${n} B`;
  if (n < 1e6) return `${(n / 1e3).toFixed(1)} kB`;
  return `${(n / 1e6).toFixed(1)} MB`;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("data-") || key.startsWith("aria-") || key === "scope" || key === "title") node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

/** An SVG element: every attribute set as it is, `text` as its text (never parsed). */
export function svg(tag, attrs = {}, text) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs)) if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Text from the engine, cut to `limit` characters: a megabyte-long id in the DOM freezes layout. */
export function clip(text, limit = 500) {
  const s = String(text ?? "");
  return s.length <= limit ? s : `${s.slice(0, limit - 1)}…`;
}


/** A report key as the page shows it: the catalogue's label of its measure with the key's own
 * parameters and cutoff ("nDCG@10", "RBP(p=0.9)"), or the key itself when the catalogue does
 * not name its measure ("iprec_at_recall_0.10").
 * `names` overrides labels (the per-query table calls MRR@k's column RR@k). */
export function metricLabel(key, names = null) {
  const match = KEY_NAME.exec(key);
  const label = match && (names?.[match[1]] ?? CATALOGUE.get(match[1])?.label);
  return label ? label + match[2] : key;
}

export function fmt(value) {
  return typeof value === "number" && Number.isFinite(value) ? value.toFixed(4) : "—";
}

/** The report's keys (its own order). */
export function reportKeys(report) {
  return report.keys || Object.keys(report.mean || {});
}

/**
 * A report's keys as the page lays them out: `grid`, the measures computed at every cutoff k of
 * the report (one row each: {name, keys: [one per k]}), and `other`, every other key (a name
 * with its own cutoff such as P_5 -> precision@5, one without any such as bpref, parameters).
 */
export function layoutKeys(report) {
  const keys = reportKeys(report);
  const ks = report.k || [];
  const byName = new Map();
  for (const key of keys) {
    const match = /^([^@(]+)@(\d+)$/.exec(key);
    if (!match) continue;
    if (!byName.has(match[1])) byName.set(match[1], new Map());
    byName.get(match[1]).set(Number(match[2]), key);
  }
  const grid = [];
  const inGrid = new Set();
  for (const [name, at] of byName) {
    if (!ks.length || !ks.every((k) => at.has(k))) continue;
    grid.push({ name, keys: ks.map((k) => at.get(k)) });
    for (const k of ks) inGrid.add(at.get(k));
  }
  return { grid, other: keys.filter((key) => !inGrid.has(key)) };
}

/**
 * Makes every `.table-scroll` wrapper that is narrower than its table a labelled, focusable
 * region (so keyboard users can scroll it) with a visible cue beside it; re-checked whenever the
 * wrapper or its table changes size.
 */
export function watchScrollRegions() {
  const check = (wrap) => {
    const overflows = wrap.scrollWidth > wrap.clientWidth + 1;
    const scrolls = overflows || wrap.scrollHeight > wrap.clientHeight + 1;
    wrap.classList.toggle("overflows", overflows);
    if (scrolls) {
      wrap.tabIndex = 0;
      wrap.setAttribute("role", "region");
      wrap.setAttribute("aria-label", `${wrap.dataset.label || "Table"}${overflows ? ", scrolls sideways" : ", scrolls"}`);
    } else {
      wrap.removeAttribute("tabindex");
      wrap.removeAttribute("role");
      wrap.removeAttribute("aria-label");
    }
    let hint = wrap.nextElementSibling;
    if (!hint || !hint.classList.contains("scroll-hint")) {
      hint = el("p", { class: "scroll-hint", "aria-hidden": "true", text: "More columns to the right: scroll the table sideways →" });
      wrap.after(hint);
    }
    hint.hidden = !overflows || wrap.hidden;
    const atEnd = wrap.scrollLeft + wrap.clientWidth >= wrap.scrollWidth - 2;
    hint.textContent = atEnd ? "← More columns to the left: scroll the table back" : "More columns to the right: scroll the table sideways →";
    if (!wrap.dataset.watched) {
      wrap.dataset.watched = "1";
      wrap.addEventListener("scroll", () => check(wrap), { passive: true });
    }
  };
  const wraps = [...document.querySelectorAll(".table-scroll")];
  if (typeof ResizeObserver === "undefined") return () => wraps.forEach(check);
  const observer = new ResizeObserver((entries) => {
    for (const entry of entries) check(entry.target.closest(".table-scroll"));
  });
  for (const wrap of wraps) {
    observer.observe(wrap);
    const table = wrap.querySelector("table");
    if (table) observer.observe(table);
  }
  return () => wraps.forEach(check);
}

/**
 * A disclosure ("Show as a table", "which queries"): a button (aria-expanded, aria-controls) and the block it shows.
 * Not a <details>: Chromium lays a closed <details>'s content out as a display-locked subtree, and
 * while one is on the page, replacing the selected text of a big box (1,500 queries, 350 kB) took
 * 10-15 s instead of 0.3 s (measured in Chromium 156). A `hidden` block costs nothing.
 */
export function disclosure(className, label, content) {
  content.hidden = true;
  const button = el("button", { type: "button", class: "disclosure", "aria-expanded": "false", text: label });
  if (content.id) button.setAttribute("aria-controls", content.id);
  button.addEventListener("click", () => setDisclosure(button.parentNode, content.hidden));
  return el("div", { class: `${className} disclosure-wrap` }, button, content);
}

/** Opens (or closes) a disclosure() block. */
export function setDisclosure(wrap, open) {
  wrap.querySelector(":scope > .disclosure").setAttribute("aria-expanded", String(open));
  wrap.lastElementChild.hidden = !open;
}

/**
 * Makes `zone` a drop target: `onFiles(files)` for dropped files, `onText(text)` (optional) for
 * dropped text. The outline shows while something is dragged over it, and the drop never reaches
 * the page (the browser would navigate to the file).
 */
export function acceptDrops(zone, onFiles, onText = null) {
  zone.addEventListener("dragenter", (e) => { e.preventDefault(); zone.classList.add("dragging"); });
  zone.addEventListener("dragover", (e) => {
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = "copy";
    zone.classList.add("dragging");
  });
  zone.addEventListener("dragleave", (e) => {
    if (!zone.contains(e.relatedTarget)) zone.classList.remove("dragging");
  });
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    e.stopPropagation();
    zone.classList.remove("dragging");
    const dt = e.dataTransfer;
    if (dt && dt.files && dt.files.length) onFiles([...dt.files]);
    else if (dt && onText) {
      const text = dt.getData("text/plain");
      if (text) onText(text);
    }
  });
}
