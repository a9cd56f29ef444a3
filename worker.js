// The calculator's module worker: boots Pyodide from the page's own origin (from a memory snapshot
// with the engine already imported, when the build made one), unpacks our engine's wheel, and
// answers the page's requests with plain data.
//
// Every request is answered by the method of the same name of one Python object,
// retrieval_metrics.page.session.Session (REQUESTS below lists them with the message fields each
// takes, passed as keyword arguments with `request`: the message's id). That object keeps the
// last result of each analysis under its request id; a question about a result (`of`: the id of
// the request that made it) that is no longer kept fails with StaleRequest, told to the page as
// an error with stale: true. The worker keeps nothing about requests itself.
//
// Protocol (every message has a `type`; requests carry an `id` that their answers repeat):
//   page -> worker  {type: "init", id, base, indexURL, engineWheel, snapshot?, snapshotPolicy?,
//                    runtimeFiles?, interruptBuffer?}  (runtimeFiles: what a first visit downloads,
//                    {path: [bytes, Brotli bytes, gzip bytes]}, for the progress it tells;
//                    snapshotPolicy: "cached" (the default:
//                    the snapshot once saved on the device), "always" or "never")
//                   {type: "analyse", id, qrels, run, options, baseline?}  (baseline: a run or a saved JSON report)
//                   {type: "inspect", id, of, query, options}   one query of the inputs request `of` read
//                   {type: "precision_recall", id, of}          the precision-recall curve of those inputs
//                   {type: "analyse_many", id, qrels, runs: [{name, text | bytes}], options}  (plus every run's curve)
//                   {type: "analyse_answers", id, references, answers, options}   (the Answers mode)
//                   {type: "measures", id}       the measure chooser's entries ([{value, label, group, ...}])
//                   {type: "run_names", id, paths}   names for run files ({names, notices})
//                   {type: "start_helpers", id, size}  a results file is coming (size 0: the picker
//                                                opened, one helper; a file of 96 MB or more being
//                                                read: all of them; a smaller file: none more):
//                                                start the helpers that score
//                                                its parts (below)
//                   {type: "download", id, of, kind, meta?}   a file of the result of request `of`
//                   ({name, type, text}; kind "report-json", ..., "many-csv", ..., "answers-csv", ...)
//                   A box's text may be a string, a file's own bytes (a Uint8Array) or, for a
//                   large file, the File itself (a Blob: read here, off the page's thread).
//   worker -> page  {type: "progress", id, stage, message, fraction?}  (fraction: 0..1 while a box is
//                                                  read or the runtime downloaded; absent when the
//                                                  stage has no measure)
//                   {type: "result", id, result, timings}      (for init: result = {pyodide, engine})
//                   {type: "error", id, message, cancelled?, stale?}   (a request failed, was cancelled,
//                                                  or asked about a result no longer kept)
//                   {type: "fatal", id, message}               (the runtime could not start)
// The page drops a result whose id is not the one it is waiting for. When the page is
// cross-origin isolated it passes `interruptBuffer` (a Uint8Array on a SharedArrayBuffer) and
// cancels a running request by writing 2 into it (Python raises KeyboardInterrupt); otherwise it
// terminates this worker and starts a new one.

// The page's requests: the Session method of each name, and the message's fields it takes.
// "texts" are boxes (a string is sent to Python as UTF-8 bytes); "progress": the method hears
// how far the reading has come.
const REQUESTS = {
  analyse: { fields: ["options"], texts: ["qrels", "run", "baseline"], progress: true },
  analyse_many: { fields: ["options", "runs"], texts: ["qrels"], progress: true },
  analyse_answers: { fields: ["options"], texts: ["references", "answers"] },
  inspect: { fields: ["of", "query", "options"] },
  precision_recall: { fields: ["of"] },
  precision_recall_many: { fields: ["of"] }, // the curves of an analyse_many (its answer has them too)
  download: { fields: ["of", "kind", "meta"] },
  measures: { fields: [] },
  run_names: { fields: ["paths"] },
  score_part: { fields: ["options"], texts: ["qrels", "run"] }, // a helper's part of a large run
};

