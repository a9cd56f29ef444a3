"""trec_eval 10's measures over one query's ranked relevance list, transcribed from its C
(the m_*.c file named in each docstring) in its own order of floating-point operations, so that
``retrieval-metrics trec_eval`` prints every digit trec_eval prints; and the registry entries of
those measures the rest of the package did not have: gm_bpref, relative_P, set_relative_P,
set_map, ndcg_rel, Rndcg, binG, G, dcg, ideal_dcg, num_nonrel_judged_ret, unj and yaap.

What every function reads is a ``RelList`` (trec_eval's RES_RELS): the relevance value of each
retrieved document, best first, where -1 is a document not in the judgements (RELVALUE_NONPOOL)
and -2 one judged with a negative grade (in the pool, not judged: RELVALUE_UNJUDGED); the count
of judged documents at each grade 0, 1, 2, ...; and the relevance level (trec_eval ``-l``).

Where C divides by zero it gets an infinity or a NaN, not an error: ``cdiv`` does the same
(0/0 is the x86 default NaN, which C prints as ``-nan``).
"""

from __future__ import annotations

import math
from bisect import bisect_left
from functools import cmp_to_key, reduce
from itertools import compress
from operator import add
from typing import NamedTuple, Sequence

from .aggregation import MIN_GEO_MEAN
from .grades import no_relevant
from .registry import About, Measure, TrecEval, register, trec_names
from .trec_eval_rows import (
    R_MULTIPLES,
    RECALL_POINTS,
    TREC_CUTOFFS,
    TrecMeasure,
    at_cutoffs,
    one,
    register_trec_eval,
    with_pairs,
)

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


# --- at cutoffs (the C walks the ranking once for every cutoff) ----------------------------

def _reached(cutoffs: Sequence[int], num_ret: int) -> int:
    """How many of the cutoffs, in order, trec_eval's walk down the ranking stops at: the
    cutoff c at rank index c, each after the one before it; the rest are read after the
    walk, with the counts of the whole ranking.

    >>> _reached([1, 5, 10], 7), _reached([5, 3], 10)
    (2, 1)
    """
    done = 0
    before = -1
    for cutoff in cutoffs:
        if before < cutoff < num_ret:
            before = cutoff
            done += 1
        else:
            break
    return done


def _counts_at(positions: list[int], cutoffs: Sequence[int], num_ret: int) -> list[int]:
    """For each cutoff, how many of ``positions`` (rank indices, ascending) come before it as
    trec_eval's walk sees them (the whole count past the walk)."""
    done = _reached(cutoffs, num_ret)
    return ([bisect_left(positions, c) for c in cutoffs[:done]]
            + [len(positions)] * (len(cutoffs) - done))


def precision_at(r: RelList, cutoffs: Sequence[int]) -> list[float]:
    """P at each cutoff, missing documents not relevant (m_P.c).

    >>> precision_at(RelList([1, 0, 1], [1, 2]), [1, 2, 5])
    [1.0, 0.5, 0.4]
    """
    return [n / k for n, k in zip(_counts_at(r.relevant, cutoffs, r.num_ret), cutoffs)]


def recall_at(r: RelList, cutoffs: Sequence[int]) -> list[float]:
    """recall at each cutoff; 0 when nothing is relevant (m_recall.c).

    >>> recall_at(RelList([1, 0, 1], [1, 3]), [1, 5])
    [0.3333333333333333, 0.6666666666666666]
    """
    if r.num_rel == 0:
        return [0.0] * len(cutoffs)
    rel = r.num_rel
    return [n / rel for n in _counts_at(r.relevant, cutoffs, r.num_ret)]


def relative_precision_at(r: RelList, cutoffs: Sequence[int]) -> list[float]:
    """relative_P: relevant in the top k over min(k, R) (m_rel_P.c); 0 when nothing is relevant.

    >>> relative_precision_at(RelList([1, 0, 1], [1, 2]), [1, 3])
    [1.0, 1.0]
    """
    if r.num_rel == 0:
        return [0.0] * len(cutoffs)
    rel = r.num_rel
    return [n / (rel if k > rel else k)
            for n, k in zip(_counts_at(r.relevant, cutoffs, r.num_ret), cutoffs)]


def success_at(r: RelList, cutoffs: Sequence[int]) -> list[float]:
    """1 if a relevant document is in the top k (m_success.c).

    >>> success_at(RelList([0, 1], [1, 1]), [1, 2])
    [0.0, 1.0]
    """
    return [1.0 if n else 0.0 for n in _counts_at(r.relevant, cutoffs, r.num_ret)]


def unjudged_at(r: RelList, cutoffs: Sequence[int]) -> list[float]:
    """unj: the share of the top k not judged (m_unjudged.c): -1 and -2 both count, and
    missing documents past the ranking do not.

    >>> unjudged_at(RelList([-1, 0, -2], [1]), [2, 5])
    [0.5, 0.4]
    """
    judged = [i for i, rel in r.judged if rel != UNJUDGED]
    n = r.num_ret
    done = _reached(cutoffs, n)
    values = [(c - bisect_left(judged, c)) / c for c in cutoffs[:done]]
    rest = n - len(judged)
    return values + [rest / c for c in cutoffs[done:]]


def map_at(r: RelList, cutoffs: Sequence[int]) -> list[float]:
    """AP of the top k at each cutoff (m_map_cut.c); 0 when nothing is relevant.

    >>> map_at(RelList([1, 0, 1], [1, 2]), [1, 3])
    [0.5, 0.8333333333333333]
    """
    if r.num_rel == 0 or not cutoffs:
        return [0.0] * len(cutoffs)
    relevant = r.relevant
    sums = [0.0]
    total = 0.0
    for so_far, i in enumerate(relevant, 1):
        total += so_far / (i + 1)
        sums.append(total)
    num_rel = r.num_rel
    return [sums[n] / num_rel for n in _counts_at(relevant, cutoffs, r.num_ret)]


