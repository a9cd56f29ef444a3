// The three input boxes (judgements, results, baseline): text, files dropped or chosen, the preview
// of a large file, the line-level errors under each box and what was detected in it.

import { $, acceptDrops, clip, countByteLinesInSlices, countLines, el, formatBytes, nf } from "./dom.js";

// A file this large keeps only its bytes (the engine reads those): its text is decoded only if
// something asks for it (the Edit button, the many-runs box), never on the way to the scores.
const LAZY_TEXT_BYTES = 32 << 20;
const BIG_FILE = 2_000_000; // characters: above this a file is kept out of the text box (preview only)
const LONG_LINE = 10_000; // characters: one line this long is slow for the box to lay out, so also preview only
const PREVIEW_LINES = 200;
const PREVIEW_CHARS = 20_000; // the preview stops at whichever of these comes first

// Set by initInputs: what the coordinator does when the text of a box changes.
const hooks = { edited: (delay) => {}, replaced: () => {} };

export const boxes = {};
for (const name of ["qrels", "run", "baseline"]) {
  boxes[name] = {
    name,
    root: $(`${name}-box`),
    textarea: $(`${name}-input`),
    format: $(`${name}-format`),
    file: $(`${name}-file`),
    detected: $(`${name}-detected`),
    error: $(`${name}-error`),
    bigNote: $(`${name}-big`),
    big: null, // {name, text, lines, shown, size?} when a large file is loaded (text: decoded when read)
    bytes: null, // a file's own bytes, sent to the engine (not the text) until the box is edited
    picked: null, // the File those bytes were read from (sent and kept as that File: see fileOf)
    fileName: null, // where the text came from, for the downloads' meta
    localError: null, // an error found before the engine saw the text (an empty file)
  };
}

export function boxText(box) {
  return box.big ? box.big.text : box.textarea.value;
}

/** The text to put back in a box later (Undo, an example's Back, the kept boxes): null for a
 * large file's bytes, whose text is not decoded (setBoxText(box, null, name, bytes) reads them
 * again); any other box's text (a gzip or UTF-16 file's decoded text, which its bytes are not). */
export function textToRestore(box) {
  return box.big?.size !== undefined ? null : boxText(box);
}

/** Whether a box holds nothing but spaces, without decoding a large file's text. */
export function boxBlank(box) {
  return box.big ? false : blank(box.textarea.value);
}

/** A box's size (characters, or a large file's bytes), without decoding its text. */
export function boxSize(box) {
  return box.big ? (box.big.size ?? box.big.text.length) : box.textarea.value.length;
}

/** Whether a file's bytes hold anything but spaces and line ends (stops at the first that is). */
function hasContent(bytes) {
  return bytes.findIndex((b) => b !== 32 && b !== 10 && b !== 13 && b !== 9) !== -1;
}

export function blank(text) {
  return !/\S/.test(text);
}

/** True when the text is too large, or has a line too long, for the text box to hold it quickly. */
export function tooBigForTheBox(text) {
  if (text.length > BIG_FILE) return true;
  if (text.length <= LONG_LINE) return false;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    if (end - start > LONG_LINE) return true;
    start = end + 1;
  }
  return false;
}

/** The first PREVIEW_LINES lines, at most PREVIEW_CHARS characters; {text, cutInLine}. */
function preview(text) {
  let cut = -1;
  for (let i = 0; i < PREVIEW_LINES; i++) {
    const next = text.indexOf("\n", cut + 1);
    if (next === -1 || next > PREVIEW_CHARS) {
      cut = -1;
      break;
    }
    cut = next;
  }
  if (cut !== -1) return { text: text.slice(0, cut), cutInLine: false };
  if (text.length <= PREVIEW_CHARS) return { text, cutInLine: false };
  // Stop at the last line end inside the limit, or inside the line when the first is longer.
  const lastBreak = text.lastIndexOf("\n", PREVIEW_CHARS);
  return lastBreak > 0 ? { text: text.slice(0, lastBreak), cutInLine: false } : { text: text.slice(0, PREVIEW_CHARS), cutInLine: true };
}