// A large run (a file's bytes, 16 MB and more) is scored in parts, as the command line splits it
// across processes (page/parts.py): this worker cuts it at query boundaries (plan_parts), hands
// each other part to a helper (this same module, started here, booted the same way, asked
// score_part), scores the first part itself (score_first_part) and merges (analyse_parts). The
// numbers are analyse's, to the last digit; anything the parts cannot take is read the ordinary
// way. These are the Session's steps of an analyse request, not requests of their own.
const STEPS = ["plan_parts", "score_first_part", "analyse_parts"];
const SPLIT_MIN_BYTES = 16 << 20; // page/parts.py's SPLIT_MIN_BYTES
// Helpers are started for a run this large (their start, about a second of both cores, costs a
// smaller run more than they save it), and it waits for those still starting; a smaller large
// run uses the helpers that are ready, if any, else is one part.
const HELPERS_MIN_BYTES = 96 << 20;
const MAX_HELPERS = 3;

let pyodide = null;
let session = null; // retrieval_metrics.page.web.SESSION, the page's one Session: answers every request, keeps the results
let booting = null;
let interrupt = null; // a byte on a SharedArrayBuffer the page writes 2 (SIGINT) into, when it can

const now = () => performance.now();

function progress(id, stage, message, fraction) {
  postMessage(fraction === undefined ? { type: "progress", id, stage, message } : { type: "progress", id, stage, message, fraction });
}

// What the engine's progress(stage, done, total) calls say, in the page's words.
const READING = { qrels: "reading judgements", run: "reading results", baseline: "reading the baseline" };
const PROGRESS_EVERY_MS = 100; // at most ~10 messages a second (a new stage is always told)

// A JS function the engine calls (through Pyodide) as it reads each box a megabyte at a time.
function progressReporter(id) {
  let lastStage = null;
  let lastSent = -Infinity;
  return (stage, done, total) => {
    stage = String(stage);
    const t = now();
    if (stage === lastStage && t - lastSent < PROGRESS_EVERY_MS) return;
    lastStage = stage;
    lastSent = t;
    if (stage === "scoring" || !(Number(total) > 0)) {
      progress(id, stage, stage === "scoring" ? "scoring…" : `${READING[stage] || stage}…`);
      return;
    }
    const fraction = Math.min(1, Math.max(0, Number(done) / Number(total)));
    progress(id, stage, `${READING[stage] || stage}… ${Math.floor(fraction * 100)}%`, fraction);
  };
}

let bootFields = null; // what init was given, to start helpers the same way
let partsAt = { splitMin: SPLIT_MIN_BYTES, helpersMin: HELPERS_MIN_BYTES }; // init's `parts` may lower them (tests)

// Where the first visit's downloads are kept as they arrive (the service worker, installed once
// Python is ready, takes them from here after checking each one's SHA-256 rather than fetching
// them again, and then deletes this cache).
const FIRST_VISIT_CACHE = "retrieval-metrics-first-visit";

/** Whether `url` is saved on this device (the service worker's cache of this build). */
async function savedOnDevice(url) {
  try {
    return typeof caches !== "undefined" && Boolean(await caches.match(url));
  } catch {
    return false; // storage that cannot be read (a private mode that refuses it): not saved
  }
}

const MB = (bytes) => (bytes / 1e6).toFixed(1);
const CODINGS = { br: 1, gzip: 2 }; // a content coding -> its column in the build's runtimeFiles

/**
 * The first visit's fetch: the runtime's files and our wheel counted as they arrive, so the
 * status says how much of the download has crossed the link ("downloading Python: 4.1 of 6.3 MB",
 * in the bytes the server sends: Brotli, gzip or none, as each response says), and kept in
 * FIRST_VISIT_CACHE as they pass. `files`: {absolute URL: [size, Brotli size, gzip size]} (the
 * build's runtimeFiles); `imported`: the runtime's big module, imported rather than fetched.
 * Returns a function that puts the worker's own fetch back.
 */
