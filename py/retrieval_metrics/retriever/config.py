"""How a :class:`.index.RetrievalIndex` searches: one validated, immutable settings object."""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import OptionError

__all__ = ["RetrievalConfig", "MATCH_MODES"]

MATCH_MODES = ("keyword", "strict", "hybrid")


@dataclass(frozen=True)
class RetrievalConfig:
    """The settings of a search.

    - ``match_mode``: ``"keyword"`` (BM25 over lower-cased word tokens: every document holding
      a query token, best first), ``"strict"`` (only the documents holding every query token,
      ranked by BM25) or ``"hybrid"`` (the keyword ranking fused by reciprocal rank with a
      ranking by cosine similarity of ``embedding_function`` vectors; without a query
      embedding, the keyword ranking alone, with the status ``"degraded"``).
    - ``top_k``: keep the first ``top_k`` hits (a whole number >= 1; None: every match).
    - ``embedding_function``: ``f(text) -> vector`` (a sequence of numbers), the caller's; it
      embeds each document when the index is built and each query when it is searched. A
      query vector of None (or no function) makes the search degraded. Used by ``"hybrid"``
      only.
    - ``rrf_k``: the constant of reciprocal-rank fusion, ``1 / (rrf_k + rank)`` (>= 0).
    - ``bm25_k1`` (>= 0), ``bm25_b`` (0 to 1): BM25's term-frequency saturation and length
      normalisation.

    >>> RetrievalConfig(top_k=3).match_mode
    'keyword'
    >>> RetrievalConfig(match_mode="fuzzy")
    Traceback (most recent call last):
    ...
    retrieval_metrics.errors.OptionError: match_mode must be one of 'keyword', 'strict', 'hybrid', found 'fuzzy'
    """

    match_mode: str = "keyword"
    top_k: int | None = 10
    embedding_function: Callable[[str], Any] | None = None
    rrf_k: float = 60
    bm25_k1: float = 1.2
    bm25_b: float = 0.75

    def __post_init__(self):
        if self.match_mode not in MATCH_MODES:
            raise OptionError("match_mode", f"match_mode must be one of "
                              f"{', '.join(map(repr, MATCH_MODES))}, found {self.match_mode!r}")
        object.__setattr__(self, "top_k", checked_top_k(self.top_k))
        if self.embedding_function is not None and not callable(self.embedding_function):
            raise OptionError("embedding_function", "embedding_function must be a function "
                              f"from a text to a vector, or None, found "
                              f"{type(self.embedding_function).__name__}")
        self._number("rrf_k", 0.0, math.inf)
        self._number("bm25_k1", 0.0, math.inf)
        self._number("bm25_b", 0.0, 1.0)

    def _number(self, name: str, low: float, high: float) -> None:
        value = getattr(self, name)
        if isinstance(value, bool) or not isinstance(value, numbers.Real) \
                or not math.isfinite(float(value)) or not low <= value <= high:
            span = f">= {low:g}" if high == math.inf else f"from {low:g} to {high:g}"
            raise OptionError(name, f"{name} must be a finite number {span}, found {value!r}")

    def replace(self, **changes) -> RetrievalConfig:
        """A copy with ``changes`` (checked like the original).

        >>> RetrievalConfig().replace(top_k=1).top_k
        1
        """
        unknown = [name for name in changes if name not in FIELDS]
        if unknown:
            raise OptionError(unknown[0], f"RetrievalConfig has no setting {unknown[0]!r}; its "
                              f"settings are {', '.join(FIELDS)}")
        return dataclasses.replace(self, **changes)


def checked_top_k(top_k: Any) -> int | None:
    """``top_k`` as an int (numpy integers, from a grid, count), or None; else an OptionError."""
    if top_k is None:
        return None
    if isinstance(top_k, bool) or not isinstance(top_k, numbers.Integral) or top_k < 1:
        raise OptionError("top_k", f"top_k must be a whole number >= 1 or None, found {top_k!r}")
    return int(top_k)


FIELDS = tuple(field.name for field in dataclasses.fields(RetrievalConfig))
