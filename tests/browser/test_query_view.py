"""Looking at one query, filtering the per-query table, and the charts, in Chromium.

Every number on the page is checked against the engine under CPython for the same texts and
settings (`retrieval_metrics.page.web.inspect` / `precision_recall`, the functions the worker calls),
whose own values are checked by hand and against trec_eval in tests/test_inspect_query.py.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from playwright.sync_api import expect
from retrieval_metrics.page import web

# q1: d1 grade 2, d4 grade 1, d5 grade 0, d6 grade 3 and d7 grade 1 (never returned);
# q2: judged, missing from the results; q3: d8 relevant, unjudged d9 and d10 in its top 3;
# q4: fully judged top 3
QRELS = ("q1 0 d1 2\nq1 0 d4 1\nq1 0 d5 0\nq1 0 d6 3\nq1 0 d7 1\n"
         "q2 0 d3 1\n"
         "q3 0 d8 1\n"
         "q4 0 a 1\nq4 0 b 0\nq4 0 c 1\n")
RUN = ("q1 Q0 d4 1 9 r\nq1 Q0 d2 2 8 r\nq1 Q0 d1 3 7 r\nq1 Q0 d5 4 6 r\nq1 Q0 d9 5 5 r\n"
       "q3 Q0 d9 1 3 r\nq3 Q0 d8 2 2 r\nq3 Q0 d10 3 1 r\n"
       "q4 Q0 a 1 3 r\nq4 Q0 b 2 2 r\nq4 Q0 c 3 1 r\n")
BASE = ("q1 Q0 d1 1 9 b\nq1 Q0 d6 2 8 b\nq1 Q0 d4 3 7 b\n"
        "q2 Q0 d3 1 1 b\nq3 Q0 d8 1 1 b\nq4 Q0 c 1 1 b\n")
K = "3"


@pytest.fixture(autouse=True)
def closed_dialog(app):
    """Each test starts and ends with the query dialog closed (a modal dialog makes the rest of
    the page inert, so one failing test must not take the others with it)."""
    yield
    app.page.evaluate("() => document.querySelector('dialog[open]')?.close()")


def score(app, baseline: str = "") -> None:
    before = app.renders()
    app.page.get_by_test_id("baseline-input").fill(baseline)
    app.score(QRELS, RUN, k=K, since=before)


def dialog_rows(app, side: str) -> list[tuple]:
    return [tuple(row) for row in app.page.evaluate("""(side) => [...document.querySelectorAll(
        `[data-testid=query-detail-${side}-ranking] tbody tr`)].map((tr) => [
            Number(tr.cells[0].textContent), tr.dataset.doc, tr.dataset.status,
            tr.cells[2].textContent, tr.cells[3] ? tr.cells[3].dataset.value : null])""", side)]


def open_query(app, qid: str, *, keyboard: bool = False) -> None:
    button = app.page.locator(f"[data-testid=per-query-table] button[data-open='{qid}']")
    if keyboard:
        button.focus()
        app.page.keyboard.press("Enter")
    else:
        button.click()
    dialog = app.page.get_by_test_id("query-detail")
    expect(dialog).to_be_visible()
    expect(dialog).to_have_attribute("data-query", qid)
    expect(dialog).to_have_attribute("data-state", "ready")


def judgement_text(row: dict) -> str:
    if row["status"] == "unjudged":
        return "unjudged"
    return f"{'relevant' if row['status'] == 'relevant' else 'not relevant'} ({row['grade']})"


def test_a_query_opens_with_its_ranking_judgements_and_values(app):
    score(app)
    open_query(app, "q1")
    expected = web.inspect(QRELS, RUN, "q1", {"k": K})
    # by hand: d4 relevant (1), d2 unjudged, d1 relevant (2); never returned: d6 (3), d7 (1)
    assert dialog_rows(app, "run") == [(1, "d4", "relevant", "relevant (1)", None),
                                       (2, "d2", "unjudged", "unjudged", None),
                                       (3, "d1", "relevant", "relevant (2)", None)]
    assert [(r["rank"], r["doc"], r["status"], judgement_text(r)) for r in expected["run"]["ranking"]] == \
        [row[:4] for row in dialog_rows(app, "run")]
    never = app.page.get_by_test_id("query-detail-run-never").locator("li").all_text_contents()
    assert never == ["d6 grade 3", "d7 grade 1"]
    values = app.page.get_by_test_id("query-detail-values").locator("td[data-key]").evaluate_all(
        "(tds) => Object.fromEntries(tds.map((td) => [td.dataset.key, Number(td.dataset.value)]))")
    assert values == app.per_query()["q1"] == expected["run"]["values"]
    expect(app.page.get_by_test_id("query-detail-summary")).to_have_text("5 judged documents, 4 relevant.")
    app.page.keyboard.press("Escape")
    expect(app.page.get_by_test_id("query-detail")).to_be_hidden()


def test_keyboard_opens_steps_and_closes_returning_focus(app):
    score(app)
    open_query(app, "q3", keyboard=True)
    # focus moved into the dialog, onto its title
    assert app.page.evaluate("() => document.activeElement.id") == "query-detail-title"
    assert [r[1:3] for r in dialog_rows(app, "run")] == [("d9", "unjudged"), ("d8", "relevant"), ("d10", "unjudged")]
    expect(app.page.get_by_test_id("query-detail-prev")).to_be_enabled()
    app.page.get_by_test_id("query-detail-next").focus()
    app.page.keyboard.press("Enter")   # the table's order: q1, q2, q3, q4
    expect(app.page.get_by_test_id("query-detail")).to_have_attribute("data-query", "q4")
    expect(app.page.get_by_test_id("query-detail")).to_have_attribute("data-state", "ready")
    expect(app.page.get_by_test_id("query-detail-next")).to_be_disabled()
    # the missing query: no ranking, its relevant document never returned, zeros (trec_eval -c)
    app.page.get_by_test_id("query-detail-prev").click()
    app.page.get_by_test_id("query-detail-prev").click()
    expect(app.page.get_by_test_id("query-detail")).to_have_attribute("data-query", "q2")
    expect(app.page.get_by_test_id("query-detail")).to_have_attribute("data-state", "ready")
    expect(app.page.get_by_test_id("query-detail")).to_contain_text("Results has no results for this query: it scores 0")
    assert app.page.get_by_test_id("query-detail-run-never").locator("li").all_text_contents() == ["d3 grade 1"]
    app.page.keyboard.press("Escape")
    expect(app.page.get_by_test_id("query-detail")).to_be_hidden()
    # focus is back on the query the dialog was opened from
    assert app.page.evaluate("() => document.activeElement.dataset.open") == "q3"


def test_depth_can_go_past_k(app):
    score(app)
    open_query(app, "q1")
    app.page.get_by_test_id("query-detail-depth").select_option("10")
    expect(app.page.get_by_test_id("query-detail-run-ranking").locator("tbody tr")).to_have_count(5)
    assert [r[1] for r in dialog_rows(app, "run")] == ["d4", "d2", "d1", "d5", "d9"]
    app.page.get_by_test_id("query-detail-close").click()
    expect(app.page.get_by_test_id("query-detail")).to_be_hidden()
    # the chosen depth is kept for the next query, and forgotten when k changes
    open_query(app, "q3")
    expect(app.page.get_by_test_id("query-detail-depth")).to_have_value("10")
    app.page.keyboard.press("Escape")
    before = app.renders()
    app.page.get_by_test_id("k-input").fill("2")
    app.settle(before)
    open_query(app, "q1")
    expect(app.page.get_by_test_id("query-detail-depth")).to_have_value("2")
    assert [r[1] for r in dialog_rows(app, "run")] == ["d4", "d2"]


def test_with_a_baseline_the_rankings_are_side_by_side(app):
    score(app, BASE)
    open_query(app, "q1")
    expected = web.inspect(QRELS, RUN, "q1", {"k": K}, BASE)
    # each row: where the other ranking has the document (d2 is not in the baseline)
    assert dialog_rows(app, "run") == [(1, "d4", "relevant", "relevant (1)", "3"),
                                       (2, "d2", "unjudged", "unjudged", ""),
                                       (3, "d1", "relevant", "relevant (2)", "1")]
    assert [(r[1], r[4]) for r in dialog_rows(app, "baseline")] == \
        [(r["doc"], str(r["other_rank"] or "")) for r in expected["baseline"]["ranking"]] == \
        [("d1", "3"), ("d6", ""), ("d4", "1")]
    assert app.page.get_by_test_id("query-detail-baseline-never").locator("li").all_text_contents() == ["d7 grade 1"]
    # the values table shows the baseline's value beside the candidate's
    cell = app.page.get_by_test_id("query-detail-values").locator("td[data-key='recall@3']")
    assert float(cell.get_attribute("data-value")) == expected["run"]["values"]["recall@3"] == 0.5
    assert float(cell.get_attribute("data-baseline")) == expected["baseline"]["values"]["recall@3"] == 0.75
    expect(cell).to_contain_text("−0.2500")
    app.page.keyboard.press("Escape")
    score(app)   # and back to one run


def shown(app) -> list[str]:
    return app.page.get_by_test_id("per-query-table").locator("tbody tr").evaluate_all(
        "(rows) => rows.map((r) => r.dataset.query)")


def test_filters(app):
    score(app)
    app.page.get_by_test_id("filter-clear").click()   # whatever an earlier test left
    page = app.page
    assert shown(app) == ["q1", "q2", "q3", "q4"]
    page.get_by_test_id("filter-query").fill("Q3")  # any case
    expect(page.get_by_test_id("per-query-table").locator("tbody tr")).to_have_count(1)
    assert shown(app) == ["q3"]
    expect(page.locator("#per-query-caption")).to_contain_text("1 of 4 queries shown, 1 missing from the results")
    page.get_by_test_id("filter-query").fill("")
    page.get_by_test_id("filter-status").select_option("missing")
    expect(page.get_by_test_id("per-query-table").locator("tbody tr")).to_have_count(1)
    assert shown(app) == ["q2"]
    # unjudged documents in the top 3: q1 (d2) and q3 (d9, d10); the engine says so too
    assert web.analyse(QRELS, RUN, {"k": K})["unjudged_in_top"] == {"q1": 1, "q3": 2}
    page.get_by_test_id("filter-status").select_option("unjudged")
    expect(page.get_by_test_id("per-query-table").locator("tbody tr")).to_have_count(2)
    assert shown(app) == ["q1", "q3"]
    page.get_by_test_id("filter-status").select_option("judged")
    expect(page.get_by_test_id("per-query-table").locator("tbody tr")).to_have_count(1)
    assert shown(app) == ["q4"]
    page.get_by_test_id("filter-status").select_option("all")
    # value range on recall@3: q1 0.5, q2 0, q3 1, q4 1
    page.get_by_test_id("filter-metric").select_option("recall@3")
    page.get_by_test_id("filter-min").fill("0.5")
    expect(page.get_by_test_id("per-query-table").locator("tbody tr")).to_have_count(3)
    page.get_by_test_id("filter-max").fill("0.99")
    expect(page.get_by_test_id("per-query-table").locator("tbody tr")).to_have_count(1)
    assert shown(app) == ["q1"]
    # the filters stay when the inputs are scored again; previous / next follow the filtered rows
    score(app)
    assert shown(app) == ["q1"]
    page.get_by_test_id("filter-clear").click()
    expect(page.get_by_test_id("per-query-table").locator("tbody tr")).to_have_count(4)
    expect(page.get_by_test_id("filter-query")).to_be_focused()
    expect(page.locator("#per-query-caption")).to_contain_text("4 queries, 1 missing from the results")
    assert "of 4 queries shown" not in page.locator("#per-query-caption").text_content()


def svg_text(app, name: str, tmp_path) -> str:
    with app.page.expect_download() as info:
        app.page.get_by_test_id(f"chart-{name}-download").click()
    path = tmp_path / info.value.suggested_filename
    info.value.save_as(path)
    return path.name, path.read_text(encoding="utf-8")


def test_charts_of_values_and_their_downloads(app, tmp_path):
    score(app)
    page = app.page
    page.get_by_test_id("chart-metric-select").select_option("recall@3")
    chart = page.get_by_test_id("chart-sorted-svg")
    expect(chart).to_have_attribute("role", "img")
    expect(chart).to_have_attribute("tabindex", "0")
    # recall@3 sorted: q3 1, q4 1, q1 0.5, q2 0 (ties by query id)
    table = page.get_by_test_id("chart-sorted-table")
    # The table alternative is behind a button (not a closed <details>, which slows edits of big boxes).
    toggle = page.get_by_test_id("chart-sorted").get_by_role("button", name="Show as a table")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(table).to_be_hidden()
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(table).to_be_visible()
    expect(toggle).to_have_attribute("aria-controls", "chart-sorted-table")
    rows = table.locator("tbody tr").evaluate_all(
        "(rows) => rows.map((r) => [r.cells[1].textContent, Number(r.cells[2].dataset.value)])")
    assert rows == [["q3", 1.0], ["q4", 1.0], ["q1", 0.5], ["q2", 0.0]]
    desc = chart.locator("desc").text_content()
    assert "4 queries: highest 1.0000 (q3), median 0.7500" in desc and "mean 0.6250" in desc
    # histogram: 0 in [0, 0.1), 0.5 in [0.5, 0.6), two 1s in the last bin [0.9, 1.0]
    counts = page.get_by_test_id("chart-histogram-table").locator("td").evaluate_all(
        "(tds) => tds.map((td) => Number(td.dataset.value))")
    assert counts == [1, 0, 0, 0, 0, 1, 0, 0, 0, 2]
    assert page.get_by_test_id("chart-histogram-svg").locator("rect.bar").evaluate_all(
        "(rs) => rs.map((r) => Number(r.dataset.count))") == counts
    name, text = svg_text(app, "histogram", tmp_path)
    assert name == "retrieval-metrics-per-query-histogram-recall_3.svg"
    tree = ET.fromstring(text.split("?>", 1)[1])
    ns = "{http://www.w3.org/2000/svg}"
    assert tree.tag == f"{ns}svg" and tree.find(f"{ns}title").text.startswith("Distribution of Recall@3")
    assert tree.find(f"{ns}style") is not None   # styled without the page's CSS


def test_precision_recall_curve_of_run_and_baseline(app, tmp_path):
    score(app, BASE)
    expected = web.precision_recall(QRELS, RUN, {"k": K}, BASE)
    page = app.page
    expect(page.get_by_test_id("chart-pr")).to_have_attribute("data-state", "ready")
    expect(page.get_by_test_id("chart-pr-svg")).to_have_attribute("data-runs", "2")
    table = page.get_by_test_id("chart-pr-table")
    header = table.locator("thead th").all_text_contents()
    assert header == ["Recall", "results (candidate)", "baseline"]
    cells = table.locator("tbody tr").evaluate_all(
        "(rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => Number(td.dataset.value)))")
    assert [[row[i] for row in cells] for i in range(2)] == [r["precision"] for r in expected["runs"]]
    name, text = svg_text(app, "pr", tmp_path)
    assert name == "retrieval-metrics-precision-recall.svg"
    ET.fromstring(text.split("?>", 1)[1])
    score(app)
    expect(page.get_by_test_id("chart-pr-svg")).to_have_attribute("data-runs", "1")


def test_phone_layout_has_no_sideways_scroll(app):
    page = app.page
    score(app, BASE)
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        open_query(app, "q1")
        overflow = page.evaluate("""() => {
            const d = document.querySelector('[data-testid=query-detail]');
            return [d.getBoundingClientRect().width, d.scrollWidth, d.clientWidth, document.documentElement.scrollWidth];
        }""")
        assert overflow[0] <= 390 and overflow[1] <= overflow[2] + 1, overflow
        page.keyboard.press("Escape")
        width = page.get_by_test_id("chart-pr-svg").evaluate("(s) => s.getBoundingClientRect().width")
        assert width <= 390
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})
        score(app)


def test_nothing_left_the_origin_and_no_errors(app):
    assert app.off_origin() == []
    assert app.blocked == []
    assert app.console_errors == []
