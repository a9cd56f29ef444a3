"""The page explains itself (issue 17), in Chromium: "Save report" downloads one self-contained
HTML file naming every run with its means; each measure's (i) opens its registry entry; the
glossary opens from the tables; Baseline and Many runs are folded until used; a paste points to
the results; the tie policy reaches the engine.

The means are the engine's under CPython for the same texts (`web.analyse_many`, `evaluate`);
the measure entries are the registry's (`web.measures()`).
"""

from __future__ import annotations

import re

import retrieval_metrics as rm
from playwright.sync_api import expect
from retrieval_metrics.page import web
from test_many_runs_page import QRELS, RUNS, files, many_renders, wait_many

METRICS = ["recall", "precision", "mrr", "ndcg"]


def test_boxes_are_folded_until_used(app):
    page = app.page
    expect(page.locator("#baseline-box")).to_have_class(re.compile(r"\bfolded\b"))
    expect(page.locator("#many-box")).to_have_class(re.compile(r"\bfolded\b"))
    button = page.get_by_test_id("baseline-box-fold")
    expect(button).to_have_attribute("aria-expanded", "false")
    button.click()
    expect(page.locator("#baseline-box")).not_to_have_class(re.compile(r"\bfolded\b"))
    expect(page.get_by_test_id("baseline-input")).to_be_focused()


def test_measure_info_from_the_chooser_and_the_means_table(app):
    page = app.page
    entry = next(m for m in web.measures() if m["value"] == "ndcg")
    app.show_panel("all-measures")
    page.locator("#metric-groups [data-info=ndcg]").click()
    dialog = page.get_by_test_id("measure-info")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_test_id("measure-info-description")).to_have_text(entry["description"])
    expect(dialog.get_by_test_id("measure-info-trec-eval")).to_have_text(entry["trec_eval"])
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.locator("#metric-groups [data-info=ndcg]")).to_be_focused()
    assert page.get_by_test_id("metric-ndcg").is_checked()  # the (i) inside its label ticked nothing off

    app.score(QRELS, RUNS["run1"], k="5")
    row = page.locator("#means-table tr[data-metric=recall] th")
    expect(row).to_have_text(entry_label := next(m["label"] for m in web.measures() if m["value"] == "recall"))
    row.locator(".info-button").focus()
    page.keyboard.press("Enter")
    expect(dialog.get_by_test_id("measure-info-trec-eval")).to_have_text("recall_k")
    assert entry_label == dialog.locator("h3").text_content()
    dialog.get_by_test_id("measure-info-close").click()
    expect(dialog).to_be_hidden()


def test_a_paste_points_to_the_results(app):
    page = app.page
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        page.locator("[data-clear=run]").click()
        before = app.renders()
        page.evaluate("""(text) => { const box = document.getElementById('run-input');
            box.dispatchEvent(new Event('paste', {bubbles: true}));
            box.value = text; box.dispatchEvent(new Event('input', {bubbles: true})); }""", RUNS["run2"])
        app.settle(before)
        jump = page.get_by_test_id("results-jump")
        expect(jump).to_be_visible()
        expect(jump).to_contain_text("Scored:")
        jump.get_by_role("link", name="Show the results").click()
        expect(jump).to_be_hidden()
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})


def test_tie_policy_reaches_the_engine_and_its_notice_shows(app):
    qrels, run = "q1 0 b 1\n", "q1 Q0 a 1 1 r\nq1 Q0 b 2 1 r\n"  # a and b tie; trec_eval puts b first
    page = app.page
    app.score(qrels, run, k="1")
    assert app.means()["precision@1"] == 1.0
    app.show_panel("more-settings")
    before = app.renders()
    page.get_by_test_id("ties-select").select_option("pessimistic")
    app.settle(before)
    expected = rm.evaluate(qrels, run, k=1, ties="pessimistic").mean["precision@1"]
    assert app.means()["precision@1"] == expected == 0.0
    notice = rm.evaluate(qrels, run, k=1, ties="pessimistic").notices
    text = next(n.message for n in notice if n.code == "score_ties")
    expect(page.get_by_test_id("notices")).to_contain_text(text[:40])
    before = app.renders()
    page.get_by_test_id("ties-select").select_option("trec_eval")
    app.settle(before)


