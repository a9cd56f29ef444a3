"""A large run picked in the page is scored in parts by the worker and its helpers (worker.js,
page/parts.py): the same means and per-query values as the engine under CPython, the
drill-down still answers, and Stop stops every worker. The page's thresholds (16 MB, 96 MB)
are lowered for the test through `window.__calculatorTuning`, so a run of a few hundred
kilobytes takes the same path a 7M-line run takes."""

from __future__ import annotations

import random

import pytest
from pagekit import open_app
from playwright.sync_api import expect


def generated(queries: int, seed: int = 3) -> tuple[str, str]:
    rng = random.Random(seed)
    qrels = "".join(f"q{q} 0 d{d} {rng.choice([0, 1, 2])}\n" for q in range(queries) for d in rng.sample(range(60), 10))
    lines = []
    for q in range(queries + 3):
        for i, d in enumerate(rng.sample(range(80), rng.randint(5, 60))):
            lines.append(f"q{q} Q0 d{d} {i + 1} {rng.randint(1, 40) / 8} run\n")
    return qrels, "".join(lines)


@pytest.fixture(scope="module")
def parted(browser, server_url):
    """A page whose worker cuts any run of 1 KB and more, with helpers for it."""
    app = open_app(browser, server_url, viewport={"width": 1280, "height": 900},
                   init_script="window.__calculatorTuning = { parts: { splitMin: 1024, helpersMin: 1024 } };")
    app.page.set_default_timeout(60_000)
    yield app
    app.page.context.close()


def test_a_run_in_parts_gives_the_engines_numbers(parted, tmp_path, engine_numbers):
    qrels, run = generated(300)
    last = parted.pick_files(tmp_path, qrels, run)
    assert last["worker"]["parts"] == 2  # cut in two: this worker and one helper (2 cores)
    expected = engine_numbers(qrels, run, k=10)
    assert last["means"] == expected["mean"]  # to the last bit
    table = parted.per_query()  # each cell's data-value: the value's own digits
    assert table and all(values == expected["per_query"][q] for q, values in table.items())
    assert not parted.console_errors
    # one query up close: the worker reads the run whole for it, once asked
    parted.page.locator("[data-testid=per-query-table] button[data-open='q7']").click()
    dialog = parted.page.get_by_test_id("query-detail")
    expect(dialog).to_have_attribute("data-query", "q7")
    expect(dialog).to_have_attribute("data-state", "ready", timeout=30_000)
    ranked = [line.split()[2] for line in run.splitlines() if line.startswith("q7 ")]
    rows = dialog.locator("[data-testid=query-detail-run-ranking] tbody tr").all_inner_texts()
    assert rows and all(any(f" {doc}" in f" {row}" or row.split()[1] == doc for doc in ranked) for row in rows[:5])
    parted.page.keyboard.press("Escape")


def test_stop_stops_every_worker_and_the_next_score_works(parted, tmp_path, engine_numbers):
    qrels, run = generated(6000, seed=4)  # a few seconds of work in parts
    page = parted.page
    (tmp_path / "q.qrels").write_text(qrels)
    (tmp_path / "r.run").write_text(run)
    before = parted.renders()
    page.get_by_test_id("qrels-file").set_input_files(tmp_path / "q.qrels")
    parted.settle(before)
    page.get_by_test_id("run-file").set_input_files(tmp_path / "r.run")
    page.wait_for_function("() => window.__calculator.engine.running?.type === 'analyse'", timeout=30_000)
    page.wait_for_timeout(300)  # the parts are out
    page.get_by_test_id("cancel").click()
    page.wait_for_function("() => !window.__calculator.engine.running", timeout=10_000)
    again = page.get_by_test_id("score-again").filter(visible=True).first
    expect(again).to_be_visible()
    # scored again: every worker answers (a stopped helper is started anew)
    before = parted.renders()
    again.click()
    parted.settle(before, timeout=120)
    last = page.evaluate("() => window.__calculator.timings.lastScore")
    assert last["worker"]["parts"] == 2
    assert last["means"] == engine_numbers(qrels, run, k=10)["mean"]


def test_a_file_of_32_mb_keeps_its_bytes_and_counts_its_lines_without_holding_the_page(parted, tmp_path, engine_numbers):
    """Above 32 MB the page decodes only the head for the preview and counts the lines a slice
    at a time; the note ends with the count, the box shows the first lines, the scores are the
    engine's."""
    rng = random.Random(9)
    qrels = "".join(f"q{q} 0 d{d} {rng.choice([0, 1, 2])}\n" for q in range(500) for d in rng.sample(range(900), 30))
    rows = [f"q{q} Q0 d{d} {i + 1} {1000 - i}.{q % 7} a-run-tag-long-enough-to-make-the-file-pass-32-mb\n"
            for q in range(500) for i, d in enumerate(rng.sample(range(1000), 1000))]
    run = "".join(rows)
    assert len(run) > 32 << 20
    last = parted.pick_files(tmp_path, qrels, run)
    page = parted.page
    expect(page.locator("#run-big")).to_contain_text(f"({len(run) / 1e6:.1f} MB, {len(rows):,} lines)")
    assert page.get_by_test_id("run-input").input_value().startswith(rows[0] + rows[1])
    expect(page.locator("#run-big")).not_to_contain_text("Edit the whole text")
    assert last["means"] == engine_numbers(qrels, run, k=10)["mean"]
