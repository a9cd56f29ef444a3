"""The page's Answers mode in Chromium: the mode switch, the bundled example, formats, notices,
errors next to the right box, downloads, text rendered as text, nothing fetched off the origin.

Every number is compared with ``web.analyse_answers`` under CPython for the same text and
settings, and the bundled example also with the published numbers of docs/measures.md (EM 0.5, token F1
0.833, ANLS 0.344, edit similarity 0.5048).
"""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path

import pytest
from playwright.sync_api import expect
from retrieval_metrics.page import web

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "two-answers"
METRICS = ("exact_match", "token_f1", "anls", "edit_similarity")

REFS_CSV = "id,reference\nq1,The Eiffel Tower\nq2,Paris\nq2,City of Paris\n"
ANSWERS_JSONL = '{"id": "q1", "answer": "eiffel tower."}\n{"id": "q2", "answer": "Paris, France"}\n'


@pytest.fixture(scope="module")
def answers(app):
    """The booted page, switched to the Answers mode."""
    app.page.get_by_test_id("mode-answers").click()
    expect(app.page.get_by_test_id("answers-input")).to_be_visible()
    return app


def score(app, references: str, answers: str, *, missing: str = "zero",
          references_format: str = "auto", answers_format: str = "auto") -> None:
    page = app.page
    before = app.renders()
    page.get_by_test_id("answers-missing-select").select_option(missing)
    page.get_by_test_id("references-format").select_option(references_format)
    page.get_by_test_id("answers-format").select_option(answers_format)
    page.get_by_test_id("references-input").fill(references)
    page.get_by_test_id("answers-input").fill(answers)
    app.settle(before)


def page_means(app) -> dict[str, float]:
    return app.page.evaluate("""() => {
        const out = {};
        for (const row of document.querySelectorAll('[data-testid=answers-means-table] tbody tr')) {
            const td = row.querySelector('td[data-value]');
            if (td.dataset.value !== '') out[row.dataset.metric] = Number(td.dataset.value);
        }
        return out;
    }""")


def page_items(app) -> dict[str, dict]:
    return app.page.evaluate("""() => {
        const out = {};
        for (const row of document.querySelectorAll('[data-testid=answers-per-item-table] tbody tr')) {
            const values = {};
            for (const td of row.querySelectorAll('td[data-key]')) values[td.dataset.key] = Number(td.dataset.value);
            values.answer = row.querySelector('td.answer').textContent;
            values.references = [...row.querySelectorAll('td.refs .ref')].map((s) => s.textContent);
            out[row.dataset.item] = values;
        }
        return out;
    }""")


def assert_page_matches(app, references: str, answers: str, **options) -> dict:
    report = web.analyse_answers(references, answers, options)["report"]
    assert report is not None
    assert page_means(app) == pytest.approx(report["mean"], abs=1e-12)
    items = page_items(app)
    assert sorted(items) == sorted(row["id"] for row in report["per_item"])
    for row in report["per_item"]:
        for metric in METRICS:
            assert items[row["id"]][metric] == pytest.approx(row[metric], abs=1e-12), (row["id"], metric)
        assert items[row["id"]]["references"] == row["references"]
    return report


def test_mode_switch_shows_the_answers_boxes_and_keeps_the_mode_in_the_address(answers):
    page = answers.page
    expect(page.get_by_test_id("mode-answers")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("mode-rankings")).to_have_attribute("aria-pressed", "false")
    expect(page.get_by_test_id("qrels-input")).to_be_hidden()
    assert page.evaluate("() => location.hash") == "#mode=answers"
    page.get_by_test_id("mode-rankings").click()
    expect(page.get_by_test_id("qrels-input")).to_be_visible()
    expect(page.get_by_test_id("answers-input")).to_be_hidden()
    assert page.evaluate("() => location.hash") == ""
    # the rankings' settings kept in the fragment stay there beside the mode
    page.evaluate("() => history.replaceState(null, '', '#k=1,5')")
    page.get_by_test_id("mode-answers").click()
    assert page.evaluate("() => location.hash") == "#k=1,5&mode=answers"
    page.get_by_test_id("mode-rankings").click()
    assert page.evaluate("() => location.hash") == "#k=1,5"
    page.evaluate("() => history.replaceState(null, '', location.pathname)")
    page.get_by_test_id("mode-answers").focus()
    page.keyboard.press("Enter")   # a button: the keyboard switches too
    expect(page.get_by_test_id("answers-input")).to_be_visible()