def ndcg_at(r: RelList, cutoffs: Sequence[int]) -> list[float]:
    """nDCG at each cutoff, the gain being the grade (m_ndcg_cut.c): ``dcg_over_ideal`` of the
    positive values and of every judged document's grade, best first.

    >>> [round(v, 6) for v in ndcg_at(RelList([0, 2, 1], [1, 1, 1]), [1, 3])]
    [0.0, 0.669672]
    """
    levels = r.rel_levels
    ideal = [level for level in range(r.num_rel_levels - 1, 0, -1) for _ in range(levels[level])]
    return dcg_over_ideal([(i, rel) for i, rel in r.judged if rel > 0], ideal, cutoffs, r.num_ret)


def dcg_over_ideal(gained: list, ideal: Sequence[float], cutoffs: Sequence[int],
                   num_ret: int) -> list[float]:
    """nDCG at each cutoff (ascending) in m_ndcg_cut.c's order of operations: the DCG of
    ``gained`` (``(rank index, gain)`` of the ranked documents with a gain above 0, best
    first), then divided by the DCG of ``ideal`` (the gains of the best order, best first) at
    the same cutoff when that is above 0 (else the DCG stays). trec_eval's ``ndcg_cut`` and
    the calculator's ``ndcg@k`` (whose gain may be 2^grade - 1) are both this function.
    Wikipedia's example, with D7 = 3 and D8 = 2 never retrieved:

    >>> round(dcg_over_ideal([(0, 3), (1, 2), (2, 3), (4, 1), (5, 2)],
    ...                      [3, 3, 3, 2, 2, 2, 1], [6], 6)[0], 3)
    0.785
    """
    if not cutoffs:
        return []
    sums = [0.0]
    total = 0.0
    for i, gain in gained:
        total += gain / math.log2(i + 2)
        sums.append(total)
    values = [sums[n] for n in _counts_at([i for i, _gain in gained], cutoffs, num_ret)]
    index = 0
    last = len(cutoffs)
    best = 0.0
    for i, gain in enumerate(ideal):
        if i == cutoffs[index]:
            if best > 0.0:
                values[index] /= best
            index += 1
            if index == last:
                return values
        best += gain / math.log2(i + 2)
    while index < last:
        if best > 0.0:
            values[index] /= best
        index += 1
    return values


# --- whole ranking ------------------------------------------------------------------------

def average_precision(r: RelList) -> float:
    """AP over the whole ranking (m_map.c).

    >>> average_precision(RelList([1, 0, 1], [1, 3]))
    0.5555555555555555
    """
    total = 0.0
    for so_far, i in enumerate(r.relevant, 1):
        total += so_far / (i + 1)
    return total / r.num_rel if r.relevant else 0.0


def log_average_precision(r: RelList) -> float:
    """gm_map's per-query value: log(max(AP, 0.00001)) (m_gm_map.c).

    >>> round(log_average_precision(RelList([0], [1, 1])), 4)
    -11.5129
    """
    return math.log(max(average_precision(r), MIN_GEO_MEAN))


def yaap(r: RelList) -> float:
    """Robertson's Yet Another Average Precision, log((1 + S) / (1 + R - S)), S the sum of
    precisions at the relevant ranks (m_yaap.c; ECIR 2012).

    >>> round(yaap(RelList([1], [0, 1])), 6)
    0.693147
    """
    total = 0.0
    for so_far, i in enumerate(r.relevant, 1):
        total += so_far / (i + 1)
    return math.log(cdiv(1.0 + total, 1.0 + r.num_rel - total))


def r_precision(r: RelList) -> float:
    """Precision at rank R (m_Rprec.c); 0 when R or the ranking is empty.

    >>> r_precision(RelList([1, 0, 1], [1, 2]))
    0.5
    """
    look = min(r.num_ret, r.num_rel)
    if look == 0:
        return 0.0
    return bisect_left(r.relevant, look) / r.num_rel


def reciprocal_rank(r: RelList, k: int | None = None) -> float:
    """1 / rank of the first relevant document (m_recip_rank.c); with ``k``, only within the
    top k (0 past it), the calculator's mrr@k.

    >>> reciprocal_rank(RelList([0, -1, 1], [1, 1])), reciprocal_rank(RelList([0, -1, 1], [1, 1]), 2)
    (0.3333333333333333, 0.0)
    """
    relevant = r.relevant
    if not relevant or (k is not None and relevant[0] >= k):
        return 0.0
    return 1.0 / (relevant[0] + 1)


def bpref(r: RelList) -> float:
    """bpref (m_bpref.c; Buckley and Voorhees 2004).

    >>> bpref(RelList([1, 0, -1, 1], [1, 2]))
    0.5
    """
    num_nonrel = sum(r.rel_levels[:max(r.level, 0)])
    nonrel_so_far = 0
    total = 0.0
    num_rel = r.num_rel
    level = r.level
    for _i, rel in r.judged:  # documents outside the judgements (-1) are skipped
        if rel == UNJUDGED:
            continue
        if 0 <= rel < level:
            nonrel_so_far += 1
        elif nonrel_so_far > 0:
            total += 1.0 - cdiv(min(nonrel_so_far, num_rel), min(num_nonrel, num_rel))
        else:
            total += 1.0
    if num_rel:
        total /= num_rel
    return total


def log_bpref(r: RelList) -> float:
    """gm_bpref's per-query value: log(max(bpref, 0.00001)) (m_gm_bpref.c).

    >>> round(log_bpref(RelList([1, 0, -1, 1], [1, 2])), 6)
    -0.693147
    """
    return math.log(max(bpref(r), MIN_GEO_MEAN))


def inferred_ap(r: RelList) -> float:
    """infAP (m_infap.c; Yilmaz and Aslam 2006).

    >>> round(inferred_ap(RelList([1, -1, 1], [0, 2])), 6)
    0.833332
    """
    nonrel_so_far = rel_so_far = unjudged_so_far = 0
    total = 0.0
    level = r.level
    for j, rel in r.judged:  # documents outside the judgements (-1) are skipped
        if rel == UNJUDGED:
            unjudged_so_far += 1
            continue
        if 0 <= rel < level:
            nonrel_so_far += 1
            continue
        rel_so_far += 1
        if j == 0:
            total += 1.0
        else:
            fj = float(j)
            total += 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * (
                (rel_so_far - 1 + nonrel_so_far + unjudged_so_far) / fj) * (
                (rel_so_far - 1 + INFAP_EPSILON)
                / (rel_so_far - 1 + nonrel_so_far + 2 * INFAP_EPSILON))
    if r.num_rel:
        total /= r.num_rel
    return total


