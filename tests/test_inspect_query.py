"""One query looked at closely (web.inspect) and the 11-point precision-recall curve.

Expected values are worked by hand in the comments, or come from trec_eval 10's printed
per-query output (out.test.aq) and pytrec_eval (trec_eval 9.0.8's C code) on trec_eval's test
collection.
"""

from __future__ import annotations

import json

import pytest
from retrieval_metrics.inputs.qrels import parse_qrels
from retrieval_metrics.inputs.runs import parse_run
from retrieval_metrics.page import web
from retrieval_metrics.page.one_query import (
    RECALL_LEVELS,
    interpolated_precision,
    precision_recall,
    relevant_needed,
)
from support import agrees_with_printed, read_trec_eval_output, trec_dir

# q1: d1 grade 2, d4 grade 1, d5 grade 0, d6 grade 3 (never retrieved), d7 grade 1 (never)
# q2: d3 grade 1; q3: judged, only grade 0; q9: only in the results
QRELS = ("q1 0 d1 2\nq1 0 d4 1\nq1 0 d5 0\nq1 0 d6 3\nq1 0 d7 1\n"
         "q2 0 d3 1\nq3 0 d8 0\n")
RUN = ("q1 Q0 d4 1 9 r\nq1 Q0 d2 2 8 r\nq1 Q0 d1 3 7 r\nq1 Q0 d5 4 6 r\nq1 Q0 d9 5 5 r\n"
       "q3 Q0 d8 1 1 r\nq9 Q0 d1 1 1 r\n")
BASE = "q1 Q0 d1 1 9 b\nq1 Q0 d6 2 8 b\nq1 Q0 d4 3 7 b\nq2 Q0 d3 1 1 b\n"


def test_ranking_grades_and_never_retrieved():
    out = web.inspect(QRELS, RUN, "q1", {"k": "3", "metrics": ["recall", "precision", "ndcg"]})
    assert out["query"] == "q1" and out["depth"] == 3  # the largest k
    assert out["judged"] and out["judged_documents"] == 5 and out["relevant"] == 4
    run = out["run"]
    assert [(r["rank"], r["doc"], r["grade"], r["status"]) for r in run["ranking"]] == [
        (1, "d4", 1, "relevant"), (2, "d2", None, "unjudged"), (3, "d1", 2, "relevant")]
    # retrieved: 5 documents, of which d4 and d1 are relevant (d5 is judged 0)
    assert (run["retrieved"], run["relevant_retrieved"]) == (5, 2)
    assert (run["relevant_in_depth"], run["unjudged_in_depth"]) == (2, 1)
    # never retrieved, best grade first: d6 (3), then d7 (1)
    assert run["never_retrieved"] == [{"doc": "d6", "grade": 3}, {"doc": "d7", "grade": 1}]
    # recall@3 = 2 of 4 relevant; precision@3 = 2/3;
    # nDCG@3: DCG = 1/log2(2) + 2/log2(4) = 1 + 1 = 2; ideal gains 3, 2, 1 (, 1):
    # 3/1 + 2/log2(3) + 1/2 = 4.761859507142915; 2 / 4.761859507142915 = 0.42000...
    values = run["values"]
    assert values["recall@3"] == 0.5
    assert values["precision@3"] == pytest.approx(2 / 3, abs=1e-15)
    assert values["ndcg@3"] == pytest.approx(2 / (3 + 2 / 1.584962500721156 + 0.5), abs=1e-12)
    assert "other_rank" not in run["ranking"][0] and out["baseline"] is None
    json.dumps(out, allow_nan=False)


def test_values_equal_the_report():
    options = {"k": "1,3,5", "metrics": ["recall", "precision", "mrr", "ndcg", "ap", "map", "rr"]}
    report = web.analyse(QRELS, RUN, options)["report"]
    for query, values in report["per_query"].items():
        assert web.inspect(None, None, query, {})["run"]["values"] == values


def test_depth_option_and_its_limits():
    out = web.inspect(QRELS, RUN, "q1", {"k": "2", "depth": 4})
    assert [r["doc"] for r in out["run"]["ranking"]] == ["d4", "d2", "d1", "d5"]
    out = web.inspect(None, None, "q1", {"depth": 0})  # at least one row
    assert out["depth"] == 1 and len(out["run"]["ranking"]) == 1


