"""relevance_threshold against pytrec_eval's relevance_level (trec_eval -l), per query, to 1e-9.

The generated collections and pytrec_eval's traps are test_differential's (tie-free run copy,
duplicates dropped, negative grades given as 0). Every binary measure the engine has is
compared at relevance levels 2 and 3, with the nDCG variants, which keep every positive grade
as their gain whatever the level (trec_eval's ndcg_cut ignores -l). Queries whose judgements
have nothing at or above the level are compared too (zero_division=0 scores them as trec_eval
does).
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from retrieval_metrics import evaluate, ranking_metrics
from retrieval_metrics.errors import OptionError
from support import expected_row
from test_differential import PROFILE, collections, trec_order

pytrec_eval = pytest.importorskip("pytrec_eval")

METRICS = ["recall", "precision", "mrr", "ndcg", "hit_rate", "ap", "map", "rprec", "rr"]


def theirs(qrels, run, ks, level):
    tie_free = {}
    for q, rows in run.items():
        order = trec_order(rows)
        tie_free[q] = {d: float(len(order) - i) for i, d in enumerate(order)}
    qrels = {q: {d: max(g, 0) for d, g in docs.items()} for q, docs in qrels.items()}
    cut = ",".join(map(str, ks))
    measures = {f"P.{cut}", f"recall.{cut}", f"ndcg_cut.{cut}", f"map_cut.{cut}",
                f"success.{cut}", "recip_rank", "map", "Rprec", "set_recall", "ndcg"}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, measures, relevance_level=level)
    return evaluator.evaluate(tie_free), tie_free


@pytest.mark.slow
@PROFILE
@given(collections(), st.sampled_from([2, 3]))
def test_per_query_against_pytrec_eval(data, level):
    qrels, run, ks = data
    values, tie_free = theirs(qrels, run, ks, level)
    rankings = {q: list(d) for q, d in tie_free.items()}
    ours = evaluate(qrels, rankings, k=ks, metrics=METRICS, zero_division=0, missing="skip",
                    relevance_threshold=level)
    # the whole-ranking recall and nDCG (trec_eval's set_recall and ndcg), per query in qrels order
    # (ranking_metrics refuses results that share no query with the judgements: nothing to compare)
    whole = ranking_metrics(qrels, rankings, ["R", "nDCG"], average=None, zero_division=0,
                            relevance_threshold=level) if values else {}
    position = {q: i for i, q in enumerate(qrels)}
    problems = []
    for q, vals in values.items():
        want = expected_row(vals, ks)
        got = ours.per_query.get(q)
        assert got is not None, q
        for key, w in want.items():
            if not math.isclose(got[key], w, rel_tol=0, abs_tol=1e-9):
                problems.append(f"{q!r} {key}: pytrec_eval {w!r}, ours {got[key]!r}")
        for key, w in (("R", vals["set_recall"]), ("nDCG", vals["ndcg"])):
            mine = whole[key][position[q]]
            if not math.isclose(mine, w, rel_tol=0, abs_tol=1e-9):
                problems.append(f"{q!r} {key}: pytrec_eval {w!r}, ours {mine!r}")
    assert problems == [], "\n".join(problems[:20])


def test_the_level_changes_what_it_should():
    # grades 1 and 3; level 2 keeps only d3 relevant: recall@2 = 1/1 (d3 at rank 2),
    # mrr = 1/2, P@1 = 0; nDCG@2 keeps both gains: (1 + 3/log2 3) / (3 + 1/log2 3)
    qrels = {"q": {"d1": 1, "d3": 3}}
    runs = {"q": ["d1", "d3"]}
    out = ranking_metrics(qrels, runs, ["recall@2", "mrr", "P@1", "ndcg@2"], relevance_threshold=2)
    log3 = math.log2(3)
    assert out == pytest.approx({"recall@2": 1.0, "mrr": 0.5, "P@1": 0.0,
                                 "ndcg@2": (1 + 3 / log3) / (3 + 1 / log3)}, abs=1e-15)


def test_evaluate_skips_queries_with_nothing_at_the_level():
    report = evaluate({"a": {"d": 1}, "b": {"d": 2}}, {"a": ["d"], "b": ["d"]}, k=1,
                      relevance_threshold=2)
    assert sorted(report.per_query) == ["b"]
    assert report.relevance_threshold == 2
    assert report.to_dict()["relevance_threshold"] == 2


@pytest.mark.parametrize("bad", [0, -1, 1.5, "x", True, None])
def test_bad_levels(bad):
    with pytest.raises(OptionError) as info:
        evaluate({"q": ["d"]}, {"q": ["d"]}, relevance_threshold=bad)
    assert info.value.field == "relevance_threshold"
