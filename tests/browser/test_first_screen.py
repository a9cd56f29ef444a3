"""The first screen is the task: at each common size, measured from the page's own element boxes.

- At 1280x800, 1440x900 and 768x1024 the Example menu and both input boxes are wholly inside the
  first screen; on a 390x844 phone the judgements box starts inside it.
- From 320 to 2560 px the page never scrolls sideways, and no fixed or sticky element lies over a
  control, before and after an example is scored.
- After an example, the means are in view: beside the boxes on wide screens, scrolled to (with
  the focus on the results) on narrow ones.

Each state is saved as a screenshot under build/screenshots/ (a test artefact, not committed).
Pyodide boots once for the module; the viewport is resized between sizes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "build" / "screenshots"
SIZES = [(1280, 800), (1440, 900), (768, 1024), (390, 844)]
WIDTHS = [320, 390, 768, 1024, 1100, 1280, 1920, 2560]

BOX = """(id) => { const b = document.getElementById(id).getBoundingClientRect();
    return {top: b.top, bottom: b.bottom, left: b.left, right: b.right}; }"""

# Every visible control that a fixed or sticky element (outside a table's own scroll region)
# covers, as "covering element -> control" lines.
COVERED = """() => {
    const visible = (e) => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
        return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
    const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : '');
    const floating = [...document.querySelectorAll('body *')].filter((e) => {
        const p = getComputedStyle(e).position;
        return (p === 'fixed' || p === 'sticky') && visible(e) && !e.closest('.table-scroll') && !e.closest('dialog');
    });
    const controls = [...document.querySelectorAll('button, input:not([type=file]), select, textarea, a[href], summary')]
        .filter((c) => visible(c) && !c.closest('dialog'));
    const out = [];
    for (const f of floating) {
        const a = f.getBoundingClientRect();
        for (const c of controls) {
            if (f.contains(c) || c.contains(f)) continue;
            const b = c.getBoundingClientRect();
            if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push(name(f) + ' -> ' + name(c));
        }
    }
    return out;
}"""


@pytest.fixture(scope="module")
def page(app):
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield app.page
    app.page.set_viewport_size({"width": 1280, "height": 900})


def blank_page(app, size):
    page = app.page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    app.score("", "")
    page.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0); }")
    page.wait_for_timeout(100)


def overflow(page) -> int:
    """How far the page reaches past the window's right edge, in CSS pixels."""
    return page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_boxes_are_in_the_first_screen(app, page, size):
    blank_page(app, size)
    width, height = size
    page.screenshot(path=str(SHOTS / f"{width}x{height}-empty.png"))
    examples, qrels, run = (page.evaluate(BOX, i) for i in ("examples", "qrels-box", "run-box"))
    if width >= 768:
        for name, box in (("Example menu", examples), ("judgements box", qrels), ("results box", run)):
            assert 0 <= box["top"] and box["bottom"] <= height, f"{name} at {box} is not inside {width}x{height}"
    else:
        assert 0 <= qrels["top"] < height, f"the judgements box starts at {qrels['top']:.0f} px, below {height}"
    assert overflow(page) <= 0
    assert page.evaluate(COVERED) == []


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_means_are_in_view_after_an_example(app, page, size):
    blank_page(app, size)
    width, height = size
    before = app.renders()
    page.get_by_test_id("examples-select").select_option("wikipedia-ndcg")
    app.settle(before)
    page.wait_for_timeout(300)  # a scroll into view is instant, but the layout settles first
    page.screenshot(path=str(SHOTS / f"{width}x{height}-example.png"))
    means = page.evaluate(BOX, "means-table")
    assert 0 <= means["top"] and means["bottom"] <= height, f"the means at {means} are not in view at {width}x{height}"
    expect(page.get_by_test_id("means-table")).to_contain_text("0.7850")
    if page.evaluate("() => window.scrollY") > 0:  # the page moved: so did the focus
        assert page.evaluate("() => document.activeElement.id") == "results"
    assert overflow(page) <= 0
    assert page.evaluate(COVERED) == []


@pytest.mark.parametrize("width", WIDTHS)
def test_no_width_scrolls_the_page_sideways(app, page, width):
    page.set_viewport_size({"width": width, "height": 900})
    before = app.renders()
    page.get_by_test_id("examples-select").select_option("trec-eval-test")
    app.settle(before)
    page.wait_for_timeout(100)
    assert overflow(page) <= 0, f"the page is {overflow(page)} px wider than a {width} px window"
    assert page.evaluate(COVERED) == []


def test_long_ids_and_notices_wrap(app, page):
    page.set_viewport_size({"width": 390, "height": 844})
    long_id = "q" + "x" * 400
    app.score(f"{long_id} 0 {'d' * 300} 1\n", f"{long_id} Q0 {'d' * 300} 1 1 r\n{long_id} Q0 other 2 0.5 r\n"
              "unjudged-query-with-a-long-name-" + "y" * 200 + " Q0 d 1 1 r\n")
    page.wait_for_timeout(100)
    assert overflow(page) <= 0
    assert page.evaluate(COVERED) == []
