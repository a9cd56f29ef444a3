"""The measure chooser is the engine's registry, and the page's `#metrics=` takes the CLI's -m
names: on trec_eval's own test collection, the means the page shows for bpref, infAP, P_5 and
ndcg_cut_10 are trec_eval's, read from trec_eval's output files (tests/data/trec_eval/out.test.aq:
`trec_eval -m all_trec -q qrels.test results.test`), not from this engine.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
from pagekit import App
from playwright.sync_api import expect
from retrieval_metrics.measures.grammar import parse_metric
from retrieval_metrics.page.web import measures

TREC_EVAL = Path(__file__).resolve().parents[1] / "data" / "trec_eval"
NAMES = ("bpref", "infAP", "P_5", "ndcg_cut_10")


def trec_eval_lines(name: str) -> dict[str, dict[str, float]]:
    """{measure: {query or "all": value}} from one of trec_eval's output files."""
    out: dict[str, dict[str, float]] = defaultdict(dict)
    for line in (TREC_EVAL / name).read_text().splitlines():
        measure, query, value = line.split()
        if measure not in ("runid", "relstring"):   # the only lines that are not numbers
            out[measure][query] = float(value)
    return out


@pytest.fixture(scope="module")
def fragment_page(browser, server_url):
    """A page opened with the measures in its fragment (a fresh context: no saved settings)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    app = App(page, server_url)
    page.goto(server_url + "#metrics=" + ",".join(NAMES))
    app.wait_ready()
    yield app
    context.close()


def test_trec_eval_example_means_are_trec_evals(fragment_page):
    app, page = fragment_page, fragment_page.page
    before = app.renders()
    page.get_by_test_id("examples-select").select_option("trec-eval-test")
    app.settle(before)
    trec = trec_eval_lines("out.test.aq")
    # The queries trec_eval scores per query (-q) are the ones the page scores and means over:
    # the three topics, each with relevant documents, so trec_eval's all line is their mean.
    queries = {q for q in trec["num_rel"] if q != "all" and trec["num_rel"][q] > 0}
    shown = set(page.get_by_test_id("per-query-table").locator("tbody tr").evaluate_all(
        "(rows) => rows.map((r) => r.dataset.query)"))
    assert shown == queries == {"301", "302", "303"}
    means = app.all_means()
    per_query = app.per_query()
    for name in NAMES:
        key = parse_metric(name).key   # the report's key for the name (precision@5 for P_5)
        # trec_eval prints 4 decimals: its per-query values and its all line are within 5e-5
        expected = sum(trec[name][q] for q in queries) / len(queries)
        assert means[key] == pytest.approx(expected, abs=5e-5 * 1.01), name
        assert means[key] == pytest.approx(trec[name]["all"], abs=5e-5), name
        for q in queries:
            assert per_query[q][key] == pytest.approx(trec[name][q], abs=5e-5), (name, q)
    assert set(means) == {parse_metric(name).key for name in NAMES}   # nothing else is shown
    # The fragment ticked the chooser's names and put the others in the -m field, in its syntax.
    values = {entry["value"] for entry in measures()}
    ticked = set(page.locator("[data-testid=metrics-chooser] input[name=metric]:checked").evaluate_all(
        "(boxes) => boxes.map((b) => b.value)"))
    extra = [n.strip() for n in page.get_by_test_id("metrics-extra").input_value().split(",") if n.strip()]
    assert ticked == {n for n in NAMES if n in values}
    assert extra == [n for n in NAMES if n not in values]
    assert "metrics=bpref,infAP,P_5,ndcg_cut_10" in page.url


def test_the_chooser_is_the_engines_catalogue(fragment_page):
    """One checkbox per catalogue entry, in its order, in its group, with its label, under the
    group's label."""
    page = fragment_page.page
    catalogue = measures()
    drawn = page.locator("[data-testid=metrics-chooser] .metric-group label").evaluate_all("""(labels) => labels.map((l) => {
        const box = l.querySelector('input');
        return [box.value, box.dataset.testid, l.closest('.metric-group').dataset.group, l.textContent.trim()];
    })""")
    groups = list(dict.fromkeys(e["group"] for e in catalogue))
    want = sorted(catalogue, key=lambda e: groups.index(e["group"]))   # grouped, in order within each
    assert drawn == [[e["value"], f"metric-{e['value']}", e["group"], e["label"]] for e in want]
    titles = page.locator("[data-testid=metrics-chooser] .metric-group-label").all_text_contents()
    assert [t.lower() for t in titles] == [next(e["group_label"] for e in catalogue if e["group"] == g).lower()
                                           for g in groups]   # shown in capitals by the style sheet


def test_extra_measures_are_parsed_by_the_engine(fragment_page):
    """A name the engine does not know is the settings' error, shown by the field; a name with
    parameters is measured, and labelled from the catalogue when it names the measure."""
    app, page = fragment_page, fragment_page.page
    app.show_panel("more-settings")
    field = page.get_by_test_id("metrics-extra")
    before = app.renders()
    field.fill("P_5, nope_7")
    app.settle(before)
    error = page.get_by_test_id("metrics-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("unknown metric 'nope_7'")
    expect(page.get_by_test_id("stale-note")).to_be_visible()   # the last scores stay, marked
    expect(page.get_by_test_id("download-button")).to_be_disabled()   # ... and are not offered
    before = app.renders()
    field.fill("P_5,utility(a=2,b=-1)")
    app.settle(before)
    expect(error).to_be_hidden()
    expect(page.get_by_test_id("download-button")).to_be_enabled()
    means = app.all_means()
    assert parse_metric("utility(a=2,b=-1)").key in means
    # utility, hand-worked from trec_eval's own per-query counts: 2 * relevant retrieved - the
    # other retrieved documents, averaged over the three topics
    trec = trec_eval_lines("out.test.aq")
    by_query = [2 * trec["num_rel_ret"][q] - (trec["num_ret"][q] - trec["num_rel_ret"][q]) for q in ("301", "302", "303")]
    assert means[parse_metric("utility(a=2,b=-1)").key] == pytest.approx(sum(by_query) / 3, abs=1e-9)