export function setBoxText(box, text, fileName = null, bytes = null, file = null) {
  hideClearUndo(box);
  box.editingBig = false;
  box.localError = null;
  box.bytes = bytes;
  box.picked = bytes && file ? file : null;
  box.fileName = fileName;
  if (text === null && bytes && bytes.length >= LAZY_TEXT_BYTES) {
    // Only the head is decoded, for the preview; the rest when something reads `text`.
    let whole = null;
    const cut = bytes.lastIndexOf(10, PREVIEW_CHARS * 4);
    const head = bytesAsText(bytes.subarray(0, cut > 0 ? cut + 1 : PREVIEW_CHARS * 4));
    const big = { name: fileName || "pasted text", lines: null, shown: preview(head), size: bytes.length,
      get text() { return (whole ??= bytesAsText(bytes)); } };
    box.big = big;
    box.textarea.value = big.shown.text;
    box.textarea.readOnly = true;
    box.root.classList.add("has-big");
    renderBigNote(box, bytes.length);
    // Its lines are counted a slice at a time, so the page stays responsive meanwhile.
    countByteLinesInSlices(bytes).then((lines) => {
      if (box.big !== big) return; // replaced meanwhile
      big.lines = lines;
      renderBigNote(box, bytes.length);
    });
    return;
  }
  if (text === null) text = bytes ? bytesAsText(bytes) : "";
  if (tooBigForTheBox(text)) {
    const lines = countLines(text);
    const shown = preview(text);
    box.big = { name: fileName || "pasted text", text, lines, shown };
    box.textarea.value = shown.text;
    box.textarea.readOnly = true;
    box.root.classList.add("has-big");
    renderBigNote(box, text.length);
  } else {
    box.big = null;
    box.textarea.readOnly = false;
    box.root.classList.remove("has-big");
    box.bigNote.hidden = true;
    box.textarea.value = text;
  }
}

function renderBigNote(box, size) {
  const note = box.bigNote;
  note.replaceChildren();
  const strong = document.createElement("strong");
  strong.textContent = box.big.name;
  const { lines, shown } = box.big;
  const shownLines = countLines(shown.text);
  const part = shown.cutInLine ? `its first ${nf.format(shown.text.length)} characters`
    : `its first ${nf.format(shownLines)} line${shownLines === 1 ? "" : "s"}`;
  const counted = lines === null ? "counting its lines…" : `${nf.format(lines)} line${lines === 1 ? "" : "s"}`;
  note.append(strong, ` is loaded (${formatBytes(size)}, ${counted}). ` +
    `The box shows ${part}; all of it is scored. `);
  note.hidden = false;
  if (boxSize(box) > BIG_FILE * 5 || shown.cutInLine) return; // too long for the box to edit at all
  const edit = document.createElement("button");
  edit.type = "button";
  edit.className = "linkish";
  edit.textContent = box.big.lines > 200_000 ? "Edit the whole text (slow for a file this large)" : "Edit the whole text";
  edit.addEventListener("click", () => {
    const text = box.big.text;
    box.big = null;
    box.editingBig = true; // the person asked for it: keep the whole text in the box from now on
    box.textarea.readOnly = false;
    box.root.classList.remove("has-big");
    note.hidden = true;
    box.textarea.value = text;
    box.textarea.focus();
  });
  note.append(edit);
}

/**
 * What the first bytes of a file say it is wrapped in, as the engine reads them
 * (inputs/source.py, wrapping): "gzip" (its magic bytes), "UTF-16 LE" / "UTF-16 BE" (a
 * byte-order mark, or a zero byte beside nearly every ASCII character, as PowerShell writes
 * without one), else null.
 */
export function wrapping(head) {
  if (head[0] === 0x1f && head[1] === 0x8b) return "gzip";
  if (head[0] === 0xff && head[1] === 0xfe && !(head[2] === 0 && head[3] === 0)) return "UTF-16 LE";
  if (head[0] === 0xfe && head[1] === 0xff) return "UTF-16 BE";
  const pairs = Math.floor(Math.min(head.length, 4096) / 2);
  if (pairs < 2) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < pairs; i++) {
    if (head[2 * i] === 0) evenZeros++;
    if (head[2 * i + 1] === 0) oddZeros++;
  }
  if (oddZeros >= 0.9 * pairs && evenZeros === 0) return "UTF-16 LE";
  if (evenZeros >= 0.9 * pairs && oddZeros === 0) return "UTF-16 BE";
  return null;
}

