"""One query's grades as another tool's parameters change them: a relevance level of its own
(``rel=2``), only the judged documents (``judged_only``), a map of grades (``gains``).

>>> from retrieval_metrics.measures.grades import QueryGrades
>>> q = QueryGrades(["a", "x", "b"], {"a": 1, "b": 2, "c": -1})
>>> regraded(q, rel=2).binary, regraded(q, judged_only=True).ranked
([0, None, 1], ['a', 'b'])
>>> regraded(q, gains=((1, 0), (2, 3))).judged
{'a': 0, 'b': 3, 'c': -1}
"""

from __future__ import annotations

from ..grades import QueryGrades


def regraded(q: QueryGrades, rel: int | None = None, judged_only: bool = False,
             gains: tuple = (), gain: str = "linear") -> QueryGrades:
    """``q`` read with relevance level ``rel`` (None: the evaluation's), without the documents
    the judgements do not mention or grade below 0 (``judged_only``, as trec_eval -J and
    pytrec_eval's judged_docs_only_flag), grades mapped by ``gains`` (pairs grade -> gain,
    ir_measures' nDCG(gains=...)), and nDCG's ``gain``."""
    judged = q.judged
    if gains:
        mapping = dict(gains)
        judged = {doc: mapping.get(g, g) for doc, g in judged.items()}
    ranked = q.ranked
    if judged_only:
        ranked = [doc for doc in ranked if judged.get(doc, -1) >= 0]
    return QueryGrades(ranked, judged, q.threshold if rel is None else rel, gain)
