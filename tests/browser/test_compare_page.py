"""The page's comparison with a baseline, the metric chooser and the report files, in Chromium.

Every number is checked against the engine under CPython for the same texts and settings
(`retrieval_metrics.page.web.analyse`, the very function the page's worker calls), including the
seeded sampled p-values, which must be reproduced exactly.
"""

from __future__ import annotations

import csv
import io
import json
import random

import pytest
from playwright.sync_api import expect
from retrieval_metrics.page.web import analyse

DEFAULT_METRICS = ("recall", "precision", "mrr", "ndcg")
ALL_METRICS = ("recall", "precision", "mrr", "ndcg", "hit_rate", "ap", "judged", "map", "rprec", "rr")


def collection(queries: int, seed: int = 7) -> tuple[str, str, str]:
    """TREC qrels, a candidate run and a baseline run over the same documents."""
    rng = random.Random(seed)
    qrels, run, base = [], [], []
    for q in range(1, queries + 1):
        docs = [f"d{i}" for i in range(20)]
        for d in rng.sample(docs, 5):
            qrels.append(f"q{q} 0 {d} {rng.randint(0, 3)}")
        if not any(line.startswith(f"q{q} ") and not line.endswith(" 0") for line in qrels):
            qrels.append(f"q{q} 0 d0 1")
        for name, out in (("cand", run), ("base", base)):
            for r, d in enumerate(rng.sample(docs, 10), 1):
                out.append(f"q{q} Q0 {d} {r} {20 - r}.5 {name}")
    return tuple("\n".join(lines) + "\n" for lines in (qrels, run, base))


QRELS, RUN, BASE = collection(20)           # 20 paired queries: sampled p-values
SMALL = collection(3, seed=3)                # 3 paired queries: exact, and nothing can be significant


def choose_metrics(app, metrics) -> None:
    for name in ALL_METRICS:
        app.show_panel("all-measures")
        box = app.page.get_by_test_id(f"metric-{name}")
        if box.is_checked() != (name in metrics):
            box.set_checked(name in metrics)


def score(app, qrels, run, baseline, *, k="3,10", metrics=DEFAULT_METRICS):
    before = app.renders()  # the chooser and the baseline may redraw before app.score looks
    choose_metrics(app, metrics)
    app.page.get_by_test_id("baseline-input").fill(baseline)
    app.score(qrels, run, k=k, since=before)


def engine(qrels, run, baseline, *, k="3,10", metrics=DEFAULT_METRICS) -> dict:
    chosen = [m for m in ALL_METRICS if m in metrics]   # the page sends them in the chooser's order
    return analyse(qrels, run, {"k": k, "metrics": chosen}, baseline)


def comparison_rows(app) -> dict[str, dict]:
    return app.page.evaluate("""() => {
        const out = {};
        for (const row of document.querySelectorAll('[data-testid=comparison-table] tbody tr')) {
            const cells = {};
            for (const td of row.querySelectorAll('td')) cells[td.dataset.field] = {value: td.dataset.value, text: td.textContent};
            out[row.dataset.metric] = cells;
        }
        return out;
    }""")


def assert_comparison(app, expected: dict) -> None:
    rows = comparison_rows(app)
    assert list(rows) == [r["metric"] for r in expected["metrics"]]
    for record in expected["metrics"]:
        row = rows[record["metric"]]
        for field in ("baseline_mean", "candidate_mean", "delta", "p_value"):
            assert float(row[field]["value"]) == pytest.approx(record[field], abs=1e-12), (record["metric"], field)
        for field in ("wins", "ties", "losses"):
            assert int(row[field]["value"]) == record[field], (record["metric"], field)
        assert row["method"]["value"] == record["method"]
        if record["method"] == "exact":
            assert row["method"]["text"] == f"exact, 2^{record['n']} patterns"
        else:
            assert row["method"]["text"] == f"{record['samples']:,} samples, seed {record['seed']}"
    codes = app.page.get_by_test_id("comparison-notices").locator("[data-code]").evaluate_all(
        "(items) => items.map((li) => li.dataset.code)")
    assert codes == [n["code"] for n in expected["notices"]]