async function gunzip(blob) {
  if (typeof DecompressionStream === "undefined") throw new Error("this browser cannot decompress gzip files; decompress it first");
  try {
    return new Uint8Array(await new Response(blob.stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
  } catch {
    throw new Error("this gzip file cannot be decompressed; is it cut short?");
  }
}

/**
 * The text of a gzip or UTF-16 file, for the box (the engine is sent the file's own bytes, and
 * decodes them itself, with a notice): `{text, steps}`, steps as the engine's ("gzip", "UTF-16 LE").
 */
async function unwrapped(blob, kind) {
  const steps = [];
  let bytes = null;
  if (kind === "gzip") {
    bytes = await gunzip(blob);
    steps.push("gzip");
    kind = wrapping(bytes.subarray(0, 4096));
  }
  if (kind && kind.startsWith("UTF-16")) {
    bytes ??= new Uint8Array(await blob.arrayBuffer());
    steps.push(kind);
    try {
      return { text: new TextDecoder(kind.endsWith("LE") ? "utf-16le" : "utf-16be", { fatal: true }).decode(bytes), steps };
    } catch {
      throw new Error(`this looks like ${kind} text, but it is not`);
    }
  }
  return { text: bytesAsText(bytes), steps };
}

/**
 * A file's (or Blob's) bytes and its text, decoded a piece at a time as it streams in, so a large
 * file never holds the main thread (file.text() decodes 10 MB in one go: about 100 ms with
 * nothing else able to run). A file that is not all UTF-8 is decoded again line by line
 * (bytesAsText); a gzip or UTF-16 file is decompressed or decoded for the box (`steps` says
 * which), never shown as its raw bytes. A plain file of LAZY_TEXT_BYTES and more comes back
 * with `text: null`: setBoxText decodes only its head (and the rest when it is read).
 */
export async function readFile(file) {
  const kind = wrapping(new Uint8Array(await file.slice(0, 4096).arrayBuffer()));
  if (kind) {
    const [bytes, { text, steps }] = await Promise.all([file.arrayBuffer().then((b) => new Uint8Array(b)), unwrapped(file, kind)]);
    return { bytes, text, steps };
  }
  if (file.size >= LAZY_TEXT_BYTES) return { bytes: new Uint8Array(await file.arrayBuffer()), text: null };
  if (file.size < 1_000_000 || !file.stream) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    return { bytes, text: bytesAsText(bytes) };
  }
  const reader = file.stream().getReader();
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const chunks = [];
  const parts = [];
  let utf8 = true;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    if (!utf8) continue;
    try {
      parts.push(decoder.decode(value, { stream: true }));
    } catch {
      utf8 = false; // not UTF-8 somewhere: the line-by-line reading below
    }
  }
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  if (utf8) {
    try {
      parts.push(decoder.decode());
      return { bytes, text: parts.join("") };
    } catch {
      // a truncated last character: read line by line
    }
  }
  return { bytes, text: bytesAsText(bytes) };
}

export async function loadFile(box, file) {
  if (!file) return;
  box.detected.textContent = `reading ${file.name}…`;
  const timings = window.__calculator.timings;
  timings.file = { start: performance.now() };
  if (box === boxes.run) hooks.fileComing?.(file.size); // the worker starts its helpers meanwhile, if it is large
  try {
    // The engine gets the file's bytes, so it reads them exactly as the CLI reads the file (a
    // line that is not UTF-8 as Windows-1252, with a warning); the box shows the same text.
    const { text, bytes } = await readFile(file);
    timings.file.read = performance.now();
    if (text === null ? !hasContent(bytes) : blank(text)) {
      box.detected.textContent = "";
      box.localError = { message: text ? `${file.name} holds only blank lines or spaces: nothing to read` : `${file.name} is empty` };
      showBoxError(box, box.localError);
      return;
    }
    setBoxText(box, text, file.name, bytes, file);
    timings.file.shown = performance.now();
    box.detected.textContent = "";
    hooks.replaced();
    hooks.edited(0, true);
  } catch (err) {
    showBoxError(box, { message: `Could not read ${file.name}: ${err.message || err}` });
  }
}

