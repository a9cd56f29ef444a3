"""The reference cases of docs/measures.md, worked by hand here (independent formulas), then checked
against the engine."""

from __future__ import annotations

import math

import pytest
from retrieval_metrics import evaluate

# --- Wikipedia's graded example -------------------------------------------------------------
# One query; results D1..D6 with grades 3, 2, 3, 0, 1, 2; D7 = 3 and D8 = 2 judged, never retrieved.
WIKI_GRADES = {"D1": 3, "D2": 2, "D3": 3, "D4": 0, "D5": 1, "D6": 2, "D7": 3, "D8": 2}
WIKI_RUN = ["D1", "D2", "D3", "D4", "D5", "D6"]


def _dcg(gains):
    return sum(g / math.log2(i + 2) for i, g in enumerate(gains))


def _hand_ndcg(gain_fn, k=6):
    gains = [gain_fn(WIKI_GRADES[d]) for d in WIKI_RUN[:k]]
    ideal = sorted((gain_fn(g) for g in WIKI_GRADES.values()), reverse=True)[:k]
    return _dcg(gains), _dcg(ideal)


def test_wikipedia_hand_numbers_are_the_spec_numbers():
    # Guards the hand computation itself: DCG 6.861, IDCG 8.740, 0.785; 0.751 exponential;
    # 0.961 if IDCG wrongly used only the six retrieved documents.
    dcg, idcg = _hand_ndcg(lambda g: g)
    assert round(dcg, 3) == 6.861 and round(idcg, 3) == 8.740
    assert round(dcg / idcg, 3) == 0.785
    dcg_e, idcg_e = _hand_ndcg(lambda g: 2 ** g - 1)
    assert round(dcg_e / idcg_e, 3) == 0.751
    wrong_idcg = _dcg(sorted((WIKI_GRADES[d] for d in WIKI_RUN), reverse=True))
    assert round(dcg / wrong_idcg, 3) == 0.961


@pytest.mark.parametrize("run_shape", ["list", "scores", "trec"])
def test_wikipedia_ndcg_linear(run_shape):
    qrels = {"q": dict(WIKI_GRADES)}
    if run_shape == "list":
        run = {"q": list(WIKI_RUN)}
    elif run_shape == "scores":
        run = {"q": {d: 10.0 - i for i, d in enumerate(WIKI_RUN)}}
    else:
        run = "".join(f"q Q0 {d} {i + 1} {10 - i} tag\n" for i, d in enumerate(WIKI_RUN))
    report = evaluate(qrels, run, k=6)
    dcg, idcg = _hand_ndcg(lambda g: g)
    ours = report.per_query["q"]["ndcg@6"]
    assert ours == pytest.approx(dcg / idcg, abs=1e-12)
    assert round(ours, 3) == 0.785
    assert report.mean["ndcg@6"] == pytest.approx(dcg / idcg, abs=1e-12)


def test_wikipedia_ndcg_exponential():
    report = evaluate({"q": dict(WIKI_GRADES)}, {"q": list(WIKI_RUN)}, k=6, gain="exponential")
    dcg, idcg = _hand_ndcg(lambda g: 2 ** g - 1)
    ours = report.per_query["q"]["ndcg@6"]
    assert ours == pytest.approx(dcg / idcg, abs=1e-12)
    assert round(ours, 3) == 0.751


def test_wikipedia_other_metrics_at_6():
    report = evaluate({"q": dict(WIKI_GRADES)}, {"q": list(WIKI_RUN)}, k=6)
    row = report.per_query["q"]
    # relevant (grade > 0): D1 D2 D3 D5 D6 D7 D8 = 7; retrieved relevant in top 6: 5
    assert row["recall@6"] == pytest.approx(5 / 7, abs=1e-12)
    assert row["precision@6"] == pytest.approx(5 / 6, abs=1e-12)
    assert row["mrr@6"] == 1.0


def test_wikipedia_ndcg_at_smaller_k():
    # k = 3: DCG = 3 + 2/log2 3 + 3/2; IDCG@3 = 3 + 3/log2 3 + 3/2
    report = evaluate({"q": dict(WIKI_GRADES)}, {"q": list(WIKI_RUN)}, k=[3, 6])
    expected = (3 + 2 / math.log2(3) + 3 / 2) / (3 + 3 / math.log2(3) + 3 / 2)
    assert report.per_query["q"]["ndcg@3"] == pytest.approx(expected, abs=1e-12)
    assert list(report.k) == [3, 6]