def download(app, kind: str, tmp_path) -> str:
    return app.download(kind, tmp_path)


def test_without_a_baseline_there_is_no_comparison(app):
    score(app, QRELS, RUN, "")
    expect(app.page.get_by_test_id("means-table")).to_be_visible()
    expect(app.page.get_by_test_id("comparison-table")).to_be_hidden()
    assert app.page.locator("#download-kind option[value=comparison-json]").evaluate("(o) => o.parentElement.disabled")
    expect(app.page.get_by_test_id("baseline-error")).to_be_hidden()


def test_baseline_run_gives_the_engines_comparison(app):
    score(app, QRELS, RUN, BASE)
    expected = engine(QRELS, RUN, BASE)["comparison"]
    assert expected["paired_queries"] == 20
    expect(app.page.get_by_test_id("comparison-table")).to_be_visible()
    expect(app.page.get_by_test_id("baseline-detected")).to_contain_text("TREC run")
    assert_comparison(app, expected)
    # Means on the page stay the candidate's, the comparison's candidate means equal them.
    means = app.means()
    for record in expected["metrics"]:
        assert means[record["metric"]] == pytest.approx(record["candidate_mean"], abs=1e-12)


def test_small_n_is_exact_and_says_nothing_can_be_significant(app):
    qrels, run, base = SMALL
    score(app, qrels, run, base, k="5")
    expected = engine(qrels, run, base, k="5")["comparison"]
    assert_comparison(app, expected)
    notice = app.page.get_by_test_id("comparison-notices").locator("[data-code=too_few_queries]")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("2/2^3")
    expect(app.page.get_by_test_id("comparison-table").locator("td[data-field=method]").first).to_have_text("exact, 2^3 patterns")


def test_difference_plot_has_one_bar_per_paired_query(app):
    score(app, QRELS, RUN, BASE)
    expected = engine(QRELS, RUN, BASE)["comparison"]
    select = app.page.get_by_test_id("plot-metric-select")
    options = select.locator("option").evaluate_all("(os) => os.map((o) => o.value)")
    assert options == [r["metric"] for r in expected["metrics"]]
    for key in ("ndcg@10", "recall@3"):
        select.select_option(key)
        plot = app.page.get_by_test_id("difference-plot")
        expect(plot).to_have_attribute("data-metric", key)
        assert plot.evaluate("(svg) => svg.namespaceURI") == "http://www.w3.org/2000/svg"
        assert plot.get_attribute("role") == "img"
        assert "candidate better on" in plot.get_attribute("aria-label")
        bars = plot.locator("rect.bar")
        rows = expected["per_query"][key]
        expect(bars).to_have_count(len(rows))
        # Left to right in the engine's order (sorted by difference), coloured by sign.
        assert bars.evaluate_all("(rs) => rs.map((r) => r.dataset.qid)") == [r["qid"] for r in rows]
        kinds = bars.evaluate_all("(rs) => rs.map((r) => r.classList[1])")
        assert kinds == ["win" if r["delta"] > 0 else "loss" if r["delta"] < 0 else "tie" for r in rows]
        titles = bars.evaluate_all("(rs) => rs.map((r) => r.querySelector('title').textContent)")
        assert titles[0].startswith(rows[0]["qid"] + ":")
        heights = bars.evaluate_all("(rs) => rs.map((r) => Number(r.getAttribute('height')))")
        losses = [h for h, r in zip(heights, rows) if r["delta"] < 0]
        assert losses == sorted(losses, reverse=True)  # most negative first
    assert not app.console_errors


