"""The measures, for one query, as trec_eval defines them.

Each function takes the grades of the ranked documents (``None`` for a document the judgements
do not mention) and what it needs of the judgements, so each can be checked by hand. Relevant
means grade > 0; a grade at or below 0 is judged but adds nothing, as in trec_eval.
"""

from __future__ import annotations

import math
from operator import truediv
from typing import Callable, Sequence

Grades = Sequence["int | None"]

#: metrics measured at each cutoff k, and those measured over the whole ranking
CUTOFF_METRICS = ("recall", "precision", "mrr", "ndcg", "hit_rate", "ap", "judged")
FULL_METRICS = ("rr", "map", "rprec")
DEFAULT_METRICS = ("recall", "precision", "mrr", "ndcg")
GAINS = ("linear", "exponential")
MAX_EXPONENTIAL_GRADE = 1000


def gain_function(gain: str) -> Callable[[int], float]:
    """trec_eval's gain (the grade) or Burges et al. (2005)'s 2^grade - 1.

    >>> gain_function("linear")(3), gain_function("exponential")(3)
    (3, 7)
    """
    return (lambda g: g) if gain == "linear" else (lambda g: 2 ** g - 1)


def recall(grades: Grades, num_relevant: int, k: int) -> float:
    """Share of the query's relevant documents found in the top k.

    >>> recall([1, 0, None, 2], num_relevant=3, k=2)
    0.3333333333333333
    """
    return sum(1 for g in grades[:k] if g is not None and g > 0) / num_relevant


def precision(grades: Grades, k: int) -> float:
    """Relevant documents in the top k over k, even when fewer than k came back (trec_eval P_k).

    >>> precision([1, 0], k=5)
    0.2
    """
    return sum(1 for g in grades[:k] if g is not None and g > 0) / k


def reciprocal_rank(grades: Grades, k: int | None = None) -> float:
    """1 / rank of the first relevant document in the top k (or anywhere, k=None), else 0.

    >>> reciprocal_rank([0, None, 2], k=3), reciprocal_rank([0, None, 2], k=2)
    (0.3333333333333333, 0.0)
    """
    for rank, g in enumerate(grades[:k] if k else grades, 1):
        if g is not None and g > 0:
            return 1.0 / rank
    return 0.0


_LOG2 = [math.log2(rank + 1) for rank in range(1, 1025)]  # log2(i + 1) for ranks i = 1, 2, ...


def dcg(gains: Sequence[float], k: int) -> float:
    """Sum of gain_i / log2(i + 1) over ranks i = 1..k (Jarvelin and Kekalainen, 2002).

    Summed with ``math.fsum``, correctly rounded, so that CPython and Pyodide (whose ``sum``
    rounds differently since 3.12) give the same last digit.

    >>> round(dcg([3, 2, 3, 0, 1, 2], 6), 3)
    6.861
    """
    gains = gains[:k]
    while len(_LOG2) < len(gains):
        _LOG2.append(math.log2(len(_LOG2) + 2))
    return math.fsum(map(truediv, gains, _LOG2))


def ideal_gains(judged_grades: Sequence[int], gain: str = "linear") -> list[float]:
    """The gains of the best possible order: every relevant judged document, best first."""
    relevant = filter(_positive, judged_grades)
    if gain != "linear":
        relevant = map(gain_function(gain), relevant)
    return sorted(relevant, reverse=True)


_positive = (0).__lt__  # g > 0, at C speed


def ndcg(grades: Grades, judged_grades: Sequence[int], k: int, gain: str = "linear",
         ideal: Sequence[float] | None = None) -> float:
    """DCG@k over the DCG@k of the best order of every judged document, retrieved or not
    (trec_eval's ndcg_cut); ``ideal`` (``ideal_gains``) saves sorting them again for each k.
    Wikipedia's example, with D7 = 3 and D8 = 2 never retrieved:

    >>> round(ndcg([3, 2, 3, 0, 1, 2], [3, 2, 3, 0, 1, 2, 3, 2], k=6), 3)
    0.785
    """
    to_gain = gain_function(gain)
    best = dcg(ideal_gains(judged_grades, gain) if ideal is None else ideal, k)
    if not best:
        return 0.0
    return dcg([to_gain(g) if g is not None and g > 0 else 0 for g in grades[:k]], k) / best


