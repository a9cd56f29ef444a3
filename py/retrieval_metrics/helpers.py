"""One-number helpers for people who score from code: the mean of one metric at one k.

They take what ``evaluate`` takes (dicts in the pytrec_eval / ranx shapes, text or paths) and
apply the same counting rules. SPEC.md's second reference case:

>>> qrels = {"q1": {"d1": 2, "d4": 1}, "q2": ["d3"]}
>>> run = {"q1": ["d4", "d2", "d1"], "q2": ["d5", "d3"]}
>>> recall_at_k(qrels, run, 2), round(ndcg_at_k(qrels, run, 3), 4), mrr_at_k(qrels, run, 10)
(0.75, 0.6956, 0.75)
>>> precision_at_k(qrels, run, 1)  # q1's d4 is relevant, q2's d5 is not
0.5
"""

from __future__ import annotations

from .evaluate import evaluate


def _one(metric: str, qrels, run, k: int, **options) -> float:
    report = evaluate(qrels, run, k=k, metrics=[metric], **options)
    return report.mean.get(f"{metric}@{k}", 0.0)


def recall_at_k(qrels, run, k: int, **options) -> float:
    """Mean recall@k over the scored queries."""
    return _one("recall", qrels, run, k, **options)


def precision_at_k(qrels, run, k: int, **options) -> float:
    """Mean precision@k (relevant in the top k over k) over the scored queries."""
    return _one("precision", qrels, run, k, **options)


def mrr_at_k(qrels, run, k: int, **options) -> float:
    """Mean reciprocal rank of the first relevant document within the top k."""
    return _one("mrr", qrels, run, k, **options)


def ndcg_at_k(qrels, run, k: int, **options) -> float:
    """Mean nDCG@k, trec_eval's linear gain unless ``gain="exponential"``."""
    return _one("ndcg", qrels, run, k, **options)
