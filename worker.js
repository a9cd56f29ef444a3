// The calculator's module worker: boots Pyodide from the page's own origin (from a memory snapshot
// with the engine already imported, when the build made one), unpacks our engine's wheel, and
// answers `analyse` requests with plain data.
//
// Protocol (every message has a `type`; requests carry an `id` that their answers repeat):
//   page -> worker  {type: "init", id, base, indexURL, engineWheel, snapshot?, interruptBuffer?}
//                   {type: "analyse", id, qrels, run, options, baseline?}   (baseline: a run or a saved JSON report)
//                   {type: "inspect", id, of, query, options}   one query of the inputs analyse request `of` read
//                   {type: "curve", id, of}                     the precision-recall curve of those inputs
//                   {type: "analyse_many", id, qrels, runs: [{name, text | bytes}], options}  (options.baseline:
//                   a run's name; retrieval_metrics.page.web.analyse_many, plus every run's curve)
//                   (the worker keeps the last analysed inputs parsed, so neither re-sends them; when
//                   `of` is not the last analyse request, the answer is an error with stale: true)
//                   {type: "analyse_answers", id, references, answers, options}   (the Answers mode)
//                   {type: "measures", id}       the measure chooser's entries (retrieval_metrics.page.web.measures:
//                                                [{value, label, group, description, trec_eval, default}])
//                   {type: "run_names", id, paths}   names for run files (web.run_names: {names, notices})
//                   {type: "file", id, of, kind, meta?}   the text of a download of the result of request `of`
//                   (retrieval_metrics.page.web.download: {name, type, text}; kind "report-json", ...,
//                   "many-csv", ..., "answers-csv", ...; stale when `of` is not the last request of that kind)
//   worker -> page  {type: "progress", id, stage, message, fraction?}  (fraction: 0..1 while a box is
//                                                  read; absent when the stage has no measure)
//                   {type: "result", id, result, timings}      (for init: result = {pyodide, engine})
//                   {type: "error", id, message, cancelled?}   (a request failed, or was cancelled)
//                   {type: "fatal", id, message}               (the runtime could not start)
// The page drops a result whose id is not the one it is waiting for. When the page is
// cross-origin isolated it passes `interruptBuffer` (a Uint8Array on a SharedArrayBuffer) and
// cancels a running request by writing 2 into it (Python raises KeyboardInterrupt); otherwise it
// terminates this worker and starts a new one.

let pyodide = null;
let analyse = null;
let analyseMany = null;
let web = null; // retrieval_metrics.page.web: inspect and precision_recall on the inputs analyse kept
let lastAnalysed = 0; // the id of the analyse request whose inputs the engine keeps
let lastMany = 0; // ... of the analyse_many request whose comparison it keeps
let lastAnswers = 0; // ... of the analyse_answers request whose result it keeps
let analyseAnswers = null;
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

