"""The measure chooser, used by keyboard alone: a filter over the registry's catalogue (names,
labels, definitions, other tools' spellings), chips for what is chosen, and the registry's groups
and the other settings behind two buttons whose state the URL's fragment keeps."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

QRELS = "q1 0 a 1\nq1 0 b 0\nq1 0 c 2\n"
RUN = "q1 Q0 a 1 3 r\nq1 Q0 b 2 2 r\nq1 Q0 c 3 1 r\n"


@pytest.fixture
def chooser(app):
    app.score(QRELS, RUN, k="2")
    page = app.page
    yield page
    before = app.renders()  # the defaults again, through the fragment (a hashchange)
    page.evaluate("() => { location.hash = 'metrics=recall,precision,mrr,ndcg'; }")
    app.settle(before)


def chips(page) -> list[str]:
    return page.get_by_test_id("metric-chips").locator(".chip-label").all_text_contents()


def add_by_keyboard(app, text: str, *, down: int = 0) -> None:
    page = app.page
    page.get_by_test_id("metric-filter").focus()
    page.keyboard.type(text)
    expect(page.get_by_test_id("metric-options")).to_be_visible()
    for _ in range(down):
        page.keyboard.press("ArrowDown")
    before = app.renders()
    page.keyboard.press("Enter")
    app.settle(before)


@pytest.mark.parametrize(("typed", "chip", "key"), [
    ("bpref", "bpref", "bpref"),                  # trec_eval's name
    ("alpha-nDCG", "alpha-nDCG@k", None),          # a label (ndeval's spelling)
    ("ndcg_cut_10", "ndcg_cut_10", "ndcg@10"),     # trec_eval's name with a cutoff, as written
    ("ranx:hits@5", "ranx:hits@5", "ranx:hits@5"),  # another tool's reading, as written
])
def test_typing_finds_a_measure_and_enter_adds_it(app, chooser, typed, chip, key):
    page = chooser
    add_by_keyboard(app, typed)
    assert chip in chips(page)
    expect(page.get_by_test_id("metric-filter")).to_have_value("")
    expect(page.get_by_test_id("metric-options")).to_be_hidden()
    if key is not None:
        assert key in app.all_means(), app.all_means()
    assert "metrics=" in page.evaluate("() => location.hash")


def test_the_filter_reads_definitions_and_other_tools_names(app, chooser):
    page = chooser
    page.get_by_test_id("metric-filter").focus()
    page.keyboard.type("Success")  # ir_measures' name of the hit rate
    expect(page.get_by_test_id("metric-option-hit_rate")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("metric-options")).to_be_hidden()
    page.get_by_test_id("metric-filter").fill("")
    page.keyboard.type("preference")  # a word of bpref's definition
    expect(page.get_by_test_id("metric-option-bpref")).to_be_visible()
    page.get_by_test_id("metric-filter").fill("")
    page.keyboard.type("ndcg")  # several entries
    expect(page.get_by_test_id("metric-option-ndcg")).to_be_visible()
    # the active option is announced through aria-activedescendant and moves with the arrows
    first = page.get_by_test_id("metric-filter").get_attribute("aria-activedescendant")
    page.keyboard.press("ArrowDown")
    assert page.get_by_test_id("metric-filter").get_attribute("aria-activedescendant") != first
    page.keyboard.press("Escape")
    page.get_by_test_id("metric-filter").fill("")


def test_a_chip_is_removed_by_keyboard_and_the_focus_stays_in_the_chips(app, chooser):
    page = chooser
    assert chips(page)[:4] == ["Recall@k", "Precision@k", "MRR@k", "nDCG@k"]
    page.get_by_role("button", name="Remove MRR@k").focus()
    before = app.renders()
    page.keyboard.press("Enter")
    app.settle(before)
    assert "MRR@k" not in chips(page)
    assert "mrr@2" not in app.all_means()
    assert page.evaluate("() => document.activeElement.getAttribute('aria-label')") == "Remove nDCG@k"
    # the measures most reports add are one click away
    before = app.renders()
    page.get_by_test_id("suggest-map").click()
    app.settle(before)
    assert "MAP" in chips(page) and "map" in app.all_means()


def test_an_unknown_name_is_refused_beside_the_chooser(app, chooser):
    page = chooser
    add_by_keyboard(app, "ndcg_cut_x")
    error = page.get_by_test_id("metrics-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("ndcg_cut_x")
    before = app.renders()
    page.get_by_role("button", name="Remove ndcg_cut_x").click()
    app.settle(before)
    expect(error).to_be_hidden()


def test_the_panels_open_by_keyboard_and_the_fragment_keeps_more_settings(app, chooser):
    page = chooser
    more = page.get_by_test_id("more-settings")
    expect(page.get_by_test_id("more-settings-panel")).to_be_hidden()
    more.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("more-settings-panel")).to_be_visible()
    assert more.get_attribute("aria-expanded") == "true"
    assert "more=open" in page.evaluate("() => location.hash")
    all_measures = page.get_by_test_id("all-measures")
    all_measures.focus()
    page.keyboard.press("Space")
    expect(page.get_by_test_id("metric-bpref")).to_be_visible()
    # a setting changed behind the button is counted on it
    before = app.renders()
    page.get_by_test_id("ties-select").select_option("pessimistic")
    app.settle(before)
    expect(more).to_contain_text("1 changed")
    # a reload opens the panel again from the fragment
    page.reload()
    app.wait_ready()
    expect(page.get_by_test_id("more-settings-panel")).to_be_visible()
    expect(page.get_by_test_id("ties-select")).to_have_value("pessimistic")
    before = app.renders()
    page.get_by_test_id("ties-select").select_option("trec_eval")
    more.click()
    app.settle(before)
    expect(page.get_by_test_id("more-settings-panel")).to_be_hidden()
    assert "more=open" not in page.evaluate("() => location.hash")
