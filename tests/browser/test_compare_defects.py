"""The comparison as a new user met it (issue 11): on a phone the table hid Difference, W/T/L and p
with no cue and could not be scrolled by keyboard; W/T/L, p and the test were explained only in
hover tooltips; p-values stayed bold when the baseline used other settings; many p-values came with
no word about multiple testing; the plot legend said "about 1 neighbouring queries".
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect
from retrieval_metrics import evaluate
from test_compare_page import BASE, QRELS, RUN, collection, score


def test_on_a_phone_the_comparison_table_is_a_focusable_region_with_a_visible_cue(app):
    score(app, QRELS, RUN, BASE)
    page = app.page
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        wrap = page.locator(".table-scroll", has=page.get_by_test_id("comparison-table"))
        expect(wrap).to_have_attribute("role", "region")
        expect(wrap).to_have_attribute("tabindex", "0")
        expect(wrap).to_have_attribute("aria-label", re.compile("Comparison with the baseline, scrolls sideways"))
        hint = wrap.locator("xpath=following-sibling::p[contains(@class, 'scroll-hint')]")
        expect(hint).to_be_visible()
        expect(hint).to_contain_text("scroll the table sideways")
        # The keyboard scrolls it.
        wrap.focus()
        page.keyboard.press("ArrowRight")
        page.keyboard.press("End")
        page.wait_for_timeout(200)
        assert wrap.evaluate("(w) => w.scrollLeft") > 0
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})
    # Wide enough (one column of the full width): no cue, no extra tab stop.
    page.set_viewport_size({"width": 1099, "height": 900})
    try:
        page.wait_for_timeout(200)
        expect(page.locator(".table-scroll", has=page.get_by_test_id("comparison-table"))).not_to_have_attribute("tabindex", "0")
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})


def test_wins_ties_losses_p_and_the_test_are_explained_in_visible_text(app):
    score(app, QRELS, RUN, BASE)
    explain = app.page.get_by_test_id("comparison-explain")
    expect(explain).to_be_visible()
    for term in ("Difference", "Wins, ties, losses", "p", "Test"):
        expect(explain.locator("dt", has_text=re.compile(f"^{re.escape(term)}$"))).to_be_visible()
    expect(explain).to_contain_text("queries where the candidate scores higher than, the same as, or lower than the baseline")
    expect(explain).to_contain_text("two-sided paired randomisation test")
    rows = app.page.get_by_test_id("comparison-table").locator("tbody tr").count()
    # 8 metric keys (recall, precision, mrr, ndcg at 3 and 10), 8 p-values: Bonferroni 0.05 / 8.
    assert rows == 8
    note = app.page.get_by_test_id("multiple-testing")
    expect(note).to_be_visible()
    expect(note).to_contain_text("8 p-values are shown")
    expect(note).to_contain_text("p < 0.00625")


def test_p_values_are_muted_when_the_baseline_used_other_settings(app):
    qrels, run, base = collection(30, seed=5)
    saved = evaluate(qrels, base, k=[3, 10], gain="exponential").to_dict()
    text = json.dumps(saved, allow_nan=False, default=lambda v: None)
    score(app, qrels, run, text)
    page = app.page
    expect(page.get_by_test_id("comparison-notices").locator("[data-code=settings_differ]")).to_be_visible()
    table = page.get_by_test_id("comparison-table")
    assert table.locator("td.p.significant").count() == 0
    assert table.locator("td.p.muted").count() == table.locator("tbody tr").count() > 0
    expect(page.get_by_test_id("p-muted-note")).to_be_visible()
    # The same run against a baseline scored alike: nothing muted.
    score(app, qrels, run, base)
    assert table.locator("td.p.muted").count() == 0
    expect(page.get_by_test_id("p-muted-note")).to_have_count(0)


def test_the_plot_legend_counts_neighbouring_queries_in_words_that_agree(app, tmp_path):
    page = app.page
    app.score("", "", k="10")
    before = app.renders()
    for name, text in zip(("qrels", "run", "baseline"), collection(700, seed=13)):
        path = tmp_path / f"{name}.txt"
        path.write_text(text)
        page.get_by_test_id(f"{name}-file").set_input_files(path)
    app.settle(before, timeout=120)
    bars = page.get_by_test_id("difference-plot").locator("rect.bar")
    sizes = sorted(set(bars.evaluate_all("(rs) => rs.map((r) => Number(r.dataset.queries || 1))")))
    # 700 queries in fewer than 700 bars at this width: each bar n or n + 1 neighbouring queries
    assert len(sizes) == 2 and sizes[1] == sizes[0] + 1, sizes
    assert bars.count() < 700
    legend = page.locator("#plot-legend")
    expect(legend).to_contain_text(f"each bar is the mean difference of {sizes[0]} or {sizes[1]} neighbouring queries")
    assert "1 neighbouring queries" not in legend.inner_text()
    for name in ("qrels", "run", "baseline"):
        page.locator(f"[data-clear={name}]").click()
