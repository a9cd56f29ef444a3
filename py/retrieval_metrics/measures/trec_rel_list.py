"""What trec_eval 10's measures read of one query: its ranked relevance list (``RelList``,
trec_eval's RES_RELS), and C's arithmetic where Python's differs (``cdiv``: division by zero
gives an infinity or C's ``-nan``; ``lround``: halves away from zero).

A ``RelList`` holds the relevance value of each retrieved document, best first, where -1 is a
document not in the judgements (RELVALUE_NONPOOL) and -2 one judged with a negative grade (in
the pool, not judged: RELVALUE_UNJUDGED); the count of judged documents at each grade 0, 1, 2,
...; and the relevance level (trec_eval ``-l``). The measures are ``trec_ranked`` (cutoffs and
the whole ranking) and ``trec_gains`` (the graded ones: ndcg, ndcg_rel, Rndcg, G, rbp).
"""

from __future__ import annotations

import math
from itertools import compress
from typing import NamedTuple, Protocol, Sequence

NONPOOL = -1
UNJUDGED = -2
#: trec_eval.h's INFAP_EPSILON (its MIN_GEO_MEAN is measures.aggregation's)
INFAP_EPSILON = 0.00001
NEG_NAN = math.copysign(math.nan, -1.0)


def lround(x: float) -> int:
    """C's lround: the nearest integer, halves away from zero (Python's round() goes to even).

    >>> lround(0.5), lround(1.5), lround(2.5), lround(0.49999999999999994)
    (1, 2, 3, 0)
    """
    floor = math.floor(abs(x))
    whole = floor + 1 if abs(x) - floor >= 0.5 else floor
    return int(math.copysign(whole, x))


def cdiv(a: float, b: float) -> float:
    """``a / b`` as C doubles divide: by zero gives +-inf, and 0/0 the negative NaN x86 makes.

    >>> cdiv(1, 4), cdiv(1, 0), math.copysign(1, cdiv(0, 0))
    (0.25, inf, -1.0)
    """
    if b:
        return a / b
    if a != a:
        return a
    if a == 0:
        return NEG_NAN
    return math.copysign(math.inf, a) * (math.copysign(1.0, b))