/** What the engine reads from bytes (py/retrieval_metrics/source.py, decode_bytes): UTF-8, and
 * each line that is not UTF-8 as Windows-1252 (the browser's windows-1252 is the engine's table). */
export function bytesAsText(bytes) {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    const legacy = new TextDecoder("windows-1252");
    const end = bytes.includes(10) || !bytes.includes(13) ? 10 : 13;
    const lines = [];
    let start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    while (start <= bytes.length) {
      let stop = bytes.indexOf(end, start);
      if (stop === -1) stop = bytes.length;
      const line = bytes.subarray(start, stop);
      try {
        lines.push(utf8.decode(line));
      } catch {
        lines.push(legacy.decode(line));
      }
      start = stop + 1;
    }
    return lines.join(String.fromCharCode(end));
  }
}

/** What goes to the engine for a box: a file's own bytes while unedited, else the text. */
export function boxInput(box) {
  return fileOf(box) || box.bytes || boxText(box);
}

// From this size a box's file is sent to the worker as the File it is (the worker reads its
// bytes), not as the bytes this page holds: a message's bytes are copied on this thread as it
// is sent (about a quarter of a second for a 287 MB run, with nothing else able to run).
const SEND_AS_FILE_BYTES = 4 << 20;

/** The file (a Blob) a box holds unedited, when sending or keeping it as that file saves
 * copying its bytes on this thread; else null. */
export function fileOf(box, least = SEND_AS_FILE_BYTES) {
  const { bytes, picked: file } = box;
  return bytes && file instanceof Blob && file.size === bytes.length && bytes.length >= least ? file : null;
}

// ---------------------------------------------------------------------------------------------
// Clear, with Undo: the text (and the file it came from) comes back while the note shows.

const UNDO_MS = 20_000;

/** Empties `box` (judgements, results, baseline or an Answers box); when it held anything, an
 * Undo button beside `button` puts it back (and calls `restored()`) for UNDO_MS, until the box
 * is edited or loaded again. */
export function clearWithUndo(box, button, restored) {
  const before = { text: textToRestore(box), fileName: box.fileName ?? null, bytes: box.bytes ?? null, file: box.picked ?? null };
  setBoxText(box, "");
  if (!before.bytes && blank(before.text)) return;
  offerUndo(box, button, box.name, () => {
    setBoxText(box, before.text, before.fileName, before.bytes, before.file);
    box.textarea.focus();
    restored();
  });
}

/** The "Cleared. Undo" note beside `button` for UNDO_MS (a box's, or the many-runs list's):
 * Undo calls `undo()`. `holder.clearUndo` keeps the note until `hideClearUndo(holder)` (the
 * holder was edited or loaded again, or the time is up); `name` prefixes its test ids. */
export function offerUndo(holder, button, name, undo) {
  hideClearUndo(holder);
  const again = el("button", { type: "button", class: "button small", "data-testid": `${name}-undo-clear`, text: "Undo" });
  const note = el("span", { class: "clear-undo", role: "status", "data-testid": `${name}-cleared` }, "Cleared. ", again);
  again.addEventListener("click", () => {
    hideClearUndo(holder);
    undo();
  });
  button.after(note);
  holder.clearUndo = { note, timer: setTimeout(() => hideClearUndo(holder), UNDO_MS) };
}

/** Takes the Undo away (the box or list was edited, loaded, or the time is up). */
export function hideClearUndo(box) {
  if (!box.clearUndo) return;
  clearTimeout(box.clearUndo.timer);
  box.clearUndo.note.remove();
  box.clearUndo = null;
}

export function showBoxError(box, error) {
  box.error.replaceChildren();
  box.root.classList.toggle("has-error", Boolean(error));
  if (!error) {
    box.error.hidden = true;
    return;
  }
  box.error.append(el("p", { class: "error-message", text: clip(error.message || String(error)) }));
  if (error.text) {
    const line = el("code", { class: "error-line", text: clip(error.text) });
    box.error.append(el("p", { class: "error-detail" }, el("span", { class: "error-label", text: "Line: " }), line));
  }
  if (error.expected && !(error.message || "").includes(error.expected)) {
    box.error.append(el("p", { class: "error-detail" }, el("span", { class: "error-label", text: "Expected: " }), error.expected));
  }
  if (error.line && !box.big) {
    const go = el("button", { type: "button", class: "linkish", text: `Show line ${nf.format(error.line)} in the box` });
    go.addEventListener("click", () => selectLine(box.textarea, error.line));
    box.error.append(el("p", { class: "error-detail" }, go));
  }
  box.error.hidden = false;
}