function countDownloads(id, files, imported) {
  const plain = self.fetch;
  let coding = 1; // what the server sends; assumed Brotli until a response says
  const received = new Map(); // URL -> bytes received, in the server's encoding
  let told = -Infinity;
  const total = () => Object.values(files).reduce((sum, sizes) => sum + sizes[coding], 0);
  const tell = (force) => {
    const t = now();
    if (!force && t - told < PROGRESS_EVERY_MS) return;
    told = t;
    const all = total();
    const done = Math.min(all, [...received.values()].reduce((a, b) => a + b, 0));
    progress(id, "runtime", `downloading Python: ${MB(done)} of ${MB(all)} MB`, all ? done / all : undefined);
  };
  imported.then(([url, sizes]) => { received.set(url, sizes[coding]); tell(false); }, () => {});
  const staging = typeof caches !== "undefined" ? caches.open(FIRST_VISIT_CACHE).catch(() => null) : Promise.resolve(null);
  self.fetch = async (input, init) => {
    const response = await plain(input, init);
    const url = String(typeof input === "string" ? input : input?.url);
    const sizes = files[url];
    if (!response.ok || !response.body || !sizes) return response;
    coding = CODINGS[(response.headers.get("content-encoding") || "").trim().toLowerCase()] || 0;
    const cache = await staging;
    if (cache) cache.put(url, response.clone()).catch(() => {}); // a full disk: the service worker fetches it later
    const ratio = sizes[coding] / sizes[0]; // the browser hands over decoded bytes
    let decoded = 0;
    const counter = new TransformStream({
      transform(chunk, controller) {
        decoded += chunk.byteLength;
        received.set(url, decoded * ratio);
        tell(false);
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(counter), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  tell(true);
  return () => { self.fetch = plain; };
}

async function boot(msg) {
  // (a helper is not counted: its downloads come from the browser's cache by then)
  bootFields = { base: msg.base, indexURL: msg.indexURL, engineWheel: msg.engineWheel, snapshot: msg.snapshot,
    snapshotPolicy: msg.snapshotPolicy };
  partsAt = { ...partsAt, ...(msg.parts || {}) };
  const timings = {};
  const t0 = now();
  const base = new URL(msg.base || "./", self.location.href);
  const indexURL = new URL(msg.indexURL, base).href;
  const wheelURL = new URL(msg.engineWheel, base).href;
  // The memory snapshot (7.8 MB) saves about a second of start-up: a good trade from this
  // device's cache, a bad one over a slow link. So it is used once the service worker has saved
  // it (from the second visit on), and a first visit starts Python the ordinary way, from the
  // smaller download. snapshotPolicy "always" / "never" overrides (the tests, the bench).
  const snapshotURL = msg.snapshot && msg.snapshotPolicy !== "never" ? new URL(msg.snapshot, base).href : null;
  const useSnapshot = Boolean(snapshotURL) && (msg.snapshotPolicy === "always" || await savedOnDevice(snapshotURL));
  timings.snapshotSaved = useSnapshot;
  progress(msg.id, "runtime", "loading the Python runtime…");
  const snapshot = useSnapshot ? fetchSnapshot(snapshotURL) : null;
  snapshot?.then(() => { timings.snapshotFetched = now() - t0; }, () => {}); // a failure: started without it below
  // Pyodide's big module (1.2 MB of JavaScript), fetched and compiled while its small loader
  // loads: loadPyodide's own import of the same URL then finds it in the module map.
  const asmModule = import(new URL("pyodide.asm.mjs", indexURL).href);
  asmModule.catch(() => {}); // loadPyodide reports a failure
  const files = Object.fromEntries(Object.entries(msg.runtimeFiles || {}).map(([name, sizes]) => [new URL(name, base).href, sizes]));
  const asmURL = new URL("pyodide.asm.mjs", indexURL).href;
  const restoreFetch = useSnapshot || !Object.keys(files).length ? null
    : countDownloads(msg.id, files, asmModule.then(() => [asmURL, files[asmURL] || [0, 0, 0]]));
  // Without the snapshot the wheel is needed as soon as Python is up: fetched beside the runtime.
  const wheel = useSnapshot ? null : fetchBytes(wheelURL, "the metrics engine");
  wheel?.catch(() => {}); // awaited below, where a failure is told
  try {
    pyodide = await startRuntime(msg, timings, t0, indexURL, snapshot);
    await wheel;
  } finally {
    restoreFetch?.();
  }
  timings.runtime = now() - t0;
  if (msg.interruptBuffer) {
    interrupt = msg.interruptBuffer;
    pyodide.setInterruptBuffer(interrupt);
  }
  return await importEngine(msg, timings, t0, wheel || fetchBytes(wheelURL, "the metrics engine"));
}

async function startRuntime(msg, timings, t0, indexURL, snapshot) {
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  timings.import = now() - t0;
  const options = { indexURL, packages: [], fullStdLib: false, checkAPIVersion: true };
  if (snapshot) {
    // A memory snapshot of a started interpreter (scripts/snapshot.mjs) skips most of the start.
    try {
      const started = await loadPyodide({ ...options, _loadSnapshot: snapshot });
      started.runPython("import sys");
      timings.snapshot = true;
      return started;
    } catch (err) {
      console.warn("Starting without the memory snapshot:", err);
      progress(msg.id, "runtime", "the start-up snapshot could not be used; starting Python the slower way…");
    }
  }
  progress(msg.id, "runtime", "starting Python…");
  return await loadPyodide(options);
}

/** The engine imported (already, from the snapshot) and its Session made: init's answer. */
async function importEngine(msg, timings, t0, wheel) {
  // With the memory snapshot, every module of the engine is already imported (scripts/snapshot.mjs
  // imports them all, from this build's wheel), so nothing is installed. Without it, our wheel
  // (pure Python, no dependencies) is unpacked straight into site-packages: what micropip would do
  // after resolving nothing, so boot never downloads or imports micropip.
  if (!pyodide.runPython("import sys; 'retrieval_metrics.page.web' in sys.modules")) {
    progress(msg.id, "packages", "importing the engine…");
    const sitePackages = pyodide.runPython("[p for p in sys.path if p.endswith('site-packages')][0]");
    pyodide.unpackArchive(await wheel, "wheel", { extractDir: sitePackages });
    pyodide.runPython("import importlib; importlib.invalidate_caches()");
  }
  // How many of the engine's modules the start found imported (all but the CLI's, from the snapshot).
  timings.engineModules = pyodide.runPython("sum(1 for name in sys.modules if name.startswith('retrieval_metrics.'))");
  timings.packages = now() - t0;

  progress(msg.id, "import", "starting the engine…");
  session = pyodide.runPython("from retrieval_metrics.page.web import SESSION; SESSION");
  const version = pyodide.runPython("import retrieval_metrics; getattr(retrieval_metrics, '__version__', '')");
  timings.ready = now() - t0;
  return { pyodide: pyodide.version, engine: String(version || ""), timings };
}

// A download the runtime needs, failing with words a person understands (offline, or an
// answer that is not the file).
async function fetchResponse(url, what) {
  let response;
  try {
    response = await fetch(url);
  } catch {
    throw new Error(navigator.onLine === false
      ? `this device is offline and ${what} is not saved on it yet (${url.split("/").pop()})`
      : `could not download ${what} (${url.split("/").pop()}): the server did not answer`);
  }
  if (!response.ok) throw new Error(`could not download ${what} (${url.split("/").pop()}): the server answered ${response.status}`);
  return response;
}

async function fetchBytes(url, what) {
  return new Uint8Array(await (await fetchResponse(url, what)).arrayBuffer());
}

async function fetchSnapshot(url) {
  const response = await fetchResponse(url, "the start-up snapshot");
  const body = url.endsWith(".gz") ? response.body.pipeThrough(new DecompressionStream("gzip")) : response.body;
  return new Uint8Array(await new Response(body).arrayBuffer());
}

function toPlain(proxy) {
  if (proxy === null || proxy === undefined || typeof proxy !== "object" || !proxy.toJs) return proxy;
  try {
    return proxy.toJs({ dict_converter: Object.fromEntries, create_pyproxies: false });
  } finally {
    proxy.destroy();
  }
}

function describe(err) {
  // A Python exception's message ends with its last line; never hand a traceback to the page.
  const text = String((err && err.message) || err || "unknown error");
  const lines = text.trim().split("\n").filter(Boolean);
  return lines.length ? lines[lines.length - 1] : text;
}

const encoder = new TextEncoder();

/** A file the page sent as a File: its bytes, or the words of why it cannot be read again. */
async function fileBytes(file) {
  try {
    return new Uint8Array(await file.arrayBuffer());
  } catch (err) {
    const name = file.name ? `${file.name}` : "the file";
    throw new Error(`could not read ${name} again (${err?.name || err}): it may have changed or moved since it was picked; pick it again`);
  }
}

// A message field as the Python method takes it: a box's text as UTF-8 bytes (converting a JS
// string of tens of megabytes to a Python str is several times slower than TextEncoder, and the
// engine would encode it back to bytes anyway), a file's own bytes as they are; a run of many
// as [name, bytes]. Everything else crosses as it is (Python copies it: page/session.py's plain).
const asBytes = (box) => (box instanceof Uint8Array ? box : encoder.encode(box == null ? "" : String(box)));
const asRun = (r) => [String(r?.name ?? ""), asBytes(r?.bytes instanceof Uint8Array ? r.bytes : r?.text)];

/** The Session's method `name` called with keyword arguments (a PyProxy of its answer). */
function callSession(name, args) {
  const method = session[name];
  try {
    return method.callKwargs(args);
  } finally {
    method.destroy();
  }
}

/** Answers one request of REQUESTS with its Session method. */
async function answer(msg, how) {
  if (!booting) throw new Error(`${msg.type} before init`);
  await booting;
  for (const name of how.texts || []) if (msg[name] instanceof Blob) msg[name] = await fileBytes(msg[name]);
  if (msg.type === "analyse" && msg.run instanceof Uint8Array && msg.run.length >= partsAt.splitMin && !msg.baseline?.length) {
    if (await analyseInParts(msg)) return;
  }
  const t0 = now();
  const args = { request: msg.id };
  for (const name of how.fields) if (msg[name] !== undefined) args[name] = msg[name];
  for (const name of how.texts || []) args[name] = asBytes(msg[name]);
  if (Array.isArray(msg.runs) && how.fields.includes("runs")) args.runs = msg.runs.map(asRun);
  if (how.progress) args.progress = progressReporter(msg.id);
  const raw = callSession(msg.type, args);
  const t1 = now();
  const result = toPlain(raw);
  postMessage({ type: "result", id: msg.id, result, timings: { [msg.type]: t1 - t0, convert: now() - t1 } });
}

// ---------------------------------------------------------------------------------------------
// Helpers: the other workers of a run scored in parts

let helpers = [];

function helperCount() {
  return Math.min(MAX_HELPERS, Math.max(0, (navigator.hardwareConcurrency || 1) - 1));
}

/** A helper worker: this module again, booted as this one was; `call` sends it a request. */
class Helper {
  constructor() {
    this.worker = new Worker(self.location.href, { type: "module" });
    this.next = 1;
    this.waiting = new Map();
    this.worker.onmessage = (event) => {
      const m = event.data || {};
      const waiter = this.waiting.get(m.id);
      if (!waiter || m.type === "progress") return;
      this.waiting.delete(m.id);
      if (m.type === "result") waiter.resolve(m.result);
      else waiter.reject(new Error(m.message || "a helper failed"));
    };
    this.worker.onerror = (event) => this.fail(event.message || "a helper could not start");
    this.ready = false;
    this.booted = this.call({ type: "init", ...bootFields }).then(() => { this.ready = true; });
  }

  call(message, transfer = []) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id }, transfer);
    });
  }

  fail(message) {
    for (const waiter of this.waiting.values()) waiter.reject(new Error(message));
    this.waiting.clear();
  }
}

