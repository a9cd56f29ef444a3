"""Offline use (issue 11): the service worker saves the build on the first visit; afterwards the
page boots, loads every example and scores with the network off; a rebuilt dist/ replaces the old
cache; failing downloads are said in words; the page is installable.

Each test has its own browser context and server on its own copy of dist/ (a service worker and
its caches belong to an origin), so nothing here touches the page the other modules share.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from pagekit import WATCH_STATUS_JS, App, _load_static_server, open_app, start_in_thread
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]

SAVED_JS = """async () => {
    await window.__calculator.offline;
    const registration = await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
        await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, {once: true}));
    }
    return {active: registration.active.state, caches: await caches.keys(),
            isolated: self.crossOriginIsolated};
}"""


def sw_version(folder: Path) -> str:
    """The build's version, as scripts/build.py wrote it into sw.js (the cache is named by it)."""
    text = (folder / "sw.js").read_text()
    build = json.loads(text.split("/*BUILD*/", 1)[1].split("/*END-BUILD*/", 1)[0])
    return build["version"]


@pytest.fixture()
def site(dist, tmp_path):
    """A copy of dist/ on its own server (isolating, as scripts/static_server.py does)."""
    folder = tmp_path / "site"
    shutil.copytree(dist, folder)
    servers = []

    def serve(isolate: bool = True) -> str:
        server, url = start_in_thread(folder, isolate=isolate)
        servers.append(server)
        return url
    yield folder, serve
    for server in servers:
        server.shutdown()


def new_app(browser, url: str, **options) -> App:
    return open_app(browser, url, **{"service_workers": "allow", "accept_downloads": True, **options})


def load_example(app: App, example_id: str) -> None:
    before = app.renders()
    app.page.get_by_test_id("examples-select").select_option(example_id)
    app.settle(before)


def test_offline_after_the_first_visit(browser, site):
    folder, serve = site
    app = new_app(browser, serve())
    saved = app.page.evaluate(SAVED_JS)
    assert saved["caches"] == [f"retrieval-metrics-{sw_version(folder)}"]
    app.page.context.set_offline(True)
    app.page.reload()
    app.wait_ready()
    assert app.page.evaluate("() => Boolean(navigator.serviceWorker.controller) && self.crossOriginIsolated")
    # The Wikipedia example (tests/browser/test_page.py): nDCG@6 = 0.785, as published.
    load_example(app, "wikipedia-ndcg")
    assert round(app.means()["ndcg@6"], 3) == 0.785
    examples = json.loads((folder / "examples" / "index.json").read_text())
    for example in examples:  # the ranking examples (the Answers mode has its own menu)
        if example.get("mode", "rankings") != "rankings":
            continue
        load_example(app, example["id"])
        expect(app.page.get_by_test_id("examples-error")).to_be_hidden()
        expect(app.page.get_by_test_id("qrels-error")).to_be_hidden()
        assert app.page.get_by_test_id("examples-select").input_value() == example["id"]
        assert app.means(), example["id"]
    # the Answers mode's examples are saved too (every file of the build is)
    for example in examples:
        settings = app.page.evaluate(f"async () => (await fetch('examples/{example['id']}/settings.json')).ok")
        assert settings is True, example["id"]
    app.page.context.close()