def test_plot_of_many_queries_shares_bars(app, tmp_path):
    # Large texts go in through the file pickers (typing 350 kB into a box is slow in Playwright).
    choose_metrics(app, ("ndcg",))
    app.score("", "", k="10")
    before = app.renders()
    for name, text in zip(("qrels", "run", "baseline"), collection(1500, seed=11)):
        path = tmp_path / f"{name}.txt"
        path.write_text(text)
        app.page.get_by_test_id(f"{name}-file").set_input_files(path)
    app.settle(before, timeout=120)
    expect(app.page.get_by_test_id("baseline-detected")).to_contain_text("1,500 queries")
    plot = app.page.get_by_test_id("difference-plot")
    expect(plot).to_have_attribute("data-queries", "1500")
    bars = plot.locator("rect.bar")
    count = bars.count()
    assert 100 < count < 1500
    shared = bars.evaluate_all("(rs) => rs.reduce((s, r) => s + Number(r.dataset.queries), 0)")
    assert shared == 1500


def test_metric_chooser_adds_metrics(app):
    metrics = DEFAULT_METRICS + ("ap", "hit_rate", "map", "rprec")
    score(app, QRELS, RUN, BASE, metrics=metrics)
    expected = engine(QRELS, RUN, BASE, metrics=metrics)
    report = expected["report"]
    table = app.page.get_by_test_id("means-table")
    expect(table.locator("tbody th")).to_have_text(["Recall", "Precision", "MRR", "nDCG", "Hit rate", "AP"])
    for i, k in enumerate((3, 10)):
        cell = table.locator("tbody tr", has_text="AP").last.locator("td").nth(i)
        assert float(cell.get_attribute("data-value")) == pytest.approx(report["mean"][f"ap@{k}"], abs=1e-12)
    whole = app.page.get_by_test_id("means-whole-table")
    expect(whole.locator("tbody th")).to_have_text(["MAP", "R-prec"])
    for metric in ("map", "rprec"):
        value = whole.locator(f"tr[data-metric={metric}] td").get_attribute("data-value")
        assert float(value) == pytest.approx(report["mean"][metric], abs=1e-12)
    per_query = app.page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '[data-testid=per-query-table] tbody tr')].map((tr) => [tr.dataset.query, Object.fromEntries(
        [...tr.querySelectorAll('td')].map((td) => [td.dataset.key, Number(td.dataset.value)]))]))""")
    # the report's keys, the headline measure's (nDCG) first (views/per-query.js)
    ndcg = [key for key in report["keys"] if key.startswith("ndcg@")]
    assert list(per_query["q1"]) == ndcg + [key for key in report["keys"] if key not in ndcg]
    for qid, values in report["per_query"].items():
        for key, value in values.items():
            assert per_query[qid][key] == pytest.approx(value, abs=1e-12), (qid, key)
    assert_comparison(app, expected["comparison"])
    # Back to the four defaults.
    score(app, QRELS, RUN, BASE)
    expect(table.locator("tbody th")).to_have_text(["Recall", "Precision", "MRR", "nDCG"])
    expect(whole).to_be_hidden()


def test_report_files_hold_the_engines_numbers(app, tmp_path):
    metrics = DEFAULT_METRICS + ("ap", "map")
    score(app, QRELS, RUN, BASE, metrics=metrics)
    expected = engine(QRELS, RUN, BASE, metrics=metrics)
    report = expected["report"]

    text = download(app, "report-json", tmp_path)
    saved = json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} in strict JSON"))
    for qid, values in report["per_query"].items():
        assert saved["per_query"][qid] == pytest.approx(values, abs=1e-12)
    assert saved["mean"] == pytest.approx(report["mean"], abs=1e-12)
    for key in ("k", "metrics", "keys", "gain", "missing", "zero_division", "scored_queries", "missing_queries"):
        assert saved[key] == report[key], key
    assert saved["inputs"]["run"]["third_column"] is None   # undefined is null, not dropped

    lines = download(app, "report-jsonl", tmp_path).splitlines()
    assert len(lines) == len(report["per_query"])
    for line in lines:
        row = json.loads(line)
        assert row.pop("missing") is False
        qid = row.pop("query")
        assert row == pytest.approx(report["per_query"][qid], abs=1e-12)

    table = list(csv.DictReader(io.StringIO(download(app, "report-csv", tmp_path))))
    assert [(r["scope"], r["query"]) for r in table] == [*(("query", q) for q in report["per_query"]), ("mean", "")]
    for r in table:
        want = report["mean"] if r["scope"] == "mean" else report["per_query"][r["query"]]
        assert {k: float(r[k]) for k in report["keys"]} == pytest.approx(want, abs=1e-12)

    comparison = json.loads(download(app, "comparison-json", tmp_path),
                            parse_constant=lambda name: pytest.fail(f"{name} in strict JSON"))
    assert [m["metric"] for m in comparison["metrics"]] == [m["metric"] for m in expected["comparison"]["metrics"]]
    for got, want in zip(comparison["metrics"], expected["comparison"]["metrics"]):
        assert got == pytest.approx(want, abs=1e-12)
    rows = list(csv.DictReader(io.StringIO(download(app, "comparison-csv", tmp_path))))
    for got, want in zip(rows, expected["comparison"]["metrics"]):
        assert got["metric"] == want["metric"]
        assert float(got["p_value"]) == pytest.approx(want["p_value"], abs=1e-12)
        assert (int(got["wins"]), int(got["ties"]), int(got["losses"])) == (want["wins"], want["ties"], want["losses"])


def test_downloaded_json_report_loaded_as_baseline_compares_equal(app, tmp_path):
    score(app, QRELS, RUN, "")
    saved = download(app, "report-json", tmp_path)
    score(app, QRELS, RUN, saved)
    expect(app.page.get_by_test_id("baseline-error")).to_be_hidden()
    expect(app.page.get_by_test_id("baseline-detected")).to_contain_text("Saved JSON report")
    expected = engine(QRELS, RUN, saved)["comparison"]
    assert_comparison(app, expected)
    rows = comparison_rows(app)
    assert len(rows) == 8
    for metric, row in rows.items():
        assert float(row["delta"]["value"]) == 0, metric
        assert int(row["ties"]["value"]) == 20 and int(row["wins"]["value"]) == 0 and int(row["losses"]["value"]) == 0
        assert float(row["p_value"]["value"]) == 1.0


def test_bad_baseline_line_shows_next_to_the_baseline_and_keeps_the_text(app):
    bad = BASE + "q1 Q0 d99 11\n"
    score(app, QRELS, RUN, bad)
    error = app.page.get_by_test_id("baseline-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text(f"line {len(bad.splitlines())}")
    expect(error).not_to_contain_text("Traceback")
    expect(app.page.get_by_test_id("baseline-input")).to_have_value(bad)
    expect(app.page.get_by_test_id("run-error")).to_be_hidden()
    expect(app.page.get_by_test_id("means-table")).to_be_visible()       # the run is still scored
    expect(app.page.get_by_test_id("comparison-table")).to_be_hidden()
    score(app, QRELS, RUN, BASE)
    expect(error).to_be_hidden()
    expect(app.page.get_by_test_id("comparison-table")).to_be_visible()


def test_query_ids_in_the_plot_are_text(app):
    evil = "<img src=x onerror=window.__pwned=1>"
    qrels = json.dumps({evil: {"d1": 1, "d2": 1}, "q2": {"d1": 1}})
    run = json.dumps({evil: ["d1", "d3"], "q2": ["d3", "d1"]})
    base = json.dumps({evil: ["d3", "d1"], "q2": ["d1"]})
    score(app, qrels, run, base, k="2")
    plot = app.page.get_by_test_id("difference-plot")
    expect(plot.locator("rect.bar")).to_have_count(2)
    assert evil in plot.locator("rect.bar").evaluate_all("(rs) => rs.map((r) => r.dataset.qid)")
    assert app.page.evaluate("() => window.__pwned") is None
    assert app.page.locator("img").count() == 0


def test_no_request_leaves_the_origin(app):
    assert app.requests
    assert app.off_origin() == []
    assert getattr(app, "blocked", []) == []
    assert not [e for e in app.console_errors if "Content Security Policy" in e]
