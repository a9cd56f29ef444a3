"""Tie policies: hand-worked values, and "average" against every order of the tied documents
scored by pytrec_eval (trec_eval itself) in the test."""

from __future__ import annotations

import itertools
import math
import random
from pathlib import Path

import pytest
import retrieval_metrics as rm
from retrieval_metrics.errors import OptionError

pytrec_eval = pytest.importorskip("pytrec_eval")

# q1: a, b, c tied at 0.5 (only a relevant), then d (relevant) at 0.1; R = 2.
RUN = "q1 Q0 a 1 0.5 t\nq1 Q0 b 2 0.5 t\nq1 Q0 c 3 0.5 t\nq1 Q0 d 4 0.1 t\n"
QRELS = "q1 0 a 1\nq1 0 d 1\n"
METRICS = ["precision", "mrr", "hit_rate", "recall", "map"]


def _means(ties):
    return rm.evaluate(QRELS, RUN, k=[1, 2], metrics=METRICS, ties=ties).mean


def test_trec_eval_order_is_document_id_descending():
    # c, b, a, d: a at rank 3, d at rank 4
    m = _means("trec_eval")
    assert m["precision@1"] == 0 and m["mrr@2"] == 0
    assert m["map"] == pytest.approx((1 / 3 + 2 / 4) / 2)


def test_pessimistic_puts_the_relevant_tied_document_last():
    m = _means("pessimistic")
    assert m["precision@1"] == 0 and m["hit_rate@2"] == 0
    assert m["map"] == pytest.approx((1 / 3 + 2 / 4) / 2)


def test_optimistic_puts_it_first():
    m = _means("optimistic")
    assert m["precision@1"] == 1 and m["precision@2"] == 0.5 and m["mrr@2"] == 1
    assert m["recall@2"] == 0.5
    assert m["map"] == pytest.approx((1 / 1 + 2 / 4) / 2)


def test_average_by_hand():
    # a is at rank 1, 2 or 3 with probability 1/3 each
    m = _means("average")
    assert m["precision@1"] == pytest.approx(1 / 3)
    assert m["precision@2"] == pytest.approx((1 / 3 + 1 / 3) / 2)
    assert m["mrr@2"] == pytest.approx(1 / 3 * 1 + 1 / 3 * 1 / 2)
    assert m["hit_rate@2"] == pytest.approx(2 / 3)
    assert m["recall@1"] == pytest.approx(1 / 6)
    assert m["map"] == pytest.approx(((1 + 1 / 2 + 1 / 3) / 3 + 2 / 4) / 2)


def test_notice_gives_the_range_of_each_mean():
    report = rm.evaluate(QRELS, RUN, k=[1, 2], metrics=METRICS)
    notice = next(n for n in report.notices if n.code == "score_ties")
    assert notice.level == "warning" and notice.count == 1 and notice.queries == ("q1",)
    assert "across a cutoff (q1)" in notice.message
    # names each mean that moves with its pessimistic and optimistic values (worked by hand)
    assert "precision@1 from 0.0000 to 1.0000" in notice.message
    assert "map from 0.4167 to 0.7500" in notice.message
    assert '"average" tie policy' in notice.message  # and what settles it
    assert report.tie_ranges["precision@1"] == (0.0, 1.0)
    assert report.tie_ranges["map"] == pytest.approx(((1 / 3 + 2 / 4) / 2, 0.75))
    assert report.to_dict()["ties"] == "trec_eval"


def test_ties_that_move_no_mean_by_a_shown_digit_are_not_a_notice():
    # trec_eval's own test run: three queries have ties; over every order of them ndcg@100
    # moves from 0.391611 to 0.391620, below the fourth decimal the tables show.
    folder = Path(__file__).parent / "data" / "trec_eval"
    report = rm.evaluate((folder / "qrels.test").read_text(), (folder / "results.test").read_text(),
                         k=[5, 10, 100])
    assert not [n for n in report.notices if n.code == "score_ties"]
    low, high = report.tie_ranges["ndcg@100"]  # the range is still in the report's data
    assert 0 < high - low < 0.0001


def test_a_tie_that_moves_one_mean_names_only_that_mean():
    # q1: a (relevant) and b tie for rank 1, c follows; precision@1 is 0 (b first by id
    # descending) or 1, and precision@3 cannot move.
    report = rm.evaluate("q1 0 a 1\n", "q1 Q0 a 1 2.0 r\nq1 Q0 b 2 2.0 r\nq1 Q0 c 3 1.0 r\n",
                         k=[1, 3], metrics=["precision"])
    notice = next(n for n in report.notices if n.code == "score_ties")
    assert notice.level == "warning"
    assert notice.message.startswith("Equal scores can move 1 mean: precision@1 from 0.0000 to 1.0000 (here 0.0000)")
    assert "precision@3" not in notice.message


def test_no_ties_no_notice_and_ranks_never_tie():
    report = rm.evaluate(QRELS, "q1 a 1\nq1 b 1\nq1 d 2\n", k=1, metrics=["precision"],
                         third_column="rank")
    assert not [n for n in report.notices if n.code == "score_ties"]
    assert not report.tie_ranges


def test_average_refuses_measures_without_a_closed_form():
    with pytest.raises(OptionError) as info:
        rm.evaluate(QRELS, RUN, metrics=["bpref"], k=None, ties="average")
    assert info.value.field == "ties" and "bpref" in info.value.message
    with pytest.raises(OptionError):
        rm.evaluate(QRELS, RUN, ties="random")


