"""The embedding half of a hybrid search and its fusion with the keyword half.

The caller supplies the embedding function (the project computes no embeddings); here its
vectors are checked, documents ranked by cosine similarity to the query, and two rankings fused
by reciprocal rank (Cormack, Clarke and Buettcher, SIGIR 2009)::

    rrf(d) = sum over the rankings r holding d of 1 / (k + rank_r(d))      (ranks from 1)

A document missing from a ranking gets nothing from it. Equal values (cosine or fused) keep the
documents' order, so a search is reproducible.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any

from ..errors import InputError

__all__ = ["as_vector", "cosine_ranking", "reciprocal_rank_fusion"]


def as_vector(value: Any, source: str, what: str) -> tuple[float, ...]:
    """An embedding as a tuple of finite floats (a list, a tuple, a numpy array...), or an
    ``InputError`` from ``source`` naming ``what`` was embedded.

    >>> as_vector([1, 0.5], "documents", "document 'd1'")
    (1.0, 0.5)
    """
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise InputError(source, f"{what}: the embedding function returned {_show(value)}, "
                         "not a vector", expected="a sequence of numbers")
    vector = []
    for number in value:
        if not isinstance(number, numbers.Real) or isinstance(number, bool) \
                or not math.isfinite(float(number)):
            raise InputError(source, f"{what}: the embedding holds {_show(number)}, not a finite "
                             "number", expected="a sequence of finite numbers")
        vector.append(float(number))
    if not vector:
        raise InputError(source, f"{what}: the embedding is empty",
                         expected="a sequence of finite numbers")
    return tuple(vector)


def norm(vector: Sequence[float]) -> float:
    return math.sqrt(math.fsum(x * x for x in vector))


def cosine_ranking(query: Sequence[float], vectors: Sequence[Sequence[float]],
                   norms: Sequence[float]) -> list[tuple[int, float]]:
    """``(position, cosine)`` of every vector, most similar first (equal values in order).
    ``norms`` are the vectors' lengths, none zero; the query's is not zero either.

    >>> cosine_ranking((1.0, 0.0), [(0.0, 2.0), (3.0, 0.0)], [2.0, 3.0])
    [(1, 1.0), (0, 0.0)]
    """
    query_norm = norm(query)
    similarity = [(position, math.fsum(q * v for q, v in zip(query, vector))
                   / (query_norm * norms[position]))
                  for position, vector in enumerate(vectors)]
    return sorted(similarity, key=lambda item: (-item[1], item[0]))


def reciprocal_rank_fusion(rankings: Sequence[Sequence[int]], k: float) -> list[tuple[int, float]]:
    """``(position, fused score)`` of every document in any of ``rankings`` (each a list of
    positions, best first), best first; equal scores in the documents' order.

    >>> reciprocal_rank_fusion([[0, 1], [1, 2]], k=60) == [
    ...     (1, 1 / 62 + 1 / 61), (0, 1 / 61), (2, 1 / 62)]
    True
    """
    parts: dict[int, list[float]] = {}
    for ranking in rankings:
        for rank, position in enumerate(ranking, 1):
            parts.setdefault(position, []).append(1 / (k + rank))
    fused = {position: math.fsum(values) for position, values in parts.items()}
    return sorted(fused.items(), key=lambda item: (-item[1], item[0]))


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:79] + "\u2026"