def test_example_gives_the_published_numbers(answers):
    settings = json.loads((EXAMPLE / "settings.json").read_text())
    before = answers.renders()
    answers.page.get_by_test_id("answers-examples-select").select_option("two-answers")
    answers.settle(before)
    expect(answers.page.get_by_test_id("references-input")).to_have_value((EXAMPLE / settings["references"]).read_text())
    means = page_means(answers)
    assert means["exact_match"] == 0.5
    assert round(means["token_f1"], 3) == 0.833
    assert round(means["anls"], 3) == 0.344
    assert round(means["edit_similarity"], 4) == 0.5048
    for key, value in settings["expected"].items():
        assert round(means[key], len(str(value).split(".")[1])) == value
    table = answers.page.get_by_test_id("answers-means-table")
    expect(table.locator("tbody td[data-value]")).to_have_text(["0.5000", "0.8333", "0.3438", "0.5048"])
    expect(answers.page.get_by_test_id("references-detected")).to_have_text(
        "Detected: CSV: 2 columns (id, reference), 3 rows, 2 items, 3 references")
    expect(answers.page.get_by_test_id("answers-detected")).to_have_text("Detected: JSONL: 2 lines, 2 items, 2 answers")
    expect(answers.page.get_by_test_id("answers-example-note")).to_contain_text("Two answers")
    assert_page_matches(answers, (EXAMPLE / settings["references"]).read_text(), (EXAMPLE / settings["answers"]).read_text())
    # the rankings' example menu does not list it
    assert answers.page.locator("[data-testid=examples-select] option[value=two-answers]").count() == 0


