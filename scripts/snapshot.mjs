// Makes a memory snapshot of a freshly started Pyodide (Python initialised, the standard library
// modules the engine uses imported) so the page's worker can skip interpreter start-up:
//
//   node scripts/snapshot.mjs OUT.bin.gz
//
// Run by scripts/build.py. The snapshot is tied to the exact pyodide.asm.wasm it was made with
// (package.json pins Pyodide). It holds no package of ours: the worker still installs micropip
// and our wheel in the browser, and falls back to a normal start when the snapshot cannot be used.
// `_makeSnapshot` / `_loadSnapshot` / `makeMemorySnapshot` are Pyodide's private (underscored)
// API, hence the pin and the fallback.
import { writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const indexURL = path.join(root, "node_modules", "pyodide") + path.sep;
const { loadPyodide } = await import(path.join(indexURL, "pyodide.mjs"));

const out = process.argv[2];
if (!out) {
  console.error("usage: node scripts/snapshot.mjs OUT.bin.gz");
  process.exit(2);
}
const pyodide = await loadPyodide({ indexURL, _makeSnapshot: true });
// Standard-library modules (what the engine and micropip import).
pyodide.runPython(`
import csv, dataclasses, enum, functools, gc, io, itertools, json, math, operator, re, statistics, typing
import abc, ast, asyncio, base64, collections.abc, contextlib, copy, hashlib, html.parser, logging
import email.feedparser, email.header, email.message, email.parser, email.policy
import importlib.abc, importlib.machinery, importlib.metadata, importlib.util
import pathlib, platform, shutil, string, struct, sysconfig, tempfile, textwrap, warnings, zipfile
import urllib.parse, urllib.request, urllib.response
import tarfile, encodings.cp437
`);
// What micropip imports from Pyodide itself (pyodide.http pulls in the `js` module): Pyodide
// records each JS object these reach by its path from globalThis and finds it again at restore.
// micropip itself cannot be in the snapshot: pyodide.loadPackage, and micropip's own import of
// pyodide_js (loadPackage, install, loadBinaryFile), leave JS objects the snapshot cannot hold
// ("Unexpected hiwire entry", "Can't serialize object").
pyodide.runPython("import pyodide.ffi, pyodide.http, pyodide.webloop, pyodide._package_loader");
const snapshot = pyodide.makeMemorySnapshot();
const packed = gzipSync(snapshot, { level: 6 });
writeFileSync(out, packed);
console.log(`snapshot: ${(snapshot.length / 1e6).toFixed(1)} MB of memory, ${(packed.length / 1e6).toFixed(1)} MB gzipped`);
