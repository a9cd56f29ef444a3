"""Many runs on the page, in Chromium: files added together, named, renamed, removed, one the
baseline; the systems x metrics table, the differences, the exports and the curves.

Every number is checked against the engine under CPython for the same texts and settings
(`retrieval_metrics.page.web.analyse_many` and `precision_recall_many`, the calls the worker makes),
whose statistics are checked against scipy and statsmodels in tests/test_many.py / test_stats.py.
"""

from __future__ import annotations

import random
import time

import pytest
from playwright.sync_api import expect
from retrieval_metrics.page import web

K = "5"
METRIC_KEYS = ["recall@5", "precision@5", "mrr@5", "ndcg@5"]


def collection(n_queries: int = 14, n_runs: int = 3, seed: int = 5):
    """TREC qrels and runs; run i moves the relevant documents up by i (with noise)."""
    rng = random.Random(seed)
    qrels, runs = [], {f"run{i}": [] for i in range(n_runs)}
    for q in range(n_queries):
        qid = f"q{q:02d}"
        docs = [f"d{j}" for j in range(20)]
        relevant = set(rng.sample(docs, rng.randint(1, 5)))
        qrels += [f"{qid} 0 {d} {rng.randint(1, 3)}" for d in sorted(relevant)]
        qrels += [f"{qid} 0 {d} 0" for d in rng.sample(sorted(set(docs) - relevant), 4)]
        order = rng.sample(docs, 12)
        for i in range(n_runs):
            noise = {d: rng.uniform(0, 5) - (i * 4.0 if d in relevant else 0) for d in order}
            ranked = sorted(order, key=lambda d: order.index(d) + noise[d])
            runs[f"run{i}"] += [f"{qid} Q0 {d} {r + 1} {40 - r} run{i}" for r, d in enumerate(ranked)]
    return "\n".join(qrels) + "\n", {n: "\n".join(lines) + "\n" for n, lines in runs.items()}


QRELS, RUNS = collection()


def engine(names: list[str], **options) -> dict:
    """What the worker computes for these runs (in this order) with the page's settings."""
    out = web.analyse_many(QRELS, [(n, RUNS[n]) for n in names],
                           {"k": K, "metrics": ["recall", "precision", "mrr", "ndcg"], **options})
    out["curves"] = web.precision_recall_many()
    return out


