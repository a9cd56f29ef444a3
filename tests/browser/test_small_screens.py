"""The first five minutes on a tablet and a phone (issue 37).

- At 390x844 and 768x1024, text pasted into both boxes (focus, then insert text, as a person
  pastes) brings a run's mean into view without the person scrolling: a line right under the box
  gives the headline mean (the engine's number) and points to the results.
- An example's settings stay with the example: after the Wikipedia example (k = 6), one's own text
  pasted over it is scored at the k from before the example, the page says so, and a reload
  keeps the person's k, not the example's.

Pyodide boots once for the module; each test resets the page it uses.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

QRELS = "q1 0 d1 2\nq1 0 d2 1\nq2 0 d3 1\n"
RUN = "q1 Q0 d2 1 3.0 r\nq1 Q0 d9 2 2.0 r\nq1 Q0 d1 3 1.0 r\nq2 Q0 d3 1 1.0 r\n"

IN_VIEW = """(testid) => {
    const e = document.querySelector(`[data-testid=${testid}]`);
    if (!e || e.hidden) return false;
    const r = e.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
}"""


def reset(app, width: int, height: int) -> None:
    page = app.page
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("() => { localStorage.clear(); history.replaceState(null, '', location.pathname); }")
    page.reload()
    app.wait_ready()
    # the boxes kept from the last test come back after the reload: an example loaded before
    # they do would be replaced by them
    page.wait_for_function("() => !window.__calculator.busy()")
    page.evaluate("() => window.scrollTo(0, 0)")


def paste(app, testid: str, text: str) -> None:
    box = app.page.get_by_test_id(testid)
    box.focus()  # Playwright scrolls it into view first, as a person taps it
    app.page.keyboard.insert_text(text)


@pytest.mark.parametrize("size", [(390, 844), (768, 1024)], ids=["phone", "tablet"])
def test_a_paste_shows_the_mean_beside_the_box(app, engine_numbers, size):
    reset(app, *size)
    before = app.renders()
    paste(app, "qrels-input", QRELS)
    paste(app, "run-input", RUN)
    app.settle(before)
    page = app.page
    scroll = page.evaluate("() => window.scrollY")
    assert page.evaluate(IN_VIEW, "results-jump"), "the line holding the mean is out of view"
    assert page.evaluate(IN_VIEW, "run-input") or page.evaluate(
        "() => document.activeElement.id") == "run-input"
    text = page.get_by_test_id("results-jump").inner_text()
    expected = engine_numbers(QRELS, RUN, k=10)["mean"]["ndcg@10"]
    assert f"nDCG@10 {expected:.3f}" in text or f"{expected:.4f}" in text, text
    # the view stayed with the box: it was not carried down to the results
    assert page.evaluate("(y) => Math.abs(window.scrollY - y) < 1", scroll)
    results_top = page.evaluate("() => document.getElementById('results').getBoundingClientRect().top")
    assert results_top > size[1] * 0.5  # the results themselves are further down
    page.get_by_role("link", name="Show the results").click()
    assert page.evaluate(IN_VIEW, "means-table") or page.evaluate(
        "() => document.getElementById('results').getBoundingClientRect().top") < 10


def k_value(app) -> str:
    return app.page.get_by_test_id("k-input").input_value()


def test_an_examples_k_stays_with_the_example(app, engine_numbers):
    reset(app, 1280, 800)
    page = app.page
    page.get_by_test_id("k-input").fill("5")
    before = app.renders()
    page.get_by_test_id("examples-select").select_option("wikipedia-ndcg")
    app.settle(before)
    assert k_value(app) == "6" and round(app.means()["ndcg@6"], 3) == 0.785
    before = app.renders()
    page.get_by_test_id("qrels-input").fill("")
    paste(app, "qrels-input", QRELS)
    page.get_by_test_id("run-input").fill("")
    paste(app, "run-input", RUN)
    app.settle(before)
    assert k_value(app) == "5"
    assert page.get_by_test_id("examples-select").input_value() == ""
    note = page.get_by_test_id("example-undo")
    assert note.is_visible() and "k = 5" in note.inner_text()
    expected = engine_numbers(QRELS, RUN, k=5)["mean"]
    assert app.means() == pytest.approx({key: expected[key] for key in app.means()})
    assert "ndcg@5" in app.means()
    page.reload()
    app.wait_ready()
    assert k_value(app) == "5"


def test_an_examples_k_is_not_kept_for_the_next_visit(app):
    """Loaded, then the page reloaded without touching anything: the example's text is gone,
    and so is its k (it was never stored as the person's)."""
    reset(app, 1280, 800)
    page = app.page
    before = app.renders()
    page.get_by_test_id("examples-select").select_option("wikipedia-ndcg")
    app.settle(before)
    assert k_value(app) == "6"
    assert "k=6" not in page.evaluate("() => location.hash")
    page.reload()
    app.wait_ready()
    assert k_value(app) == "10"


def test_a_k_the_person_set_after_the_example_is_kept(app):
    reset(app, 1280, 800)
    page = app.page
    before = app.renders()
    page.get_by_test_id("examples-select").select_option("wikipedia-ndcg")
    app.settle(before)
    page.get_by_test_id("k-input").fill("3")
    before = app.renders()
    page.get_by_test_id("qrels-input").fill(QRELS)
    page.get_by_test_id("run-input").fill(RUN)
    app.settle(before)
    assert k_value(app) == "3"


# --- a stable, readable layout ----------------------------------------------------------------

# Every visible select whose chosen option, input or textarea whose placeholder (its longest
# line, where lines do not wrap) and chip whose text is wider than the room it has: "what: text".
CUT_OFF = """() => {
    const ctx = document.createElement('canvas').getContext('2d');
    const measure = (el, text) => { const s = getComputedStyle(el);
        ctx.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
        return ctx.measureText(text).width; };
    const room = (el, extra) => { const s = getComputedStyle(el);
        return el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - extra; };
    const visible = (e) => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
        return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !e.closest('[hidden], dialog'); };
    const out = [];
    for (const sel of document.querySelectorAll('select')) {
        if (!visible(sel)) continue;
        const text = sel.selectedOptions[0]?.textContent || '';
        if (measure(sel, text) > room(sel, 18)) out.push(`select#${sel.id}: ${text}`);
    }
    for (const box of document.querySelectorAll('input[placeholder], textarea[placeholder]')) {
        if (!visible(box) || box.value) continue;
        const lines = box.tagName === 'TEXTAREA' && box.getAttribute('wrap') !== 'off' ? [] : box.placeholder.split('\\n');
        if (lines.some((line) => measure(box, line) > room(box, 2))) out.push(`${box.id}: ${box.placeholder}`);
    }
    for (const chip of document.querySelectorAll('.chip-label')) {
        if (visible(chip) && chip.scrollWidth > chip.clientWidth + 1) out.push(`chip: ${chip.textContent}`);
    }
    return out;
}"""

# The controls of the settings and the boxes (the results below say, in a note, that they are the
# last settings' that worked), and the line pointing to the results.
CONTROLS = """() => [...document.querySelectorAll('#rankings-main .settings :is(button, select, input:not([type=file]), textarea), #rankings-main .inputs :is(button, select, input:not([type=file]), textarea), #results-jump a')]
    .filter((e) => e.getBoundingClientRect().width > 0 && e.id !== 'k')
    .map((e) => { const r = e.getBoundingClientRect(); return [e.id || e.textContent.trim().slice(0, 20), Math.round(r.left), Math.round(r.top + scrollY)]; })"""


@pytest.mark.parametrize("size", [(390, 844), (768, 1024), (1280, 800), (1920, 1080)])
def test_no_select_placeholder_or_chip_is_cut_off(app, size):
    reset(app, *size)
    assert app.page.evaluate(CUT_OFF) == []
    for example in ("wikipedia-ndcg", "trec-eval-test"):
        before = app.renders()
        app.page.get_by_test_id("examples-select").select_option(example)
        app.settle(before)
        assert app.page.evaluate(CUT_OFF) == [], example


@pytest.mark.parametrize("size", [(390, 844), (768, 1024), (1280, 800)])
def test_a_wrong_k_moves_no_control(app, size):
    reset(app, *size)
    app.score(QRELS, RUN)
    app.page.evaluate("() => window.scrollTo(0, 0)")
    before = app.page.evaluate(CONTROLS)
    app.page.get_by_test_id("k-input").fill("abc")
    error = app.page.get_by_test_id("k-error")
    error.wait_for(state="visible")
    assert "k cannot be 'abc'" in error.inner_text()
    assert app.page.evaluate(CONTROLS) == before
    assert app.page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    app.page.get_by_test_id("k-input").fill("10")
    error.wait_for(state="hidden")


# The nDCG cells of a table's header, each wholly inside the table's scroll region as it is shown.
NDCG_IN_VIEW = """(testid) => {
    const table = document.querySelector(`[data-testid=${testid}]`);
    const region = table.closest('.table-scroll') || table.parentElement;
    const box = region.getBoundingClientRect();
    const cells = [...table.querySelectorAll('[data-key^="ndcg@"], [data-sort^="ndcg@"]')];
    return cells.length > 0 && region.scrollLeft === 0 && cells.every((c) => {
        const r = c.getBoundingClientRect(); return r.left >= box.left - 1 && r.right <= box.right + 1; });
}"""


def test_the_ndcg_columns_are_in_view_at_1280_with_three_cutoffs(app):
    reset(app, 1280, 800)
    app.score(QRELS, RUN, k="1,5,10")
    page = app.page
    assert page.evaluate(NDCG_IN_VIEW, "means-table")
    assert page.evaluate(NDCG_IN_VIEW, "per-query-table")
    # the headline measure leads the per-query table; the others follow in the chooser's order
    groups = page.evaluate("() => [...document.querySelectorAll('#per-query-table th.group')].map((th) => th.textContent.replace(/[▲▼]/g, '').trim())")
    assert groups == ["nDCG", "Recall", "Precision", "RR"]


def test_sorting_from_the_metric_header_and_a_first_click_always_changes_the_order(app):
    reset(app, 1280, 800)
    qrels = "a 0 d1 1\nb 0 d1 1\nc 0 d1 1\n"
    run = "a Q0 d1 1 3 r\nb Q0 d9 1 3 r\nb Q0 d1 2 2 r\nc Q0 d9 1 3 r\nc Q0 d8 2 2 r\nc Q0 d1 3 1 r\n"
    app.score(qrels, run, k="10")  # nDCG@10: a 1, b 0.63, c 0.5 (already the best first by query)
    page = app.page
    order = lambda: page.evaluate("() => [...document.querySelectorAll('#per-query-table tbody tr')].map((r) => r.dataset.query)")  # noqa: E731
    assert order() == ["a", "b", "c"]
    page.locator("#per-query-table th.group button", has_text="nDCG").click()
    assert order() == ["c", "b", "a"]  # the rows were best first already: the first click sorts the other way
    page.locator("#per-query-table th.group button", has_text="nDCG").click()
    assert order() == ["a", "b", "c"]
    page.locator('#per-query-table button[data-sort="query"]').click()
    page.locator('#per-query-table button[data-sort="query"]').click()  # query, descending
    assert order() == ["c", "b", "a"]
    page.locator('#per-query-table th.cut button[data-sort="ndcg@10"]').click()
    assert order() == ["a", "b", "c"]  # worst first on screen: the first click puts the best first


# --- while Python loads -------------------------------------------------------------------------

SETTINGS_CONTROLS = """() => [...document.querySelectorAll('#rankings-main .settings :is(button, select, input, textarea)')]
    .filter((e) => e.getBoundingClientRect().width > 0)
    .map((e) => { const r = e.getBoundingClientRect(); return [e.id || e.dataset.testid || e.textContent.trim().slice(0, 20), Math.round(r.left), Math.round(r.top + scrollY)]; })"""


@pytest.mark.parametrize("size", [(390, 844), (768, 1024), (1280, 800)])
def test_while_python_loads_the_chips_are_drawn_and_a_paste_is_promised_a_score(browser, server_url, engine_numbers, size):
    """The wasm held back: the default chips and the settings row are there before "ready"
    (nothing moves at ready), a paste says it will be scored when Python is ready (and the
    Results panel does not say the boxes are empty), and the score comes once it is."""
    from pagekit import App

    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    release = []
    context.route("**/pyodide.asm.wasm*", lambda route: release.append(route))
    page = context.new_page()
    app = App(page, server_url)
    app.open()
    page.wait_for_function("() => document.querySelectorAll('[data-testid^=chip-]').length >= 4")
    assert page.get_by_test_id("status").inner_text() == "loading"
    chips = page.evaluate("() => [...document.querySelectorAll('[data-testid^=chip-]')].map((c) => c.dataset.testid)")
    assert chips == ["chip-recall", "chip-precision", "chip-mrr", "chip-ndcg"]
    before = page.evaluate(SETTINGS_CONTROLS)
    page.get_by_test_id("qrels-input").fill(QRELS)
    page.get_by_test_id("run-input").fill(RUN)
    page.wait_for_function("() => document.getElementById('progress-text').textContent.includes('as soon as Python is ready')")
    empty = page.locator("#empty").inner_text()
    assert "Paste or drop" not in empty and "as soon as it is ready" in empty
    for route in release:
        route.continue_()
    context.unroute("**/pyodide.asm.wasm*")
    app.wait_ready()
    app.settle(0)
    assert page.evaluate(SETTINGS_CONTROLS) == before
    assert app.means() == pytest.approx(engine_numbers(QRELS, RUN, k=10)["mean"])
    context.close()


def test_one_query_is_a_bar_not_an_area(app):
    reset(app, 1280, 800)
    app.score("q1 0 d1 1\n", "q1 Q0 d2 1 2 r\nq1 Q0 d1 2 1 r\n", k="10")
    frame = app.page.locator("#chart-sorted-frame")
    assert frame.locator("[data-testid=chart-sorted-bar]").count() == 1
    assert frame.locator("path.area").count() == 0
    bar = frame.locator("[data-testid=chart-sorted-bar]").bounding_box()
    assert 0 < bar["width"] <= 48 and bar["height"] > 0


CHIPS = "() => [...document.querySelectorAll('[data-testid^=chip-]')].map((c) => c.dataset.testid)"


def test_an_example_without_measures_gives_back_the_persons_not_the_last_examples(app):
    """The subtopic example sets its measures (alpha-nDCG); the Wikipedia example that follows
    has none of its own, so the person's measures from before the first example come back; and
    replacing the example's text leaves them the person's."""
    reset(app, 1280, 800)
    page = app.page
    before = app.renders()
    page.get_by_test_id("suggest-map").click()  # the person's own choice: the defaults and MAP
    try:  # its score drawn (when the kept boxes have text), so a settle waits for the example's
        page.wait_for_function(f"() => window.__calculator.renders > {before} && "
                               "!window.__calculator.busy()", timeout=5_000)
    except PlaywrightTimeout:
        pass  # nothing to score: no render follows the click
    mine = page.evaluate(CHIPS)
    assert "chip-map" in mine
    for example in ("subtopics-alpha-ndcg", "wikipedia-ndcg"):
        before = app.renders()
        page.get_by_test_id("examples-select").select_option(example)
        app.settle(before)
        if example == "subtopics-alpha-ndcg":
            assert page.evaluate(CHIPS) != mine
    assert page.evaluate(CHIPS) == mine
    before = app.renders()
    page.get_by_test_id("qrels-input").fill(QRELS)
    page.get_by_test_id("run-input").fill(RUN)
    app.settle(before)
    assert page.evaluate(CHIPS) == mine and k_value(app) == "10"
