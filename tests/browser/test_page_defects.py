"""What a new user tripped over (issue 11), each pinned by a test that failed before the fix:
the example menu replacing the person's text, a 10,000,000-character line freezing the page, results
below the fold with nothing pointing to them, k typos passing or hiding the report, labels (RR@k,
"1 neighbouring queries"), an empty file saying nothing, the skip link, the comparison's
explanations, the downloads, and the settings kept across reloads and in the URL's fragment.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from retrieval_metrics import evaluate

QRELS = "q1 0 d1 2\nq1 0 d2 1\nq1 0 d3 0\nq2 0 d4 1\nq2 0 d5 3\nq3 0 d6 1\n"
RUN = "q1 Q0 d2 1 3.0 r\nq1 Q0 d3 2 2.0 r\nq1 Q0 d1 3 1.0 r\nq2 Q0 d5 1 2.0 r\nq2 Q0 d9 2 1.0 r\nq3 Q0 d7 1 1.0 r\n"

# Records the main thread's long tasks (> 50 ms), as the browser reports them.
LONG_TASKS = """() => {
  window.__longTasks = [];
  if (window.__longTaskObserver) return;
  window.__longTaskObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
  });
  window.__longTaskObserver.observe({ type: "longtask" });
}"""


def choose_example(app, index: int = 1) -> None:
    before = app.renders()
    app.page.get_by_test_id("examples-select").select_option(index=index)
    app.settle(before)


def test_an_example_keeps_the_persons_text_behind_an_undo(app):
    page = app.page
    app.score("my q 0 d 1\n", "my q Q0 d 1 1 run\n")
    choose_example(app)
    assert page.get_by_test_id("qrels-input").input_value() != "my q 0 d 1\n"
    undo = page.get_by_test_id("example-undo")
    expect(undo).to_be_visible()
    expect(undo).to_contain_text("replaced your text")
    before = app.renders()
    page.get_by_test_id("example-undo-button").click()
    app.settle(before)
    expect(page.get_by_test_id("qrels-input")).to_have_value("my q 0 d 1\n")
    expect(page.get_by_test_id("run-input")).to_have_value("my q Q0 d 1 1 run\n")
    expect(page.get_by_test_id("examples-select")).to_have_value("")
    expect(undo).to_be_hidden()
    # Going from one example to another replaces nothing of the person's: no undo to offer.
    choose_example(app, 1)
    choose_example(app, 2)
    expect(undo).to_be_hidden()


def test_a_ten_million_character_line_never_blocks_the_page(app):
    page = app.page
    app.score("", "")
    # The file is made in its own task (as the browser's file picker would hand it over), then
    # dropped on the box: only the page's own work is on the main thread while it is measured.
    page.evaluate("""() => { window.__bigFile = new File(["q1 Q0 " + "d".repeat(10000000)], "one-line.txt"); }""")
    page.wait_for_timeout(200)
    page.evaluate(LONG_TASKS)
    before = app.renders()
    page.evaluate("""() => {
        const data = new DataTransfer();
        data.items.add(window.__bigFile);
        const target = document.querySelector("[data-testid=run-input]");
        for (const type of ["dragenter", "dragover", "drop"]) {
            target.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
        }
    }""")
    page.get_by_test_id("qrels-input").fill("q1 0 d1 1\n")
    app.settle(before, timeout=120)
    note = page.locator("#run-big")
    expect(note).to_contain_text("one-line.txt is loaded (10.0 MB, 1 line)")
    expect(note).to_contain_text("shows its first 20,000 characters")
    assert len(page.get_by_test_id("run-input").input_value()) == 20_000
    expect(page.get_by_test_id("run-error")).to_contain_text("column 3 should be a finite number")
    page.locator("[data-clear=run]").click()    # focuses the box: the page is laid out again
    page.wait_for_timeout(300)  # the last frames are reported
    tasks = page.evaluate("() => { window.__bigFile = null; return window.__longTasks; }")
    assert max(tasks, default=0) < 100, tasks


def test_a_huge_paste_goes_aside_without_blocking(app):
    page = app.page
    app.score("", "")
    page.evaluate(LONG_TASKS)
    before = app.renders()
    page.evaluate("""() => {
        const data = new DataTransfer();
        data.setData("text/plain", "q1 0 " + "d".repeat(3000000) + " 1\\n");
        const box = document.querySelector("[data-testid=qrels-input]");
        box.focus();
        box.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    }""")
    page.get_by_test_id("run-input").fill("q1 Q0 d1 1 1.0 r\n")
    app.settle(before, timeout=120)
    expect(page.locator("#qrels-big")).to_contain_text("pasted text is loaded")
    expect(page.locator("#qrels-big")).to_contain_text("shows its first 20,000 characters")
    page.wait_for_timeout(300)
    tasks = page.evaluate("() => window.__longTasks")
    page.locator("[data-clear=qrels]").click()
    assert max(tasks, default=0) < 100, tasks


def test_many_lines_preview_by_lines_and_characters(app, tmp_path):
    page = app.page
    path = tmp_path / "lines.txt"
    path.write_text("".join(f"q{i} Q0 d{i} 1 1.0 r\n" for i in range(150_000)))  # 2.9 MB, short lines
    before = app.renders()
    page.get_by_test_id("run-file").set_input_files(path)
    app.settle(before, timeout=120)
    expect(page.locator("#run-big")).to_contain_text("150,000 lines")
    expect(page.locator("#run-big")).to_contain_text("shows its first 200 lines")
    page.locator("[data-clear=run]").click()


def test_results_below_the_fold_are_brought_into_view(app):
    """On a screen too narrow for the results beside the boxes, an example moves the view and the
    focus to the means (on a wide one they are beside the boxes: test_first_screen.py)."""
    page = app.page
    page.set_viewport_size({"width": 800, "height": 700})
    try:
        app.score("", "")
        page.evaluate("() => window.scrollTo(0, 0)")
        choose_example(app)
        expect(page.get_by_test_id("means-table")).to_be_in_viewport()
        assert page.evaluate("() => document.activeElement.id") == "results"
        expect(page.get_by_test_id("results-jump")).to_be_hidden()
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})


def test_the_skip_link_moves_the_focus_to_the_results(app):
    page = app.page
    page.evaluate("() => window.scrollTo(0, 0)")
    page.locator("a.skip[data-skip=results]").focus()
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "results"


def test_a_skip_link_reaches_the_judgements_box_within_three_tab_stops(app):
    page = app.page
    # the page's Tab order is its document order (no positive tabindex): the first three stops
    first = page.evaluate("""() => [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')]
        .filter((e) => !e.disabled && e.tabIndex >= 0 && !e.closest('[hidden]') && getComputedStyle(e).display !== 'none')
        .slice(0, 3).map((e) => e.dataset.skip || e.id || e.tagName)""")
    assert "qrels" in first, first
    assert page.evaluate("() => document.querySelectorAll('[tabindex]:not([tabindex^=\"-\"]):not([tabindex=\"0\"])').length") == 0
    page.locator("a.skip[data-skip=qrels]").focus()
    assert page.evaluate("() => getComputedStyle(document.activeElement).left") != "-9999px"  # shown when focused
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "qrels-input"
    assert "qrels-input" not in page.evaluate("() => location.hash")  # the fragment holds the settings


def test_an_empty_file_says_so(app, tmp_path):
    app.score("", "")
    path = tmp_path / "file.txt"
    path.write_text("")
    app.page.get_by_test_id("qrels-file").set_input_files(path)
    expect(app.page.get_by_test_id("qrels-error")).to_contain_text("file.txt is empty")
    blank = tmp_path / "blank.txt"
    blank.write_text("\n  \n")
    app.page.get_by_test_id("run-file").set_input_files(blank)
    expect(app.page.get_by_test_id("run-error")).to_contain_text("blank.txt holds only blank lines or spaces")


@pytest.mark.parametrize("k, message", [
    ("5,,10", "k has an empty entry between commas in '5,,10'"),
    ("10,5,5", "k gives 5 twice"),
    ("5,", "k has an empty entry between commas in '5,'"),
])
def test_a_k_typo_is_shown_by_the_field_and_keeps_the_last_report(app, k, message):
    page = app.page
    app.score(QRELS, RUN, k="3")
    before = app.renders()
    page.get_by_test_id("k-input").fill(k)
    app.settle(before)
    error = page.get_by_test_id("k-error")
    expect(error).to_have_text(re.compile("^" + re.escape(message)))
    expect(error).to_contain_text("give whole numbers from 1 to 1,000,000, each once, such as 1,5,10")
    expect(page.get_by_test_id("k-input")).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_test_id("means-table")).to_be_visible()      # the last good report stays
    expect(page.get_by_test_id("means-table").locator("thead th")).to_have_text(["Metric", "@3"])
    expect(page.get_by_test_id("stale-note")).to_be_visible()
    before = app.renders()
    page.get_by_test_id("k-input").fill("2")
    app.settle(before)
    expect(error).to_be_hidden()
    expect(page.get_by_test_id("stale-note")).to_be_hidden()


def test_the_per_query_column_of_mrr_says_rr(app):
    app.score(QRELS, RUN, k="3")
    head = app.page.get_by_test_id("per-query-table").locator("thead")
    groups = head.locator("th.group").all_inner_texts()
    assert "RR" in groups and "MRR" not in groups
    assert head.locator("button[data-sort='mrr@3']").get_attribute("aria-label") == "RR@3"
    # The means are means: MRR there.
    expect(app.page.get_by_test_id("means-table")).to_contain_text("MRR")


def test_one_download_menu_whose_controls_never_overlap(app):
    app.score(QRELS, RUN, k="3")
    page = app.page
    downloads = page.locator(".downloads")
    assert downloads.locator("button").count() == 1
    for width in (1280, 700, 390, 320):
        page.set_viewport_size({"width": width, "height": 844})
        boxes = downloads.locator("label, select, button").evaluate_all(
            "(els) => els.map((e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })")
        for i, a in enumerate(boxes):
            assert a[2] <= width + 0.5, (width, a)
            for b in boxes[i + 1:]:
                overlap = min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5
                assert not overlap, (width, a, b)
    page.set_viewport_size({"width": 1280, "height": 900})


def test_settings_persist_and_travel_in_the_fragment_but_never_the_data(app, browser, server_url):
    page = app.page
    app.score(QRELS, RUN, k="2,4", gain="exponential", missing="skip")
    app.show_panel("more-settings")
    app.show_panel("all-measures")
    page.get_by_test_id("relevance-threshold-input").fill("2")
    page.get_by_test_id("zero-division-select").select_option("0")
    page.get_by_test_id("metric-map").check()
    page.wait_for_timeout(300)
    url = page.url
    fragment = url.split("#", 1)[1]
    assert "k=2,4" in fragment and "gain=exponential" in fragment and "relevance=2" in fragment
    assert "zero_division=0" in fragment and "missing=skip" in fragment and "map" in fragment
    assert "d1" not in url and "q1" not in url
    # A new visit with the link (another browser: no localStorage) gets the settings, not the data.
    context = browser.new_context()
    other = context.new_page()
    other.goto(url)
    expect(other.get_by_test_id("k-input")).to_have_value("2,4")
    expect(other.get_by_test_id("gain-select")).to_have_value("exponential")
    expect(other.get_by_test_id("missing-select")).to_have_value("skip")
    expect(other.get_by_test_id("relevance-threshold-input")).to_have_value("2")
    expect(other.get_by_test_id("zero-division-select")).to_have_value("0")
    assert other.get_by_test_id("metric-map").is_checked()
    expect(other.get_by_test_id("qrels-input")).to_have_value("")
    context.close()
    # A reload without the fragment: this browser remembers them (the boxes kept first, so the
    # next visit restores these, not what an earlier test left).
    page.evaluate("() => window.__calculator.keep.flush()")
    page.goto(server_url)
    app.wait_ready()
    expect(page.get_by_test_id("k-input")).to_have_value("2,4")
    expect(page.get_by_test_id("zero-division-select")).to_have_value("0")
    assert page.get_by_test_id("metric-map").is_checked()
    # Back to the defaults for the other tests of this module.
    page.evaluate("() => localStorage.clear()")
    page.evaluate("() => window.__calculator.keep.flush()")
    page.goto(server_url)
    app.wait_ready()
    expect(page.get_by_test_id("k-input")).to_have_value("10")
    assert "#" not in page.url
    page.wait_for_function("() => !window.__calculator.busy()")  # the kept boxes restored
    assert not page.get_by_test_id("run-input").evaluate("(box) => box.readOnly")


def test_zero_division_and_the_relevance_threshold_reach_the_engine(app):
    page = app.page
    app.score(QRELS, RUN, k="3")
    app.show_panel("more-settings")
    before = app.renders()
    page.get_by_test_id("zero-division-select").select_option("0")
    app.settle(before)
    # q3 has no relevant document retrieved... every query has one relevant here; add one without.
    qrels = QRELS + "q4 0 d8 0\n"
    run = RUN + "q4 Q0 d8 1 1.0 r\n"
    app.score(qrels, run, k="3")
    expected = evaluate(qrels, run, k=3, zero_division=0).to_dict()
    assert app.means()["recall@3"] == pytest.approx(expected["mean"]["recall@3"], abs=1e-12)
    assert expected["mean"]["recall@3"] != evaluate(qrels, run, k=3).to_dict()["mean"]["recall@3"]
    before = app.renders()
    page.get_by_test_id("zero-division-select").select_option("skip")
    page.get_by_test_id("relevance-threshold-input").fill("2")
    app.settle(before)
    # Grade >= 2 is relevant: q1 has d1 (grade 2), at rank 3: recall@3 1, precision@3 1/3, RR 1/3;
    # q2 has d5 (grade 3) at rank 1: recall 1, precision 1/3, RR 1; q3, q4: no relevant document,
    # left out (skip). Means over q1, q2: recall 1, precision 1/3, MRR (1/3 + 1) / 2 = 2/3.
    means = app.means()
    assert means["recall@3"] == pytest.approx(1.0)
    assert means["precision@3"] == pytest.approx(1 / 3)
    assert means["mrr@3"] == pytest.approx(2 / 3)
    page.get_by_test_id("relevance-threshold-input").fill("1")
    page.evaluate("() => localStorage.clear()")