def _interpolated(r: RelList, cutoffs: list[int], each) -> float:
    """The bottom-up walk iprec_at_recall and 11pt_avg share: ``each(index, int_precis)`` at
    each cutoff reached; returns int_precis at the end.

    The C computes the precision at every rank on its way up, but between two relevant
    documents the precision only grows towards the upper one, so its running maximum is the
    same when taken at the relevant ranks alone (and at the bottom, where it starts)."""
    relevant = r.relevant
    if len(relevant) != r.num_rel_ret:  # -l below 0: the C's own walk
        return _interpolated_walk(r, cutoffs, each)
    current = len(cutoffs) - 1
    while current >= 0 and cutoffs[current] > r.num_rel_ret:
        current -= 1
    best = cdiv(r.num_rel_ret, r.num_ret)
    for rel_so_far in range(len(relevant), 0, -1):
        precis = rel_so_far / (relevant[rel_so_far - 1] + 1)
        if best < precis:
            best = precis
        while current >= 0 and rel_so_far == cutoffs[current]:
            each(current, best)
            current -= 1
    while current >= 0:
        each(current, best)
        current -= 1
    return best


def _interpolated_walk(r: RelList, cutoffs: list[int], each) -> float:
    """``_interpolated`` step by step as m_iprec_at_recall.c walks every rank."""
    current = len(cutoffs) - 1
    while current >= 0 and cutoffs[current] > r.num_rel_ret:
        current -= 1
    precis = cdiv(r.num_rel_ret, r.num_ret)
    best = precis
    rel_so_far = r.num_rel_ret
    i = r.num_ret
    rels, level = r.rels, r.level
    while i > 0 and rel_so_far > 0:
        precis = rel_so_far / i
        if best < precis:
            best = precis
        if rels[i - 1] >= level:
            while current >= 0 and rel_so_far == cutoffs[current]:
                each(current, best)
                current -= 1
            rel_so_far -= 1
        i -= 1
    while current >= 0:
        each(current, best)
        current -= 1
    return best


def iprec_at_recall(r: RelList, points: Sequence[float]) -> list[float]:
    """Interpolated precision at each recall point, rounded to lround(point * R) relevant
    documents (m_iprec_at_recall.c).

    >>> [round(v, 4) for v in iprec_at_recall(RelList([0, 1, 1, 0], [0, 4]), [0.0, 0.5, 1.0])]
    [0.6667, 0.6667, 0.0]
    """
    return iprec_at_counts(r, [lround(p * r.num_rel) for p in points])


def iprec_at_counts(r: RelList, needed: Sequence[int]) -> list[float]:
    """Interpolated precision where ``needed[i]`` relevant documents have been seen (counts
    in increasing order): the best precision at that rank or any rank below it, 0 where the
    ranking never holds that many. trec_eval 10 rounds a recall point to a count with lround,
    trec_eval 9.0.8 (pytrec_eval, ir_measures' IPrec) with ``(long)(point * R + 0.9)``; the
    walk is the same.

    >>> iprec_at_counts(Ranks.of_grades([1, 0, 0, 1, 0], 7), [1, 2, 3])
    [1.0, 0.5, 0.0]
    """
    values = [0.0] * len(needed)

    def each(index, value):
        values[index] = value
    _interpolated(r, list(needed), each)
    return values


def eleven_point_average(r: RelList, points: Sequence[float]) -> float:
    """The mean interpolated precision at the points, summed as the C sums it (m_11pt_avg.c).

    >>> round(eleven_point_average(RelList([0, 1, 1, 0], [0, 4]), [i / 10 for i in range(11)]), 4)
    0.4242
    """
    cutoffs = [lround(p * r.num_rel) for p in points]
    total = [0.0]

    def each(index, value):
        total[0] += value
    _interpolated(r, cutoffs, each)
    return cdiv(total[0], len(points))


def rprec_mult(r: RelList, multiples: Sequence[float]) -> list[float]:
    """Precision at rank (long)(multiple * R + 0.9) (m_Rprec_mult.c).

    >>> rprec_mult(RelList([1, 0, 1], [0, 2]), [0.2, 1.0, 2.0])
    [1.0, 0.5, 0.5]
    """
    cutoffs = [int(m * r.num_rel + 0.9) for m in multiples]
    relevant = r.relevant
    if len(relevant) != r.num_rel_ret:  # -l below 0: the C's own walk
        return _rprec_mult_walk(r, cutoffs)
    values = [0.0] * len(multiples)
    current = len(cutoffs) - 1
    while current >= 0 and cutoffs[current] > r.num_ret:
        values[current] = cdiv(r.num_rel_ret, cutoffs[current])
        current -= 1
    if not relevant:
        return values
    # the C walks up from the last rank to the first relevant one, taking each cutoff it
    # meets (in order, from the last): the precision there is relevant-so-far / rank
    lowest = relevant[0] + 1
    above = r.num_ret
    while current >= 0 and lowest <= cutoffs[current] <= above:
        above = cutoffs[current]
        values[current] = bisect_left(relevant, above) / above
        current -= 1
    return values


def _rprec_mult_walk(r: RelList, cutoffs: list[int]) -> list[float]:
    """``rprec_mult`` step by step as m_Rprec_mult.c walks every rank."""
    values = [0.0] * len(cutoffs)
    current = len(cutoffs) - 1
    while current >= 0 and cutoffs[current] > r.num_ret:
        values[current] = cdiv(r.num_rel_ret, cutoffs[current])
        current -= 1
    rel_so_far = r.num_rel_ret
    i = r.num_ret
    while i > 0 and rel_so_far > 0:
        precis = rel_so_far / i
        while current >= 0 and i == cutoffs[current]:
            values[current] = precis
            current -= 1
        if r.rels[i - 1] >= r.level:
            rel_so_far -= 1
        i -= 1
    return values