/** Starts the helpers a run in parts will use, if not yet: `count` of them (at most one per
 * core beyond the first, MAX_HELPERS), all by default. */
function startHelpers(count = helperCount()) {
  while (helpers.length < Math.min(count, helperCount())) helpers.push(new Helper());
  return helpers.length;
}

/** `promise`, or a KeyboardInterrupt as soon as the page asks to cancel (the interrupt buffer is
 * read while this worker only waits for its helpers, when no Python runs to notice it). */
function untilInterrupted(promise) {
  if (!interrupt) return promise;
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (interrupt[0] !== 2) return;
      clearInterval(timer);
      reject(Object.assign(new Error("cancelled"), { type: "KeyboardInterrupt" }));
    }, 50);
    promise.then((value) => { clearInterval(timer); resolve(value); }, (err) => { clearInterval(timer); reject(err); });
  });
}

/** Stops every helper (a cancelled or failed request: their work is not wanted). */
function stopHelpers() {
  for (const helper of helpers) {
    helper.fail("stopped");
    helper.worker.terminate();
  }
  helpers = [];
}

/**
 * An analyse request whose run is scored in parts; false when the run is not for that path (the
 * caller then answers it the ordinary way). Its answer is analyse's.
 */
async function analyseInParts(msg) {
  const t0 = now();
  const large = msg.run.length >= partsAt.helpersMin;
  if (large) startHelpers(); // booting while this worker cuts the run, unless started already
  const usable = large ? helpers : helpers.filter((h) => h.ready);
  if (!usable.length) return false; // one part is read faster the ordinary way (page/parts.py)
  const qrels = asBytes(msg.qrels);
  const call = (name, args) => callSession(name, { request: msg.id, ...args });
  try {
    progress(msg.id, "run", "reading results…");
    const planned = toPlain(call("plan_parts", { qrels, run: msg.run, options: msg.options, baseline: asBytes(msg.baseline), workers: usable.length + 1, min_bytes: partsAt.splitMin }));
    if (!planned.starts) return false;
    const starts = [...planned.starts, msg.run.length];
    const count = starts.length - 1;
    progress(msg.id, "scoring", `scoring in ${count} parts…`);
    let others = null;
    try {
      const asked = [];
      for (let i = 1; i < count; i++) {
        const part = msg.run.slice(starts[i], starts[i + 1]);
        asked.push(usable[i - 1].call({ type: "score_part", qrels: qrels.slice(), run: part, options: msg.options }, [part.buffer]));
      }
      toPlain(call("score_first_part", { of: msg.id }));
      others = await untilInterrupted(Promise.all(asked));
    } catch (err) {
      if (err && err.type === "KeyboardInterrupt") throw err;
      console.warn("scoring in parts failed; reading the run whole:", err);
      stopHelpers();
    }
    const t1 = now();
    const raw = call("analyse_parts", { of: msg.id, parts: others, progress: progressReporter(msg.id) });
    const t2 = now();
    const result = toPlain(raw);
    postMessage({ type: "result", id: msg.id, result, timings: { analyse: t2 - t0, convert: now() - t2, parts: count, merge: t2 - t1 } });
    return true;
  } catch (err) {
    stopHelpers(); // cancelled or failed: the helpers' work is not wanted
    throw err;
  }
}

