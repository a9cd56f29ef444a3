"""retrieval_metrics.page.web.analyse_many: the page's call for several runs, errors as data."""

from __future__ import annotations

import json

import numpy as np
import pytest
from retrieval_metrics import evaluate
from retrieval_metrics.page import web
from scipy import stats as sps
from support import make_runs


@pytest.fixture(scope="module")
def collection():
    return make_runs(20, 3, seed=12)


@pytest.mark.slow
def test_scores_compares_and_exports(collection):
    qrels, runs = collection
    stages = []
    out = web.analyse_many(qrels.encode(), {n: t.encode() for n, t in runs.items()},
                           {"k": "5,10", "test": "t", "baseline": "run1", "correction": "bh"},
                           progress=lambda *a: stages.append(a))
    json.dumps(out, allow_nan=False)
    assert out["errors"] == {"qrels": None, "runs": {"run0": None, "run1": None, "run2": None},
                             "options": None, "comparison": None}
    assert out["inputs"]["qrels"]["format"] == "trec"
    assert out["inputs"]["runs"]["run2"]["queries"] == 20
    for name, text in runs.items():
        assert out["reports"][name]["per_query"] == evaluate(qrels, text, k=[5, 10]).per_query
    comparison = out["comparison"]
    assert comparison["baseline"] == "run1" and comparison["correction"] == "bh"
    b = np.array([out["reports"]["run1"]["per_query"][q]["ndcg@10"] for q in sorted(out["reports"]["run1"]["per_query"])])
    c = np.array([out["reports"]["run2"]["per_query"][q]["ndcg@10"] for q in sorted(out["reports"]["run2"]["per_query"])])
    assert comparison["differences"]["run2"]["ndcg@10"]["p_value"] == pytest.approx(
        sps.ttest_rel(c, b).pvalue, rel=1e-9)
    assert out["exports"]["latex"].startswith("% Two-sided paired t-test")
    assert "| run1 (baseline) |" in out["exports"]["markdown"]
    assert ("scoring", 0, 3) in stages and ("comparing", 0, 1) in stages


@pytest.mark.slow
def test_pairs_keep_their_order(collection):
    qrels, runs = collection
    pairs = [["2", runs["run2"]], ["bm25", runs["run0"]], ["10", runs["run1"]]]
    out = web.analyse_many(qrels, pairs, {"samples": 200})
    assert out["comparison"]["systems"] == ["2", "bm25", "10"]
    assert out["comparison"]["baseline"] == "2"


@pytest.mark.slow
def test_one_bad_run_leaves_the_others(collection):
    qrels, runs = collection
    out = web.analyse_many(qrels, {"good": runs["run0"], "bad": "q1 Q0 d1 1 0.5 x\nq1 Q0 d2 1\n",
                                   "empty": "", "other": runs["run1"]}, {"samples": 200})
    assert out["errors"]["runs"]["bad"]["line"] == 2
    assert out["errors"]["runs"]["bad"]["message"].startswith("run bad, line 2:")
    assert out["errors"]["runs"]["good"] is None and out["errors"]["runs"]["empty"] is None
    assert out["comparison"]["systems"] == ["good", "other"]


def test_option_errors_are_named(collection):
    qrels, runs = collection
    out = web.analyse_many(qrels, runs, {"k": "0"})
    assert out["errors"]["options"]["field"] == "k" and out["comparison"] is None
    assert out["inputs"]["qrels"]["format"] == "trec"        # the boxes are still read
    out = web.analyse_many(qrels, runs, {"test": "wilcoxon"})
    assert out["errors"]["comparison"]["field"] == "test" and out["reports"]
    out = web.analyse_many(qrels, runs, {"baseline": "nope"})
    assert "not one of the runs" in out["errors"]["comparison"]["message"]
    out = web.analyse_many(qrels, [["a", runs["run0"]], ["a", runs["run1"]]], {})
    assert out["errors"]["options"]["field"] == "runs"
    out = web.analyse_many("", runs, {})
    assert out["errors"]["qrels"] is None and out["comparison"] is None
    assert out["inputs"]["runs"]["run0"]["format"] == "trec"


@pytest.mark.slow
def test_compare_metrics_option(collection):
    qrels, runs = collection
    out = web.analyse_many(qrels, runs, {"k": "5,10", "test": "t", "compare_metrics": ["ndcg@10"]})
    assert out["comparison"]["metrics"] == ["ndcg@10"] and out["comparison"]["family_size"] <= 2
    assert "recall@5" in out["reports"]["run0"]["mean"]          # every metric is still scored
    out = web.analyse_many(qrels, runs, {"compare_metrics": ["nope"]})
    assert out["errors"]["comparison"]["field"] == "metrics"