def wait_many(app, since: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        renders, busy = app.page.evaluate("() => [window.__calculator.many.renders(), window.__calculator.many.busy()]")
        if renders > since and not busy:
            return
        time.sleep(0.05)
    raise AssertionError(f"the many-run comparison did not finish; console: {app.console_errors[-3:]}")


def many_renders(app) -> int:
    return app.page.evaluate("() => window.__calculator.many.renders()")


def files(names):
    return [{"name": f"{n}.trec", "mimeType": "text/plain", "buffer": RUNS[n].encode()} for n in names]


@pytest.fixture(scope="module")
def loaded(app):
    """The judgements in their box, k = 5, and the three runs added as files at once."""
    before = app.renders()
    app.score(QRELS, "", k=K)  # no single run: the many-run table stands alone
    assert app.renders() > before
    since = many_renders(app)
    app.page.get_by_test_id("many-file").set_input_files(files(["run0", "run1", "run2"]))
    wait_many(app, since)
    return app


def table(app) -> dict:
    return app.page.evaluate("""() => {
        const out = {};
        for (const row of document.querySelectorAll('[data-testid=many-table] tbody tr')) {
            const cells = {};
            for (const td of row.querySelectorAll('td')) cells[td.dataset.metric] = {
                value: td.dataset.value === '' ? null : Number(td.dataset.value), marker: td.dataset.marker || null,
                ci: td.querySelector('.ci')?.textContent ?? null, best: Boolean(td.querySelector('.best'))};
            out[row.dataset.run] = cells;
        }
        return out;
    }""")


def differences(app) -> dict:
    return app.page.evaluate("""() => {
        const out = {};
        for (const row of document.querySelectorAll('[data-testid=many-diffs] tbody tr')) {
            const cells = {};
            for (const td of row.querySelectorAll('td[data-field]')) cells[td.dataset.field] = td.dataset.value ?? td.textContent;
            out[`${row.dataset.run} ${row.dataset.metric}`] = cells;
        }
        return out;
    }""")


def check_against(app, expected: dict) -> None:
    c = expected["comparison"]
    got = table(app)
    assert list(got) == c["systems"]
    for system in c["systems"]:
        for metric in c["metrics"]:
            cell = got[system][metric]
            mean = c["means"][system][metric]
            assert cell["value"] == pytest.approx(mean["mean"], abs=1e-12), (system, metric)
            low, high = (f"{v:.3f}".replace("-", "−") for v in (mean["low"], mean["high"]))
            assert cell["ci"] == f"[{low}, {high}]"
            marker = c["differences"].get(system, {}).get(metric, {}).get("marker")
            assert cell["marker"] == marker, (system, metric)
    app.page.get_by_test_id("many-diff-metric").select_option("")   # all metrics
    rows = differences(app)
    assert len(rows) == (len(c["systems"]) - 1) * len(c["metrics"])
    for system, by_metric in c["differences"].items():
        for metric, d in by_metric.items():
            row = rows[f"{system} {metric}"]
            assert float(row["delta"]) == pytest.approx(d["delta"], abs=1e-12)
            assert float(row["p_value"]) == pytest.approx(d["p_value"], abs=1e-15)
            assert float(row["p_corrected"]) == pytest.approx(d["p_corrected"], abs=1e-15)
            assert row["wtl"] == f"{d['wins']}/{d['ties']}/{d['losses']}"
            if d["effect_size"] is not None:
                assert float(row["effect_size"]) == pytest.approx(d["effect_size"], abs=1e-12)
    expect(app.page.get_by_test_id("many-description")).to_have_text(c["description"])
    assert app.page.get_by_test_id("many-latex").text_content() == expected["exports"]["latex"]
    assert app.page.get_by_test_id("many-markdown").text_content() == expected["exports"]["markdown"]


def test_files_become_named_runs_and_the_table_is_the_engines(loaded):
    app = loaded
    names = app.page.get_by_test_id("many-name").evaluate_all("(inputs) => inputs.map((i) => i.value)")
    assert names == ["run0", "run1", "run2"]   # file names without their extension
    expected = engine(["run0", "run1", "run2"])
    # the generator makes later runs better: something must be significant, or the markers are untested
    # some cells significant and some not, or the markers would be untested
    assert 0 < len(expected["comparison"]["significant"]) < 8
    check_against(app, expected)
    # the runs' curves, all on one chart
    expect(app.page.get_by_test_id("chart-many-pr-svg")).to_have_attribute("data-runs", "3")
    cells = app.page.get_by_test_id("chart-many-pr-table").locator("tbody tr").evaluate_all(
        "(rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => Number(td.dataset.value)))")
    assert [[row[i] for row in cells] for i in range(3)] == [r["precision"] for r in expected["curves"]["runs"]]


def test_baseline_test_and_correction_choices(loaded):
    app = loaded
    page = app.page
    since = many_renders(app)
    radio = page.get_by_test_id("many-list").locator("input[type=radio]").nth(0)
    radio.focus()
    page.keyboard.press("ArrowDown")     # the keyboard moves the baseline to run1
    wait_many(app, since)
    expect(page.get_by_test_id("many-list").locator("input[type=radio]").nth(1)).to_be_checked()
    since = many_renders(app)
    page.get_by_test_id("many-test").select_option("t")
    wait_many(app, since)
    since = many_renders(app)
    page.get_by_test_id("many-correction").select_option("bonferroni")
    wait_many(app, since)
    check_against(app, engine(["run0", "run1", "run2"], baseline="run1", test="t", correction="bonferroni"))
    for select, value in (("many-test", "randomisation"), ("many-correction", "holm")):
        since = many_renders(app)
        page.get_by_test_id(select).select_option(value)
        wait_many(app, since)
    since = many_renders(app)
    page.get_by_test_id("many-list").locator("input[type=radio]").nth(0).check()
    wait_many(app, since)


def test_rename_and_remove(loaded):
    app = loaded
    page = app.page
    since = many_renders(app)
    name = page.get_by_test_id("many-name").nth(2)
    name.fill("run0")           # taken: made unique
    name.press("Enter")
    name.blur()
    wait_many(app, since)
    names = page.get_by_test_id("many-name").evaluate_all("(inputs) => inputs.map((i) => i.value)")
    assert names == ["run0", "run1", "run0 (2)"]
    assert list(table(app)) == ["run0", "run1", "run0 (2)"]
    since = many_renders(app)
    page.get_by_test_id("many-remove").nth(1).focus()
    page.keyboard.press("Enter")
    wait_many(app, since)
    assert list(table(app)) == ["run0", "run0 (2)"]
    expected = web.analyse_many(QRELS, [("run0", RUNS["run0"]), ("run0 (2)", RUNS["run2"])],
                                {"k": K, "metrics": ["recall", "precision", "mrr", "ndcg"]})
    assert table(app)["run0 (2)"]["ndcg@5"]["value"] == pytest.approx(
        expected["comparison"]["means"]["run0 (2)"]["ndcg@5"]["mean"], abs=1e-12)
    # put run1 back, named as its file
    since = many_renders(app)
    page.get_by_test_id("many-clear").click()
    wait_many(app, since)
    expect(page.get_by_test_id("many-result")).to_be_hidden()
    since = many_renders(app)
    page.get_by_test_id("many-file").set_input_files(files(["run0", "run1", "run2"]))
    wait_many(app, since)


def test_a_bad_run_is_named_and_the_others_compared(loaded):
    app = loaded
    since = many_renders(app)
    app.page.get_by_test_id("many-file").set_input_files(
        [{"name": "broken.txt", "mimeType": "text/plain", "buffer": b"q00 Q0 d1 1 0.5 x\nq00 Q0 d2 1\n"}])
    wait_many(app, since)
    row = app.page.get_by_test_id("many-list").locator("tr[data-run=broken]")
    expect(row).to_contain_text("run broken, line 2:")
    assert list(table(app)) == ["run0", "run1", "run2"]
    since = many_renders(app)
    row.get_by_test_id("many-remove").click()
    wait_many(app, since)
    expect(app.page.get_by_test_id("many-error")).to_be_hidden()


def test_copy_latex_and_markdown(loaded):
    app = loaded
    page = app.page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=app.url.rstrip("/"))
    expected = engine(["run0", "run1", "run2"])["exports"]
    page.get_by_test_id("many-copy-latex").click()
    expect(page.get_by_test_id("many-copied")).to_have_text("LaTeX copied to the clipboard.")
    assert page.evaluate("() => navigator.clipboard.readText()") == expected["latex"]
    page.get_by_test_id("many-copy-markdown").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("many-copied")).to_have_text("Markdown copied to the clipboard.")
    assert page.evaluate("() => navigator.clipboard.readText()") == expected["markdown"]
    assert expected["latex"].splitlines()[0].startswith("% Two-sided paired sign-flip randomisation test")