FORMATS = {
    "csv+jsonl": (REFS_CSV, ANSWERS_JSONL),
    "json+tsv": (json.dumps({"q1": "The Eiffel Tower", "q2": ["Paris", "City of Paris"]}, indent=2),
                 "q1\teiffel tower.\nq2\tParis, France\n"),
    "one box": ('{"id": "q1", "reference": "The Eiffel Tower", "answer": "eiffel tower."}\n'
                '{"id": "q2", "references": ["Paris", "City of Paris"], "answer": "Paris, France"}\n', ""),
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_pasted_formats_give_the_engines_numbers(answers, fmt):
    references, answer_text = FORMATS[fmt]
    score(answers, references, answer_text)
    expect(answers.page.get_by_test_id("references-error")).to_be_hidden()
    expect(answers.page.get_by_test_id("answers-error")).to_be_hidden()
    report = assert_page_matches(answers, references, answer_text)
    assert report["mean"]["exact_match"] == 0.5


def test_bad_answer_line_shows_next_to_the_answers_and_keeps_the_text(answers):
    bad = '{"id": "q1", "answer": "x"}\n\n{"id": "q2", "answer": "y",}\n'
    score(answers, REFS_CSV, bad)
    error = answers.page.get_by_test_id("answers-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("answers, line 3: this is not valid JSON")
    expect(error).to_contain_text('{"id": "q2", "answer": "y",}')
    expect(error).not_to_contain_text("Traceback")
    expect(answers.page.get_by_test_id("references-error")).to_be_hidden()
    expect(answers.page.get_by_test_id("references-detected")).to_contain_text("3 references")
    expect(answers.page.get_by_test_id("answers-input")).to_have_value(bad)
    expect(answers.page.get_by_test_id("answers-report")).to_be_hidden()
    expect(answers.page.get_by_test_id("answers-empty")).to_have_text("Fix the input marked above and the scores appear here.")
    # the button selects the line in the box
    error.get_by_role("button", name="Show line 3 in the box").click()
    selected = answers.page.evaluate("""() => { const t = document.querySelector('[data-testid=answers-input]');
        return t.value.slice(t.selectionStart, t.selectionEnd); }""")
    assert selected == '{"id": "q2", "answer": "y",}'


def test_bad_reference_row_shows_next_to_the_references(answers):
    refs = "q1,Paris\nq2,Paris, France\n"
    score(answers, refs, "q1,paris\n")
    error = answers.page.get_by_test_id("references-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("references, line 2: expected 2 columns (id, reference), found 3")
    expect(error).to_contain_text("double quotes")
    expect(answers.page.get_by_test_id("answers-error")).to_be_hidden()
    expect(answers.page.get_by_test_id("references-input")).to_have_value(refs)
    # fixing it clears the error and scores
    score(answers, 'q1,Paris\nq2,"Paris, France"\n', "q1,paris\nq2,paris france\n")
    expect(error).to_be_hidden()
    assert page_means(answers)["exact_match"] == 1.0


def test_format_override_and_missing_setting(answers):
    score(answers, REFS_CSV, ANSWERS_JSONL, answers_format="csv")
    expect(answers.page.get_by_test_id("answers-error")).to_be_visible()
    refs = "q1,Paris\nq2,Lyon\nq3,Nice\n"
    score(answers, refs, "q1,paris\nq9,rome\n")
    notices = answers.page.get_by_test_id("answers-notices")
    expect(notices.locator("[data-code=missing_answers]")).to_contain_text(
        "2 items with a reference have no answer: scored 0 on every metric (q2, q3); check that the "
        "answers' ids are the references' ones.")
    expect(notices.locator("[data-code=unreferenced_answers]")).to_contain_text("(q9)")
    notices.locator("[data-code=missing_answers] button.disclosure").click()
    expect(notices.locator("[data-code=missing_answers] button.disclosure")).to_have_text("which items")
    expect(answers.page.get_by_test_id("answers-per-item-table").locator("tr[data-item=q2]")).to_contain_text("no answer")
    assert_page_matches(answers, refs, "q1,paris\nq9,rome\n")
    assert page_means(answers)["exact_match"] == pytest.approx(1 / 3)
    answers.page.get_by_test_id("answers-download-kind").select_option("jsonl")
    with answers.page.expect_download() as info:   # an item without an answer: null, not left out
        answers.page.get_by_test_id("answers-download-button").click()
    lines = [json.loads(line) for line in Path(info.value.path()).read_text().splitlines()]
    assert lines[1] == {"id": "q2", "answer": None, "references": ["Lyon"], "exact_match": 0.0,
                        "token_f1": 0.0, "anls": 0.0, "edit_similarity": 0.0}
    score(answers, refs, "q1,paris\nq9,rome\n", missing="skip")
    assert page_means(answers)["exact_match"] == 1.0
    expect(answers.page.get_by_test_id("answers-per-item-table").locator("tbody tr")).to_have_count(1)
    assert_page_matches(answers, refs, "q1,paris\nq9,rome\n", missing="skip")


def test_per_item_table_sorts_by_a_score(answers):
    refs = "a,x\nb,yy\nc,zzz\n"
    score(answers, refs, "a,x\nb,y\nc,q\n")   # edit similarity 1, 1/2, 0
    table = answers.page.get_by_test_id("answers-per-item-table")
    table.locator("button[data-sort=edit_similarity]").click()
    order = table.locator("tbody tr").evaluate_all("(rows) => rows.map((r) => r.dataset.item)")
    assert order == ["a", "b", "c"]
    table.locator("button[data-sort=edit_similarity]").click()
    order = table.locator("tbody tr").evaluate_all("(rows) => rows.map((r) => r.dataset.item)")
    assert order == ["c", "b", "a"]
    table.locator("button[data-sort=order]").click()   # back to the order of the references
    score(answers, refs, "c,zzz\nb,y\na,x\n")
    order = table.locator("tbody tr").evaluate_all("(rows) => rows.map((r) => r.dataset.item)")
    assert order == ["a", "b", "c"]


def test_downloads_contain_the_same_numbers(answers, tmp_path):
    score(answers, REFS_CSV, ANSWERS_JSONL)
    report = web.analyse_answers(REFS_CSV, ANSWERS_JSONL, {})["report"]
    files = {}
    for kind in ("csv", "jsonl", "means-csv", "json"):
        answers.page.get_by_test_id("answers-download-kind").select_option(kind)
        with answers.page.expect_download() as info:
            answers.page.get_by_test_id("answers-download-button").click()
        path = tmp_path / info.value.suggested_filename
        info.value.save_as(path)
        files[kind] = path.read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(files["csv"])))
    assert [r["id"] for r in rows] == ["q1", "q2"]
    assert rows[1]["answer"] == "Paris, France"   # quoted: it holds a comma
    assert json.loads(rows[1]["references"]) == ["Paris", "City of Paris"]
    for row, expected in zip(rows, report["per_item"]):
        assert {m: float(row[m]) for m in METRICS} == {m: expected[m] for m in METRICS}
        assert row["answered"] == "true"
    lines = [json.loads(line) for line in files["jsonl"].splitlines()]
    assert lines == report["per_item"]
    means = {r["metric"]: float(r["mean"]) for r in csv.DictReader(io.StringIO(files["means-csv"]))}
    assert means == report["mean"]
    data = json.loads(files["json"])
    assert data["mean"] == report["mean"] and data["per_item"] == report["per_item"]
    assert data["settings"] == {"missing": "zero", "normalize": report["normalize"]}
    assert data["settings"]["normalize"]["edit_similarity"] is None   # written as null, not dropped


def test_dropping_a_file_loads_and_scores_it(answers):
    score(answers, REFS_CSV, "")
    before = answers.renders()
    answers.page.evaluate("""(text) => {
        const data = new DataTransfer();
        data.items.add(new File([text], 'answers.jsonl', {type: 'application/jsonl'}));
        const target = document.querySelector('[data-testid=answers-input]');
        for (const type of ['dragenter', 'dragover', 'drop']) {
            target.dispatchEvent(new DragEvent(type, {dataTransfer: data, bubbles: true, cancelable: true}));
        }
    }""", ANSWERS_JSONL)
    answers.settle(before)
    expect(answers.page.get_by_test_id("answers-input")).to_have_value(ANSWERS_JSONL)
    assert_page_matches(answers, REFS_CSV, ANSWERS_JSONL)


def test_text_is_rendered_as_text_not_html(answers):
    evil = "<img src=x onerror=window.__pwned=1>"
    refs = json.dumps({evil: "<b>bold</b>"})
    score(answers, refs, json.dumps({evil: "<script>window.__pwned=2</script>"}))
    row = answers.page.get_by_test_id("answers-per-item-table").locator("tbody tr").first
    expect(row.locator("th")).to_have_text(evil)
    expect(row.locator("td.answer")).to_have_text("<script>window.__pwned=2</script>")
    expect(row.locator("td.refs")).to_have_text("<b>bold</b>")
    assert answers.page.evaluate("() => window.__pwned") is None
    assert answers.page.locator("img").count() == 0


def test_rankings_still_score_after_a_switch(answers, engine_numbers):
    page = answers.page
    page.get_by_test_id("mode-rankings").click()
    qrels, run = "q1 0 d1 1\n", "q1 Q0 d1 1 2.5 t\n"
    answers.score(qrels, run, k="1")
    assert answers.means()["ndcg@1"] == engine_numbers(qrels, run, k="1")["mean"]["ndcg@1"] == 1.0
    before = answers.renders()
    page.get_by_test_id("mode-answers").click()
    answers.settle(before)   # switching back scores the answers boxes again
    expect(page.get_by_test_id("answers-report")).to_be_visible()


def test_no_request_leaves_the_origin(answers):
    assert answers.requests
    assert answers.off_origin() == []
    assert answers.blocked == []
    assert not answers.console_errors, answers.console_errors


def test_a_file_that_is_not_utf8_is_read_as_the_rankings_read_it(answers, tmp_path):
    from retrieval_metrics import InputError
    from retrieval_metrics.inputs import source
    latin = "q1,Caf\u00e9\n".encode("cp1252")   # é is the single byte 0xe9: not UTF-8
    path = tmp_path / "references.csv"
    path.write_bytes(latin)
    score(answers, "", "q1,caf\u00e9\n")
    before = answers.renders()
    answers.page.get_by_test_id("references-file").set_input_files(path)
    answers.settle(before)
    try:   # the engine's own reading of the same bytes decides what the page must show
        text = source.decode(latin, "references")
    except InputError as exc:
        expect(answers.page.get_by_test_id("references-error")).to_contain_text(exc.message)
    else:
        assert text == "q1,Caf\u00e9\n"
        expect(answers.page.get_by_test_id("references-error")).to_be_hidden()
        assert page_means(answers)["exact_match"] == 1.0


def test_an_address_with_the_mode_opens_the_answers_mode(answers):
    page = answers.page.context.new_page()
    try:
        page.goto(answers.url + "#answers")   # the short form; the page writes #mode=answers itself
        expect(page.get_by_test_id("answers-input")).to_be_visible()
        expect(page.get_by_test_id("qrels-input")).to_be_hidden()
        expect(page.get_by_test_id("mode-answers")).to_have_attribute("aria-pressed", "true")
        expect(page.locator(".tagline")).to_contain_text("generated answers")
        expect(page.get_by_test_id("status")).to_have_text("ready", timeout=90_000)
        page.get_by_test_id("references-input").fill("q1,Paris\n")
        page.get_by_test_id("answers-input").fill("q1,paris\n")
        cell = page.get_by_test_id("answers-means-table").locator("tr[data-metric=exact_match] td[data-value]")
        expect(cell).to_have_text("1.0000", timeout=30_000)
    finally:
        page.close()


def test_a_long_answer_is_clipped_on_the_page_and_whole_in_the_downloads(answers):
    long = "paris " * 50_000   # 300,000 characters
    answer = json.dumps({"id": "q1", "answer": long}) + "\n"
    score(answers, "q1,Paris\n", answer)
    cell = answers.page.get_by_test_id("answers-per-item-table").locator("td.answer").first
    shown = cell.text_content()
    assert len(shown) <= 500 and shown.endswith("…") and long.startswith(shown[:-1])
    answers.page.get_by_test_id("answers-download-kind").select_option("jsonl")
    with answers.page.expect_download() as info:
        answers.page.get_by_test_id("answers-download-button").click()
    assert json.loads(Path(info.value.path()).read_text())["answer"] == long


def long_items(n: int = 40, words: int = 1000, seed: int = 3) -> tuple[str, str]:
    """References and answers long enough that edit distance takes seconds in the page (about 8 s
    for 40 items of 1,000 words in Pyodide's pure-Python distance; rapidfuzz makes CPython's
    check quick): words of six kinds at random, so no two texts are alike."""
    rng = random.Random(seed)
    vocabulary = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]
    text = lambda: " ".join(rng.choice(vocabulary) for _ in range(words))   # noqa: E731
    references = "".join(json.dumps({"id": f"q{i}", "references": [text()]}) + "\n" for i in range(n))
    answers = "".join(json.dumps({"id": f"q{i}", "answer": text()}) + "\n" for i in range(n))
    return references, answers


