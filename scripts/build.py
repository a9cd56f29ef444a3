#!/usr/bin/env python3
"""Assemble the calculator page into one self-contained static folder (default: dist/).

    python3 scripts/build.py [--out DIR]

What goes in:
  index.html, app.js, worker.js, style.css,   the page (index.html gets the build config inlined)
  analysis.css                                 styles of the query dialog, filters and charts
  views/*.js                                   ES modules app.js imports (one file per view)
  pyodide/                                     the five Pyodide runtime files from node_modules/pyodide (the
                                               standard library compiled to bytecode by scripts/compile_stdlib.mjs),
                                               and the memory snapshot (scripts/snapshot.mjs) when Node is here
  wheels/<hash>/retrieval_metrics-*.whl        our engine, built here from py/retrieval_metrics
  examples/<name>/...                          the bundled examples, plus examples/index.json
  manifest.webmanifest, icon.svg, icon-*.png   what makes the page installable (PNGs drawn by scripts/icons.py)
  sw.js                                        the service worker, with the list of every file above and
                                               its SHA-256 (what it precaches), named by their hash
  <file>.br, <file>.gz                         compressed copies of every file that compression makes
                                               at least 10 % smaller (Brotli by Node's zlib, when Node
                                               is here; gzip by Python's), which scripts/static_server.py
                                               sends by the request's Accept-Encoding

Standard library only, so any Python >= 3.11 runs it, with no network use.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from icons import write_icons  # noqa: E402  (scripts/icons.py)

PYODIDE_DIR = ROOT / "node_modules" / "pyodide"
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
PAGE_FILES = ("index.html", "app.js", "worker.js", "style.css", "analysis.css")
STATIC_FILES = ("manifest.webmanifest", "icon.svg")  # copied as they are
# Folders of ES modules the page imports. Every relative import ("./views/x.js", "./dom.js") in a
# built module is rewritten to "...js?v=<hash of the built target>", so a browser never pairs a
# cached module with a newer one that imports it.
PAGE_MODULE_DIRS = ("views",)
IMPORT_RE = re.compile(rb"""((?:\bfrom|\bimport)\s*\(?\s*)(["'])(\.{1,2}/[^"'?]+\.js)\2""")
CONFIG_MARKER = "<!--BUILD-CONFIG-->"
SW_MARKER = re.compile(r"/\*BUILD\*/.*?/\*END-BUILD\*/", re.S)


def fail(message: str) -> None:
    print(f"build: {message}", file=sys.stderr)
    raise SystemExit(1)


def short_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


def copy_runtime(out: Path) -> str:
    if not PYODIDE_DIR.is_dir():
        fail("node_modules/pyodide is missing: run `npm ci` (or scripts/setup) first")
    version = json.loads((PYODIDE_DIR / "package.json").read_text())["version"]
    target = out / "pyodide"
    target.mkdir(parents=True)
    for name in RUNTIME_FILES:
        shutil.copy2(PYODIDE_DIR / name, target / name)
    compiled = compiled_stdlib(PYODIDE_DIR / "python_stdlib.zip")
    if compiled is not None:
        shutil.copyfile(compiled, target / "python_stdlib.zip")
    return version


def bytecode_compiler() -> str | None:
    """Node, which runs scripts/compile_stdlib.mjs, or None without it or with
    RM_NO_COMPILED_STDLIB set (the page then compiles the modules it imports at every start)."""
    return None if os.environ.get("RM_NO_COMPILED_STDLIB") else shutil.which("node")


def compiled_stdlib(source: Path) -> Path | None:
    """Pyodide's standard library as bytecode (scripts/compile_stdlib.mjs), kept in .cache/ by
    the SHA-256 of the source zip; None without ``bytecode_compiler`` (the page then starts from
    the source zip, about 2 s slower without the snapshot)."""
    node = bytecode_compiler()
    if node is None:
        return None
    kept = ROOT / ".cache" / "stdlib" / f"{hashlib.sha256(source.read_bytes()).hexdigest()[:16]}.zip"
    if not kept.exists():
        kept.parent.mkdir(parents=True, exist_ok=True)
        part = kept.with_suffix(".part")
        done = subprocess.run([node, str(ROOT / "scripts" / "compile_stdlib.mjs"), str(source), str(part)],
                              capture_output=True, text=True)
        if done.returncode != 0 or not part.exists():
            fail(f"could not compile the standard library: {done.stderr.strip()[-300:]}")
        os.replace(part, kept)
    return kept


def engine_wheel(out: Path, package: Path) -> str:
    """Build a pure-Python wheel of py/retrieval_metrics with zipfile (no build backend needed)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    dist_name = project["name"].replace("-", "_")
    version = project["version"]
    sources = sorted(p for p in package.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                     and p.suffix in {".py", ".typed", ".json", ".txt"})
    if not (package / "__init__.py").exists():
        fail(f"{package}/__init__.py is missing")
    dist_info = f"{dist_name}-{version}.dist-info"
    files: list[tuple[str, bytes]] = [(p.relative_to(package.parent).as_posix(), p.read_bytes()) for p in sources]
    files += engine_bytecode(files)
    files.append((f"{dist_info}/METADATA", (
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {version}\n"
        f"Summary: {project.get('description', '')}\nRequires-Python: {project.get('requires-python', '')}\n"
    ).encode()))
    files.append((f"{dist_info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: scripts/build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"))
    files.append((f"{dist_info}/top_level.txt", b"retrieval_metrics\n"))
    record = []
    for path, data in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    record.append(f"{dist_info}/RECORD,,")
    files.append((f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode()))

    content_hash = short_hash(b"".join(p.encode() + d for p, d in files))
    filename = f"{dist_name}-{version}-py3-none-any.whl"
    target = out / "wheels" / content_hash / filename
    target.parent.mkdir(parents=True, exist_ok=True)
    # Stored, not deflated: the server's Brotli compresses across the files (0.7 MB sent, the
    # bytecode included, against 1.1 MB for a deflated wheel).
    with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as wheel:
        for path, data in files:
            info = zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0))  # reproducible
            info.external_attr = 0o644 << 16
            wheel.writestr(info, data)
    return f"wheels/{content_hash}/{filename}"


def engine_bytecode(files: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """The engine's modules compiled by Pyodide's Python (scripts/compile_stdlib.mjs --beside):
    ``__pycache__/x.cpython-314.pyc`` beside each source, hash-based and unchecked, so a start
    without the memory snapshot imports the engine without compiling 22,000 lines (0.5 s on this
    machine); [] without Node."""
    import tempfile

    node = bytecode_compiler()
    if node is None:
        return []
    with tempfile.TemporaryDirectory() as folder:
        source, compiled = Path(folder) / "in.zip", Path(folder) / "out.zip"
        with zipfile.ZipFile(source, "w") as archive:
            for path, data in files:
                archive.writestr(zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0)), data)
        done = subprocess.run([node, str(ROOT / "scripts" / "compile_stdlib.mjs"), str(source), str(compiled),
                               "--beside"], capture_output=True, text=True)
        if done.returncode != 0:
            fail(f"could not compile the engine: {done.stderr.strip()[-300:]}")
        with zipfile.ZipFile(compiled) as archive:
            return [(name, archive.read(name)) for name in archive.namelist() if "/__pycache__/" in name]


def memory_snapshot(out: Path, wheel: str) -> str | None:
    """A memory snapshot of a started interpreter with the engine imported (scripts/snapshot.mjs,
    run with Node), or None.

    Optional: without Node, or when RM_NO_SNAPSHOT is set, the page starts Pyodide the normal way.
    """
    node = shutil.which("node")
    if os.environ.get("RM_NO_SNAPSHOT") or node is None:
        return None
    target = out / "pyodide" / "snapshot.bin.gz"
    done = subprocess.run([node, str(ROOT / "scripts" / "snapshot.mjs"), str(target), str(out / wheel),
                           str(out / "pyodide")],
                          capture_output=True, text=True)
    if done.returncode != 0 or not target.exists():
        print(f"build: no memory snapshot (the page starts Pyodide without one): {done.stderr.strip()[-300:]}")
        return None
    # Named by content so a browser never pairs a cached snapshot with another runtime.
    named = target.with_name(f"snapshot-{short_hash(target.read_bytes())}.bin.gz")
    target.rename(named)
    return f"pyodide/{named.name}"


COMPRESSIBLE = {".js", ".mjs", ".wasm", ".json", ".html", ".css", ".svg", ".webmanifest", ".zip",
                ".whl", ".csv", ".tsv", ".txt", ".trec", ".qrels", ".run", ""}
MIN_SAVING = 0.10  # a compressed copy that saves less than this is not worth a second file
BROTLI_JS = """
const zlib = require("node:zlib"), fs = require("node:fs");
const names = process.argv.slice(1);
for (let i = 0; i < names.length; i += 2) {
  const data = fs.readFileSync(names[i]);
  fs.writeFileSync(names[i + 1], zlib.brotliCompressSync(data, { params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
}
"""
# Brotli's best level takes 30 s on the wasm, which never changes with our code (package.json
# pins Pyodide): each compressed copy is kept here by the SHA-256 of what it compresses.
BROTLI_CACHE = ROOT / ".cache" / "brotli"


def is_copy(path: Path) -> bool:
    """A compressed copy compressed_copies wrote (``x.br`` or ``x.gz`` beside ``x``)."""
    return path.suffix in (".br", ".gz") and path.with_name(path.name[:-len(path.suffix)]).exists()


def compressed_copies(files: list[Path]) -> None:
    """Writes ``<file>.gz`` (and ``<file>.br`` when Node is here) beside each of ``files`` that
    compression makes at least MIN_SAVING smaller (files under 1 KB, or of a type that does not
    compress, are left alone).

    Over an ordinary link the runtime's download is most of the first visit (the wasm is 9.6 MB,
    3.5 MB gzipped, 2.7 MB with Brotli); the server sends a copy by the request's
    Accept-Encoding, and the browser hands the page the original bytes (what the service worker's
    SHA-256 checks). gzip is written with mtime 0, so a build is reproducible.
    """
    import gzip

    files = [p for p in files if p.suffix in COMPRESSIBLE and p.stat().st_size >= 1024]
    worth = lambda size, path: size <= path.stat().st_size * (1 - MIN_SAVING)  # noqa: E731
    for path in files:
        packed = gzip.compress(path.read_bytes(), compresslevel=9, mtime=0)
        if worth(len(packed), path):
            path.with_name(path.name + ".gz").write_bytes(packed)
    node = shutil.which("node")
    if node and not os.environ.get("RM_NO_BROTLI"):
        BROTLI_CACHE.mkdir(parents=True, exist_ok=True)
        kept = {path: BROTLI_CACHE / hashlib.sha256(path.read_bytes()).hexdigest() for path in files}
        todo = [str(a) for path, kept_as in kept.items() if not kept_as.exists()
                for a in (path, kept_as.with_suffix(".part"))]
        if todo:
            done = subprocess.run([node, "-e", BROTLI_JS, *todo], capture_output=True, text=True)
            if done.returncode != 0:
                fail(f"Brotli compression failed: {done.stderr.strip()[-300:]}")
            for part in todo[1::2]:
                os.replace(part, part[:-len(".part")])
        for path, kept_as in kept.items():
            if worth(kept_as.stat().st_size, path):
                shutil.copyfile(kept_as, path.with_name(path.name + ".br"))


def sent_size(path: Path) -> int:
    """What a first visit receives for ``path``: its Brotli copy, else its gzip copy, else it."""
    for copy in (path.with_name(path.name + ".br"), path.with_name(path.name + ".gz"), path):
        if copy.exists():
            return copy.stat().st_size
    raise FileNotFoundError(path)


def measure_catalogue(package: Path) -> list[dict]:
    """The measure chooser's entries (``page.web.measures``: the registry's catalogue), read from
    the engine under this Python (it is standard library only), so the page draws the chips and
    the chooser before the runtime is ready and nothing moves when it is."""
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); "
            "from retrieval_metrics.page.session import Session; "
            "print(json.dumps(Session().measures(), separators=(',', ':')))")
    done = subprocess.run([sys.executable, "-c", code, str(package.parent)], capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"could not read the measure catalogue: {done.stderr.strip()[-300:]}")
    return json.loads(done.stdout)


def copy_examples(out: Path) -> list[dict]:
    listing = []
    for folder in sorted(p for p in (ROOT / "examples").iterdir() if p.is_dir()):
        settings_file = folder / "settings.json"
        if not settings_file.exists():
            continue
        settings = json.loads(settings_file.read_text())
        mode = settings.get("mode", "rankings")  # "answers": references + answers (the Answers mode)
        for key in ("references", "answers") if mode == "answers" else ("qrels", "run"):
            if key not in settings or not (folder / settings[key]).exists():
                fail(f"examples/{folder.name}: {settings.get(key, key)} is named in settings.json but missing")
        shutil.copytree(folder, out / "examples" / folder.name)
        listing.append({"id": folder.name, "title": settings["title"], "order": settings.get("order", 99),
                        "mode": mode})
    listing.sort(key=lambda e: (e["order"], e["id"]))
    (out / "examples" / "index.json").write_text(json.dumps(listing, indent=1) + "\n")
    return listing


def page_files(out: Path) -> dict[str, str]:
    """Copy the page's files and modules into `out`, imports versioned; returns {path: content hash}."""
    names = list(PAGE_FILES) + sorted(p.relative_to(ROOT).as_posix()
                                      for d in PAGE_MODULE_DIRS for p in (ROOT / d).glob("*.js"))
    versions: dict[str, str] = {}
    visiting: set[str] = set()

    def built(name: str) -> bytes:
        if name in visiting:
            fail(f"{name} imports itself through a cycle; the page's modules must form a tree")
        visiting.add(name)
        data = (ROOT / name).read_bytes()
        if name.endswith(".js"):
            def versioned(match: re.Match) -> bytes:
                target = (Path(name).parent / match.group(3).decode()).as_posix()
                target = os.path.normpath(target)
                if target not in names:
                    fail(f"{name} imports {match.group(3).decode()}, which is not one of the page's files")
                if target not in versions:
                    built(target)
                return match.group(1) + match.group(2) + match.group(3) + f"?v={versions[target]}".encode() + match.group(2)
            data = IMPORT_RE.sub(versioned, data)
        visiting.discard(name)
        versions[name] = short_hash(data)
        if name != "index.html":
            (out / name).parent.mkdir(parents=True, exist_ok=True)
            (out / name).write_bytes(data)
        return data

    for name in names:
        if name not in versions:
            built(name)
    return versions


def build(out: Path, package: Path = ROOT / "py" / "retrieval_metrics") -> dict:
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    pyodide_version = copy_runtime(out)
    config = {
        "pyodideVersion": pyodide_version,
        "indexURL": "pyodide/",
        "engineWheel": engine_wheel(out, package),
    }
    config["snapshot"] = memory_snapshot(out, config["engineWheel"])
    config["examples"] = copy_examples(out)
    config["measures"] = measure_catalogue(package)
    for name in STATIC_FILES:
        shutil.copy2(ROOT / name, out / name)
    write_icons(out)
    versions = page_files(out)
    config["workerURL"] = f"worker.js?v={versions['worker.js']}"
    compressed_copies(sorted(p for p in out.rglob("*") if p.is_file()))
    # What a first visit downloads before Python is ready, for the worker's progress: each file's
    # size as it is, Brotli-compressed and gzipped (the worker reads from each response the
    # encoding the server used, and counts what crossed the link).
    runtime = [f"pyodide/{name}" for name in RUNTIME_FILES if name != "pyodide.mjs"] + [config["engineWheel"]]
    config["runtimeFiles"] = {name: [(out / name).stat().st_size] + [
        (out / f"{name}{suffix}" if (out / f"{name}{suffix}").exists() else out / name).stat().st_size
        for suffix in (".br", ".gz")] for name in runtime}
    html = (ROOT / "index.html").read_text()
    if CONFIG_MARKER not in html:
        fail(f"index.html lacks the {CONFIG_MARKER} marker")
    inline = json.dumps(config, separators=(",", ":")).replace("</", "<\\/")
    html = html.replace(CONFIG_MARKER, f'<script type="application/json" id="build-config">{inline}</script>')
    html = html.replace('src="app.js"', f'src="app.js?v={versions["app.js"]}"')
    html = html.replace('href="style.css"', f'href="style.css?v={versions["style.css"]}"')
    html = html.replace('href="analysis.css"', f'href="analysis.css?v={versions["analysis.css"]}"')
    (out / "index.html").write_text(html)
    config["build"] = service_worker(out, versions, csp_of(html))
    compressed_copies([out / "index.html", out / "sw.js"])  # written since the others were
    config["sent"] = sum(sent_size(p) for p in out.rglob("*") if p.is_file() and not is_copy(p))
    return config


def csp_of(html: str) -> str:
    """The page's Content-Security-Policy (its meta tag), plus what only a header can say."""
    found = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)
    if not found:
        fail("index.html lacks its Content-Security-Policy meta tag")
    return found.group(1) + "; frame-ancestors 'none'"


def service_worker(out: Path, versions: dict[str, str], csp: str) -> str:
    """sw.js with the build's file list: every URL the page fetches, as the page asks for it
    (the page's modules with their ?v=hash), with the SHA-256 of its bytes; returns the build's
    version, a hash of that list, which names the service worker's cache."""
    files = []
    for path in sorted(p for p in out.rglob("*") if p.is_file() and not is_copy(p)):
        name = path.relative_to(out).as_posix()
        if name == "sw.js":
            continue
        if name == "index.html":
            url = "./"
        elif name in versions:
            url = f"{name}?v={versions[name]}"
        else:
            url = name
        files.append({"url": url, "sha256": hashlib.sha256(path.read_bytes()).hexdigest()})
    version = short_hash(json.dumps(files, sort_keys=True).encode())
    build = json.dumps({"version": version, "csp": csp, "files": files}, separators=(",", ":"))
    source = (ROOT / "sw.js").read_text()
    if not SW_MARKER.search(source):
        fail("sw.js lacks its /*BUILD*/ ... /*END-BUILD*/ marker")
    (out / "sw.js").write_text(SW_MARKER.sub(lambda _: f"/*BUILD*/ {build} /*END-BUILD*/", source, count=1))
    return version


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    parser.add_argument("--package", type=Path, default=ROOT / "py" / "retrieval_metrics",
                        help="the engine package folder to wheel (default py/retrieval_metrics)")
    args = parser.parse_args(argv)
    config = build(args.out.resolve(), args.package.resolve())
    size = sum(f.stat().st_size for f in args.out.rglob("*") if f.is_file() and not is_copy(f))
    print(f"build: wrote {os.path.relpath(args.out)}/ ({size / 1e6:.1f} MB, {config['sent'] / 1e6:.1f} MB compressed; "
          f"Pyodide {config['pyodideVersion']}, "
          f"{config['engineWheel']}, {len(config['examples'])} examples)")


if __name__ == "__main__":
    main()