def test_missing_unjudged_and_unscored_queries():
    # q2 is judged but missing from the run: scored 0 (trec_eval -c), its relevant d3 never retrieved
    out = web.inspect(QRELS, RUN, "q2", {"k": "3"})
    assert out["run"]["in_results"] is False and out["run"]["ranking"] == []
    assert out["run"]["never_retrieved"] == [{"doc": "d3", "grade": 1}]
    assert set(out["run"]["values"].values()) == {0.0}
    # ... and not scored at all when missing queries are left out
    assert web.inspect(QRELS, RUN, "q2", {"k": "3", "missing": "skip"})["run"]["values"] is None
    # q9 has results but no judgements: every document unjudged, no values
    out = web.inspect(QRELS, RUN, "q9", {"k": "3"})
    assert not out["judged"] and out["run"]["values"] is None
    assert [r["status"] for r in out["run"]["ranking"]] == ["unjudged"]
    # q3 has no relevant document: not scored under zero_division=skip, the default
    out = web.inspect(QRELS, RUN, "q3", {"k": "3"})
    assert out["relevant"] == 0 and out["run"]["values"] is None
    assert out["run"]["ranking"][0]["status"] == "non-relevant"


def test_side_by_side_with_a_baseline():
    out = web.inspect(QRELS, RUN, "q1", {"k": "3"}, BASE)
    run, base = out["run"], out["baseline"]
    # each row says where the other ranking has the document (None: not returned there)
    assert [(r["doc"], r["other_rank"]) for r in run["ranking"]] == [("d4", 3), ("d2", None), ("d1", 1)]
    assert [(r["doc"], r["status"], r["other_rank"]) for r in base["ranking"]] == [
        ("d1", "relevant", 3), ("d6", "relevant", None), ("d4", "relevant", 1)]
    assert base["never_retrieved"] == [{"doc": "d7", "grade": 1}]
    # baseline recall@3 = 3 of 4 relevant
    assert base["values"]["recall@3"] == 0.75
    # a saved report as the baseline has no ranking to show
    saved = json.dumps(web.analyse(QRELS, BASE, {"k": "3"})["report"])
    assert web.inspect(QRELS, RUN, "q1", {"k": "3"}, saved)["baseline"] is None


def test_errors_come_back_as_data():
    out = web.inspect("q1 0 d1 1", "q1 Q0 d1 1 2", "q1", {})
    assert out["error"]["message"].startswith("results, line 1")
    out = web.inspect("q1 0 d1 1", "q1 Q0 d1 1 2 r", "q1", {"k": "0"})
    assert out["error"]["field"] == "k" and "'0'" in out["error"]["message"]


def test_kept_inputs_are_those_of_the_last_analyse():
    web.analyse(QRELS, RUN, {"k": "1"})
    assert [r["doc"] for r in web.inspect(None, None, "q1", {})["run"]["ranking"]] == ["d4"]
    web.analyse(QRELS, BASE, {"k": "1"})
    assert [r["doc"] for r in web.inspect(None, None, "q1", {})["run"]["ranking"]] == ["d1"]
    web.analyse(QRELS, "", {"k": "1"})  # nothing scored: nothing kept
    assert web.inspect(None, None, "q1", {})["error"]["message"] == "nothing has been scored yet"


# ---------------------------------------------------------------------------------------------
# iprec_at_recall


def test_interpolated_precision_by_hand():
    # relevant at ranks 2 and 4 of 5, R = 4: precision 1/2 at rank 2, 2/4 at rank 4, so the
    # max precision at or after the 1st relevant is 0.5, after the 2nd 0.5.
    # Level r needs the c-th relevant, c = round(4 r) (halves up): 0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 4;
    # c = 3 and 4 are never found: 0.
    assert interpolated_precision([0, 1, None, 1, 0], 4) == [0.5] * 7 + [0.0] * 4
    # relevant at 1 and 3, R = 2: c = round(2 r) = 0, 0, 0, 1, 1, 1 (1.0 rounds up), 1, 1, 2, 2, 2;
    # after the 1st: max(1/1, 2/3) = 1; after the 2nd: 2/3
    assert interpolated_precision([1, 0, 1], 2) == [1.0] * 8 + [2 / 3] * 3
    # interpolation: precision rises later (1/3 at rank 3, 2/4, 3/5 at rank 5): 0.6 everywhere
    assert interpolated_precision([0, 0, 1, 1, 1], 3) == [0.6] * 11
    assert interpolated_precision([], 3) == [0.0] * 11
    assert interpolated_precision([0, None], 2) == [0.0] * 11