function selectLine(textarea, line) {
  const text = textarea.value;
  let start = 0;
  for (let i = 1; i < line && start !== -1; i++) start = text.indexOf("\n", start) + 1 || -1;
  if (start === -1) return;
  let end = text.indexOf("\n", start);
  if (end === -1) end = text.length;
  textarea.focus();
  textarea.setSelectionRange(start, end);
  const lineHeight = parseFloat(getComputedStyle(textarea).lineHeight) || 18;
  textarea.scrollTop = Math.max(0, (line - 3) * lineHeight);
}

export function detectedText(summary, notices, source) {
  if (!summary) return "";
  let text = summary.description || summary.label || "";
  if (source === "run") {
    const codes = new Set((notices || []).map((n) => n.code));
    if (codes.has("scores_detected") && !/score/i.test(text)) text += "; third column read as scores";
    if (codes.has("ranks_detected") && !/rank/i.test(text)) text += "; third column read as ranks";
  }
  return text;
}

/** Wires the boxes' events; `edited(delay)` schedules a score, `replaced()` forgets a loaded example. */
export function initInputs({ edited, replaced, fileComing }) {
  hooks.edited = edited;
  hooks.replaced = replaced;
  hooks.fileComing = fileComing;
  for (const box of Object.values(boxes)) {
    // A paste too large for the box goes aside (preview only) before the box has to lay it out.
    box.textarea.addEventListener("paste", (e) => {
      const pasted = e.clipboardData && e.clipboardData.getData("text/plain");
      if (!pasted || box.big || box.editingBig) return;
      const { value, selectionStart, selectionEnd } = box.textarea;
      const text = value.slice(0, selectionStart) + pasted + value.slice(selectionEnd);
      if (!tooBigForTheBox(text)) return;
      e.preventDefault();
      setBoxText(box, text, "pasted text");
      hooks.replaced();
      hooks.edited();
    });
    box.textarea.addEventListener("input", () => {
      hideClearUndo(box);
      box.localError = null;
      box.bytes = null; // edited: the text in the box is what counts now
      if (box.fileName && !box.fileName.endsWith(" (edited)")) box.fileName += " (edited)";
      // A huge paste would freeze the page while the browser lays out every line of the box:
      // keep the text aside and show a preview instead (before the next frame is drawn).
      if (!box.big && !box.editingBig && tooBigForTheBox(box.textarea.value)) {
        setBoxText(box, box.textarea.value, "pasted text");
      }
      hooks.replaced();
      hooks.edited();
    });
    box.format.addEventListener("change", () => hooks.edited(0));
    box.file.addEventListener("change", () => {
      loadFile(box, box.file.files[0]);
      box.file.value = "";
    });
    if (box === boxes.run) {
      // A person reaching for a results file (the picker opened, a file dragged over the box):
      // the worker starts a helper for a large run while they pick (worker.js, start_helpers).
      const coming = () => hooks.fileComing?.(0);
      box.file.closest("label")?.addEventListener("pointerdown", coming);
      box.file.addEventListener("click", coming);
      box.root.addEventListener("dragenter", (e) => { if (e.dataTransfer?.types?.includes("Files")) coming(); });
    }
    acceptDrops(box.root, (files) => loadFile(box, files[0]), (text) => {
      setBoxText(box, text);
      hooks.edited(0);
    });
  }
  // A file dropped beside the boxes must not make the browser navigate away from the page.
  window.addEventListener("dragover", (e) => e.preventDefault());
  window.addEventListener("drop", (e) => e.preventDefault());

  for (const button of document.querySelectorAll("[data-clear]")) {
    button.addEventListener("click", () => {
      const box = boxes[button.dataset.clear];
      clearWithUndo(box, button, () => {
        hooks.replaced();
        hooks.edited(0);
      });
      hooks.replaced();
      box.textarea.focus();
      hooks.edited(0);
    });
  }
}