self.onmessage = async (event) => {
  const msg = event.data || {};
  if (interrupt && msg.type !== "init") interrupt[0] = 0; // a cancel meant for an earlier request must not stop this one
  try {
    if (msg.type === "init") {
      if (!booting) booting = boot(msg);
      let info;
      try {
        info = await booting;
      } catch (err) {
        console.error(err);
        postMessage({ type: "fatal", id: msg.id, message: describe(err) });
        return;
      }
      postMessage({ type: "result", id: msg.id, result: info, timings: info.timings });
      // Once the page is told it is ready: compile what the drill-down, the curve and many runs
      // use, so that their first answer does not pay for it (a request sent now waits for this).
      setTimeout(() => {
        try {
          pyodide.runPython("import retrieval_metrics.page.one_query, retrieval_metrics.comparison.many, retrieval_metrics.comparison.tables");
        } catch (err) {
          console.warn("warming up:", err);
        }
      }, 0);
    } else if (msg.type === "start_helpers") {
      await booting;
      // one helper when a person opens the picker (enough for a run below HELPERS_MIN_BYTES), all of
      // them for a file that large on its way
      const size = Number(msg.size) || 0;
      const wanted = size >= partsAt.helpersMin ? helperCount() : size === 0 ? 1 : 0; // a smaller file: none more
      postMessage({ type: "result", id: msg.id, result: { helpers: startHelpers(wanted) }, timings: {} });
    } else if (Object.hasOwn(REQUESTS, msg.type)) {
      await answer(msg, REQUESTS[msg.type]);
    } else {
      postMessage({ type: "error", id: msg.id, message: `unknown request type ${JSON.stringify(msg.type)}` });
    }
  } catch (err) {
    if (err && err.type === "KeyboardInterrupt") {
      postMessage({ type: "error", id: msg.id, cancelled: true, message: "cancelled" });
      return;
    }
    if (err && err.type === "StaleRequest") {
      postMessage({ type: "error", id: msg.id, stale: true, message: describe(err) });
      return;
    }
    console.error(err);
    postMessage({ type: "error", id: msg.id, message: describe(err) });
  }
};
