"""Okapi BM25 over lower-cased word tokens: the keyword half of :class:`.index.RetrievalIndex`.

Small and exact rather than fast: one ``Counter`` of terms per document, the documents holding
each term, and the standard formula (the one Lucene and ``rank_bm25``'s ``BM25Okapi`` use, with
Lucene's idf, which never goes negative)::

    idf(t)     = ln(1 + (N - n_t + 0.5) / (n_t + 0.5))
    score(d)   = sum over the query's tokens t of
                 idf(t) * tf(t, d) * (k1 + 1) / (tf(t, d) + k1 * (1 - b + b * |d| / avgdl))

``N`` is the number of documents, ``n_t`` how many hold ``t``, ``|d|`` the document's token count
and ``avgdl`` the mean count. A token repeated in the query counts each time, as in
``rank_bm25``. Tokens are ``re.findall(r"\\w+", text.lower())``: Unicode letters, digits and
``_``; no stemming ("clotting" is not "clot").
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

WORD = re.compile(r"\w+")

__all__ = ["tokens", "TermIndex"]


def tokens(text: str) -> list[str]:
    """The lower-cased word tokens of ``text``, in order.

    >>> tokens("Red-blood CELLS, 2x")
    ['red', 'blood', 'cells', '2x']
    """
    return WORD.findall(text.lower())


class TermIndex:
    """The term statistics of a list of texts, for BM25 scores and all-terms matches.

    Documents are known by their position in ``texts``.

    >>> index = TermIndex(["blood cells", "blood clot"])
    >>> round(index.idf("cells"), 6) == round(math.log(1 + 1.5 / 1.5), 6)
    True
    >>> index.holding_all(["blood", "clot"])
    [1]
    """

    def __init__(self, texts: Sequence[str]):
        self.counts = [Counter(tokens(text)) for text in texts]
        self.lengths = [sum(counts.values()) for counts in self.counts]
        self.size = len(self.counts)
        self.avgdl = sum(self.lengths) / self.size if self.size else 0.0
        self.postings: dict[str, list[int]] = {}
        for position, counts in enumerate(self.counts):
            for term in counts:
                self.postings.setdefault(term, []).append(position)

    def idf(self, term: str) -> float:
        n = len(self.postings.get(term, ()))
        return math.log(1 + (self.size - n + 0.5) / (n + 0.5))

    def scores(self, terms: Sequence[str], k1: float, b: float) -> dict[int, float]:
        """``{position: BM25 score}`` of every document holding at least one of ``terms``
        (so every score is positive), summed in the order of ``terms``."""
        scores: dict[int, float] = {}
        for term in terms:
            postings = self.postings.get(term)
            if not postings:
                continue
            idf = self.idf(term)
            for position in postings:
                tf = self.counts[position][term]
                norm = k1 * (1 - b + b * self.lengths[position] / self.avgdl)
                scores[position] = scores.get(position, 0.0) + idf * tf * (k1 + 1) / (tf + norm)
        return scores

    def holding_all(self, terms: Sequence[str]) -> list[int]:
        """The positions of the documents holding every one of ``terms`` (none for no terms)."""
        if not terms:
            return []
        wanted = set(terms)
        if any(term not in self.postings for term in wanted):
            return []
        shortest = min(wanted, key=lambda term: len(self.postings[term]))
        return [p for p in self.postings[shortest] if all(t in self.counts[p] for t in wanted)]


def ranked(scores: dict[int, float]) -> list[tuple[int, float]]:
    """``(position, score)`` best first; equal scores in the documents' order.

    >>> ranked({2: 0.5, 0: 0.5, 1: 0.9})
    [(1, 0.9), (0, 0.5), (2, 0.5)]
    """
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))