def test_csv_download_is_the_clis(loaded, tmp_path):
    """The many-run CSV is the engine's (the worker's file request), the CLI's bytes."""
    import subprocess
    import sys
    (tmp_path / "qrels").write_text(QRELS)
    for name in ("run0", "run1", "run2"):
        (tmp_path / name).write_text(RUNS[name])
    expected = subprocess.run([sys.executable, "-m", "retrieval_metrics", "qrels", "run0", "run1", "run2",
                               "-k", K, "-o", "csv"], capture_output=True, check=True, cwd=tmp_path).stdout
    with loaded.page.expect_download() as info:
        loaded.page.get_by_test_id("many-download-csv").click()
    path = tmp_path / info.value.suggested_filename
    info.value.save_as(path)
    assert path.read_bytes() == expected
    assert expected.startswith(b"system,metric,")


def test_new_judgements_or_settings_score_the_runs_again(loaded):
    app = loaded
    since = many_renders(app)
    before = app.renders()
    app.page.get_by_test_id("k-input").fill("3")
    app.settle(before)
    wait_many(app, since)
    assert list(table(app)["run0"]) == ["recall@3", "precision@3", "mrr@3", "ndcg@3"]
    since = many_renders(app)
    before = app.renders()
    app.page.get_by_test_id("k-input").fill(K)
    app.settle(before)
    wait_many(app, since)


def test_nothing_left_the_origin_and_no_errors(loaded):
    assert loaded.off_origin() == []
    assert loaded.blocked == []
    assert loaded.console_errors == []


def names_in_list(page) -> list[str]:
    return page.get_by_test_id("many-name").evaluate_all("(inputs) => inputs.map((i) => i.value)")


def kept_keys(page) -> list[str]:
    """The keys of what this browser keeps for the page (views/keep.js's IndexedDB store)."""
    return page.evaluate("""() => new Promise((resolve) => {
        const open = indexedDB.open("retrieval-metrics");
        open.onsuccess = () => {
            const req = open.result.transaction("boxes").objectStore("boxes").getAllKeys();
            req.onsuccess = () => resolve(req.result);
        };
    })""")


def reload(app, runs: bool = True) -> None:
    """Reloads and waits for the restored boxes' report (and the restored runs' table)."""
    app.page.reload()
    app.wait_ready()
    app.settle(0, timeout=120)
    if runs:
        wait_many(app, 0, timeout=120)


