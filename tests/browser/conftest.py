"""Browser tests of the calculator page: the built dist/ served on 127.0.0.1, Debian's Chromium.

The page is built (scripts/build.py) when dist/ is missing or older than its sources, so plain
`python -m pytest` works as well as scripts/test. Pyodide boots once per test module (the `app`
fixture); each test then fills the boxes and waits for the page to settle.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
sys.path.insert(0, str(Path(__file__).resolve().parent))
from pagekit import CHROMIUM, CHROMIUM_ARGS, App, start_in_thread  # noqa: E402

SOURCES = ["index.html", "app.js", "views", "worker.js", "sw.js", "style.css", "analysis.css", "manifest.webmanifest", "icon.svg",
           "scripts/build.py", "scripts/icons.py", "scripts/snapshot.mjs", "examples", "py/retrieval_metrics"]


def _newest(path: Path) -> float:
    if path.is_file():
        return path.stat().st_mtime
    return max((p.stat().st_mtime for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts), default=0)


def _stale() -> bool:
    built = DIST / "index.html"
    if not built.exists():
        return True
    return max(_newest(ROOT / s) for s in SOURCES) > built.stat().st_mtime


@pytest.fixture(scope="session")
def dist() -> Path:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: scripts/setup --browser installs it")
        pytest.skip(f"{CHROMIUM} is missing (scripts/setup --browser installs Debian's chromium)")
    if _stale():
        if not (ROOT / "node_modules" / "pyodide").is_dir():
            if shutil.which("npm") is None:
                pytest.skip("node_modules/pyodide is missing and npm is not available")
            subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=ROOT, check=True)
        subprocess.run([sys.executable, str(ROOT / "scripts" / "build.py")], cwd=ROOT, check=True)
    return DIST


@pytest.fixture(scope="session")
def server_url(dist: Path) -> str:
    server, url = start_in_thread(dist)
    yield url
    server.shutdown()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """pytest-playwright cannot download browsers here: use Debian's Chromium."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="module")
def app(browser, server_url):
    """One booted page per test module (Pyodide takes seconds to start)."""
    context = browser.new_context(accept_downloads=True, viewport={"width": 1280, "height": 900})
    blocked: list[str] = []

    def block(route):   # anything not for the local server is refused, and remembered
        blocked.append(route.request.url)
        route.abort()
    context.route(lambda url: not url.startswith(server_url), block)
    page = context.new_page()
    page.set_default_timeout(30_000)
    calculator = App(page, server_url)
    calculator.blocked = blocked
    calculator.open()
    calculator.wait_ready()
    yield calculator
    context.close()


@pytest.fixture(scope="session")
def engine_numbers():
    """The engine's own report under CPython (a dict), for the same text and settings as the page."""
    from retrieval_metrics import evaluate

    def run(qrels, run, **options) -> dict:
        return evaluate(qrels, run, **options).to_dict()
    return run