#: trec_eval's default utility weights: relevant retrieved, other retrieved, relevant missed, the rest
UTILITY_WEIGHTS = (1.0, -1.0, 0.0, 0.0)


def utility(r: RelList, weights: Sequence[float], num_docs: int = 0) -> float:
    """a * relevant retrieved + b * other retrieved + c * relevant missed + d * the rest of a
    collection of ``num_docs`` (m_utility.c).

    >>> utility(RelList([1, -1, 0], [1, 2]), [1.0, -1.0, 0.0, 0.0])
    -1.0
    """
    p = weights
    return (p[0] * r.num_rel_ret + p[1] * (r.num_ret - r.num_rel_ret)
            + p[2] * (r.num_rel - r.num_rel_ret)
            + p[3] * (num_docs + r.num_rel_ret - r.num_ret - r.num_rel))


def set_precision(r: RelList) -> float:
    """num_rel_ret / num_ret (m_set_P.c).

    >>> set_precision(RelList([1, 0], [1, 1]))
    0.5
    """
    return r.num_rel_ret / r.num_ret if r.num_ret else 0.0


def set_recall(r: RelList) -> float:
    """num_rel_ret / num_rel (m_set_recall.c).

    >>> set_recall(RelList([1, 0], [1, 2]))
    0.5
    """
    return r.num_rel_ret / r.num_rel if r.num_rel else 0.0


def set_relative_precision(r: RelList) -> float:
    """num_rel_ret / min(num_ret, num_rel) (m_set_rel_P.c).

    >>> set_relative_precision(RelList([1, 0, 0], [1, 2]))
    0.5
    """
    if r.num_ret and r.num_rel:
        return r.num_rel_ret / min(r.num_ret, r.num_rel)
    return 0.0


def set_map(r: RelList) -> float:
    """set_P * set_recall, as (num_rel_ret^2) / (num_ret * num_rel) (m_set_map.c).

    >>> set_map(RelList([1, 0], [1, 2]))
    0.25
    """
    if r.num_ret and r.num_rel:
        return (float(r.num_rel_ret) * float(r.num_rel_ret)) / (float(r.num_ret) * float(r.num_rel))
    return 0.0


def set_f(r: RelList, beta: float = 1.0) -> float:
    """(x + 1) P R / (x P + R), x the weight of recall (m_set_F.c).

    >>> set_f(RelList([1, 0], [0, 3]))
    0.4
    """
    if not r.num_rel_ret:
        return 0.0
    p = r.num_rel_ret / r.num_ret
    rec = cdiv(r.num_rel_ret, r.num_rel)
    return cdiv((beta + 1.0) * p * rec, beta * p + rec)


def num_nonrel_judged_ret(r: RelList) -> float:
    """Judged non-relevant documents retrieved (m_num_nonrel_judged_ret.c).

    >>> num_nonrel_judged_ret(RelList([1, 0, -1, -2, 0], [2, 1]))
    2.0
    """
    return float(r.num_ret - r.num_nonpool - r.num_unjudged - r.num_rel_ret)


def binary_g(r: RelList) -> float:
    """binG: the mean over relevant documents of 1 / log2(2 + non-relevant ranked above it)
    (m_binG.c, an experimental measure of Buckley's).

    >>> round(binary_g(RelList([0, 1], [1, 1])), 6)
    0.63093
    """
    total = 0.0
    for so_far, i in enumerate(r.relevant, 1):
        total += 1.0 / math.log2(3 + i - so_far)
    return total / r.num_rel if r.relevant else 0.0


def relstring(r: RelList, length: float = 10.0) -> str:
    """The first ``length`` relevance values as characters: the grade 0-9, '>' above 9, '-'
    not judged, '.' judged below 0 (m_relstring.c). Printed per query only.

    >>> relstring(RelList([1, -1, 0, 12, -2], [1, 1]))
    '1-0>.'
    """
    size = max(min(int(length), r.num_ret), 0)
    chars = ["-"] * size
    for i, rel in r.judged:
        if i >= size:
            break
        if rel > 9:
            chars[i] = ">"
        elif rel >= 0:
            chars[i] = chr(ord("0") + rel)
        elif rel == UNJUDGED:
            chars[i] = "."
        else:
            chars[i] = "<"
    return "".join(chars)


# --- gains (ndcg, ndcg_rel, Rndcg, G, rbp: gain_init.c) ------------------------------------

def _valid_int(text: str) -> bool:
    body = text[1:] if text[:1] in "+-" else text
    return bool(body) and all(c in "0123456789" for c in body)


def _c_atol(text: str) -> int:
    digits = text.strip()
    sign = -1 if digits[:1] == "-" else 1
    digits = digits[1:] if digits[:1] in "+-" else digits
    value = 0
    for c in digits:
        if not c.isdigit():
            break
        value = value * 10 + int(c)
    return sign * value


def setup_gains(r: RelList, pairs: Sequence[tuple[str, float]] = ()) -> list[list]:
    """[rel_level, gain, num_at_level] for each level, sorted by gain ascending as trec_eval's
    comp_rel_gain sorts them (the difference of the gains truncated to an int): gains given as
    ``level=gain`` parameters first, every other grade of the query gains itself.

    >>> setup_gains(RelList([], [2, 0, 1]), [("2", 9.0)])
    [[0, 0.0, 2], [1, 1.0, 0], [2, 9.0, 1]]
    """
    gains = []
    for name, value in pairs:
        if not _valid_int(name):
            continue
        gains.append([_c_atol(name), float(value), 0])
    for level in range(r.num_rel_levels):
        for entry in gains:
            if entry[0] == level:
                entry[2] = r.rel_levels[level]
                break
        else:
            gains.append([level, float(level), r.rel_levels[level]])
    gains.sort(key=cmp_to_key(lambda a, b: int(a[1] - b[1])))
    return gains


def _gain(rel: int, gains: list[list]) -> float:
    for level, gain, _count in gains:
        if rel == level:
            return gain
    return 0.0