def counting_server(folder: Path):
    """scripts/static_server.py on ``folder``, recording (path, status, Content-Encoding) of
    every answer: the page's, its workers' and the service worker's requests alike."""
    static = _load_static_server()

    class Counting(static.Handler):
        def send_response(self, code, message=None):
            self.server.answers.append([self.path.split("?")[0], code, None])
            super().send_response(code, message)

        def send_header(self, keyword, value):
            if keyword.lower() == "content-encoding":
                self.server.answers[-1][2] = value
            super().send_header(keyword, value)

    import functools
    import threading
    server = static.Server(("127.0.0.1", 0), functools.partial(Counting, directory=str(folder)))
    server.answers = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def test_the_first_visit_downloads_each_file_once_compressed_and_the_second_starts_from_the_snapshot(browser, site):
    """A first visit starts Python without the memory snapshot (7 MB that a slow link cannot
    afford), shows how much of the download has arrived, receives each file once (the service
    worker takes what the page's worker downloaded), compressed; the next visit starts from the
    snapshot, with every module of the engine already imported."""
    folder, _ = site
    server, url = counting_server(folder)
    try:
        context = browser.new_context(service_workers="allow")
        context.add_init_script(WATCH_STATUS_JS)
        page = context.new_page()
        app = App(page, url)
        app.open()
        app.wait_ready()
        timings = page.evaluate("() => window.__calculator.engine.info.timings")
        assert timings.get("snapshot") is not True
        seen = page.evaluate("() => window.__statusSeen")
        assert any(re.fullmatch(r"downloading Python: \d+\.\d of \d+\.\d MB", text) for text in seen), seen
        page.evaluate(SAVED_JS)
        ok = [(path, encoding) for path, code, encoding in server.answers if code == 200]
        paths = [path for path, _ in ok]
        twice = sorted({path for path in paths if paths.count(path) > 1})
        assert not twice, twice
        encodings = dict(ok)
        assert encodings["/pyodide/pyodide.asm.wasm"] == "br"
        assert encodings["/pyodide/python_stdlib.zip"] == "br"
        assert any(path.endswith(".whl") and encoding == "br" for path, encoding in ok)
        assert page.evaluate("async () => (await caches.keys()).length") == 1  # the first visit's staging is gone
        page.reload()
        app.wait_ready()
        timings = page.evaluate("() => window.__calculator.engine.info.timings")
        if list((folder / "pyodide").glob("snapshot-*.bin.gz")):
            assert timings["snapshot"] is True
            # ... with every module of every subpackage already imported (not only the top level)
            package = ROOT / "py" / "retrieval_metrics"
            modules = [p for p in package.rglob("*.py") if p.relative_to(package).as_posix()
                       not in ("__init__.py", "__main__.py", "cli.py")]
            assert timings["engineModules"] == len(modules)
        load_example(app, "wikipedia-ndcg")
        assert round(app.means()["ndcg@6"], 3) == 0.785
        assert not app.console_errors
        context.close()
    finally:
        server.shutdown()


def test_a_plain_static_host_is_isolated_from_the_second_visit(browser, site):
    """No COOP/COEP from the host: the service worker adds them to what it serves."""
    _, serve = site
    app = new_app(browser, serve(isolate=False))
    assert app.page.evaluate("() => self.crossOriginIsolated") is False
    app.page.evaluate(SAVED_JS)
    app.page.reload()
    app.wait_ready()
    assert app.page.evaluate("() => self.crossOriginIsolated") is True
    assert app.page.evaluate("() => window.__calculator.engine.interrupt !== null")
    app.page.context.close()


def test_a_rebuilt_site_replaces_the_old_cache(browser, site, tmp_path):
    folder, serve = site
    app = new_app(browser, serve())
    old = f"retrieval-metrics-{sw_version(folder)}"
    assert app.page.evaluate(SAVED_JS)["caches"] == [old]
    new = rebuild(folder, tmp_path)  # changed content: the engine with one more line
    assert new != old
    # The reload finds the new service worker; with empty boxes the page lets it take over at
    # once and reloads into the new build.
    with app.page.expect_event("load", timeout=60_000):
        app.page.reload()
    app.page.wait_for_function(f"""async () => {{
        const keys = await caches.keys();
        return keys.length === 1 && keys[0] === {json.dumps(new)};
    }}""", timeout=60_000)
    app.page.wait_for_function("() => !document.getElementById('build-config').textContent.includes('snapshot-')",
                               timeout=60_000)  # the page itself is the new build's (built without a snapshot)
    app.wait_ready()
    load_example(app, "wikipedia-ndcg")
    assert round(app.means()["ndcg@6"], 3) == 0.785
    app.page.context.close()


def rebuild(folder: Path, tmp_path: Path) -> str:
    """Builds the site again into `folder` with changed content; returns the new cache name."""
    package = tmp_path / "pkg" / "retrieval_metrics"
    shutil.copytree(ROOT / "py" / "retrieval_metrics", package, ignore=shutil.ignore_patterns("__pycache__"))
    with open(package / "__init__.py", "a") as file:
        file.write("\n# a later build\n")
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build.py"), "--out", str(folder), "--package", str(package)],
                   check=True, capture_output=True, env={**os.environ, "RM_NO_SNAPSHOT": "1"})
    return f"retrieval-metrics-{sw_version(folder)}"


