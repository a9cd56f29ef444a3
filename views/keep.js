// The boxes' content kept across a reload, in this browser only: IndexedDB (a local database of
// the browser, for this page's origin; nothing is sent anywhere), with a note under the boxes
// that says so and a "Forget" button that deletes what is kept and stops keeping it.
//
// A box is stored as a Blob: a file's own bytes while the box is unedited (so a reload reads it
// as the file it was, gzip and UTF-16 included), else its text. Writes wait until the boxes have
// been still for a moment, and a box whose content did not change is not written again, so
// typing into a box of tens of megabytes does not copy it on every key.
//
// Other parts of the page keep their own content the same way (`keepAlso`: the many-runs list,
// each run's file bytes or text): same store, same wait, same note and Forget.

import { $, el } from "./dom.js";
import { blank, boxBlank, fileOf, readFile, setBoxText, textToRestore } from "./inputs.js";

const DB_NAME = "retrieval-metrics";
const STORE = "boxes";
const FLAG = "retrieval-metrics:keep-boxes"; // "off" once the person pressed Forget
const WRITE_AFTER_MS = 1000;

const state = {
  boxes: {}, // key -> the box object (views/inputs.js, views/answers.js)
  written: {}, // key -> {text, bytes, name, format} last written (compared by identity)
  others: {}, // key -> {version, value, restore} (keepAlso)
  writtenVersions: {}, // key -> the version of an `others` entry last written
  timer: 0,
  notes: [],
  writing: Promise.resolve(),
};

function keeping() {
  try {
    return localStorage.getItem(FLAG) !== "off";
  } catch {
    return true;
  }
}

function setKeeping(on) {
  try {
    if (on) localStorage.removeItem(FLAG);
    else localStorage.setItem(FLAG, "off");
  } catch { /* storage refused: the database below still is */ }
}

let opened = null;
function database() {
  if (typeof indexedDB === "undefined") return Promise.reject(new Error("this browser has no IndexedDB"));
  opened ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return opened;
}

