// Compiles Pyodide's standard library (python_stdlib.zip: 559 modules as source) to bytecode, so
// that a start without the memory snapshot (every first visit) does not compile each module it
// imports: Python's start in Pyodide takes about 1 s instead of 3 s on this 2-core machine.
//
//   node scripts/compile_stdlib.mjs IN.zip OUT.zip [--beside]
//
// --beside keeps each source and adds its bytecode where Python looks first
// (`__pycache__/x.cpython-314.pyc`): the build's engine wheel, whose modules read their own
// folder. Run by scripts/build.py. Each `x.py` becomes `x.pyc` beside nothing (zipimport takes bytecode
// without its source), compiled by Pyodide's own Python, so the bytecode's version is the
// runtime's (package.json pins it). The .pyc files are hash-based and unchecked (PEP 552): no
// timestamp to compare, and the same source gives the same header. Entries are stored, not
// deflated: the server's Brotli then compresses across files (2.8 MB sent, against 2.5 MB for
// the source zip). Every other entry is copied as it is.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const indexURL = path.join(root, "node_modules", "pyodide") + path.sep;
const [input, output, mode] = process.argv.slice(2);
if (!input || !output) {
  console.error("usage: node scripts/compile_stdlib.mjs IN.zip OUT.zip");
  process.exit(2);
}
const { loadPyodide } = await import(path.join(indexURL, "pyodide.mjs"));
const pyodide = await loadPyodide({ indexURL, packages: [] });
pyodide.FS.writeFile("/tmp/in.zip", readFileSync(input));
pyodide.globals.set("beside", mode === "--beside");
const compiled = pyodide.runPython(`
import importlib.util, marshal, posixpath, sys, zipfile

def pyc(source: bytes, name: str) -> bytes:
    code = compile(source, name, "exec", dont_inherit=True)
    flags = (1).to_bytes(4, "little")  # hash-based, not checked against a source
    return importlib.util.MAGIC_NUMBER + flags + importlib.util.source_hash(source) + marshal.dumps(code)

count = 0
with zipfile.ZipFile("/tmp/in.zip") as src, zipfile.ZipFile("/tmp/out.zip", "w", zipfile.ZIP_STORED) as out:
    for info in src.infolist():
        data = src.read(info)
        if info.filename.endswith(".py"):
            try:
                code = pyc(data, info.filename)
            except SyntaxError:  # left as source: imported (and refused) as Python would
                pass
            else:
                count += 1
                if beside:
                    folder, name = posixpath.split(info.filename)
                    cached = posixpath.join(folder, "__pycache__", f"{name[:-3]}.{sys.implementation.cache_tag}.pyc")
                    out.writestr(zipfile.ZipInfo(cached, info.date_time), code)
                else:
                    info, data = zipfile.ZipInfo(info.filename + "c", info.date_time), code
        entry = zipfile.ZipInfo(info.filename, info.date_time)
        entry.external_attr = info.external_attr
        out.writestr(entry, data)
count
`);
writeFileSync(output, pyodide.FS.readFile("/tmp/out.zip"));
console.log(`compiled ${compiled} modules of ${path.basename(input)}`);