def axe_violations(app) -> list:
    """axe-core's violations of the page as it is (tests/browser/test_page_axe.py's check)."""
    from test_page_axe import AXE, violations
    app.page.add_script_tag(path=str(AXE))
    return violations(app)


def test_a_new_build_never_empties_the_boxes_unasked(browser, site, tmp_path):
    """Found while the person has text in a box: a note offers the reload; nothing happens until
    they choose it; then the new build takes over and the old cache is gone."""
    folder, serve = site
    app = new_app(browser, serve(), bypass_csp=True)  # bypass: to inject axe-core
    page = app.page
    old = page.evaluate(SAVED_JS)["caches"][0]
    page.get_by_test_id("qrels-input").fill("q1 0 d1 1\n")
    new = rebuild(folder, tmp_path)
    page.evaluate("async () => { await (await navigator.serviceWorker.ready).update(); }")
    note = page.get_by_test_id("update-note")
    expect(note).to_be_visible(timeout=60_000)
    expect(note).to_contain_text("A new version of the calculator is ready")
    page.screenshot(path=str(ROOT / "tests" / "browser" / "screenshots" / "update-note.png"))
    assert axe_violations(app) == []
    page.set_viewport_size({"width": 1280, "height": 900})
    assert page.get_by_test_id("qrels-input").input_value() == "q1 0 d1 1\n"
    assert sorted(page.evaluate("() => caches.keys()")) == sorted([old, new])  # the new one waits
    with page.expect_event("load", timeout=60_000):
        page.get_by_test_id("update-reload").click()
    page.wait_for_function(f"async () => (await caches.keys()).join() === {json.dumps(new)}", timeout=60_000)
    app.wait_ready()
    page.context.close()


def test_failing_example_download_is_said_and_not_claimed(browser, site):
    _, serve = site
    url = serve()
    app = new_app(browser, url, service_workers="block", bypass_csp=True)  # bypass: to inject axe-core
    page = app.page
    page.get_by_test_id("qrels-input").fill("q1 0 d1 1\n")
    page.context.route("**/examples/wikipedia-ndcg/run.txt", lambda route: route.abort())
    page.get_by_test_id("examples-select").select_option("wikipedia-ndcg")
    error = page.get_by_test_id("examples-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("Could not load the example")
    expect(error).to_contain_text("The boxes are unchanged")
    assert page.get_by_test_id("examples-select").input_value() == ""
    assert page.get_by_test_id("qrels-input").input_value() == "q1 0 d1 1\n"
    page.screenshot(path=str(ROOT / "tests" / "browser" / "screenshots" / "example-failed.png"))
    assert axe_violations(app) == []

    page.context.set_offline(True)  # offline, and nothing saved (no service worker here)
    page.get_by_test_id("examples-select").select_option("three-queries-csv")
    expect(error).to_contain_text("this device is offline and the example is not saved on it yet")
    assert page.get_by_test_id("examples-select").input_value() == ""
    page.context.close()


def test_runtime_download_failure_is_said_in_words(browser, site):
    """Pyodide's files cannot be fetched (offline with nothing saved, a broken host): the status
    says what happened and what to do, not a JavaScript error."""
    _, serve = site
    url = serve()
    context = browser.new_context(service_workers="block")
    context.route("**/pyodide/**", lambda route: route.abort())
    page = context.new_page()
    page.goto(url)
    expect(page.get_by_test_id("status")).to_have_text("failed", timeout=30_000)
    detail = page.locator("#status-detail")
    expect(detail).to_contain_text("could not be downloaded; check the connection")
    assert "TypeError" not in detail.text_content()
    context.close()


def test_installable(browser, site):
    folder, serve = site
    app = new_app(browser, serve())
    app.page.evaluate(SAVED_JS)
    cdp = app.page.context.new_cdp_session(app.page)
    errors = [e["errorId"] for e in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]]
    assert errors == ["in-incognito"], errors  # Playwright's contexts are incognito: nothing else is missing
    manifest = json.loads((folder / "manifest.webmanifest").read_text())
    for icon in manifest["icons"]:
        data = (folder / icon["src"]).read_bytes()
        if icon["type"] == "image/png":
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", data[16:24])
            assert f"{width}x{height}" == icon["sizes"]
    assert not app.console_errors, app.console_errors
    app.page.context.close()