async function boot(msg) {
  const timings = {};
  const t0 = now();
  const base = new URL(msg.base || "./", self.location.href);
  const indexURL = new URL(msg.indexURL, base).href;
  progress(msg.id, "runtime", "loading the Python runtime…");
  // Fetched while the runtime's module and WebAssembly load (loadPyodide takes the promise).
  const snapshot = msg.snapshot ? fetchSnapshot(new URL(msg.snapshot, base).href) : null;
  snapshot?.then(() => { timings.snapshotFetched = now() - t0; }, () => {}); // a failure: started without it below
  // Pyodide's big module (1.2 MB of JavaScript), fetched and compiled while its small loader
  // loads: loadPyodide's own import of the same URL then finds it in the module map.
  import(new URL("pyodide.asm.mjs", indexURL).href).catch(() => {}); // loadPyodide reports a failure
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  timings.import = now() - t0;
  const options = { indexURL, packages: [], fullStdLib: false, checkAPIVersion: true };
  pyodide = null;
  if (snapshot) {
    // A memory snapshot of a started interpreter (scripts/snapshot.mjs) skips most of the start.
    try {
      pyodide = await loadPyodide({ ...options, _loadSnapshot: snapshot });
      pyodide.runPython("import sys");
      timings.snapshot = true;
    } catch (err) {
      console.warn("Starting without the memory snapshot:", err);
      progress(msg.id, "runtime", "the start-up snapshot could not be used; starting Python the slower way…");
      pyodide = null;
    }
  }
  if (!pyodide) pyodide = await loadPyodide(options);
  timings.runtime = now() - t0;
  if (msg.interruptBuffer) {
    interrupt = msg.interruptBuffer;
    pyodide.setInterruptBuffer(interrupt);
  }

  // With the memory snapshot, every module of the engine is already imported (scripts/snapshot.mjs
  // imports them all, from this build's wheel), so nothing is installed. Without it, our wheel
  // (pure Python, no dependencies) is unpacked straight into site-packages: what micropip would do
  // after resolving nothing, so boot never downloads or imports micropip.
  if (!pyodide.runPython("import sys; 'retrieval_metrics.page.web' in sys.modules")) {
    progress(msg.id, "packages", "installing the metrics engine…");
    const wheel = await fetchBytes(new URL(msg.engineWheel, base).href, "the metrics engine");
    const sitePackages = pyodide.runPython("[p for p in sys.path if p.endswith('site-packages')][0]");
    pyodide.unpackArchive(wheel, "wheel", { extractDir: sitePackages });
    pyodide.runPython("import importlib; importlib.invalidate_caches()");
  }
  // How many of the engine's modules the start found imported (all but the CLI's, from the snapshot).
  timings.engineModules = pyodide.runPython("sum(1 for name in sys.modules if name.startswith('retrieval_metrics.'))");
  timings.packages = now() - t0;

  progress(msg.id, "import", "starting the engine…");
  // The texts cross into Python as UTF-8 bytes (a file's own bytes as they are) (the engine reads bytes as well as str):
  // converting a JS string of tens of megabytes to a Python str is several times slower than
  // TextEncoder, and the engine would encode it back to bytes anyway.
  analyse = pyodide.runPython(`
from retrieval_metrics.page.web import analyse as _analyse

def _analyse_utf8(qrels, run, options, baseline=None, progress=None):
    return _analyse(qrels.to_bytes(), run.to_bytes(), options,
                    baseline.to_bytes() if baseline is not None else b"", progress)

_analyse_utf8
`);
  analyseMany = pyodide.runPython(`
from retrieval_metrics.page.web import analyse_many as _analyse_many, precision_recall_many as _curves

def _analyse_many_utf8(qrels, names, texts, options, progress=None):
    out = _analyse_many(qrels.to_bytes(), [(str(n), t.to_bytes()) for n, t in zip(names, texts)],
                        options, progress)
    out["curves"] = _curves() if out["comparison"] else None
    return out

_analyse_many_utf8
`);
  web = pyodide.pyimport("retrieval_metrics.page.web");
  analyseAnswers = pyodide.runPython(`
from retrieval_metrics.page.web import analyse_answers as _analyse_answers

def _analyse_answers_utf8(references, answers, options):
    return _analyse_answers(references.to_bytes(), answers.to_bytes(), options)

_analyse_answers_utf8
`);
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

async function handleAnalyse(msg) {
  if (!booting) throw new Error("analyse before init");
  await booting;
  const t0 = now();
  lastAnalysed = 0; // the engine drops the previous inputs as soon as it starts reading these
  const options = pyodide.toPy(msg.options || {});
  const encoder = new TextEncoder();
  // A box's text, or a file's own bytes (the engine decodes those as it decodes files).
  const bytes = (box) => (box instanceof Uint8Array ? box : encoder.encode(box || ""));
  let raw;
  try {
    raw = analyse(bytes(msg.qrels), bytes(msg.run), options, bytes(msg.baseline), progressReporter(msg.id));
  } finally {
    options.destroy();
  }
  lastAnalysed = msg.id;
  const t1 = now();
  const result = toPlain(raw);
  postMessage({ type: "result", id: msg.id, result, timings: { analyse: t1 - t0, convert: now() - t1 } });
}

async function handleAnalyseMany(msg) {
  if (!booting) throw new Error("analyse_many before init");
  await booting;
  const t0 = now();
  lastMany = 0;
  const options = pyodide.toPy(msg.options || {});
  const encoder = new TextEncoder();
  const runs = msg.runs || [];
  let raw;
  try {
    // A run file's own bytes (the engine decodes gzip and UTF-16 itself, with a notice), else its text.
    const bytes = (r) => (r.bytes instanceof Uint8Array ? r.bytes : encoder.encode(r.text || ""));
    raw = analyseMany(encoder.encode(msg.qrels || ""), runs.map((r) => String(r.name)), runs.map(bytes),
      options, progressReporter(msg.id));
  } finally {
    options.destroy();
  }
  lastMany = msg.id;
  const t1 = now();
  const result = toPlain(raw);
  postMessage({ type: "result", id: msg.id, result, timings: { analyse: t1 - t0, convert: now() - t1 } });
}

async function handleAnalyseAnswers(msg) {
  if (!booting) throw new Error("analyse_answers before init");
  await booting;
  const t0 = now();
  lastAnswers = 0;
  const options = pyodide.toPy(msg.options || {});
  const encoder = new TextEncoder();
  let raw;
  try {
    // A box's text, or a loaded file's own bytes (the engine decodes those as it decodes files).
    const bytes = (box) => (box instanceof Uint8Array ? box : encoder.encode(box || ""));
    raw = analyseAnswers(bytes(msg.references), bytes(msg.answers), options);
  } finally {
    options.destroy();
  }
  lastAnswers = msg.id;
  const t1 = now();
  const result = toPlain(raw);
  postMessage({ type: "result", id: msg.id, result, timings: { analyse: t1 - t0, convert: now() - t1 } });
}

// The measure chooser's entries, from the registry.
async function handleMeasures(msg) {
  await booting;
  postMessage({ type: "result", id: msg.id, result: toPlain(web.measures()), timings: {} });
}

// The many-runs box's names for files, the command line's (web.run_names).
async function handleRunNames(msg) {
  await booting;
  const paths = pyodide.toPy((msg.paths || []).map(String));
  try {
    postMessage({ type: "result", id: msg.id, result: toPlain(web.run_names(paths)), timings: {} });
  } finally {
    paths.destroy();
  }
}

// A download of a result the page shows: its text, written by the engine.
async function handleFile(msg) {
  if (!booting) throw new Error("file before init");
  await booting;
  const kind = String(msg.kind || "");
  const kept = kind.startsWith("many-") ? lastMany : kind.startsWith("answers-") ? lastAnswers : lastAnalysed;
  if (!msg.of || msg.of !== kept) {
    postMessage({ type: "error", id: msg.id, stale: true, message: "that result is no longer the one kept" });
    return;
  }
  const t0 = now();
  const meta = msg.meta ? pyodide.toPy(msg.meta) : undefined;
  let raw;
  try {
    raw = web.download(kind, meta);
  } finally {
    meta?.destroy();
  }
  postMessage({ type: "result", id: msg.id, result: toPlain(raw), timings: { file: now() - t0 } });
}

// A question about the inputs the last analyse request read: answered from what the engine kept.
async function handleKept(msg) {
  if (!booting) throw new Error(`${msg.type} before init`);
  await booting;
  if (!msg.of || msg.of !== lastAnalysed) {
    postMessage({ type: "error", id: msg.id, stale: true, message: "those inputs are no longer kept" });
    return;
  }
  const t0 = now();
  const options = pyodide.toPy(msg.options || {});
  let raw;
  try {
    // undefined, not null: Pyodide passes null as JsNull, undefined as None
    raw = msg.type === "inspect" ? web.inspect(undefined, undefined, String(msg.query), options) : web.precision_recall(undefined, undefined, options);
  } finally {
    options.destroy();
  }
  postMessage({ type: "result", id: msg.id, result: toPlain(raw), timings: { [msg.type]: now() - t0 } });
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
          pyodide.runPython("import retrieval_metrics.page.inspect, retrieval_metrics.comparison.many, retrieval_metrics.comparison.tables");
        } catch (err) {
          console.warn("warming up:", err);
        }
      }, 0);
    } else if (msg.type === "analyse") {
      await handleAnalyse(msg);
    } else if (msg.type === "analyse_many") {
      await handleAnalyseMany(msg);
    } else if (msg.type === "inspect" || msg.type === "curve") {
      await handleKept(msg);
    } else if (msg.type === "analyse_answers") {
      await handleAnalyseAnswers(msg);
    } else if (msg.type === "measures") {
      await handleMeasures(msg);
    } else if (msg.type === "run_names") {
      await handleRunNames(msg);
    } else if (msg.type === "file") {
      await handleFile(msg);
    } else {
      postMessage({ type: "error", id: msg.id, message: `unknown request type ${JSON.stringify(msg.type)}` });
    }
  } catch (err) {
    if (err && err.type === "KeyboardInterrupt") {
      postMessage({ type: "error", id: msg.id, cancelled: true, message: "cancelled" });
      return;
    }
    console.error(err);
    postMessage({ type: "error", id: msg.id, message: describe(err) });
  }
};