def test_save_report_names_every_run_with_its_means_and_needs_nothing_else(app, browser, tmp_path):
    page = app.page
    app.score(QRELS, "", k="5")
    since = many_renders(app)
    page.get_by_test_id("many-file").set_input_files(files(["run0", "run1", "run2"]))
    wait_many(app, since)
    expect(page.locator("#many-box")).not_to_have_class(re.compile(r"\bfolded\b"))
    page.locator("#many-result [data-testid=glossary-link]").click()
    expect(page.get_by_test_id("glossary")).to_be_visible()
    page.get_by_test_id("glossary-close").click()
    with page.expect_download() as info:
        page.get_by_test_id("many-save-report").click()
    path = tmp_path / info.value.suggested_filename
    info.value.save_as(path)
    assert path.name.endswith(".html")
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"https?:", text)
    assert not re.search(r"<link\b|<script\b[^>]*\bsrc=|<img\b|<iframe\b|@import|url\(", text, re.I)
    for name in ("run0", "run1", "run2"):
        mean = rm.evaluate(QRELS, RUNS[name], k=5, metrics=METRICS).mean
        assert re.search(rf">{name}( \(baseline\))?<", text), name
        for key in ("ndcg@5", "recall@5"):
            assert f"{mean[key]:.4f}" in text, (name, key)
    # opened with the network off it asks for nothing
    context = browser.new_context()
    context.set_offline(True)
    requests = []
    viewer = context.new_page()
    viewer.on("request", lambda r: requests.append(r.url))
    viewer.goto(path.as_uri())
    expect(viewer.locator("h1")).to_be_visible()
    assert [u for u in requests if u != path.as_uri()] == []
    context.close()
    since = many_renders(app)
    page.get_by_test_id("many-clear").click()
    wait_many(app, since)


def test_save_report_of_one_run(app, tmp_path):
    page = app.page
    app.score(QRELS, RUNS["run0"], k="5")
    with page.expect_download() as info:
        page.get_by_test_id("save-report").click()
    path = tmp_path / info.value.suggested_filename
    info.value.save_as(path)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and not re.search(r"https?:|<link\b|<script\b[^>]*\bsrc=", text)
    mean = rm.evaluate(QRELS, RUNS["run0"], k=5, metrics=METRICS).mean
    assert ">run<" in text or ">run (baseline)<" in text
    for key in ("recall@5", "ndcg@5", "mrr@5"):
        assert f"{mean[key]:.4f}" in text, key


def dialog_text(page) -> dict:
    dialog = page.get_by_test_id("measure-info")
    expect(dialog).to_be_visible()
    return {"title": dialog.locator("h3").text_content(),
            "description": dialog.get_by_test_id("measure-info-description").text_content(),
            "trec_eval": dialog.get_by_test_id("measure-info-trec-eval").text_content(),
            "all": dialog.inner_text()}


def test_the_many_runs_table_explains_each_measure_as_the_single_run_table(app):
    page = app.page
    entry = next(m for m in web.measures() if m["value"] == "ndcg")   # the registry's own words
    app.score(QRELS, RUNS["run1"], k="10")
    page.locator("#means-table tr[data-metric=ndcg] .info-button").click()
    single = dialog_text(page)
    page.get_by_test_id("measure-info-close").click()
    assert single["description"] == entry["description"] and single["title"] == entry["label"]
    assert single["trec_eval"] == entry["trec_eval"]

    since = many_renders(app)
    page.get_by_test_id("many-file").set_input_files(files(["run0", "run1"]))
    wait_many(app, since)
    heading = page.locator("#many-table thead th[data-metric='ndcg@10']")
    expect(heading).to_have_text(f"{entry['label']}@10")   # the button adds no text to the heading
    heading.locator(".info-button").focus()
    page.keyboard.press("Enter")
    assert dialog_text(page) == single
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("measure-info")).to_be_hidden()
    expect(heading.locator(".info-button")).to_be_focused()
    # one (i) per measure of the table, each naming its own measure
    labels = page.locator("#many-table thead .info-button").evaluate_all("(bs) => bs.map((b) => b.dataset.info)")
    assert labels == ["recall", "precision", "mrr", "ndcg"]
    since = many_renders(app)
    page.get_by_test_id("many-clear").click()
    wait_many(app, since)