def test_exponential_gain_refuses_grades_over_1000():
    from retrieval_metrics import InputError, OptionError
    with pytest.raises((InputError, OptionError)) as info:
        evaluate({"q": {"a": 1001}}, {"q": ["a"]}, k=1, gain="exponential")
    assert "1000" in str(info.value) or "1,000" in str(info.value)
    # 1,000 itself is accepted, and linear gain takes any integer grade
    evaluate({"q": {"a": 1000, "b": 1}}, {"q": ["b", "a"]}, k=2, gain="exponential")
    linear = evaluate({"q": {"a": 1001}}, {"q": ["a"]}, k=1)
    assert linear.per_query["q"]["ndcg@1"] == 1.0


def test_exponential_and_linear_agree_on_binary_grades():
    qrels = {"q1": {"a": 1, "b": 0, "c": 1}, "q2": {"x": 1}}
    run = {"q1": ["b", "a", "z", "c"], "q2": ["y", "x"]}
    lin = evaluate(qrels, run, k=[1, 2, 4])
    exp = evaluate(qrels, run, k=[1, 2, 4], gain="exponential")
    for q in ("q1", "q2"):
        for k in (1, 2, 4):
            assert lin.per_query[q][f"ndcg@{k}"] == pytest.approx(exp.per_query[q][f"ndcg@{k}"], abs=1e-15)
    # q1 @4: DCG = 1/log2 3 + 1/log2 5; IDCG = 1 + 1/log2 3
    assert lin.per_query["q1"]["ndcg@4"] == pytest.approx(
        (1 / math.log2(3) + 1 / math.log2(5)) / (1 + 1 / math.log2(3)), abs=1e-12)


# --- the two-query case -------------------------------------------------------------------------
TWO_QRELS = {"q1": {"d1": 2, "d4": 1}, "q2": ["d3"]}
TWO_RUN = {"q1": ["d4", "d2", "d1"], "q2": ["d5", "d3"]}


def test_two_query_case_spec_numbers():
    report = evaluate(TWO_QRELS, TWO_RUN, k=[1, 2, 3],
                      metrics=["recall", "precision", "mrr", "ndcg", "hit_rate"])
    # recall@2: q1 top2 = d4 (rel), d2 -> 1/2; q2 top2 = d5, d3 (rel) -> 1/1
    assert report.per_query["q1"]["recall@2"] == 0.5
    assert report.per_query["q2"]["recall@2"] == 1.0
    assert report.mean["recall@2"] == pytest.approx(0.75, abs=1e-12)
    # nDCG@3: q1 DCG = 1/log2(2) + 0 + 2/log2(4) = 2, IDCG = 2 + 1/log2(3);
    #         q2 DCG = 1/log2(3), IDCG = 1
    q1 = 2 / (2 + 1 / math.log2(3))
    q2 = 1 / math.log2(3)
    assert report.per_query["q1"]["ndcg@3"] == pytest.approx(q1, abs=1e-12)
    assert report.per_query["q2"]["ndcg@3"] == pytest.approx(q2, abs=1e-12)
    assert round(report.mean["ndcg@3"], 4) == 0.6956
    # RR: q1 first relevant at rank 1, q2 at rank 2 -> MRR@k = 0.75 for every k >= 2; 0.5 at k = 1
    assert report.per_query["q1"]["mrr@1"] == 1.0 and report.per_query["q2"]["mrr@1"] == 0.0
    assert report.mean["mrr@1"] == 0.5
    for k in (2, 3):
        assert report.per_query["q2"][f"mrr@{k}"] == 0.5
        assert report.mean[f"mrr@{k}"] == pytest.approx(0.75, abs=1e-12)
    # hit rate@1: q1 hit (d4), q2 miss (d5)
    assert report.mean["hit_rate@1"] == 0.5
    assert report.mean["hit_rate@2"] == 1.0
    # precision@3 divides by 3 even though q2 returned 2: q1 2/3, q2 1/3
    assert report.per_query["q2"]["precision@3"] == pytest.approx(1 / 3, abs=1e-12)
    assert report.mean["precision@3"] == pytest.approx(0.5, abs=1e-12)
    assert report.scored_queries == 2


def test_two_query_case_default_k_and_metrics():
    report = evaluate(TWO_QRELS, TWO_RUN)
    assert set(report.per_query) == {"q1", "q2"}
    assert set(report.per_query["q1"]) == {"recall@10", "precision@10", "mrr@10", "ndcg@10"}
    assert report.mean["recall@10"] == 1.0
    assert report.mean["mrr@10"] == pytest.approx(0.75, abs=1e-12)
    assert report.mean["precision@10"] == pytest.approx((2 / 10 + 1 / 10) / 2, abs=1e-12)