class _Ideal:
    """The walk down the ideal ranking that ndcg, ndcg_rel, Rndcg and G share: the gain of
    the next ideal document, level by level from the highest gain."""

    def __init__(self, gains):
        self.gains = gains
        self.level = len(gains) - 1
        self.gain = gains[self.level][1] if self.level >= 0 else 0.0
        self.count = 0

    def step(self) -> float:
        self.count += 1
        gains = self.gains
        while self.level >= 0 and self.count > gains[self.level][2]:
            self.count = 1
            self.level -= 1
            self.gain = gains[self.level][1] if self.level >= 0 else 0.0
        return self.gain


def _gain_table(gains: list[list]) -> dict[int, float]:
    """rel -> gain, as ``_gain`` finds it (the first entry of the level)."""
    table: dict[int, float] = {}
    for level, gain, _count in gains:
        table.setdefault(level, gain)
    return table


def _gained(r: RelList, gains: list[list]) -> list | None:
    """``(rank index, gain)`` of the retrieved documents whose gain is not 0, best first; None
    when documents outside the judgements have a gain (a ``-1=...`` parameter), which only a
    walk over every rank adds up as the C does."""
    table = _gain_table(gains)
    if table.get(NONPOOL, 0.0) != 0.0:
        return None
    get = table.get
    return [(i, gain) for i, rel in r.judged if (gain := get(rel, 0.0)) != 0]


def _ideal_steps(gains: list[list]) -> list[float]:
    """The gain of each ideal document, as the C's loops take them (``_Ideal.step`` while the
    ideal gain is above 0; the last one may be the first gain at or below 0), level by level.

    >>> gains = [[0, 0.0, 2], [1, 1.0, 0], [2, 9.0, 2], [3, 3.0, 1]]
    >>> _ideal_steps(gains)
    [3.0, 9.0, 9.0, 0.0]
    >>> ideal = _Ideal(gains); [ideal.step() for _ in range(4)]
    [3.0, 9.0, 9.0, 0.0]
    """
    steps: list[float] = []
    level = len(gains) - 1
    gain = gains[level][1] if level >= 0 else 0.0
    left = gains[level][2] if level >= 0 else 0  # documents of this level still to come
    while gain > 0.0:
        if left > 0:
            steps += [gain] * left
            left = 0
            continue
        level -= 1  # the step that goes down, to the next level holding a document
        while level >= 0 and gains[level][2] < 1:
            level -= 1
        gain = gains[level][1] if level >= 0 else 0.0
        steps.append(gain)
        left = gains[level][2] - 1 if level >= 0 else 0
    return steps


def _gain_parts(r: RelList, pairs) -> tuple[list, list | None, list[float]]:
    """(setup_gains, _gained, _ideal_steps) of a query and gain parameters, made once for
    the measures that share them (ndcg, dcg, ideal_dcg, ndcg_rel, Rndcg, G)."""
    key = tuple(pairs)
    parts = r._gains.get(key)
    if parts is None:
        gains = setup_gains(r, pairs)
        parts = r._gains[key] = (gains, _gained(r, gains), _ideal_steps(gains))
    return parts


def ndcg_parts(r: RelList, pairs=()) -> tuple[float, float]:
    """(DCG, ideal DCG) of the whole ranking with trec_eval's gains (m_ndcg.c): what ndcg,
    dcg and ideal_dcg print. The C's loop over the ranks and the ideal ranks adds to two
    separate sums, taken here one after the other, each in the C's order."""
    gains, gained, steps = _gain_parts(r, pairs)
    if gained is None:
        return _ndcg_parts_walk(r, gains)
    results_dcg = ideal_dcg = 0.0
    for i, gain in gained:
        results_dcg += gain / math.log2(i + 2)
    for i, ideal_gain in enumerate(steps):
        if ideal_gain > 0.0:
            ideal_dcg += ideal_gain / math.log2(i + 2)
    return results_dcg, ideal_dcg


def ndcg(r: RelList, pairs=()) -> float:
    """nDCG of the whole ranking, gains as given (m_ndcg.c); 0 when the ideal DCG is 0.

    >>> round(ndcg(RelList([0, 2, 1], [1, 1, 1])), 6)
    0.669672
    """
    results_dcg, ideal_dcg = ndcg_parts(r, pairs)
    return results_dcg / ideal_dcg if ideal_dcg > 0.0 else 0.0


def ndcg_rel(r: RelList, pairs=()) -> float:
    """nDCG averaged over the relevant documents' ranks (m_ndcg_rel.c, experimental).

    >>> round(ndcg_rel(RelList([1, 0], [1, 1])), 6)
    1.0
    """
    gains, gained, steps = _gain_parts(r, pairs)
    if gained is None:
        return _ndcg_rel_walk(r, gains)
    ideal_so_far = []  # the ideal DCG after each ideal rank, as the C's first loop has it
    ideal_dcg = 0.0
    num_rel = 0
    for i, ideal_gain in enumerate(steps):
        if ideal_gain > 0.0:
            num_rel += 1
            ideal_dcg += ideal_gain / math.log2(i + 2)
        ideal_so_far.append(ideal_dcg)
    ideal_ranks = len(ideal_so_far)
    results_dcg = total = 0.0
    num_rel_ret = 0
    for i, gain in gained:
        results_dcg += gain / math.log2(i + 2)
        if gain > 0:
            total += cdiv(results_dcg, ideal_so_far[i] if i < ideal_ranks else ideal_dcg)
            num_rel_ret += 1
    total += cdiv(float(num_rel - num_rel_ret) * results_dcg, ideal_dcg)
    return cdiv(total, num_rel) if total > 0.0 else 0.0


