#!/usr/bin/env python3
"""Assemble the calculator page into one self-contained static folder (default: dist/).

    python3 scripts/build.py [--out DIR]

What goes in:
  index.html, app.js, worker.js, style.css     the page (index.html gets the build config inlined)
  views/*.js                                   ES modules app.js imports (one file per view)
  pyodide/                                     the five Pyodide runtime files from node_modules/pyodide
  wheels/micropip-*.whl                        micropip's wheel, from PyPI (cached in vendor/)
  wheels/<hash>/retrieval_metrics-*.whl        our engine, built here from py/retrieval_metrics
  examples/<name>/...                          the bundled examples, plus examples/index.json

Standard library only, so any Python >= 3.11 runs it. The only network use is the one-time
`pip download` of micropip's wheel into vendor/ (PyPI), skipped when the wheel is already there.
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
PYODIDE_DIR = ROOT / "node_modules" / "pyodide"
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
PAGE_FILES = ("index.html", "app.js", "worker.js", "style.css")
# Folders of ES modules the page imports. Every relative import ("./views/x.js", "./dom.js") in a
# built module is rewritten to "...js?v=<hash of the built target>", so a browser never pairs a
# cached module with a newer one that imports it.
PAGE_MODULE_DIRS = ("views",)
IMPORT_RE = re.compile(rb"""((?:\bfrom|\bimport)\s*\(?\s*)(["'])(\.{1,2}/[^"'?]+\.js)\2""")
VENDOR = ROOT / "vendor"
CONFIG_MARKER = "<!--BUILD-CONFIG-->"


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
    return version


def micropip_wheel(out: Path) -> str:
    """Copy micropip's wheel (the version pyodide-lock.json names) into wheels/, fetching it once."""
    lock = json.loads((PYODIDE_DIR / "pyodide-lock.json").read_text())
    entry = lock["packages"]["micropip"]
    name = entry["file_name"]
    cached = VENDOR / name
    if not cached.exists():
        VENDOR.mkdir(exist_ok=True)
        venv_python = ROOT / ".venv" / "bin" / "python"
        python = str(venv_python) if venv_python.exists() else sys.executable
        command = [
            python, "-m", "pip", "download", f"micropip=={entry['version']}", "--no-deps",
            "--only-binary=:all:", "--python-version", "3.14", "--disable-pip-version-check", "-q",
            "-d", str(VENDOR),
        ]
        print("build: fetching", name, "from PyPI (once; cached in vendor/)")
        if subprocess.run(command).returncode != 0 or not cached.exists():
            fail(f"could not download {name} with {python} -m pip")
    (out / "wheels").mkdir(exist_ok=True)
    shutil.copy2(cached, out / "wheels" / name)
    return f"wheels/{name}"


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
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files:
            info = zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0))  # reproducible
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            wheel.writestr(info, data)
    return f"wheels/{content_hash}/{filename}"


def memory_snapshot(out: Path) -> str | None:
    """A memory snapshot of a started interpreter (scripts/snapshot.mjs, run with Node), or None.

    Optional: without Node, or when RM_NO_SNAPSHOT is set, the page starts Pyodide the normal way.
    """
    node = shutil.which("node")
    if os.environ.get("RM_NO_SNAPSHOT") or node is None:
        return None
    target = out / "pyodide" / "snapshot.bin.gz"
    done = subprocess.run([node, str(ROOT / "scripts" / "snapshot.mjs"), str(target)], capture_output=True, text=True)
    if done.returncode != 0 or not target.exists():
        print(f"build: no memory snapshot (the page starts Pyodide without one): {done.stderr.strip()[-300:]}")
        return None
    # Named by content so a browser never pairs a cached snapshot with another runtime.
    named = target.with_name(f"snapshot-{short_hash(target.read_bytes())}.bin.gz")
    target.rename(named)
    return f"pyodide/{named.name}"


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
        "micropipWheel": micropip_wheel(out),
        "engineWheel": engine_wheel(out, package),
    }
    config["snapshot"] = memory_snapshot(out)
    config["examples"] = copy_examples(out)
    versions = page_files(out)
    config["workerURL"] = f"worker.js?v={versions['worker.js']}"
    html = (ROOT / "index.html").read_text()
    if CONFIG_MARKER not in html:
        fail(f"index.html lacks the {CONFIG_MARKER} marker")
    inline = json.dumps(config, separators=(",", ":")).replace("</", "<\\/")
    html = html.replace(CONFIG_MARKER, f'<script type="application/json" id="build-config">{inline}</script>')
    html = html.replace('src="app.js"', f'src="app.js?v={versions["app.js"]}"')
    html = html.replace('href="style.css"', f'href="style.css?v={versions["style.css"]}"')
    (out / "index.html").write_text(html)
    return config


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    parser.add_argument("--package", type=Path, default=ROOT / "py" / "retrieval_metrics",
                        help="the engine package folder to wheel (default py/retrieval_metrics)")
    args = parser.parse_args(argv)
    config = build(args.out.resolve(), args.package.resolve())
    size = sum(f.stat().st_size for f in args.out.rglob("*") if f.is_file())
    print(f"build: wrote {os.path.relpath(args.out)}/ ({size / 1e6:.1f} MB; Pyodide {config['pyodideVersion']}, "
          f"{config['engineWheel']}, {len(config['examples'])} examples)")


if __name__ == "__main__":
    main()