# --- "average" against every order, scored by trec_eval ----------------------------------

TREC = {"P_1": "precision@1", "P_3": "precision@3", "P_5": "precision@5",
        "recall_3": "recall@3", "ndcg_cut_3": "ndcg@3", "ndcg_cut_5": "ndcg@5", "ndcg": "ndcg",
        "recip_rank": "rr", "map": "map", "map_cut_3": "ap@3", "success_3": "hit_rate@3",
        "Rprec": "rprec"}
OURS = list(TREC.values())


def _orders(docs, scores):
    """Every ranking the ties allow (each tied run permuted), best first."""
    groups = [list(g) for _, g in itertools.groupby(zip(scores, docs), key=lambda p: p[0])]
    for choice in itertools.product(*(itertools.permutations([d for _, d in g]) for g in groups)):
        yield [d for part in choice for d in part]


def _trec_eval(qrels, ranking):
    run = {"q": {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)}}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(TREC))
    return evaluator.evaluate(run)["q"]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12))
def test_average_is_the_mean_over_every_tied_order(seed):
    rng = random.Random(seed)
    n = rng.randint(4, 7)
    docs = [f"d{i}" for i in range(n)]
    scores = sorted((rng.choice([1.0, 2.0, 3.0]) for _ in docs), reverse=True)
    grades = {d: rng.choice([0, 0, 1, 2]) for d in docs if rng.random() < 0.8}
    grades.setdefault("d0", 1)
    grades["x"] = 2  # a relevant document never retrieved
    qrels = {"q": grades}
    orders = list(_orders(docs, scores))
    expected = {key: math.fsum(_trec_eval(qrels, order)[name] for order in orders) / len(orders)
                for name, key in TREC.items()}
    run = {"q": dict(zip(docs, scores))}
    got = rm.evaluate(qrels, run, k=None, metrics=OURS, ties="average").mean
    for key in OURS:
        assert got[key] == pytest.approx(expected[key], abs=1e-12), key
    low = rm.evaluate(qrels, run, k=None, metrics=OURS, ties="pessimistic").mean
    high = rm.evaluate(qrels, run, k=None, metrics=OURS, ties="optimistic").mean
    for name, key in TREC.items():
        values = [_trec_eval(qrels, order)[name] for order in orders]
        assert low[key] == pytest.approx(min(values), abs=1e-12), key
        assert high[key] == pytest.approx(max(values), abs=1e-12), key


@pytest.mark.parametrize("scores, ids, groups", [
    ([], None, ()),
    ([1.0], None, ()),
    ([3.0, 2.0, 1.0], None, ()),
    ([2.0, 2.0], None, ((0, 2),)),
    ([3.0, 2.0, 2.0, 2.0, 1.0, 1.0], None, ((1, 4), (4, 6))),
    ([5.0, 5.0, 4.0, 3.0, 3.0, 3.0, 2.0], None, ((0, 2), (3, 6))),
    ([0.0, -0.0], None, ((0, 2),)),  # 0.0 == -0.0
    # a repeated document keeps its first place; positions are in the deduplicated ranking
    ([2.0, 2.0, 2.0, 1.0], [b"a", b"b", b"a", b"c"], ((0, 2),)),
    ([2.0, 2.0, 1.0], [b"a", b"a", b"c"], ()),  # the tie was one document twice
    ([3.0, 2.0, 2.0, 2.0], [b"a", b"b", b"c", b"b"], ((1, 3),)),
])
def test_tie_groups_by_hand(scores, ids, groups):
    from retrieval_metrics.inputs.records import tie_groups
    assert tie_groups(scores, ids) == groups


def test_tie_groups_are_the_maximal_runs_of_equal_scores():
    from retrieval_metrics.inputs.records import tie_groups
    rng = random.Random(7)
    for _ in range(3000):
        scores = sorted((rng.choice([0.0, 1.0, 2.5, 3.0]) for _ in range(rng.randint(0, 15))),
                        reverse=True)
        expected, at = [], 0
        for _, run in itertools.groupby(scores):
            size = len(list(run))
            if size > 1:
                expected.append((at, at + size))
            at += size
        assert tie_groups(scores) == tuple(expected), scores


@pytest.mark.parametrize("scores, ids, ranked, dropped, groups", [
    # written best first: equal scores by id descending; the runs found on the way
    ([3.0, 2.0, 2.0, 1.0], [b"a", b"b", b"c", b"d"], [b"a", b"c", b"b", b"d"], 0, ((1, 3),)),
    # a repeat inside a tie keeps its first place; positions are those of the ranking kept
    ([2.0, 2.0, 2.0, 1.0, 1.0], [b"a", b"b", b"a", b"c", b"d"],
     [b"b", b"a", b"d", b"c"], 1, ((0, 2), (2, 4))),
    # not written best first: sorted, then the same rules
    ([1.0, 3.0, 1.0, 3.0], [b"x", b"y", b"z", b"w"], [b"y", b"w", b"z", b"x"], 0,
     ((0, 2), (2, 4))),
    ([1.0, 2.0, 1.0], [b"x", b"y", b"x"], [b"y", b"x"], 1, ()),
    ([], [], [], 0, ()),
])
def test_scored_ranking_by_hand(scores, ids, ranked, dropped, groups):
    from retrieval_metrics.inputs.runs import scored_ranking
    assert scored_ranking(list(scores), list(ids)) == (ranked, dropped, groups)
