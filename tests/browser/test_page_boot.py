"""What a person does before and while the runtime boots, and cancelling a stale computation.

These need a fresh page (a cold boot), so they live apart from test_page.py's shared page.
"""

from __future__ import annotations

import pytest
from pagekit import BOOT_TIMEOUT_MS, App, start_in_thread
from playwright.sync_api import expect


@pytest.fixture(scope="module", params=["isolated", "plain"])
def fresh(request, browser, dist):
    """A phone-sized page on its own server: cross-origin isolated (our server) or not (a plain host)."""
    server, url = start_in_thread(dist, isolate=request.param == "isolated")
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    app = App(page, url)
    app.isolated = request.param == "isolated"
    yield app
    context.close()
    server.shutdown()


def test_typing_while_booting_is_kept_and_scored(fresh, engine_numbers):
    page = fresh.page
    fresh.open()
    expect(page.get_by_test_id("qrels-input")).to_be_editable()
    status = page.get_by_test_id("status")
    assert status.text_content() == "loading"   # usable before the runtime is ready
    qrels, run = "q1 0 d1 1\nq1 0 d2 2\n", "q1 Q0 d2 1 3.5 s\nq1 Q0 d1 2 1.5 s\n"
    page.get_by_test_id("qrels-input").fill(qrels)
    page.get_by_test_id("run-input").fill(run)
    page.get_by_test_id("k-input").fill("1,2")
    assert status.text_content() == "loading"
    expect(status).to_have_text("ready", timeout=BOOT_TIMEOUT_MS)
    fresh.settle(0)
    expect(page.get_by_test_id("qrels-input")).to_have_value(qrels)
    expect(page.get_by_test_id("run-input")).to_have_value(run)
    report = engine_numbers(qrels, run, k="1,2")
    assert fresh.means() == pytest.approx(report["mean"], abs=1e-12)


def test_a_new_edit_replaces_a_stale_computation(fresh, engine_numbers, tmp_path):
    """A large run is being scored when an edit arrives: the computation is stopped (interrupted
    when the page is cross-origin isolated, else the worker is restarted) and only the edit's
    numbers are shown."""
    page = fresh.page
    assert page.evaluate("() => self.crossOriginIsolated") == fresh.isolated
    big_run = tmp_path / "big-run.trec"
    with big_run.open("w") as out:
        for q in range(600):
            out.writelines(f"q{q} Q0 d{q}-{i} {i} {1000 - i}.5 s\n" for i in range(1, 1001))
    qrels = "".join(f"q{q} 0 d{q}-{i} 1\n" for q in range(600) for i in (1, 50, 700))
    before = fresh.renders()
    page.get_by_test_id("qrels-input").fill(qrels)
    fresh.settle(before)
    before = fresh.renders()
    page.get_by_test_id("run-file").set_input_files(big_run)
    # Without isolation the page waits for a short computation rather than restart the runtime;
    # here any running computation counts as long.
    page.evaluate("() => { window.__calculator.tuning.cancelAfterMs = 0; }")
    for _ in range(400):   # until the large input is being scored
        if page.evaluate("() => (window.__calculator.engine.running || {}).size > 1e6"):
            break
        page.wait_for_timeout(25)
    # A file this large is kept aside (the box shows a read-only preview). Clearing it is an edit
    # that is dispatched at once, while the worker still computes.
    expect(page.get_by_test_id("run-input")).not_to_be_editable()
    page.locator("[data-clear=run]").click()
    small_qrels, small_run = "a 0 x 1\n", "a Q0 x 1 1.0 s\n"
    page.get_by_test_id("qrels-input").fill(small_qrels)
    page.get_by_test_id("run-input").fill(small_run)
    fresh.settle(before, timeout=120)
    expect(page.get_by_test_id("status")).to_have_text("ready")
    assert fresh.means() == pytest.approx(engine_numbers(small_qrels, small_run, k="1,2")["mean"], abs=1e-12)
    expect(page.get_by_test_id("per-query-table").locator("tbody tr")).to_have_count(1)
    counts = page.evaluate("() => [window.__calculator.engine.cancels, window.__calculator.engine.restarts]")
    if fresh.isolated:
        assert counts[0] >= 1 and counts[1] == 0, counts   # interrupted, runtime kept
    else:
        assert counts[1] >= 1, counts                      # worker restarted


def test_starts_without_the_memory_snapshot(browser, server_url, engine_numbers):
    """A host that lacks the snapshot (or a browser that cannot use it) still gets a working page."""
    context = browser.new_context()
    context.route("**/snapshot-*.bin.gz", lambda route: route.fulfill(status=404, body="gone"))
    page = context.new_page()
    app = App(page, server_url)
    app.open()
    app.wait_ready()
    assert not page.evaluate("() => window.__calculator.engine.info.timings.snapshot")
    app.score("q1 0 d1 1\n", "q1 Q0 d1 1 2.5 s\n", k="1")
    assert app.means() == pytest.approx(engine_numbers("q1 0 d1 1\n", "q1 Q0 d1 1 2.5 s\n", k="1")["mean"])
    context.close()