def r_ndcg(r: RelList, pairs=()) -> float:
    """Rndcg: nDCG averaged at each rank where the ideal gain changes (m_Rndcg.c, experimental).

    >>> round(r_ndcg(RelList([1, 0], [1, 1])), 6)
    1.0
    """
    if r.num_rel == 0:
        return 0.0
    gains, gained, steps = _gain_parts(r, pairs)
    if gained is None:
        return _r_ndcg_walk(r, gains)
    old = gains[-1][1] if gains else 0.0
    changes = 0
    results_dcg = ideal_dcg = total = 0.0
    at = 0
    for i, ideal_gain in enumerate(steps):
        while at < len(gained) and gained[at][0] < i:  # the DCG of the ranks above i
            results_dcg += gained[at][1] / math.log2(gained[at][0] + 2)
            at += 1
        if old != ideal_gain:
            if ideal_dcg > 0.0:
                total += results_dcg / ideal_dcg
                changes += 1
            old = ideal_gain
        if ideal_gain > 0.0:
            ideal_dcg += ideal_gain / math.log2(i + 2)
    if len(steps) < r.num_ret:  # ranks below the ideal ones: their DCG, once more
        for i, gain in gained[at:]:
            results_dcg += gain / math.log2(i + 2)
        if ideal_dcg > 0.0:
            total += results_dcg / ideal_dcg
            changes += 1
    return cdiv(total, changes)


def g_measure(r: RelList, pairs=()) -> float:
    """G: gain / log2(2 + ideal gain so far - gain so far), summed, over the ideal gain
    (m_G.c, experimental).

    >>> round(g_measure(RelList([1, 0], [1, 1])), 6)
    1.0
    """
    gains, gained, steps = _gain_parts(r, pairs)
    if gained is None or not all(e[1].is_integer() and abs(e[1]) <= 2 ** 20 for e in gains):
        return _g_measure_walk(r, gains)
    # whole gains: the C's sums of gains and costs are exact, so each can be had in any
    # order; only results_g and sum_ideal are summed in the C's order
    min_cost = 1.0
    costs = []  # sum_cost after each ideal rank
    sum_cost = 0.0
    sum_ideal = 0.0
    for ideal_gain in steps:
        if ideal_gain > 0.0:
            sum_ideal += ideal_gain
        sum_cost += ideal_gain if ideal_gain >= min_cost else min_cost
        costs.append(sum_cost)
    ideal_ranks = len(steps)
    results_g = sum_results = 0.0
    for i, gain in gained:
        sum_results += gain
        cost = costs[i] if i < ideal_ranks else sum_cost + (i + 1 - ideal_ranks) * min_cost
        results_g += gain / math.log2(2 + cost - sum_results)
    return results_g / sum_ideal if sum_ideal > 0.0 else 0.0


def _persistence(pairs, default: float = 0.9) -> float:
    p = default
    for name, value in pairs:
        if name == "p":
            p = float(value)
    return p


_POWERS: dict[str, list[float]] = {}


def _powers(p: float, size: int) -> list[float]:
    """[1, p, p*p, ...] (at least ``size + 1`` of them), each the one before times p, as the
    C's ``weight *= p`` makes them."""
    key = p.hex()
    powers = _POWERS.get(key)
    if powers is None:
        powers = _POWERS[key] = [1.0]
    while len(powers) <= size:
        powers.append(powers[-1] * p)
    return powers


def graded_rbp(r: RelList, pairs=()) -> float:
    """trec_eval 10's rbp with the bounds it means (m_rbp.c with ``min = max = 0``): gains as
    for ndcg (the grade, or ``level=gain`` parameters), scaled to (gain - min) / (max - min)
    when some gain is below 0 or above 1, min and max taken over the gains and 0; then
    (1 - p) * sum of gain_i * p^(i-1), p = 0.9 unless ``p=`` is given. trec_eval 10 reads
    ``min`` and ``max`` uninitialised: its value on grades above 1 is whatever was on the stack
    (docs/measures.md).

    Grades 2, 0, 1 with the highest grade 2: gains 1, 0, 0.5; 0.1 * (1 + 0.81 * 0.5):

    >>> round(graded_rbp(RelList([2, 0, 1], [1, 1, 1])), 6)
    0.1405
    """
    p = _persistence(pairs)
    gains = setup_gains(r, pairs)
    low = high = 0.0
    for entry in gains:
        if entry[1] < low:
            low = entry[1]
        if entry[1] > high:
            high = entry[1]
    if low < 0 or high > 1:
        for entry in gains:
            entry[1] = (entry[1] - low) / (high - low)
    gained = _gained(r, gains)
    if gained is None:
        return _graded_rbp_walk(r, gains, p)
    weights = _powers(p, r.num_ret)
    total = 0.0
    for i, gain in gained:
        total += gain * weights[i]
    return (1.0 - p) * total


def rbp_residual(r: RelList, pairs=()) -> float:
    """The weight rbp could still gain (m_rbp_resid.c): p^n plus (1 - p) times the weights of
    the unjudged ranks, or 0 when every retrieved document is judged.

    >>> round(rbp_residual(RelList([1, -1], [0, 1]), [("p", 0.5)]), 6)
    0.5
    """
    p = _persistence(pairs)
    n = r.num_ret
    judged = [i for i, rel in r.judged if rel >= 0]
    if len(judged) == n:
        return 0.0
    weights = _powers(p, n)
    total = 0.0
    start = 0
    for i in judged:  # the weights of the ranks between judged ones, added one by one
        if i > start:
            total = reduce(add, weights[start:i], total)
        start = i + 1
    if start < n:
        total = reduce(add, weights[start:n], total)
    return weights[n] + (1 - p) * total


# --- the C's walks over every rank, where the sums above cannot be had from the judged ranks

def _ndcg_parts_walk(r: RelList, gains) -> tuple[float, float]:
    """``ndcg_parts`` step by step as the C walks every rank."""
    ideal = _Ideal(gains)
    results_dcg = ideal_dcg = 0.0
    rels = r.rels
    i = 0
    n = len(rels)
    while i < n and ideal.gain > 0.0:
        gain = _gain(rels[i], gains)
        if gain != 0:
            results_dcg += gain / math.log2(i + 2)
        ideal_gain = ideal.step()
        if ideal_gain > 0.0:
            ideal_dcg += ideal_gain / math.log2(i + 2)
        i += 1
    while i < n:
        gain = _gain(rels[i], gains)
        if gain != 0:
            results_dcg += gain / math.log2(i + 2)
        i += 1
    while ideal.gain > 0.0:
        ideal_gain = ideal.step()
        if ideal_gain > 0.0:
            ideal_dcg += ideal_gain / math.log2(i + 2)
        i += 1
    return results_dcg, ideal_dcg


