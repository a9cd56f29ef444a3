"""Compat against ir_measures' own Compat (its pure-Python provider) on generated cases, and
by hand."""

from __future__ import annotations

import random

import pytest
from retrieval_metrics import evaluate
from retrieval_metrics.measures.grammar import parse_metric

ir_measures = pytest.importorskip("ir_measures")

PAIRS = {"compat": "Compat", "compat(p=0.8)": "Compat(p=0.8)",
         "compat(normalize=0)": "Compat(normalize=False)",
         "compat(p=0.5,normalize=0)": "Compat(p=0.5,normalize=False)"}


def _case(seed: int, queries: int = 25):
    rng = random.Random(seed)
    qrels, run = [], []
    for q in range(queries):
        docs = [f"d{i}" for i in range(rng.randint(1, 40))]
        qrels += [(str(q), d, rng.choice((-1, 0, 0, 1, 1, 2, 3))) for d in docs]
        pool = docs + [f"u{i}" for i in range(rng.randint(0, 40))]
        ranked = rng.sample(pool, rng.randint(1, len(pool)))
        run += [(str(q), d, 100.0 - i) for i, d in enumerate(ranked)]  # positive scores
    return qrels, run


@pytest.mark.parametrize("seed", range(5))
def test_equal_to_ir_measures_compat(seed):
    qrels, run = _case(seed)
    judged, ranked = {}, {}
    for q, d, g in qrels:
        judged.setdefault(q, {})[d] = g
    for q, d, _s in run:
        ranked.setdefault(q, []).append(d)
    report = evaluate(judged, ranked, metrics=list(PAIRS), zero_division=0)
    measures = {ir_measures.parse_measure(theirs): parse_metric(ours).key
                for ours, theirs in PAIRS.items()}
    compared = 0
    for metric in ir_measures.compat.iter_calc(list(measures),
                                               [ir_measures.Qrel(*r) for r in qrels],
                                               [ir_measures.ScoredDoc(*r) for r in run]):
        if metric.query_id not in report.per_query:
            continue
        assert report.per_query[metric.query_id][measures[metric.measure]] == metric.value, (
            metric.query_id, metric.measure)
        compared += 1
    assert compared == len(report.per_query) * len(PAIRS) > 0


def test_hand_worked():
    """Ideal a (2), b (1); the run b, a, p = 0.5, to depth 2: (0 + 0.5 * 2/2) / 1.5 against
    the ideal's (1 + 0.5) / 1.5."""
    report = evaluate({"q": {"a": 2, "b": 1}}, {"q": ["b", "a"]}, metrics=["compat(p=0.5)"])
    assert report.mean["compat(p=0.5)"] == pytest.approx(1 / 3, rel=1e-15)
    best = evaluate({"q": {"a": 2, "b": 1}}, {"q": ["a", "b"]}, metrics=["compat"])
    assert best.mean["compat"] == 1.0