def test_two_query_case_extra_metrics():
    report = evaluate(TWO_QRELS, TWO_RUN, k=[2, 3], metrics=["ap", "map", "rprec", "rr", "judged"])
    # AP: q1 relevant at ranks 1 and 3 of R=2 -> (1/1 + 2/3) / 2; q2 at rank 2 of R=1 -> 1/2
    assert report.per_query["q1"]["map"] == pytest.approx((1 + 2 / 3) / 2, abs=1e-12)
    assert report.per_query["q2"]["map"] == pytest.approx(0.5, abs=1e-12)
    assert report.mean["map"] == pytest.approx(((1 + 2 / 3) / 2 + 0.5) / 2, abs=1e-12)
    # AP@2 (trec_eval map_cut_2): q1 (1/1) / 2, q2 (1/2) / 1
    assert report.per_query["q1"]["ap@2"] == pytest.approx(0.5, abs=1e-12)
    assert report.per_query["q2"]["ap@2"] == pytest.approx(0.5, abs=1e-12)
    # R-precision: q1 R = 2, top 2 has d4 -> 1/2; q2 R = 1, top 1 is d5 -> 0
    assert report.per_query["q1"]["rprec"] == 0.5
    assert report.per_query["q2"]["rprec"] == 0.0
    # RR without cutoff
    assert report.per_query["q1"]["rr"] == 1.0 and report.per_query["q2"]["rr"] == 0.5
    assert report.mean["rr"] == pytest.approx(0.75, abs=1e-12)
    # judged@2: q1 top 2 = d4 (judged), d2 (not) -> 1/2; q2 = d5 (not), d3 (judged) -> 1/2
    assert report.per_query["q1"]["judged@2"] == 0.5
    assert report.per_query["q2"]["judged@2"] == 0.5
    # judged@3 for q1: d4, d2, d1 -> 2/3
    assert report.per_query["q1"]["judged@3"] == pytest.approx(2 / 3, abs=1e-12)


def test_two_query_case_from_trec_text():
    qrels = "q1 0 d1 2\nq1 0 d4 1\nq2 0 d3 1\n"
    # scores deliberately out of row order, and rank column contradicting them (ignored)
    run = ("q1 Q0 d1 1 0.2 t\n"
           "q1 Q0 d4 2 0.9 t\n"
           "q1 Q0 d2 3 0.5 t\n"
           "q2 Q0 d3 1 1.0 t\n"
           "q2 Q0 d5 2 3.0 t\n")
    report = evaluate(qrels, run, k=[2, 3])
    assert report.mean["recall@2"] == pytest.approx(0.75, abs=1e-12)
    assert round(report.mean["ndcg@3"], 4) == 0.6956
    assert report.mean["mrr@3"] == pytest.approx(0.75, abs=1e-12)


def test_helper_functions_on_the_reference_cases():
    # issue 2: recall_at_k, precision_at_k, mrr_at_k, ndcg_at_k(qrels, run, k) -> the mean
    from retrieval_metrics import mrr_at_k, ndcg_at_k, precision_at_k, recall_at_k
    assert recall_at_k(TWO_QRELS, TWO_RUN, 2) == pytest.approx(0.75, abs=1e-12)
    assert ndcg_at_k(TWO_QRELS, TWO_RUN, 3) == pytest.approx((2 / (2 + 1 / math.log2(3)) + 1 / math.log2(3)) / 2, abs=1e-12)
    assert mrr_at_k(TWO_QRELS, TWO_RUN, 2) == pytest.approx(0.75, abs=1e-12)
    assert mrr_at_k(TWO_QRELS, TWO_RUN, 1) == 0.5
    assert precision_at_k(TWO_QRELS, TWO_RUN, 3) == pytest.approx(0.5, abs=1e-12)
    dcg, idcg = _hand_ndcg(lambda g: g)
    assert ndcg_at_k({"q": dict(WIKI_GRADES)}, {"q": list(WIKI_RUN)}, 6) == pytest.approx(dcg / idcg, abs=1e-12)
    dcg, idcg = _hand_ndcg(lambda g: 2 ** g - 1)
    assert ndcg_at_k({"q": dict(WIKI_GRADES)}, {"q": list(WIKI_RUN)}, 6, gain="exponential") == \
        pytest.approx(dcg / idcg, abs=1e-12)
