"""trec_eval 10's measures at cutoffs and of the whole ranking over one query's ``RelList``
(``trec_rel_list``), transcribed from its C (the m_*.c file named in each docstring) in its own
order of floating-point operations, so that ``retrieval-metrics trec_eval`` prints every digit
trec_eval prints. The graded measures (gain_init.c's gains) are ``trec_gains``; the registry
entries and the ``trec_eval`` mode's rows are ``trec``'s and ``core``'s.

Where C divides by zero it gets an infinity or a NaN, not an error: ``cdiv`` does the same
(0/0 is the x86 default NaN, which C prints as ``-nan``).
"""

from __future__ import annotations

import math
from bisect import bisect_left
from typing import Sequence

from .aggregation import MIN_GEO_MEAN
from .trec_rel_list import INFAP_EPSILON, UNJUDGED, RankedRelevance, RelList, cdiv, lround

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


def precision_at(r: RankedRelevance, cutoffs: Sequence[int]) -> list[float]:
    """P at each cutoff, missing documents not relevant (m_P.c).

    >>> precision_at(RelList([1, 0, 1], [1, 2]), [1, 2, 5])
    [1.0, 0.5, 0.4]
    """
    return [n / k for n, k in zip(_counts_at(r.relevant, cutoffs, r.num_ret), cutoffs)]


def recall_at(r: RankedRelevance, cutoffs: Sequence[int]) -> list[float]:
    """recall at each cutoff; 0 when nothing is relevant (m_recall.c).

    >>> recall_at(RelList([1, 0, 1], [1, 3]), [1, 5])
    [0.3333333333333333, 0.6666666666666666]
    """
    return _over_relevant(r, cutoffs, lambda k, rel: rel)


def relative_precision_at(r: RankedRelevance, cutoffs: Sequence[int]) -> list[float]:
    """relative_P: relevant in the top k over min(k, R) (m_rel_P.c); 0 when nothing is relevant.

    >>> relative_precision_at(RelList([1, 0, 1], [1, 2]), [1, 3])
    [1.0, 1.0]
    """
    return _over_relevant(r, cutoffs, lambda k, rel: rel if k > rel else k)


def _over_relevant(r: RankedRelevance, cutoffs: Sequence[int], denominator) -> list[float]:
    """The relevant documents in the top k over ``denominator(k, R)`` at each cutoff; 0 at
    every cutoff when nothing is relevant (recall and relative_P)."""
    rel = r.num_rel
    if rel == 0:
        return [0.0] * len(cutoffs)
    return [n / denominator(k, rel)
            for n, k in zip(_counts_at(r.relevant, cutoffs, r.num_ret), cutoffs)]


def success_at(r: RankedRelevance, cutoffs: Sequence[int]) -> list[float]:
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


def map_at(r: RankedRelevance, cutoffs: Sequence[int]) -> list[float]:
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

def average_precision(r: RankedRelevance) -> float:
    """AP over the whole ranking (m_map.c).

    >>> average_precision(RelList([1, 0, 1], [1, 3]))
    0.5555555555555555
    """
    total = 0.0
    for so_far, i in enumerate(r.relevant, 1):
        total += so_far / (i + 1)
    return total / r.num_rel if r.relevant else 0.0


def log_average_precision(r: RankedRelevance) -> float:
    """gm_map's per-query value: log(max(AP, 0.00001)) (m_gm_map.c).

    >>> round(log_average_precision(RelList([0], [1, 1])), 4)
    -11.5129
    """
    return math.log(max(average_precision(r), MIN_GEO_MEAN))


def yaap(r: RankedRelevance) -> float:
    """Robertson's Yet Another Average Precision, log((1 + S) / (1 + R - S)), S the sum of
    precisions at the relevant ranks (m_yaap.c; ECIR 2012).

    >>> round(yaap(RelList([1], [0, 1])), 6)
    0.693147
    """
    total = 0.0
    for so_far, i in enumerate(r.relevant, 1):
        total += so_far / (i + 1)
    return math.log(cdiv(1.0 + total, 1.0 + r.num_rel - total))