def wait_scoring_answers(page, size: float) -> None:
    """Until the worker runs an Answers request of at least `size` characters."""
    for _ in range(800):
        if page.evaluate("(size) => { const r = window.__calculator.engine.running;"
                         " return Boolean(r && r.type === 'analyse_answers' && r.size >= size); }", size):
            return
        page.wait_for_timeout(25)
    raise AssertionError("the long answers were never sent to the worker")


def fill_both(page, references: str, answers: str) -> None:
    """Both boxes at once, so one request holds them (fill() on each would score the first alone)."""
    page.evaluate("""([references, answers]) => {
        for (const [id, text] of [['references-input', references], ['answers-input', answers]]) {
            const box = document.getElementById(id);
            box.value = text;
            box.dispatchEvent(new Event('input', {bubbles: true}));
        }
    }""", [references, answers])


def test_stop_ends_a_long_scoring_and_the_page_scores_again(answers):
    page = answers.page
    score(answers, REFS_CSV, ANSWERS_JSONL)
    small = assert_page_matches(answers, REFS_CSV, ANSWERS_JSONL)
    report = page.get_by_test_id("answers-report")
    expect(report).to_have_attribute("data-state", "current")
    stop = page.get_by_test_id("answers-cancel")
    expect(stop).to_be_hidden()   # nothing to stop

    long_refs, long_answers = long_items()
    before = answers.renders()
    fill_both(page, long_refs, long_answers)
    wait_scoring_answers(page, len(long_refs) + len(long_answers))
    expect(report).to_have_attribute("data-state", "pending")
    expect(page.get_by_test_id("answers-stale-note")).to_contain_text("Not current")
    expect(stop).to_be_visible()
    stop.click()

    # The rankings' words: the earlier scores stay, marked as such, with "Score again".
    expect(report).to_have_attribute("data-state", "stopped")
    note = page.get_by_test_id("answers-stale-note")
    expect(note).to_have_text("Stopped. These scores are of the earlier input, not of what the boxes and settings hold now. Score again")
    expect(page.get_by_test_id("answers-download-button")).to_be_disabled()
    expect(page.get_by_test_id("answers-busy")).to_be_hidden()   # the worker gave the request up
    assert page.evaluate("() => window.__calculator.engine.running") is None
    page.wait_for_timeout(300)
    assert answers.renders() == before   # nothing was drawn: the long scoring did not finish
    expect(report).to_have_attribute("data-state", "stopped")
    assert page_means(answers) == pytest.approx(small["mean"], abs=1e-12)

    # Score again scores what the boxes hold, to the end, with the engine's numbers.
    page.get_by_test_id("answers-score-again").click()
    wait_scoring_answers(page, len(long_refs) + len(long_answers))
    answers.settle(before, timeout=180)
    expect(report).to_have_attribute("data-state", "current")
    expect(note).to_be_hidden()
    expect(page.get_by_test_id("answers-download-button")).to_be_enabled()
    expected = web.analyse_answers(long_refs, long_answers, {})["report"]
    assert page_means(answers) == pytest.approx(expected["mean"], abs=1e-12)
    assert 0 < expected["mean"]["edit_similarity"] < 1   # each item is work, not an exact match
    items = page_items(answers)   # the texts are clipped on the page: the scores are compared
    for row in expected["per_item"]:
        assert {m: items[row["id"]][m] for m in METRICS} == pytest.approx({m: row[m] for m in METRICS}, abs=1e-12), row["id"]

    # Stop before any scores were drawn: said in place of the report, and the next edit scores.
    score(answers, "", "")
    expect(report).to_be_hidden()
    before = answers.renders()
    fill_both(page, long_refs, long_answers)
    wait_scoring_answers(page, len(long_refs) + len(long_answers))
    stop.click()
    empty = page.get_by_test_id("answers-empty")
    expect(empty).to_have_text("Stopped before the scores were ready. Score again")
    expect(page.get_by_test_id("answers-busy")).to_be_hidden()
    assert answers.renders() == before
    score(answers, REFS_CSV, ANSWERS_JSONL)
    assert_page_matches(answers, REFS_CSV, ANSWERS_JSONL)
    expect(report).to_have_attribute("data-state", "current")
    assert not answers.console_errors, answers.console_errors
