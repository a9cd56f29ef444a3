// Makes a memory snapshot of a freshly started Pyodide (Python initialised, the standard library
// modules the engine uses imported, and the engine itself imported from the build's wheel) so
// the page's worker skips interpreter start-up and the engine's import:
//
//   node scripts/snapshot.mjs OUT.bin.gz [ENGINE.whl] [RUNTIME_DIR]
//
// Run by scripts/build.py, which names the snapshot by its content and lists it in the same build
// config as the wheel, so a page never pairs a snapshot with another engine. The snapshot is tied
// to the exact pyodide.asm.wasm it was made with (package.json pins Pyodide). Files live outside
// the snapshot (in the JS file system), but the page needs none of them: every module of the
// engine is imported here (the command line's excepted), so its lazy imports find them in
// sys.modules. The worker falls back to a normal start (unpacking the wheel) when the snapshot
// cannot be used.
// `_makeSnapshot` / `_loadSnapshot` / `makeMemorySnapshot` are Pyodide's private (underscored)
// API, hence the pin and the fallback.
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// The build's runtime folder: the snapshot must be made with the very standard library zip the
// page mounts (zipimport keeps each zip's table of contents in memory, so in the snapshot).
const indexURL = path.resolve(process.argv[4] || path.join(root, "node_modules", "pyodide")) + path.sep;
const { loadPyodide } = await import(path.join(indexURL, "pyodide.mjs"));

const out = process.argv[2];
const wheel = process.argv[3];
if (!out) {
  console.error("usage: node scripts/snapshot.mjs OUT.bin.gz [ENGINE.whl] [RUNTIME_DIR]");
  process.exit(2);
}
const pyodide = await loadPyodide({ indexURL, _makeSnapshot: true });
// Only what the page runs: the engine (below) and the standard-library modules it imports,
// also those it imports inside functions. micropip is not used by the page any more (the worker
// unpacks our wheel itself), so nothing of it is here: a smaller snapshot restores faster.
pyodide.runPython(`
import bisect, collections.abc, csv, functools, gc, io, itertools, json, math, operator, os, random, re
import sys, typing, warnings, importlib, pkgutil
`);
if (wheel) {
  // The engine, every module of it, imported: the page's boot installs nothing.
  const purelib = pyodide.runPython("import sys; [p for p in sys.path if p.endswith('site-packages')][0]");
  pyodide.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel", { extractDir: purelib });
  pyodide.runPython(`
import importlib, pkgutil
importlib.invalidate_caches()
import retrieval_metrics
# every module of every subpackage (iter_modules would see the top level only)
for _module in pkgutil.walk_packages(retrieval_metrics.__path__, "retrieval_metrics."):
    if _module.name not in ("retrieval_metrics.__main__", "retrieval_metrics.cli"):
        importlib.import_module(_module.name)
del _module
`);
}
const snapshot = pyodide.makeMemorySnapshot();
const packed = gzipSync(snapshot, { level: 6 });
writeFileSync(out, packed);
console.log(`snapshot: ${(snapshot.length / 1e6).toFixed(1)} MB of memory, ${(packed.length / 1e6).toFixed(1)} MB gzipped`);