def r_precision(r: RankedRelevance) -> float:
    """Precision at rank R (m_Rprec.c); 0 when R or the ranking is empty.

    >>> r_precision(RelList([1, 0, 1], [1, 2]))
    0.5
    """
    look = min(r.num_ret, r.num_rel)
    if look == 0:
        return 0.0
    return bisect_left(r.relevant, look) / r.num_rel


def reciprocal_rank(r: RankedRelevance, k: int | None = None) -> float:
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


def _interpolated(r: RankedRelevance, cutoffs: list[int], each) -> float:
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


def iprec_at_recall(r: RankedRelevance, points: Sequence[float]) -> list[float]:
    """Interpolated precision at each recall point, rounded to lround(point * R) relevant
    documents (m_iprec_at_recall.c).

    >>> [round(v, 4) for v in iprec_at_recall(RelList([0, 1, 1, 0], [0, 4]), [0.0, 0.5, 1.0])]
    [0.6667, 0.6667, 0.0]
    """
    return iprec_at_counts(r, [lround(p * r.num_rel) for p in points])


def iprec_at_counts(r: RankedRelevance, needed: Sequence[int]) -> list[float]:
    """Interpolated precision where ``needed[i]`` relevant documents have been seen (counts
    in increasing order): the best precision at that rank or any rank below it, 0 where the
    ranking never holds that many. trec_eval 10 rounds a recall point to a count with lround,
    trec_eval 9.0.8 (pytrec_eval, ir_measures' IPrec) with ``(long)(point * R + 0.9)``; the
    walk is the same.

    >>> from retrieval_metrics.measures.trec_rel_list import Ranks
    >>> iprec_at_counts(Ranks.of_grades([1, 0, 0, 1, 0], 7), [1, 2, 3])
    [1.0, 0.5, 0.0]
    """
    values = [0.0] * len(needed)

    def each(index, value):
        values[index] = value
    _interpolated(r, list(needed), each)
    return values


def eleven_point_average(r: RankedRelevance, points: Sequence[float]) -> float:
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


def rprec_mult(r: RankedRelevance, multiples: Sequence[float]) -> list[float]:
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


def utility(r: RankedRelevance, weights: Sequence[float], num_docs: int = 0) -> float:
    """a * relevant retrieved + b * other retrieved + c * relevant missed + d * the rest of a
    collection of ``num_docs`` (m_utility.c).

    >>> utility(RelList([1, -1, 0], [1, 2]), [1.0, -1.0, 0.0, 0.0])
    -1.0
    """
    p = weights
    return (p[0] * r.num_rel_ret + p[1] * (r.num_ret - r.num_rel_ret)
            + p[2] * (r.num_rel - r.num_rel_ret)
            + p[3] * (num_docs + r.num_rel_ret - r.num_ret - r.num_rel))


def set_precision(r: RankedRelevance) -> float:
    """num_rel_ret / num_ret (m_set_P.c).

    >>> set_precision(RelList([1, 0], [1, 1]))
    0.5
    """
    return r.num_rel_ret / r.num_ret if r.num_ret else 0.0


def set_recall(r: RankedRelevance) -> float:
    """num_rel_ret / num_rel (m_set_recall.c).

    >>> set_recall(RelList([1, 0], [1, 2]))
    0.5
    """
    return r.num_rel_ret / r.num_rel if r.num_rel else 0.0


def set_relative_precision(r: RankedRelevance) -> float:
    """num_rel_ret / min(num_ret, num_rel) (m_set_rel_P.c).

    >>> set_relative_precision(RelList([1, 0, 0], [1, 2]))
    0.5
    """
    if r.num_ret and r.num_rel:
        return r.num_rel_ret / min(r.num_ret, r.num_rel)
    return 0.0


def set_map(r: RankedRelevance) -> float:
    """set_P * set_recall, as (num_rel_ret^2) / (num_ret * num_rel) (m_set_map.c).

    >>> set_map(RelList([1, 0], [1, 2]))
    0.25
    """
    if r.num_ret and r.num_rel:
        return (float(r.num_rel_ret) * float(r.num_rel_ret)) / (float(r.num_ret) * float(r.num_rel))
    return 0.0


def set_f(r: RankedRelevance, beta: float = 1.0) -> float:
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


def binary_g(r: RankedRelevance) -> float:
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