def test_the_page_fuses_three_runs_and_its_means_are_the_clis_on_the_fused_run(loaded, tmp_path):
    """RRF of the three runs after min-max normalisation: a fourth row, "fused", whose means are
    the engine's; the fused run downloads as a TREC run, and the command line's means on that
    file are the page's to the last bit. Then fusion is turned off again."""
    import json
    import subprocess
    import sys
    page = loaded.page
    since = many_renders(loaded)
    page.get_by_test_id("many-fuse").select_option("rrf")
    wait_many(loaded, since)
    expected = engine(["run0", "run1", "run2"], fuse={"method": "rrf", "norm": "min-max"})
    assert expected["fused"] == {"name": "fused", "method": "rrf", "norm": "min-max"}
    got = table(loaded)
    assert list(got) == ["run0", "run1", "run2", "fused"]
    for metric in METRIC_KEYS:
        assert got["fused"][metric]["value"] == expected["comparison"]["means"]["fused"][metric]["mean"]
    expect(page.get_by_test_id("many-fused")).to_contain_text("fused by RRF after min-max normalisation")
    with page.expect_download() as info:
        page.get_by_test_id("many-download-fused").click()
    fused = tmp_path / info.value.suggested_filename
    info.value.save_as(fused)
    assert fused.name == "retrieval-metrics-fused.trec"
    (tmp_path / "qrels").write_text(QRELS)
    cli = subprocess.run([sys.executable, "-m", "retrieval_metrics", "qrels", fused.name, "-k", K,
                          "-o", "json"], capture_output=True, check=True, cwd=tmp_path).stdout
    means = json.loads(cli)["mean"]
    assert {m: means[m] for m in METRIC_KEYS} == {m: got["fused"][m]["value"] for m in METRIC_KEYS}
    since = many_renders(loaded)
    page.get_by_test_id("many-fuse").select_option("")
    wait_many(loaded, since)
    assert list(table(loaded)) == ["run0", "run1", "run2"]
    expect(page.get_by_test_id("many-download-fused")).to_be_hidden()


def test_the_list_survives_a_reload_and_clear_has_undo(loaded):
    """Last in the module: it reloads the page."""
    app, page = loaded, loaded.page
    assert names_in_list(page) == ["run0", "run1", "run2"]
    three = table(app)

    # Clear has the boxes' Undo: the list comes back, names and numbers.
    since = many_renders(app)
    page.get_by_test_id("many-clear").click()
    wait_many(app, since)
    expect(page.get_by_test_id("many-list")).to_be_hidden()
    expect(page.get_by_test_id("many-cleared")).to_contain_text("Cleared.")
    since = many_renders(app)
    page.get_by_test_id("many-undo-clear").click()
    wait_many(app, since)
    expect(page.get_by_test_id("many-undo-clear")).to_have_count(0)
    assert names_in_list(page) == ["run0", "run1", "run2"]
    assert table(app) == three
    check_against(app, engine(["run0", "run1", "run2"]))

    # Two runs: a file's bytes, renamed, and the results box's text, made the baseline.
    since = many_renders(app)
    page.get_by_test_id("many-clear").click()
    wait_many(app, since)
    since = many_renders(app)
    page.get_by_test_id("many-file").set_input_files(files(["run2"]))
    wait_many(app, since)
    before = app.renders()
    page.get_by_test_id("run-input").fill(RUNS["run0"])
    app.settle(before)
    since = many_renders(app)
    page.get_by_test_id("many-add-results").click()
    wait_many(app, since)
    expect(page.get_by_test_id("many-cleared")).to_have_count(0)   # added to: Undo is gone
    since = many_renders(app)
    name = page.get_by_test_id("many-name").nth(0)
    name.fill("best")
    name.press("Enter")
    wait_many(app, since)
    since = many_renders(app)
    page.get_by_test_id("many-list").locator("input[type=radio]").nth(1).check()
    wait_many(app, since)
    expected = web.analyse_many(QRELS, [("best", RUNS["run2"]), ("results", RUNS["run0"])],
                                {"k": K, "metrics": ["recall", "precision", "mrr", "ndcg"], "baseline": "results"})
    expected["curves"] = web.precision_recall_many()
    check_against(app, expected)
    page.evaluate("() => window.__calculator.keep.flush()")
    assert "many-runs" in kept_keys(page)
    # kept as the boxes are: the file's own bytes with its file name, the typed text as text
    assert page.evaluate("""() => new Promise((resolve) => {
        const open = indexedDB.open("retrieval-metrics");
        open.onsuccess = () => {
            const req = open.result.transaction("boxes").objectStore("boxes").get("many-runs");
            req.onsuccess = () => resolve([req.result.baseline, req.result.runs.map((r) => [r.name, r.kind, r.file])]);
        };
    })""") == [1, [["best", "file", "run2.trec"], ["results", "text", None]]]

    reload(app)
    assert names_in_list(page) == ["best", "results"]
    expect(page.get_by_test_id("many-list").locator("input[type=radio]").nth(1)).to_be_checked()
    check_against(app, expected)

    # Clear empties the list, and a reload finds it empty.
    since = many_renders(app)
    page.get_by_test_id("many-clear").click()
    wait_many(app, since)
    page.evaluate("() => window.__calculator.keep.flush()")
    assert "many-runs" not in kept_keys(page)
    reload(app, runs=False)
    expect(page.get_by_test_id("many-list")).to_be_hidden()
    expect(page.get_by_test_id("many-result")).to_be_hidden()
    assert names_in_list(page) == []
    expect(page.get_by_test_id("run-input")).to_have_value(RUNS["run0"])   # the boxes are still kept
    assert app.console_errors == []

