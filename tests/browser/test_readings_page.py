"""Names read as another tool reads them, on the page: typed with the tool's prefix in the "More,
as -m names" field, on trec_eval's test collection (the trec_eval example), their means and
per-query values are that tool's own, computed here in CPython by ranx and ir_measures
themselves; each is tagged in the means table with the tool, its definition in the title.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

ranx = pytest.importorskip("ranx")
ir_measures = pytest.importorskip("ir_measures")

TREC_EVAL = Path(__file__).resolve().parents[1] / "data" / "trec_eval"
RANX = ["hits@5"]
IR_MEASURES = ["P(rel=2)@5", "SetF(beta=0.5)"]
TYPED = ", ".join([f"ranx:{n}" for n in RANX] + [f"ir_measures:{n}" for n in IR_MEASURES])


def peers(ranx_names=RANX, ir_measures_names=IR_MEASURES) -> dict[str, dict[str, float]]:
    """{report key: {query: value, "mean": value}} from ranx and ir_measures."""
    qrels = list(ir_measures.read_trec_qrels(str(TREC_EVAL / "qrels.test")))
    run = list(ir_measures.read_trec_run(str(TREC_EVAL / "results.test")))
    out = {}
    qrels_dict, run_dict = {}, {}
    for q in qrels:
        qrels_dict.setdefault(q.query_id, {})[q.doc_id] = q.relevance
    for d in run:
        run_dict.setdefault(d.query_id, {})[d.doc_id] = d.score
    ids = list(ranx.Run(run_dict).get_query_ids())
    for name in ranx_names:
        values = ranx.evaluate(ranx.Qrels(qrels_dict), ranx.Run(run_dict), name, return_mean=False)
        by_query = dict(zip(ids, map(float, values)))
        out[f"ranx:{name}"] = {**by_query, "mean": sum(by_query.values()) / len(by_query)}
    for name in ir_measures_names:
        measure = ir_measures.parse_measure(name)
        by_query = {m.query_id: float(m.value) for m in ir_measures.iter_calc([measure], qrels, run)}
        out[f"ir_measures:{name}"] = {**by_query, "mean": ir_measures.calc_aggregate([measure], qrels, run)[measure]}
    return out


def test_prefixed_names_give_each_tools_numbers_and_are_tagged(app):
    page = app.page
    before = app.renders()
    page.get_by_test_id("examples-select").select_option("trec-eval-test")
    app.settle(before)
    before = app.renders()
    app.show_panel("more-settings")
    page.get_by_test_id("metrics-extra").fill(TYPED)
    app.settle(before)
    expect(page.get_by_test_id("metrics-error")).to_be_hidden()
    expected = peers()
    means, per_query = app.all_means(), app.per_query()
    assert set(per_query) == {"301", "302", "303"}
    for key, values in expected.items():
        assert means[key] == pytest.approx(values["mean"], rel=1e-12, abs=1e-12), key
        for query in per_query:
            assert per_query[query][key] == pytest.approx(values[query], rel=1e-12, abs=1e-12), (key, query)
    assert expected["ir_measures:SetF(beta=0.5)"]["mean"] > 0 and expected["ranx:hits@5"]["mean"] > 1
    # The tag beside each: the tool, and the definition used in its title.
    rows = page.locator("[data-testid=means-whole-table] tbody tr").evaluate_all("""(rows) => rows.map((r) => {
        const tag = r.querySelector('[data-testid=reading-tag]');
        return [r.dataset.metric, r.querySelector('th').firstChild.textContent, tag && tag.textContent, tag && tag.title];
    })""")
    tagged = {metric: (name, tool, title) for metric, name, tool, title in rows if tool}
    assert set(tagged) == set(expected)
    for key, (name, tool, title) in tagged.items():
        assert f"{tool}:{name}" == key
        assert key in title and f"read as {tool} reads it" in title
    assert "number of relevant documents in the top k" in tagged["ranx:hits@5"][2]
    assert "set_F" in tagged["ir_measures:SetF(beta=0.5)"][2]
    # The notice says the same in words; the fragment keeps the names readable.
    expect(page.get_by_test_id("notices")).to_contain_text("as ranx reads it")
    assert "ranx:hits@5" in page.url


def test_a_reading_at_every_k_is_a_tagged_row_of_the_grid(app):
    """ranx:hits at each of the example's cutoffs (5, 10, 100) is one row of the means grid."""
    page = app.page
    ks = page.get_by_test_id("k-input").input_value()
    names = [f"hits@{k.strip()}" for k in ks.split(",")]
    before = app.renders()
    app.show_panel("more-settings")
    page.get_by_test_id("metrics-extra").fill(", ".join(f"ranx:{n}" for n in names))
    app.settle(before)
    expected = peers(names, [])
    means = app.all_means()
    for key, values in expected.items():
        assert means[key] == pytest.approx(values["mean"], rel=1e-12), key
    row = page.locator("[data-testid=means-table] tr[data-metric='ranx:hits']")
    expect(row.get_by_test_id("reading-tag")).to_have_text("ranx")
    assert "a count, not a rate" in row.get_by_test_id("reading-tag").get_attribute("title")
