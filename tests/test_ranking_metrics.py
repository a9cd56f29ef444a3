"""ranking_metrics and the one-metric helpers: the numbers of docs/api.md, zero_division, the
warning class, and the options' refusals. Values are worked by hand in the comments."""

from __future__ import annotations

import math
import subprocess
import sys
import textwrap
import warnings

import pytest
from retrieval_metrics import (
    InputError,
    OptionError,
    average_precision,
    hit_rate_at_k,
    mrr_at_k,
    ndcg_at_k,
    precision_at_k,
    r_precision,
    ranking_metrics,
    recall_at_k,
)
from retrieval_metrics.scoring.undefined import UndefinedMetricWarning as BaseWarning

LOG3 = math.log2(3)
QRELS = {"q1": {"d1": 2, "d4": 1}, "q2": ["d3"]}
RUNS = {"q1": ["d4", "d2", "d1"], "q2": ["d5", "d3"]}


def test_spec_api_reference_numbers():
    assert recall_at_k(QRELS, RUNS, k=2) == 0.75  # q1 1 of 2, q2 1 of 1
    # q1: DCG = 1/1 + 2/log2(4) = 2, ideal = 2 + 1/log2(3); q2: 1/log2(3) over 1
    ndcg_q1 = 2 / (2 + 1 / LOG3)
    assert ndcg_at_k(QRELS, RUNS, k=3) == pytest.approx((ndcg_q1 + 1 / LOG3) / 2, abs=1e-15)
    assert round(ndcg_at_k(QRELS, RUNS, k=3), 4) == 0.6956
    assert ranking_metrics(QRELS, RUNS, metrics=["mrr", "hit_rate@1"]) == {"mrr": 0.75, "hit_rate@1": 0.5}
    per_query = ranking_metrics(QRELS, RUNS, metrics=["mrr", "hit_rate@1", "recall@2", "ndcg@3"],
                                average=None)
    assert per_query["mrr"] == [1.0, 0.5]
    assert per_query["hit_rate@1"] == [1.0, 0.0]
    assert per_query["recall@2"] == [0.5, 1.0]
    assert per_query["ndcg@3"] == pytest.approx([ndcg_q1, 1 / LOG3], abs=1e-15)
    assert [round(v, 4) for v in per_query["ndcg@3"]] == [0.7602, 0.6309]


def test_per_query_values_follow_y_true_order():
    qrels = {"b": ["d1"], "a": ["d2"]}
    runs = {"a": ["d2"], "b": ["d9", "d1"]}
    assert ranking_metrics(qrels, runs, ["mrr"], average=None) == {"mrr": [0.5, 1.0]}


def test_aliases_keep_the_name_given_and_helpers_agree():
    out = ranking_metrics(QRELS, RUNS, ["RR@10", "P_1", "nDCG@3", "recip_rank", "success_1", "AP", "Rprec"])
    assert list(out) == ["RR@10", "P_1", "nDCG@3", "recip_rank", "success_1", "AP", "Rprec"]
    assert out["RR@10"] == mrr_at_k(QRELS, RUNS, k=10) == out["recip_rank"] == 0.75
    assert out["P_1"] == precision_at_k(QRELS, RUNS, k=1) == 0.5
    assert out["success_1"] == hit_rate_at_k(QRELS, RUNS, k=1) == 0.5
    # AP: q1 relevant at ranks 1 and 3 -> (1/1 + 2/3) / 2 = 5/6; q2 at rank 2 of 1 -> 1/2
    assert out["AP"] == average_precision(QRELS, RUNS) == pytest.approx((5 / 6 + 0.5) / 2, abs=1e-15)
    # Rprec: q1 |R| = 2, top 2 = d4, d2 -> 1/2; q2 |R| = 1, top 1 = d5 -> 0
    assert out["Rprec"] == r_precision(QRELS, RUNS) == 0.25


def test_a_query_missing_from_y_pred_scores_zero_and_unjudged_ones_are_ignored():
    out = ranking_metrics({"q1": ["d1"], "q2": ["d2"]}, {"q1": ["d1"], "q3": ["d2"]}, ["mrr"], average=None)
    assert out == {"mrr": [1.0, 0.0]}


# --- zero_division: docs/counting.md's example -------------------------------------------------

UQRELS = {"q1": ["d1"], "q2": []}
URUNS = {"q1": ["d1"], "q2": ["d2"]}


def _recall(policy):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = recall_at_k(UQRELS, URUNS, k=1, zero_division=policy)
    return value, [w for w in caught if issubclass(w.category, BaseWarning)]


def test_zero_division_values():
    # q1 recall@1 = 1; q2 has no relevant document: undefined
    assert _recall("warn")[0] == 0.5
    assert len(_recall("warn")[1]) == 1
    assert "q2" in str(_recall("warn")[1][0].message)
    for policy, want in [(0.0, 0.5), (0, 0.5), (1.0, 1.0), (1, 1.0), (float("nan"), 1.0), ("nan", 1.0)]:
        value, caught = _recall(policy)
        assert value == want, policy
        assert caught == [], policy


def test_numpy_nan_is_a_policy():
    np = pytest.importorskip("numpy")
    assert _recall(np.nan) == (1.0, [])
    out = ranking_metrics(UQRELS, URUNS, ["recall@1", "P@1"], average=None, zero_division=np.nan)
    assert out["recall@1"][0] == 1.0 and math.isnan(out["recall@1"][1])
    assert out["P@1"] == [1.0, 0.0]  # precision stays defined