class RelList:
    """One query's ranked relevance values and judgement counts, as trec_eval's RES_RELS.

    Held sparsely: ``judged`` lists ``(rank index, value)`` for the retrieved documents that
    are in the judgements, best first (a run retrieves far more documents than were judged,
    and every measure but rbp_resid reads only those), so a 1,000-document ranking with 30
    judged documents costs 30 steps per measure, not 1,000; ``rels``, every value, is built
    when a measure needs them all. Made from every value (``RelList(rels, levels, level)``)
    or from the judged ones (``RelList.from_judged``); both give the same lists.

    >>> r = RelList([1, -1, 0, 2, -2], [3, 1, 1], level=1)
    >>> r.num_ret, r.num_rel, r.num_rel_ret, r.num_nonpool, r.num_unjudged, r.num_rel_levels
    (5, 2, 2, 1, 1, 3)
    >>> r.judged, r.relevant
    ([(0, 1), (2, 0), (3, 2), (4, -2)], [0, 3])
    >>> RelList.from_judged(5, r.judged, [3, 1, 1]).rels
    [1, -1, 0, 2, -2]
    """

    __slots__ = ("_rels", "judged", "_relevant", "rel_levels", "level", "num_ret", "num_rel",
                 "num_rel_ret", "num_nonpool", "num_unjudged", "num_rel_levels", "_gains")

    def __init__(self, rels: Sequence[int], rel_levels: Sequence[int], level: int = 1):
        rels = list(rels)
        at = list(compress(range(len(rels)), map(NONPOOL.__ne__, rels)))
        self._rels = rels
        self._setup(len(rels), list(zip(at, map(rels.__getitem__, at))), rel_levels, level)

    @classmethod
    def from_judged(cls, num_ret: int, judged: list, rel_levels: Sequence[int],
                    level: int = 1) -> "RelList":
        """From ``(rank index, value)`` of the judged documents retrieved, in rank order (the
        other ``num_ret - len(judged)`` documents are -1, not in the judgements)."""
        self = cls.__new__(cls)
        self._rels = None
        self._setup(num_ret, judged, rel_levels, level)
        return self

    def _setup(self, num_ret, judged, rel_levels, level) -> None:
        self.judged = judged
        self.rel_levels = rel_levels
        self.level = level
        self.num_ret = num_ret
        self.num_nonpool = num_ret - len(judged)
        self.num_unjudged = sum(1 for _i, rel in judged if rel == UNJUDGED)
        low = level if level > 0 else 0
        self.num_rel_ret = sum(1 for _i, rel in judged if rel >= low)
        self._relevant = None
        self._gains = {}
        self.num_rel = 0
        self.num_rel_levels = 0
        for i, count in enumerate(rel_levels):
            if count:
                self.num_rel_levels = i + 1
                if i >= level:
                    self.num_rel += count

    @property
    def rels(self) -> list[int]:
        """Every retrieved document's value, best first."""
        if self._rels is None:
            rels = [NONPOOL] * self.num_ret
            for i, rel in self.judged:
                rels[i] = rel
            self._rels = rels
        return self._rels

    @property
    def relevant(self) -> list[int]:
        """The rank indices whose value is at least the relevance level, best first."""
        if self._relevant is None:
            level = self.level
            if level >= 0:
                self._relevant = [i for i, rel in self.judged if rel >= level]
            else:  # -l below 0: documents outside the judgements reach it too
                self._relevant = [i for i, rel in enumerate(self.rels) if rel >= level]
        return self._relevant

    @classmethod
    def of_grades(cls, grades: Sequence, judged_grades, level: int = 1) -> "RelList":
        """From the ranked grades (``None``: not in the judgements) and every judged grade, as
        trec_eval's form_res_rels makes them: an unjudged document is -1, a negative grade -2,
        and the judged grades at 0 and above are counted level by level.

        >>> RelList.of_grades([2, None, -1, 0], [2, 0, -1, 1]).rels
        [2, -1, -2, 0]
        """
        rels = [NONPOOL if g is None else (UNJUDGED if g < 0 else g) for g in grades]
        judged = [g for g in judged_grades if g >= 0]
        levels = [0] * (max(judged) + 1 if judged else 0)
        for g in judged:
            levels[g] += 1
        return cls(rels, levels, level)

    @classmethod
    def of_query(cls, q) -> "RelList":
        """The RelList of a ``grades.QueryGrades`` (what registry measures are handed)."""
        return cls.of_grades(q.grades, q.judged.values(), q.threshold)


class RankedRelevance(Protocol):
    """What most of trec_eval's ranked measures read of a ranking: the rank indices of its
    relevant documents, best first, and the counts. A ``RelList``, a ``Ranks`` and a
    ``grades.QueryGrades`` each carry them, so the calculator's own measures (``core``,
    ``interpolated``) hand the query itself to ``trec_ranked``'s functions without building a
    RelList. (Where trec_eval's ``-l`` is below 0, ``relevant`` and ``num_rel_ret`` disagree
    and those functions walk every rank as the C does; only a RelList reaches that walk.)"""

    @property
    def relevant(self) -> Sequence[int]: ...
    @property
    def num_rel(self) -> int: ...
    @property
    def num_ret(self) -> int: ...
    @property
    def num_rel_ret(self) -> int: ...


class Ranks(NamedTuple):
    """What the ranked measures at cutoffs read of a ranking (``relevant``: the rank indices
    of its relevant documents, best first; ``num_rel``, ``num_ret``, ``num_rel_ret``), for a
    ranking held as a list of grades: a RelList or a ``grades.QueryGrades`` carries the same
    attributes, so ``precision_at``, ``iprec_at_recall``, ``rprec_mult``... take any of them.

    >>> Ranks.of_grades([0, 2, None, 1], num_relevant=3)
    Ranks(relevant=[1, 3], num_rel=3, num_ret=4, num_rel_ret=2)
    """

    relevant: list
    num_rel: int
    num_ret: int
    num_rel_ret: int

    @classmethod
    def of_grades(cls, grades: Sequence, num_relevant: int, level: int = 1) -> "Ranks":
        relevant = [i for i, g in enumerate(grades) if g is not None and g >= level]
        return cls(relevant, num_relevant, len(grades), len(relevant))


def rel_list(q) -> RelList:
    """``RelList.of_query(q)``, made once per QueryGrades and shared by every measure scored on
    it (the registry's entries of trec_eval's measures)."""
    cached = _LAST[0]
    if cached is not None and cached[0] is q:
        return cached[1]
    made = RelList.of_query(q)
    _LAST[0] = (q, made)
    return made


_LAST: list = [None]
