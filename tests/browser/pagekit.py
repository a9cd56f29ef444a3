"""Helpers for the browser tests: Debian's Chromium settings and `App`, the page under test."""

from __future__ import annotations

import importlib.util
import os
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _load_static_server():
    """scripts/static_server.py, loaded by path (scripts/ is not put on sys.path)."""
    spec = importlib.util.spec_from_file_location("rm_static_server", ROOT / "scripts" / "static_server.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


start_in_thread = _load_static_server().start_in_thread

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BOOT_TIMEOUT_MS = 90_000

# An init script: every text the status line shows (window.__statusSeen), from the first one.
WATCH_STATUS_JS = """
    window.__statusSeen = [];
    document.addEventListener('DOMContentLoaded', () => {
        const detail = document.getElementById('status-detail');
        new MutationObserver(() => window.__statusSeen.push(detail.textContent))
            .observe(detail, {childList: true, characterData: true, subtree: true});
    });
"""



def open_app(browser, url: str, init_script: str | None = None, **context_options) -> "App":
    """The page at ``url``, booted, in a browser context of its own (its own storage and
    service workers; close it with ``app.page.context.close()``); ``init_script`` runs before
    the page's own scripts."""
    context = browser.new_context(**context_options)
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    page.set_default_timeout(30_000)
    app = App(page, url)
    app.open()
    app.wait_ready()
    return app


class App:
    """The calculator in one page: fill the boxes and settings, wait for the engine, read tables."""

    def __init__(self, page, url: str):
        self.page = page
        self.url = url
        self.requests: list[str] = []
        self.console_errors: list[str] = []
        page.on("request", lambda request: self.requests.append(request.url))
        page.on("console", lambda msg: self.console_errors.append(msg.text) if msg.type == "error" else None)
        page.on("pageerror", lambda exc: self.console_errors.append(str(exc)))

    def open(self) -> None:
        self.page.goto(self.url)

    def wait_ready(self) -> None:
        from playwright.sync_api import expect
        expect(self.page.get_by_test_id("status")).to_have_text("ready", timeout=BOOT_TIMEOUT_MS)

    def renders(self) -> int:
        return self.page.evaluate("() => window.__calculator.renders")

    def settle(self, since: int, timeout: float = 60) -> None:
        """Waits until the page drew a result after render number `since` and nothing is pending."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.page.evaluate("() => [window.__calculator.renders, window.__calculator.busy()]")
            if state[0] > since and not state[1]:
                return
            time.sleep(0.05)
        detail = self.page.evaluate("""() => { const e = window.__calculator.engine;
            return {renders: window.__calculator.renders, ready: e.ready, failed: e.failed, running: e.running,
                    wanted: e.wanted, status: document.getElementById('status-detail').textContent}; }""")
        raise AssertionError(f"the page did not settle within {timeout} s after render {since}: {detail}; "
                             f"console errors: {self.console_errors[-3:]}")

    def score(self, qrels: str, run: str, *, k: str = "10", gain: str = "linear", missing: str = "zero",
              qrels_format: str = "auto", run_format: str = "auto", third_column: str = "auto",
              since: int | None = None) -> None:
        """Sets everything and waits for the result; ``since``: the render count before the
        caller's own changes (a checkbox, the baseline), which may have drawn already."""
        page = self.page
        before = self.renders() if since is None else since
        page.get_by_test_id("gain-select").select_option(gain)
        page.get_by_test_id("missing-select").select_option(missing)
        page.get_by_test_id("qrels-format").select_option(qrels_format)
        page.get_by_test_id("run-format").select_option(run_format)
        page.get_by_test_id("third-column-select").select_option(third_column)
        page.get_by_test_id("k-input").fill(k)
        page.get_by_test_id("qrels-input").fill(qrels)
        page.get_by_test_id("run-input").fill(run)
        self.settle(before)

    def pick_files(self, folder, qrels: str, run: str, k: str = "10") -> dict:
        """Writes the judgements and the run into ``folder`` and picks them in the boxes' file
        pickers, as a person does, the judgements first; the last score's timings."""
        (folder / "judged.qrels").write_text(qrels)
        (folder / "picked.run").write_text(run)
        page = self.page
        page.get_by_test_id("k-input").fill(k)
        before = self.renders()
        page.get_by_test_id("qrels-file").set_input_files(folder / "judged.qrels")
        self.settle(before)
        before = self.renders()
        page.get_by_test_id("run-file").set_input_files(folder / "picked.run")
        self.settle(before, timeout=120)
        return page.evaluate("() => window.__calculator.timings.lastScore")

    def show_panel(self, name: str) -> None:
        """Opens the settings panel ``"more-settings"`` (threshold, ties, the -m field...) or
        ``"all-measures"`` (the registry's groups of checkboxes) when it is closed."""
        button = self.page.get_by_test_id(name)
        if button.get_attribute("aria-expanded") != "true":
            button.click()

    def means(self) -> dict[str, float]:
        """{"ndcg@10": value} of the measures at every k (the means table), by each cell's
        data-key and data-value."""
        return self.page.evaluate("""() => {
            const out = {};
            for (const td of document.querySelectorAll('[data-testid=means-table] td[data-key]')) {
                if (td.dataset.value !== '') out[td.dataset.key] = Number(td.dataset.value);
            }
            return out;
        }""")

    def all_means(self) -> dict[str, float | None]:
        """Every mean shown (both means tables), by report key; None for an undefined one."""
        return self.page.evaluate("""() => {
            const out = {};
            for (const td of document.querySelectorAll('[data-testid=means-table] td[data-key], [data-testid=means-whole-table] td[data-key]')) {
                out[td.dataset.key] = td.dataset.value === '' ? null : Number(td.dataset.value);
            }
            return out;
        }""")

    def per_query(self) -> dict[str, dict[str, float]]:
        """{query id: {"ndcg@10": value}}, keyed by each cell's data-key (not the header order)."""
        return self.page.evaluate("""() => {
            const table = document.querySelector('[data-testid=per-query-table]');
            const out = {};
            for (const row of table.querySelectorAll('tbody tr')) {
                const values = {};
                for (const td of row.querySelectorAll('td[data-key]')) values[td.dataset.key] = Number(td.dataset.value);
                out[row.dataset.query] = values;
            }
            return out;
        }""")

    def download(self, kind: str, folder) -> str:
        """Chooses `kind` ("report-json", "per-query-csv", ...) in the download menu, saves the
        file into `folder` and returns its text."""
        self.page.get_by_test_id("download-kind").select_option(kind)
        with self.page.expect_download() as info:
            self.page.get_by_test_id("download-button").click()
        path = Path(folder) / info.value.suggested_filename
        info.value.save_as(path)
        return path.read_text(encoding="utf-8")

    def off_origin(self) -> list[str]:
        return [u for u in self.requests if not (u.startswith(self.url) or u.startswith("blob:" + self.url.rstrip("/"))
                                                  or u.startswith("data:"))]