/** One transaction on the store; `use(store)` makes its requests; resolves with the last one's result. */
async function transact(mode, use) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const request = use(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(request?.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

function entryOf(box) {
  // A file's bytes are what is kept: its text (perhaps not even decoded yet) is not read then.
  // A file still as it was picked is kept as that File: IndexedDB copies it off this thread,
  // where a new Blob of its bytes is a copy made here (about a second for a 287 MB run).
  return { text: textToRestore(box), bytes: box.bytes || null, file: fileOf(box, 0), name: box.fileName ?? null, format: box.format?.value ?? null };
}

function sameEntry(a, b) {
  return a && b && a.text === b.text && a.bytes === b.bytes && a.name === b.name && a.format === b.format;
}

/** Writes the boxes that changed since the last write (or deletes the blank ones). */
function writeChanged() {
  state.timer = 0;
  if (!keeping()) return state.writing;
  const changes = [];
  for (const [key, box] of Object.entries(state.boxes)) {
    const now = entryOf(box);
    if (sameEntry(now, state.written[key])) continue;
    state.written[key] = now;
    if (!now.bytes && blank(now.text)) changes.push([key, null]);
    else changes.push([key, { kind: now.bytes ? "file" : "text", blob: now.file || new Blob([now.bytes || now.text]), name: now.name, format: now.format }]);
  }
  for (const [key, other] of Object.entries(state.others)) {
    const version = other.version();
    if (version === state.writtenVersions[key]) continue;
    state.writtenVersions[key] = version;
    changes.push([key, other.value()]);
  }
  if (!changes.length) return state.writing;
  state.writing = state.writing.then(() => transact("readwrite", (store) => {
    let last = null;
    for (const [key, value] of changes) last = value ? store.put(value, key) : store.delete(key);
    return last;
  })).catch((err) => console.warn("The boxes could not be kept in this browser:", err));
  return state.writing;
}

/** A box changed: kept once the boxes are still for a moment. */
export function keepSoon() {
  if (!keeping()) return;
  clearTimeout(state.timer);
  state.timer = setTimeout(writeChanged, WRITE_AFTER_MS);
}

/** Deletes what is kept and stops keeping (until "Keep them" is pressed). */
async function forget() {
  clearTimeout(state.timer);
  state.timer = 0;
  setKeeping(false);
  await state.writing;
  try {
    await transact("readwrite", (store) => store.clear());
  } catch (err) {
    console.warn("Could not delete what this browser kept:", err);
  }
  state.written = {};
  state.writtenVersions = {};
  drawNotes();
}

function keepAgain() {
  setKeeping(true);
  state.written = {};
  state.writtenVersions = {};
  drawNotes();
  writeChanged();
}

function drawNotes() {
  const on = keeping();
  for (const { note, testid } of state.notes) {
    const button = el("button", { type: "button", class: "button quiet small", "data-testid": `${testid}-${on ? "forget" : "keep"}`, text: on ? "Forget them" : "Keep them" });
    button.addEventListener("click", () => (on ? forget() : keepAgain()).then(() => {
      state.notes.find((n) => n.note === note)?.note.querySelector("button")?.focus();
    }));
    note.dataset.keeping = on ? "on" : "off";
    note.replaceChildren(on
      ? "What you put in the boxes is kept in this browser only, so it is still here after a reload; nothing is sent anywhere. "
      : "The boxes are not kept: they are empty after a reload. ", button);
  }
}

/**
 * Restores what was kept into the boxes that are still blank (what the person typed before
 * this ran wins); resolves with the number of boxes filled.
 */
async function restore() {
  if (!keeping()) return 0;
  let kept;
  try {
    kept = await transact("readonly", (store) => store.getAll());
    const keys = await transact("readonly", (store) => store.getAllKeys());
    kept = Object.fromEntries(keys.map((key, i) => [key, kept[i]]));
  } catch (err) {
    console.warn("Could not read what this browser kept:", err);
    return 0;
  }
  let filled = 0;
  for (const [key, value] of Object.entries(kept)) {
    const box = state.boxes[key];
    if (!box || !value || !(value.blob instanceof Blob) || !boxBlank(box) || box.bytes) continue;
    try {
      if (value.kind === "file") {
        const { bytes, text } = await readFile(value.blob);
        if (!boxBlank(box)) continue; // typed into meanwhile
        setBoxText(box, text, value.name, bytes, value.blob);
      } else {
        const text = await value.blob.text();
        if (!boxBlank(box)) continue;
        setBoxText(box, text, value.name);
      }
    } catch (err) {
      console.warn(`Could not restore the ${key} box:`, err);
      continue;
    }
    if (value.format && box.format && [...box.format.options].some((o) => o.value === value.format)) box.format.value = value.format;
    state.written[key] = entryOf(box);
    filled++;
  }
  // After the boxes: what is kept besides them (the many runs) is scored against them.
  for (const [key, other] of Object.entries(state.others)) {
    if (!kept[key]) continue;
    try {
      if (await other.restore(kept[key])) filled++;
    } catch (err) {
      console.warn(`Could not restore ${key}:`, err);
    }
    state.writtenVersions[key] = other.version();
  }
  return filled;
}

/**
 * Keeps something besides the boxes under `key` (call before initKeep): `version()` changes
 * whenever it changes (only then is it written, once things are still: call keepSoon());
 * `value()` is what to store (a structured-cloneable object, Blobs for the big parts; null
 * deletes it); `restore(value)` puts a kept value back after a reload, resolving true when it
 * did (it decides whether what is on the page already wins).
 */
export function keepAlso(key, { version, value, restore }) {
  state.others[key] = { version, value, restore };
  state.writtenVersions[key] = version(); // as it starts (empty): nothing to write until it changes
}

/**
 * `boxes`: {key: box} to keep; `places`: [[element, testid]] to put the note after (under each
 * mode's boxes). Resolves with the number of boxes restored.
 */
export function initKeep(boxes, places) {
  state.boxes = boxes;
  for (const [after, testid] of places) {
    const note = el("p", { class: "keep-note", "data-testid": testid, role: "status" });
    after.after(note);
    state.notes.push({ note, testid });
  }
  drawNotes();
  // Read by the tests: write now what waits, and wait for it.
  window.__calculator.keep = { flush: () => writeChanged(), forget };
  // A reload or a closed tab within WRITE_AFTER_MS of the last edit: what waits is written as
  // the page goes (else the next visit would restore the boxes as they were before it).
  addEventListener("pagehide", () => { if (state.timer) writeChanged(); });
  return restore();
}