def test_all_undefined_mean_is_nan():
    assert math.isnan(recall_at_k({"q": []}, {"q": ["d"]}, k=1, zero_division=float("nan")))


def test_no_warning_when_nothing_is_undefined():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert precision_at_k(UQRELS, URUNS, k=1) == 0.5  # precision is defined for q2


def test_threshold_makes_a_query_undefined_for_binary_measures_but_not_ndcg():
    # grade 1 only: under threshold 2 nothing is relevant (recall undefined); nDCG keeps gain 1
    out = ranking_metrics({"q": {"d": 1}}, {"q": ["d"]}, ["recall@1", "ndcg@1"],
                          relevance_threshold=2, zero_division=float("nan"))
    assert math.isnan(out["recall@1"]) and out["ndcg@1"] == 1.0


def test_options_are_refused_with_their_name():
    for kwargs, field in [({"average": "macro"}, "average"),
                          ({"zero_division": "skip"}, "zero_division"),
                          ({"zero_division": 0.5}, "zero_division"),
                          ({"relevance_threshold": 0}, "relevance_threshold"),
                          ({"relevance_threshold": 1.5}, "relevance_threshold"),
                          ({"metrics": ["ndgc@3"]}, "metrics"), ({"metrics": []}, "metrics"),
                          ({"gain": "log"}, "gain")]:
        with pytest.raises(OptionError) as info:
            ranking_metrics(QRELS, RUNS, **kwargs)
        assert info.value.field == field, kwargs
    with pytest.raises(OptionError, match="k must be"):
        recall_at_k(QRELS, RUNS, k=0)
    with pytest.raises(InputError, match="no query has judgements"):
        ranking_metrics({}, {}, ["mrr"])


# --- the warning class -------------------------------------------------------------------------

def _python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.slow
def test_filter_on_ours_works_without_sklearn_loaded():
    assert _python("""
        import sys, warnings
        from retrieval_metrics import recall_at_k
        from retrieval_metrics.scoring.undefined import UndefinedMetricWarning
        warnings.simplefilter("error", UndefinedMetricWarning)
        try:
            recall_at_k({"q": []}, {"q": ["d"]}, k=1)
        except UndefinedMetricWarning:
            print("raised", "sklearn" in sys.modules)
    """) == "raised False"


@pytest.mark.slow
def test_filter_on_sklearns_class_catches_ours():
    pytest.importorskip("sklearn")
    assert _python("""
        import warnings
        from sklearn.exceptions import UndefinedMetricWarning as Theirs
        from retrieval_metrics import recall_at_k
        warnings.simplefilter("error", Theirs)
        try:
            recall_at_k({"q": []}, {"q": ["d"]}, k=1)
        except Theirs as w:
            print("raised")
    """) == "raised"


@pytest.mark.slow
def test_the_public_class_is_a_subclass_of_sklearns_and_filters_work():
    pytest.importorskip("sklearn")
    assert _python("""
        import sys, warnings
        import retrieval_metrics
        assert "sklearn" not in sys.modules
        Ours = retrieval_metrics.UndefinedMetricWarning
        from sklearn.exceptions import UndefinedMetricWarning as Theirs
        assert issubclass(Ours, Theirs)
        for cls in (Ours, Theirs):
            with warnings.catch_warnings():
                warnings.simplefilter("error", cls)
                try:
                    retrieval_metrics.recall_at_k({"q": []}, {"q": ["d"]}, k=1)
                except cls:
                    print("raised", end=" ")
    """) == "raised raised"


def test_evaluate_takes_numpy_nan_and_duplicates_policy():
    np = pytest.importorskip("numpy")
    from retrieval_metrics import evaluate
    report = evaluate(UQRELS, URUNS, k=1, metrics=["recall"], zero_division=np.nan)
    assert report.zero_division == "nan" and report.mean["recall@1"] == 1.0
    # evaluate keeps its rule for Python rankings (first rank, with a notice) unless asked
    kept = evaluate({"q": ["d1"]}, {"q": ["d2", "d2", "d1"]}, k=2, metrics=["recall"])
    assert kept.mean["recall@2"] == 1.0  # d2, d1
    assert "duplicate_documents" in {n.code for n in kept.notices}
    with pytest.raises(InputError, match="ranked twice"):
        evaluate({"q": ["d1"]}, {"q": ["d2", "d2", "d1"]}, duplicates="raise")
    with pytest.raises(OptionError, match="duplicates must be one of raise, first"):
        ranking_metrics({"q": ["d1"]}, {"q": ["d1"]}, duplicates="last")


@pytest.mark.slow
def test_without_sklearn_the_public_class_is_ours():
    # as in Pyodide: scikit-learn cannot be imported
    assert _python("""
        import sys, warnings
        sys.modules["sklearn"] = None
        import retrieval_metrics
        from retrieval_metrics.scoring.undefined import UndefinedMetricWarning as Base
        Ours = retrieval_metrics.UndefinedMetricWarning
        warnings.simplefilter("error", Ours)
        try:
            retrieval_metrics.recall_at_k({"q": []}, {"q": ["d"]}, k=1)
        except Ours:
            print(Ours is Base, Ours.__mro__[1].__name__)
    """) == "True UserWarning"