def _ndcg_rel_walk(r: RelList, gains) -> float:
    """``ndcg_rel`` step by step as the C walks every rank."""
    ideal = _Ideal(gains)
    results_dcg = ideal_dcg = total = 0.0
    num_rel_ret = num_rel = 0
    rels = r.rels
    n = len(rels)
    i = 0
    while i < n and ideal.gain > 0.0:
        gain = _gain(rels[i], gains)
        if gain != 0:
            results_dcg += gain / math.log2(i + 2)
        ideal_gain = ideal.step()
        if ideal_gain > 0.0:
            num_rel += 1
            ideal_dcg += ideal_gain / math.log2(i + 2)
        if gain > 0:
            total += cdiv(results_dcg, ideal_dcg)
            num_rel_ret += 1
        i += 1
    while i < n:
        gain = _gain(rels[i], gains)
        if gain != 0:
            results_dcg += gain / math.log2(i + 2)
        if gain > 0:
            total += cdiv(results_dcg, ideal_dcg)
            num_rel_ret += 1
        i += 1
    while ideal.gain > 0.0:
        ideal_gain = ideal.step()
        if ideal_gain > 0.0:
            num_rel += 1
            ideal_dcg += ideal_gain / math.log2(i + 2)
        i += 1
    total += cdiv(float(num_rel - num_rel_ret) * results_dcg, ideal_dcg)
    return cdiv(total, num_rel) if total > 0.0 else 0.0


def _r_ndcg_walk(r: RelList, gains) -> float:
    """``r_ndcg`` step by step as the C walks every rank."""
    ideal = _Ideal(gains)
    old = ideal.gain
    changes = 0
    results_dcg = ideal_dcg = total = 0.0
    rels = r.rels
    n = len(rels)
    i = 0
    while i < n and ideal.gain > 0.0:
        gain = _gain(rels[i], gains)
        ideal_gain = ideal.step()
        if old != ideal_gain:
            if ideal_dcg > 0.0:
                total += results_dcg / ideal_dcg
                changes += 1
            old = ideal_gain
        if gain != 0:
            results_dcg += gain / math.log2(i + 2)
        if ideal_gain > 0.0:
            ideal_dcg += ideal_gain / math.log2(i + 2)
        i += 1
    if i < n:
        while i < n:
            gain = _gain(rels[i], gains)
            if gain != 0:
                results_dcg += gain / math.log2(i + 2)
            i += 1
        if ideal_dcg > 0.0:
            total += results_dcg / ideal_dcg
            changes += 1
    while ideal.gain > 0.0:
        ideal_gain = ideal.step()
        if old != ideal_gain:
            if ideal_dcg > 0.0:
                total += results_dcg / ideal_dcg
                changes += 1
            old = ideal_gain
        if ideal_gain > 0.0:
            ideal_dcg += ideal_gain / math.log2(i + 2)
        i += 1
    return cdiv(total, changes)


def _g_measure_walk(r: RelList, gains) -> float:
    """``g_measure`` step by step as the C walks every rank."""
    ideal = _Ideal(gains)
    results_g = sum_results = sum_ideal = sum_cost = 0.0
    min_cost = 1.0
    rels = r.rels
    n = len(rels)
    i = 0
    while i < n and ideal.gain > 0.0:
        gain = _gain(rels[i], gains)
        sum_results += gain
        ideal_gain = ideal.step()
        if ideal_gain > 0.0:
            sum_ideal += ideal_gain
        if ideal_gain >= min_cost:
            sum_cost += ideal_gain
        else:
            sum_cost += min_cost
        if gain != 0:
            results_g += gain / math.log2(2 + sum_cost - sum_results)
        i += 1
    while i < n:
        gain = _gain(rels[i], gains)
        sum_results += gain
        sum_cost += min_cost
        if gain != 0:
            results_g += gain / math.log2(2 + sum_cost - sum_results)
        i += 1
    while ideal.gain > 0.0:
        ideal_gain = ideal.step()
        if ideal_gain > 0.0:
            sum_ideal += ideal_gain
        i += 1
    return results_g / sum_ideal if sum_ideal > 0.0 else 0.0


def _graded_rbp_walk(r: RelList, gains, p: float) -> float:
    """``graded_rbp`` step by step as the C walks every rank."""
    total = 0.0
    weight = 1.0
    for rel in r.rels:
        gain = _gain(rel, gains)
        if gain != 0:
            total += gain * weight
        weight = weight * p
    return (1.0 - p) * total


# --- registry entries of the measures the package lacked ------------------------------------

_WHOLE = {"cutoff": "none", "whole_ranking": True, "binary": False}
_CUT = {"cutoff": "required", "binary": False}


def _own(name: str):
    return trec_names(whole=name)


def _cut_name(name: str):
    return trec_names(cut=name + "_{k}")


def _first(function):
    """A per-cutoff function read at one cutoff, for the registry's compute(q, k)."""
    return lambda q, k: function(rel_list(q), [k])[0]


def _trec_own(name: str, compute, shape: dict, description: str, order: int,
              citation: str = "", **fields) -> None:
    """Registers one of trec_eval's own measures (the chooser's "trec" group), of the whole
    ranking (``_WHOLE``) or at a cutoff (``_CUT``), printed under its trec_eval name."""
    register(Measure(
        name, compute, **shape, **fields,
        about=About(groups=("trec",), description=description, citation=citation, order=order),
        trec=TrecEval(name=_own(name) if shape is _WHOLE else _cut_name(name))))


_trec_own("gm_bpref", lambda q, k: bpref(rel_list(q)), _WHOLE,
          "bpref per query; the mean is geometric, each value floored at 0.00001", 210,
          aggregate="geometric", undefined=no_relevant)
_trec_own("relative_P", _first(relative_precision_at), _CUT,
          "relevant documents in the top k over min(k, R)", 220, undefined=no_relevant)
_trec_own("set_relative_P", lambda q, k: set_relative_precision(rel_list(q)), _WHOLE,
          "relevant retrieved over min(retrieved, R)", 230, undefined=no_relevant)