def hit_rate(grades: Grades, k: int) -> float:
    """1 if any of the top k is relevant, else 0 (trec_eval success_k).

    >>> hit_rate([0, None, 1], 2), hit_rate([0, None, 1], 3)
    (0.0, 1.0)
    """
    return 1.0 if any(g is not None and g > 0 for g in grades[:k]) else 0.0


def average_precision(grades: Grades, num_relevant: int, k: int | None = None) -> float:
    """Mean of precision at each relevant rank within k, over all relevant documents
    (trec_eval map_cut_k; with k=None its map).

    >>> average_precision([1, 0, 1], num_relevant=3)
    0.5555555555555555
    """
    hits = 0
    total = 0.0
    for rank, g in enumerate(grades[:k] if k else grades, 1):
        if g is not None and g > 0:
            hits += 1
            total += hits / rank
    return total / num_relevant


def r_precision(grades: Grades, num_relevant: int) -> float:
    """Precision at rank R, R being the number of relevant documents (trec_eval Rprec).

    >>> r_precision([1, 0, 1, 1], num_relevant=2)
    0.5
    """
    return precision(grades, num_relevant)


def judged_share(grades: Grades, k: int) -> float:
    """Share of the returned top k that the judgements mention at all (0 when nothing came
    back). Low values mean the other numbers are underestimates.

    >>> judged_share([1, None, 0, None], k=3)
    0.6666666666666666
    """
    top = grades[:k]
    return sum(1 for g in top if g is not None) / len(top) if top else 0.0


class QueryGrades:
    """What every measure may read of one query: passed to each registered measure's function
    (see ``names.py``), so a new measure needs no change here.

    - ``grades``: the grades of the ranked documents, best first (None = not judged), as deep as
      any asked-for measure needs (``depth``; None = the whole ranking);
    - ``binary``: the same with each grade as 1 (grade >= ``threshold``), 0 or None: the binary
      measures read it, so ``> 0`` means relevant in all of them;
    - ``judged``: every judged document's grade; ``num_relevant``: how many are >= threshold;
    - ``ranked``: the document ids, best first (the whole ranking);
    - ``ideal``: the gains of the best possible order (every positive grade), for nDCG.

    >>> q = QueryGrades([b"d4", b"d2", b"d1"], {b"d1": 2, b"d4": 1}, threshold=2)
    >>> q.grades, q.binary, q.num_relevant, q.ideal
    ([1, None, 2], [0, None, 1], 1, [2, 1])
    """

    __slots__ = ("ranked", "judged", "threshold", "gain", "grades", "num_relevant", "_binary",
                 "_ideal")

    def __init__(self, ranked, judged, threshold: int = 1, gain: str = "linear",
                 depth: int | None = None):
        self.ranked = ranked
        self.judged = judged
        self.threshold = threshold
        self.gain = gain
        self.grades = list(map(judged.get, ranked[:depth] if depth else ranked))
        if threshold == 1:
            self.num_relevant = sum(map(_positive, judged.values()))
            self._binary = self.grades
        else:
            self.num_relevant = sum(1 for g in judged.values() if g >= threshold)
            self._binary = None
        self._ideal = None

    @property
    def binary(self) -> list:
        if self._binary is None:
            t = self.threshold
            self._binary = [g if g is None else int(g >= t) for g in self.grades]
        return self._binary

    @property
    def ideal(self) -> list[float]:
        if self._ideal is None:
            self._ideal = ideal_gains(self.judged.values(), self.gain)
        return self._ideal
