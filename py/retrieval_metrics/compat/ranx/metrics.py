"""ranx's ``ranx.metrics`` functions over the arrays its kernels take: ``precision(qrels, run,
k=0, rel_lvl=1)`` and the rest give one value per query, each computed as ``evaluate`` computes
it on those arrays (one ``[[doc id, value], ...]`` array per query, the run's rows as ranked;
``k = 0``: the whole ranking). ``get_hit_lists`` gives each query's 1.0 / 0.0 per rank.
(ranx's numba structures, ``to_typed_list``'s, are not read: hand the arrays.)

>>> precision([[[1, 1], [4, 1]]], [[[1, 1.0], [2, 1.0]]], 2)
[0.5]
"""

from __future__ import annotations

from .api import evaluate, read_arrays

__all__ = ["average_precision", "dcg", "dcg_burges", "get_hit_lists", "hit_rate", "hits",
           "ndcg", "ndcg_burges", "precision", "r_precision", "recall", "reciprocal_rank"]


def _metric(name: str, cut: bool = True):
    """ranx's function for metric ``name`` (its evaluate name)."""
    def metric(qrels, run, k: int = 0, rel_lvl: int = 1) -> list[float]:
        if k < 0:
            raise AssertionError("k must be grater or equal to 0")  # ranx's words
        text = name + (f"@{k}" if cut and k else "") + (f"-l{rel_lvl}" if rel_lvl != 1 else "")
        return evaluate(qrels, run, text, return_mean=False)
    metric.__name__ = metric.__qualname__ = name.replace("-", "_")
    metric.__doc__ = f"ranx's {name} of each query (its evaluate name ``{name}``)."
    return metric


hits = _metric("hits")
hit_rate = _metric("hit_rate")
precision = _metric("precision")
recall = _metric("recall")
average_precision = _metric("map")
reciprocal_rank = _metric("mrr")
r_precision = _metric("r-precision", cut=False)
dcg = _metric("dcg")
dcg_burges = _metric("dcg_burges")
ndcg = _metric("ndcg")
ndcg_burges = _metric("ndcg_burges")


def get_hit_lists(qrels, run, k: int = 0, rel_lvl: int = 1) -> list[list[float]]:
    """Each query's ranking as 1.0 (a document graded at least ``rel_lvl``) or 0.0, to ``k``."""
    grades = read_arrays(qrels, "qrels")
    ranked = read_arrays(run, "run")
    out = []
    for q, rows in ranked.items():
        judged = dict(grades.get(q, []))
        docs = [doc for doc, _score in rows][: k or None]
        out.append([1.0 if judged.get(doc, 0) >= rel_lvl else 0.0 for doc in docs])
    return out