_trec_own("set_map", lambda q, k: set_map(rel_list(q)), _WHOLE,
          "set precision times set recall", 240, undefined=no_relevant)
_trec_own("ndcg_rel", lambda q, k: ndcg_rel(rel_list(q)), _WHOLE,
          "nDCG averaged at the rank of each relevant document (trec_eval's experimental "
          "measure)", 250)
_trec_own("Rndcg", lambda q, k: r_ndcg(rel_list(q)), _WHOLE,
          "nDCG averaged at the ranks where the ideal gain changes (trec_eval's experimental "
          "measure)", 260, undefined=no_relevant)
_trec_own("binG", lambda q, k: binary_g(rel_list(q)), _WHOLE,
          "mean over relevant documents of 1 / log2(2 + non-relevant documents above it) "
          "(trec_eval's experimental measure)", 270)
_trec_own("G", lambda q, k: g_measure(rel_list(q)), _WHOLE,
          "gain discounted by the ideal gain still missing (trec_eval's experimental measure)",
          280)
_trec_own("dcg", lambda q, k: ndcg_parts(rel_list(q))[0], _WHOLE,
          "DCG of the whole ranking, gain = grade (trec_eval's dcg)", 290, bounds=None)
_trec_own("ideal_dcg", lambda q, k: ndcg_parts(rel_list(q))[1], _WHOLE,
          "the DCG of the best order of every judged document", 300, bounds=None)
_trec_own("num_nonrel_judged_ret", lambda q, k: num_nonrel_judged_ret(rel_list(q)), _WHOLE,
          "judged non-relevant documents retrieved", 310, count=True, bounds=None)
_trec_own("unj", _first(unjudged_at), _CUT,
          "share of the top k without a judgement (1 - judged@k when k documents came back)", 320)
_trec_own("yaap", lambda q, k: yaap(rel_list(q)), _WHOLE,
          "yet another average precision: log((1 + S) / (1 + R - S)), S the sum of precisions "
          "at the relevant ranks", 330, citation="Robertson, ECIR 2012", bounds=None)


# --- trec_eval's rows of these measures, for the ``trec_eval`` mode -------------------------

def _utility_row(q, params):
    if len(params) != 4:
        raise ValueError("utility needs exactly 4 parameters (the weights of relevant "
                         f"retrieved, other retrieved, relevant missed, the rest), found "
                         f"{len(params)}")
    return [utility(q.rels(), params, q.options.num_docs)]


for _row in (
    TrecMeasure("runid", "runid", None, average="none", per_query=False, reads=""),
    TrecMeasure("num_ret", "long", lambda q, p: [float(q.rels().num_ret)], average="sum"),
    TrecMeasure("num_rel", "long", lambda q, p: [float(q.rels().num_rel)], average="num_rel"),
    TrecMeasure("num_rel_ret", "long", lambda q, p: [float(q.rels().num_rel_ret)], average="sum"),
    TrecMeasure("map", "double", one(average_precision)),
    TrecMeasure("gm_map", "double", one(log_average_precision), average="geometric",
                per_query=False),
    TrecMeasure("Rprec", "double", one(r_precision)),
    TrecMeasure("bpref", "double", one(bpref)),
    TrecMeasure("recip_rank", "double", one(reciprocal_rank)),
    TrecMeasure("iprec_at_recall", "cut_double", at_cutoffs(iprec_at_recall), RECALL_POINTS),
    TrecMeasure("P", "cut_long", at_cutoffs(precision_at), TREC_CUTOFFS),
    TrecMeasure("relstring", "relstring", None, (10.0,), average="none"),
    TrecMeasure("recall", "cut_long", at_cutoffs(recall_at), TREC_CUTOFFS),
    TrecMeasure("infAP", "double", one(inferred_ap)),
    TrecMeasure("gm_bpref", "double", one(log_bpref), average="geometric", per_query=False),
    TrecMeasure("Rprec_mult", "cut_double", at_cutoffs(rprec_mult), R_MULTIPLES),
    TrecMeasure("utility", "params", _utility_row, UTILITY_WEIGHTS),
    TrecMeasure("11pt_avg", "params", lambda q, p: [eleven_point_average(q.rels(), p)],
                RECALL_POINTS),
    TrecMeasure("binG", "double", one(binary_g)),
    TrecMeasure("G", "pairs", with_pairs(g_measure)),
    TrecMeasure("dcg", "pairs", lambda q, p: [ndcg_parts(q.rels(), p)[0]]),
    TrecMeasure("ideal_dcg", "pairs", lambda q, p: [ndcg_parts(q.rels(), p)[1]]),
    TrecMeasure("ndcg", "pairs", with_pairs(ndcg)),
    TrecMeasure("ndcg_rel", "pairs", with_pairs(ndcg_rel)),
    TrecMeasure("Rndcg", "pairs", with_pairs(r_ndcg)),
    TrecMeasure("ndcg_cut", "cut_long", at_cutoffs(ndcg_at), TREC_CUTOFFS),
    TrecMeasure("map_cut", "cut_long", at_cutoffs(map_at), TREC_CUTOFFS),
    TrecMeasure("relative_P", "cut_long", at_cutoffs(relative_precision_at), TREC_CUTOFFS),
    TrecMeasure("success", "cut_long", at_cutoffs(success_at), (1, 5, 10)),
    TrecMeasure("set_P", "double", one(set_precision)),
    TrecMeasure("set_relative_P", "double", one(set_relative_precision)),
    TrecMeasure("set_recall", "double", one(set_recall)),
    TrecMeasure("set_map", "double", one(set_map)),
    TrecMeasure("set_F", "params", lambda q, p: [set_f(q.rels(), p[0])], (1.0,)),
    TrecMeasure("num_nonrel_judged_ret", "long", one(num_nonrel_judged_ret), average="sum"),
    TrecMeasure("yaap", "double", one(yaap)),
    TrecMeasure("rbp", "pairs", with_pairs(graded_rbp)),
    TrecMeasure("rbp_resid", "pairs", with_pairs(rbp_residual)),
    TrecMeasure("unj", "cut_long", at_cutoffs(unjudged_at), (5, 10, 20)),
):
    register_trec_eval(_row)
