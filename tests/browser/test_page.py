"""The calculator page in Chromium: numbers, formats, files, errors, notices, downloads, safety.

Every number the page shows is compared with the engine's numbers under CPython for the same
text and settings (the `engine_numbers` fixture), except Wikipedia's example, which is checked
against the published 0.785.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in (ROOT / "examples").iterdir() if (p / "settings.json").exists()
                  and json.loads((p / "settings.json").read_text()).get("mode", "rankings") == "rankings")

QRELS = {"q1": {"d1": 2, "d2": 0, "d4": 1}, "q2": {"d3": 1, "d6": 3}, "q 3": {"d9": 1}}
RUN = {"q1": ["d4", "d2", "d1", "d7"], "q2": ["d5", "d3", "d6"], "q 3": ["d8", "d9"]}


def rows(data: dict, sep: str, header: str | None = None) -> str:
    lines = [header] if header else []
    for q, docs in data.items():
        items = docs.items() if isinstance(docs, dict) else ((d, None) for d in docs)
        for doc, grade in items:
            lines.append(sep.join([q, doc] + ([] if grade is None else [str(grade)])))
    return "\n".join(lines) + "\n"


def assert_same(page_values: dict, engine_values: dict) -> None:
    assert page_values.keys() == engine_values.keys()
    for key, value in engine_values.items():
        assert page_values[key] == pytest.approx(value, abs=1e-12), key


def assert_page_matches(app, report: dict) -> None:
    assert_same(app.all_means(), report["mean"])   # both means tables: at k and whole-ranking
    page_rows = app.per_query()
    assert page_rows.keys() == report["per_query"].keys()
    for qid, values in report["per_query"].items():
        assert_same(page_rows[qid], values)


def test_boots_and_says_ready(app):
    expect(app.page.get_by_test_id("status")).to_have_text("ready")
    assert app.page.evaluate("() => typeof window.__calculator.engine.info.pyodide") == "string"
    assert not app.console_errors
    # A first visit starts Python without the memory snapshot (test_offline.py: from the second on)
    assert app.page.evaluate("() => window.__calculator.engine.info.timings.snapshot") is not True


def test_wikipedia_example_is_0_785(app):
    before = app.renders()
    app.page.get_by_test_id("examples-select").select_option("wikipedia-ndcg")
    app.settle(before)
    expect(app.page.get_by_test_id("k-input")).to_have_value("6")
    cell = app.page.get_by_test_id("means-table").locator("tbody tr", has_text="nDCG").locator("td").first
    expect(cell).to_have_text("0.7850")
    assert round(float(cell.get_attribute("data-value")), 3) == 0.785
    header = app.page.get_by_test_id("means-table").locator("thead th")
    expect(header).to_have_text(["Metric", "@6"])
    expect(app.page.get_by_test_id("means-table").locator("tbody th")).to_have_text(["Recall", "Precision", "MRR", "nDCG"])


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_each_example_gives_the_engines_numbers(app, engine_numbers, example):
    settings = json.loads((example / "settings.json").read_text())
    before = app.renders()
    app.page.get_by_test_id("examples-select").select_option(example.name)
    app.settle(before)
    expect(app.page.get_by_test_id("qrels-input")).not_to_be_empty()
    report = engine_numbers((example / settings["qrels"]).read_text(), (example / settings["run"]).read_text(),
                            k=settings["k"], gain=settings["gain"], missing=settings["missing"],
                            qrels_format=settings["qrels_format"], run_format=settings["run_format"],
                            third_column=settings["third_column"], metrics=settings.get("metrics"))
    assert report["mean"], "the example must score something"
    assert_page_matches(app, report)
    for expected_key, value in settings.get("expected", {}).items():
        assert round(app.means()[expected_key], 3) == value


FORMATS = {
    "csv": (rows(QRELS, ",", "query,doc,grade"), rows(RUN, ",", "query,doc")),
    "tsv": (rows(QRELS, "\t"), rows(RUN, "\t")),
    "whitespace": (rows({q.replace(" ", "_"): d for q, d in QRELS.items()}, "  "),
                   rows({q.replace(" ", "_"): d for q, d in RUN.items()}, " ")),
    "json": (json.dumps(QRELS), json.dumps(RUN)),
    "trec": ("".join(f"{q.replace(' ', '_')} 0 {d} {g}\n" for q, docs in QRELS.items() for d, g in docs.items()),
             "".join(f"{q.replace(' ', '_')}\tQ0\t{d}\t{i}\t{10 - i}.5\tsys\n"
                     for q, docs in RUN.items() for i, d in enumerate(docs, 1))),
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_pasted_formats_give_the_engines_numbers(app, engine_numbers, fmt):
    qrels, run = FORMATS[fmt]
    app.score(qrels, run, k="1,3,10", gain="exponential")
    assert app.page.get_by_test_id("qrels-error").is_hidden()
    assert app.page.get_by_test_id("run-error").is_hidden()
    assert_page_matches(app, engine_numbers(qrels, run, k="1,3,10", gain="exponential"))
    expect(app.page.get_by_test_id("qrels-detected")).to_contain_text("3 queries")
    expect(app.page.get_by_test_id("run-detected")).not_to_be_empty()


def test_format_override_is_used(app):
    qrels, run = FORMATS["csv"]
    app.score(qrels, run, run_format="json")
    expect(app.page.get_by_test_id("run-error")).to_be_visible()
    expect(app.page.get_by_test_id("run-input")).to_have_value(run)
    app.score(qrels, run, run_format="csv")
    expect(app.page.get_by_test_id("run-error")).to_be_hidden()


def test_dropping_a_file_loads_and_scores_it(app, engine_numbers):
    qrels, run = FORMATS["tsv"]
    app.score(qrels, "", k="3")
    before = app.renders()
    app.page.evaluate("""(text) => {
        const data = new DataTransfer();
        data.items.add(new File([text], 'dropped-run.tsv', {type: 'text/tab-separated-values'}));
        const target = document.querySelector('[data-testid=run-input]');
        for (const type of ['dragenter', 'dragover', 'drop']) {
            target.dispatchEvent(new DragEvent(type, {dataTransfer: data, bubbles: true, cancelable: true}));
        }
    }""", run)
    app.settle(before)
    expect(app.page.get_by_test_id("run-input")).to_have_value(run)
    assert_page_matches(app, engine_numbers(qrels, run, k="3"))


def test_file_picker_loads_a_file(app, engine_numbers, tmp_path):
    qrels, run = FORMATS["trec"]
    path = tmp_path / "qrels.txt"
    path.write_text(qrels)
    app.score("", run, k="5")
    before = app.renders()
    app.page.get_by_test_id("qrels-file").set_input_files(path)
    app.settle(before)
    expect(app.page.get_by_test_id("qrels-input")).to_have_value(qrels)
    expect(app.page.get_by_test_id("qrels-detected")).to_contain_text("TREC")
    assert_page_matches(app, engine_numbers(qrels, run, k="5"))


def trec_collection(queries: int, depth: int) -> tuple[str, str]:
    """TREC qrels and a TREC run of queries * depth lines (200,000 lines is about 6 MB)."""
    qrels, run = [], []
    for q in range(queries):
        for d in range(0, depth, 7):
            qrels.append(f"q{q} 0 d{q}-{d} {(q + d) % 4}")
        for r in range(depth):
            doc = (r * 13 + q) % depth
            run.append(f"q{q} Q0 d{q}-{doc} {r + 1} {depth - r}.25 bench")
    return "\n".join(qrels) + "\n", "\n".join(run) + "\n"


def test_large_run_shows_reading_progress_then_the_engines_numbers(app, engine_numbers, tmp_path):
    qrels, run = trec_collection(1000, 200)
    assert len(run.encode()) > 3_000_000
    app.score("", "", k="10")
    # Everything the progress box says (text and bar) while the page works, with how many
    # results had been drawn at that moment.
    app.page.evaluate("""() => {
        window.__progressSeen = [];
        const box = document.getElementById('progress');
        const bar = document.getElementById('progress-bar');
        const note = () => window.__progressSeen.push({
            text: document.getElementById('progress-text').textContent,
            fraction: box.dataset.fraction === undefined ? null : Number(box.dataset.fraction),
            bar: bar.hasAttribute('value') ? bar.value : null,
            renders: window.__calculator.renders});
        window.__progressObserver = new MutationObserver(note);
        window.__progressObserver.observe(box, {subtree: true, childList: true, characterData: true,
                                                attributes: true, attributeFilter: ['data-fraction']});
    }""")
    qrels_path, run_path = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels_path.write_text(qrels)
    run_path.write_text(run)
    app.page.get_by_test_id("qrels-file").set_input_files(qrels_path)
    app.settle(app.renders(), timeout=60)
    before = app.renders()
    app.page.get_by_test_id("run-file").set_input_files(run_path)
    app.settle(before, timeout=120)
    seen = app.page.evaluate("() => { window.__progressObserver.disconnect(); return window.__progressSeen; }")
    during = [s for s in seen if s["renders"] == before]
    partial = [s for s in during if s["fraction"] is not None and 0 < s["fraction"] < 1]
    assert partial, seen
    assert all(s["text"].startswith("reading results… ") and s["text"].endswith("%") for s in partial), partial
    assert all(s["bar"] == pytest.approx(s["fraction"]) for s in partial), partial
    assert any(s["text"] == "scoring…" and s["bar"] is None for s in during), during
    assert app.page.get_by_test_id("progress").is_hidden()
    assert_page_matches(app, engine_numbers(qrels, run, k="10"))
    # Files this large leave the boxes read-only (a preview): small files make them boxes again.
    for name, text in (("qrels", "q0 0 d0-0 1\n"), ("run", "q0 Q0 d0-0 1 1.5 bench\n")):
        small = tmp_path / f"small-{name}.txt"
        small.write_text(text)
        before = app.renders()
        app.page.get_by_test_id(f"{name}-file").set_input_files(small)
        app.settle(before)
        expect(app.page.get_by_test_id(f"{name}-input")).to_be_editable()


def test_malformed_run_line_shows_next_to_the_run_and_keeps_the_text(app):
    qrels = "q1 0 d1 1\nq1 0 d2 1\n"
    run = "q1 Q0 d1 1 2.0 sys\nq1 Q0 d2 2 1.0 sys\nq1 Q0 d3 3 0.5\n"
    app.score(qrels, run)
    error = app.page.get_by_test_id("run-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("line 3")
    expect(error).not_to_contain_text("Traceback")
    expect(app.page.get_by_test_id("qrels-error")).to_be_hidden()
    expect(app.page.get_by_test_id("run-input")).to_have_value(run)
    expect(app.page.get_by_test_id("means-table")).to_be_hidden()


def test_malformed_grade_shows_next_to_the_judgements(app):
    qrels = "q1,d1,1\nq1,d2,high\n"
    run = "q1,d1\nq1,d2\n"
    app.score(qrels, run)
    error = app.page.get_by_test_id("qrels-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("line 2")
    expect(app.page.get_by_test_id("run-error")).to_be_hidden()
    expect(app.page.get_by_test_id("qrels-input")).to_have_value(qrels)


def test_bad_k_is_reported_at_the_settings(app):
    qrels, run = FORMATS["csv"]
    app.score(qrels, run, k="0")
    expect(app.page.get_by_test_id("k-error")).to_be_visible()   # by the field it is about
    app.score(qrels, run, k="1,5")
    expect(app.page.get_by_test_id("k-error")).to_be_hidden()
    expect(app.page.get_by_test_id("means-table").locator("thead th")).to_have_text(["Metric", "@1", "@5"])


def test_notices_for_a_missing_query_and_a_score_column(app, engine_numbers):
    qrels = "q1,d1,1\nq2,d2,1\nq3,d3,2\n"
    run = "q1,d1,0.75\nq1,d9,0.5\nq2,d2,1.25\n"   # q3 judged but absent; third column holds scores
    app.score(qrels, run, k="5")
    notices = app.page.get_by_test_id("notices")
    expect(notices.locator("[data-code=missing_queries]")).to_be_visible()
    expect(notices.locator("[data-code=missing_queries]")).to_contain_text("1")
    expect(notices.locator("[data-code=scores_detected]")).to_be_visible()
    expect(app.page.get_by_test_id("run-detected")).to_contain_text("score")
    row = app.page.get_by_test_id("per-query-table").locator("tr[data-query=q3]")
    expect(row).to_contain_text("missing")
    assert_page_matches(app, engine_numbers(qrels, run, k="5"))
    # Leaving missing queries out changes the means and drops the row.
    app.score(qrels, run, k="5", missing="skip")
    expect(app.page.get_by_test_id("per-query-table").locator("tr[data-query=q3]")).to_have_count(0)
    assert_page_matches(app, engine_numbers(qrels, run, k="5", missing="skip"))


def test_per_query_table_sorts_by_a_column(app):
    qrels, run = FORMATS["csv"]
    app.score(qrels, run, k="3")
    table = app.page.get_by_test_id("per-query-table")
    table.locator("button[data-sort='ndcg@3']").click()
    values = [float(v) for v in table.locator("tbody td[data-key='ndcg@3']").evaluate_all("(tds) => tds.map((td) => td.dataset.value)")]
    assert values == sorted(values, reverse=True)
    table.locator("button[data-sort='ndcg@3']").press("Enter")
    values = [float(v) for v in table.locator("tbody td[data-key='ndcg@3']").evaluate_all("(tds) => tds.map((td) => td.dataset.value)")]
    assert values == sorted(values)
    expect(table.locator("th[aria-sort=ascending]")).to_have_count(1)


def test_downloads_contain_the_same_numbers(app, tmp_path):
    qrels, run = FORMATS["csv"]
    app.score(qrels, run, k="1,3")
    means, per_query = app.means(), app.per_query()
    files = {}
    for kind in ("per-query-csv", "per-query-json", "means-csv", "means-json"):
        files[kind] = app.download(kind, tmp_path)

    data = json.loads(files["means-json"])
    assert_same(data["mean"], means)
    data = json.loads(files["per-query-json"])
    assert data["per_query"].keys() == per_query.keys()
    for qid in per_query:
        assert_same(data["per_query"][qid], per_query[qid])

    import csv
    import io
    table = list(csv.DictReader(io.StringIO(files["per-query-csv"])))
    assert "scope" not in table[0] and len(table) == len(per_query)  # the query rows alone
    assert sorted(r["query"] for r in table) == sorted(per_query)  # "q 3" survives quoting rules
    for r in table:
        assert_same({k: float(v) for k, v in r.items() if "@" in k}, per_query[r["query"]])
    long = list(csv.DictReader(io.StringIO(files["means-csv"])))
    assert_same({f"{r['metric']}@{r['k']}": float(r["value"]) for r in long}, means)


def test_ids_are_rendered_as_text_not_html(app):
    evil = "<img src=x onerror=window.__pwned=1>"
    qrels = json.dumps({evil: {"<b>doc</b>": 1}, "q2": {"d": 1}})
    run = json.dumps({"q9<script>window.__pwned=2</script>": ["d"], "q2": ["x"]})
    app.score(qrels, run)
    table = app.page.get_by_test_id("per-query-table")
    expect(table.locator("tbody th").first).to_contain_text(evil)
    assert app.page.evaluate("() => window.__pwned") is None
    assert app.page.locator("img").count() == 0
    assert app.page.locator("main script").count() == 0
    unjudged = app.page.get_by_test_id("notices").locator("[data-code=unjudged_queries]")
    unjudged.locator("button.disclosure").click()
    expect(unjudged).to_contain_text("q9<script>window.__pwned=2</script>")


def test_notice_query_lists_are_buttons_not_details(app):
    """A closed <details> anywhere on the page made Chromium take 10-15 s to replace the selected
    text of a big box (measured with 1,500 queries in the baseline box), so the notices' query
    lists open with a button (aria-expanded) and a hidden block instead."""
    app.score("q1 d1 1\n", "q1 d1\nq7 d2\n")
    unjudged = app.page.get_by_test_id("notices").locator("[data-code=unjudged_queries]")
    button = unjudged.locator("button.disclosure")
    expect(button).to_have_text("which query")
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(unjudged.locator(".ids")).to_be_hidden()
    button.click()
    expect(button).to_have_attribute("aria-expanded", "true")
    expect(unjudged.locator(".ids")).to_have_text("q7")
    assert app.page.locator("details").count() == 0


def test_no_request_leaves_the_origin(app):
    assert app.requests, "the request listener saw nothing"
    assert app.off_origin() == []
    assert app.blocked == []   # requests the context's route refused (none may be attempted)
    csp = app.page.locator("meta[http-equiv=Content-Security-Policy]").get_attribute("content")
    assert "connect-src 'self'" in csp and "'wasm-unsafe-eval'" in csp
    assert not [e for e in app.console_errors if "Content Security Policy" in e]