def test_trec_eval_10_rounds_where_9_truncated():
    """R = 4, relevant at ranks 1 and 4. trec_eval 10: level 0.3 needs round(1.2) = 1 relevant
    (max precision from rank 1: 1.0), 0.6 needs round(2.4) = 2 (from rank 4: 0.5).
    trec_eval 9.0.8 (pytrec_eval): int(1.2 + 0.9) = 2 -> 0.5 and int(2.4 + 0.9) = 3 -> 0."""
    ours = interpolated_precision([1, 0, 0, 1], 4)
    assert (ours[3], ours[6]) == (1.0, 0.5)
    pytrec_eval = pytest.importorskip("pytrec_eval")
    theirs = pytrec_eval.RelevanceEvaluator({"q": {"a": 1, "d": 1, "x": 1, "y": 1}}, {"iprec_at_recall"}) \
        .evaluate({"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}})["q"]
    assert (theirs["iprec_at_recall_0.30"], theirs["iprec_at_recall_0.60"]) == (0.5, 0.0)
    # 38.5 (R = 77 at 0.5) rounds up, as C's round does (Python's round would give 38)
    assert relevant_needed(0.5, 77) == 39 and relevant_needed(0.5, 3) == 2


def test_mean_curve_counts_missing_queries_as_zero():
    qrels = parse_qrels({"q1": {"a": 1}, "q2": {"b": 1}})
    curve = precision_recall(qrels, parse_run({"q1": ["a"]}), ["q1", "q2"])
    assert curve["precision"] == [0.5] * 11 and curve["queries"] == 2
    assert curve["recall"] == [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]


def _trec_texts():
    d = trec_dir()
    return (d / "qrels.test").read_text(), (d / "results.test").read_text()


def test_iprec_at_recall_equals_trec_eval_10_printed():
    qrels, run = _trec_texts()
    printed = read_trec_eval_output(trec_dir() / "out.test.aq")
    judgements, rankings = parse_qrels(qrels), parse_run(run)
    for query in ("301", "302", "303"):
        grades = judgements.grades[query]
        ours = interpolated_precision(list(map(grades.get, rankings.ranked[query])),
                                      sum(g > 0 for g in grades.values()))
        for level, value in zip(RECALL_LEVELS, ours):
            want = printed[f"iprec_at_recall_{level:.2f}"][query]
            assert agrees_with_printed(value, want), (query, level, value, want)
    curve = web.precision_recall(qrels, run, {})
    for level, value in zip(RECALL_LEVELS, curve["runs"][0]["precision"]):
        assert agrees_with_printed(value, printed[f"iprec_at_recall_{level:.2f}"]["all"])


def test_iprec_at_recall_equals_pytrec_eval():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run = _trec_texts()
    judgements, rankings = parse_qrels(qrels), parse_run(run)
    # pytrec_eval ranks by float32 scores: hand it a tie-free copy (score = -rank)
    tie_free = {q: {d.decode(): -float(i) for i, d in enumerate(docs)} for q, docs in rankings.ranked.items()}
    as_text = {q: {d.decode(): g for d, g in grades.items()} for q, grades in judgements.grades.items()}
    theirs = pytrec_eval.RelevanceEvaluator(as_text, {"iprec_at_recall"}).evaluate(tie_free)
    differ = 0
    for query, values in theirs.items():
        grades = judgements.grades[query]
        ours = interpolated_precision(list(map(grades.get, rankings.ranked[query])),
                                      sum(g > 0 for g in grades.values()))
        R = sum(g > 0 for g in grades.values())
        same = [relevant_needed(level, R) == int(level * R + 0.9) for level in RECALL_LEVELS]
        differ += same.count(False)
        for level, value, agree in zip(RECALL_LEVELS, ours, same):
            if agree:  # where trec_eval 9.0.8's rule picks the same relevant document
                assert value == values[f"iprec_at_recall_{level:.2f}"], (query, level)
    assert differ  # e.g. 301 (R = 474) at 0.1: 47.4 -> 47, where 9.0.8 took int(48.3) = 48


def test_curve_of_run_and_baseline():
    curve = web.precision_recall(QRELS, RUN, {"k": "3"}, BASE)
    assert [r["name"] for r in curve["runs"]] == ["run", "baseline"]
    # scored queries: q1 and q2 (q2 missing from the run: zeros).
    # run, q1: relevant d4 @1, d1 @3 of R = 4; c = round(4 r) = 0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 4;
    # c <= 1 -> max(1/1, 2/3) = 1; c = 2 -> 2/3; c >= 3: never found, 0. Mean with q2's zeros: halves.
    assert curve["runs"][0]["precision"] == pytest.approx([0.5] * 4 + [1 / 3] * 3 + [0.0] * 4)
    # baseline, q1: d1 @1, d6 @2, d4 @3: precision 1 at each, so 1.0 while c <= 3 (to 0.8),
    # 0 for c = 4 (0.9, 1.0). q2: d3 @1 of R = 1: 1.0 everywhere. Mean: 1.0 to 0.8, then 0.5.
    assert curve["runs"][1]["precision"] == pytest.approx([1.0] * 9 + [0.5] * 2)
    assert curve["runs"][0]["queries"] == 2
