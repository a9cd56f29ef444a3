"""Checks before scoring, judged@k, condensed values and leave-one-run-out pool bias, by hand."""

from __future__ import annotations

import pytest
import retrieval_metrics as rm
from retrieval_metrics.errors import OptionError

QRELS = "q1 0 a 2\nq1 0 b 1\nq1 0 c 0\nq2 0 d 1\nq3 0 e 1\nq4 0 f 1\n"
# run x: q1 a (judged, rel), u (unjudged), b (rel); q2 d; q9 unjudged query
X = "q1 Q0 a 1 3 x\nq1 Q0 u 2 2 x\nq1 Q0 b 3 1 x\nq2 Q0 d 1 1 x\nq9 Q0 z 1 1 x\n"
# run y: q1 c, b, a; q2 w (unjudged)
Y = "q1 Q0 c 1 3 y\nq1 Q0 b 2 2 y\nq1 Q0 a 3 1 y\nq2 Q0 w 1 5 y\nq2 Q0 w 2 4 y\n"


def _codes(diag, run=None):
    return [n.code for n in diag.checks if run is None or n.message.startswith(f"{run}:")]


def test_checks_name_each_problem():
    diag = rm.diagnose(QRELS, {"x": X, "y": Y}, k=[1, 3], metrics=["precision"])
    x, y = _codes(diag, "x"), _codes(diag, "y")
    assert "check_relevance_level" in _codes(diag)  # grades up to 2 read with level 1
    assert "check_not_retrieved" in x and "check_not_judged" in x   # q3, q4; q9
    assert "check_few_topics" not in x  # 2 of 4 judged queries covered: half is not few
    assert "check_duplicates" in y
    not_retrieved = next(n for n in diag.checks if n.code == "check_not_retrieved"
                         and n.message.startswith("x:"))
    assert not_retrieved.queries == ("q3", "q4")


def test_few_topics_ties_and_low_judged():
    qrels = "".join(f"q{i} 0 d{i} 1\n" for i in range(1, 6))
    run = "q1 Q0 n1 1 1.0 r\nq1 Q0 n2 2 1.0 r\nq1 Q0 d1 3 0.5 r\n"
    diag = rm.diagnose(qrels, {"r": run})
    codes = _codes(diag)
    assert {"check_few_topics", "check_score_ties", "check_low_judged"} <= set(codes)
    low = next(n for n in diag.checks if n.code == "check_low_judged")
    assert "judged@10 is 0.33" in low.message
    ties = next(n for n in diag.checks if n.code == "check_score_ties")
    assert ties.message.startswith("2 documents share their score")


def test_relevance_level_above_every_grade():
    diag = rm.diagnose("q1 0 a 1\n", {"r": "q1 a\n"}, relevance_threshold=3)
    assert "above every grade" in diag.checks[0].message


def test_judged_at_k_and_condensed_values():
    diag = rm.diagnose(QRELS, {"x": X}, k=[1, 2, 3], metrics=["precision", "mrr"])
    assert diag.judged["x"]["q1"] == {1: 1.0, 2: 0.5, 3: pytest.approx(2 / 3)}
    normal = rm.evaluate(QRELS, X, k=[1, 2, 3], metrics=["precision", "mrr"])
    cond = diag.condensed["x"]
    # q1 condensed: a, b -> P@2 = 1 (normal: a, u -> 0.5)
    assert normal.per_query["q1"]["precision@2"] == 0.5
    assert cond.per_query["q1"]["precision@2"] == 1.0
    assert cond.per_query["q1"]["precision@3"] == pytest.approx(2 / 3)
    assert cond.per_query["q2"] == normal.per_query["q2"]


def test_leave_one_out_drop_by_hand():
    qrels = "q1 0 a 1\nq1 0 b 1\nq1 0 c 1\nq1 0 n 0\n"
    runs = {"x": "q1 a\nq1 b\nq1 n\n", "y": "q1 b\nq1 c\n", "z": "q1 b\nq1 m\n"}
    diag = rm.diagnose(qrels, runs, k=2, metrics=["precision", "recall"])
    x = diag.pool_bias["x"]
    # only x found a and n (judged); a is relevant: without them x's top 2 = (unjudged a, b)
    assert (x.unique_judged, x.unique_relevant) == (2, 1)
    assert x.mean == {"precision@2": 1.0, "recall@2": pytest.approx(2 / 3)}
    assert x.left_out_mean == {"precision@2": 0.5, "recall@2": 0.5}
    assert x.drop["precision@2"] == 0.5
    y = diag.pool_bias["y"]   # c only in y: R drops to 2, P@2 from 1 to 0.5, recall 2/3 -> 1/2
    assert (y.unique_judged, y.unique_relevant) == (1, 1)
    assert y.drop["precision@2"] == 0.5
    assert diag.pool_bias["z"].drop == {"precision@2": 0.0, "recall@2": 0.0}
    assert rm.diagnose(qrels, {"x": runs["x"]}).pool_bias == {}


def test_pool_depth_limits_what_a_run_contributed():
    qrels = "q1 0 a 1\nq1 0 b 1\n"
    runs = {"x": "q1 b\nq1 a\n", "y": "q1 b\nq1 c\nq1 a\n"}
    assert rm.diagnose(qrels, runs, k=2, pool_depth=2).pool_bias["x"].unique_relevant == 1
    assert rm.diagnose(qrels, runs, k=2, pool_depth=3).pool_bias["x"].unique_relevant == 0
    with pytest.raises(OptionError):
        rm.diagnose(qrels, runs, pool_depth=0)
