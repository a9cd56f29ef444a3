"""The one-metric helpers (kept importable from here; they live in ``ranking``).

>>> qrels = {"q1": {"d1": 2, "d4": 1}, "q2": ["d3"]}
>>> run = {"q1": ["d4", "d2", "d1"], "q2": ["d5", "d3"]}
>>> recall_at_k(qrels, run, 2), round(ndcg_at_k(qrels, run, 3), 4), mrr_at_k(qrels, run, 10)
(0.75, 0.6956, 0.75)
>>> precision_at_k(qrels, run, 1)  # q1's d4 is relevant, q2's d5 is not
0.5
"""

from __future__ import annotations

from .ranking import (
    average_precision,
    hit_rate_at_k,
    mrr_at_k,
    ndcg_at_k,
    precision_at_k,
    r_precision,
    recall_at_k,
)

__all__ = ["recall_at_k", "precision_at_k", "mrr_at_k", "ndcg_at_k", "hit_rate_at_k",
           "average_precision", "r_precision"]
