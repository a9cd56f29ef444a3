"""trec_eval's other measures (and three from ir_measures), for one query.

Each function reads the grades of the ranked documents, best first, over the whole ranking
(``None`` for a document the judgements do not mention) and what it needs of the judgements.
Relevance is trec_eval's: a document is relevant when its grade is at least
``relevance_level`` (trec_eval ``-l``, default 1). trec_eval tells three kinds of "not
relevant" apart, and bpref and infAP read the difference:

- a grade from 0 to ``relevance_level - 1``: judged not relevant;
- a negative grade: in the pool but not judged (trec_eval's RELVALUE_UNJUDGED);
- ``None``, a document the judgements do not mention: not in the pool (RELVALUE_NONPOOL).

Every function transcribes the C of trec_eval 10.0 (usnistgov/trec_eval, the m_*.c file named
in its docstring), which is also trec_eval 9.0.8's (pytrec_eval's) arithmetic except where a
docstring says otherwise. Standard library only.
"""

from __future__ import annotations

import math
from typing import Iterable, Sequence

from .core import dcg, gain_function, ideal_gains

Grades = Sequence["int | None"]

#: trec_eval's default parameters
IPREC_RECALL_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
RPREC_MULTIPLES = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)
UTILITY_WEIGHTS = (1.0, -1.0, 0.0, 0.0)
#: trec_eval.h's MIN_GEO_MEAN (gm_map's floor) and INFAP_EPSILON
MIN_GEO_MEAN = 0.00001
INFAP_EPSILON = 0.00001
#: gdeval.pl's $MAX_JUDGMENT (ir_measures' ERR): the grade that stops every reader
ERR_MAX_GRADE = 4


def _relevant(g, level: int) -> bool:
    return g is not None and g >= level


def num_ret(grades: Grades) -> int:
    """Documents retrieved (m_num_ret.c).

    >>> num_ret([1, None, 0])
    3
    """
    return len(grades)


def num_rel(judged_grades: Iterable[int], relevance_level: int = 1) -> int:
    """Relevant documents in the judgements, retrieved or not (m_num_rel.c).

    >>> num_rel([2, 1, 0, -1]), num_rel([2, 1, 0, -1], relevance_level=2)
    (2, 1)
    """
    return sum(1 for g in judged_grades if g >= relevance_level)


def num_rel_ret(grades: Grades, relevance_level: int = 1) -> int:
    """Relevant documents retrieved (m_num_rel_ret.c).

    >>> num_rel_ret([1, None, 0, 2])
    2
    """
    if relevance_level >= 1:  # at C speed: filter(None) drops None and 0, neither relevant
        return sum(map(relevance_level.__le__, filter(None, grades)))
    return sum(1 for g in grades if _relevant(g, relevance_level))


def geometric_mean(values: Iterable[float]) -> float:
    """gm_map's mean over queries: exp(mean(log(max(AP, 0.00001)))) (m_gm_map.c and
    meas_avg.c's te_calc_avg_meas_s_gm). Per query gm_map is AP; the floor keeps a query at 0
    from making the whole mean 0. NaN values (undefined) are left out; NaN when none is left.

    >>> round(geometric_mean([0.5, 0.125]), 6), round(geometric_mean([0.5, 0.0]), 6)
    (0.25, 0.002236)
    """
    logs = [math.log(max(v, MIN_GEO_MEAN)) for v in values if v == v]
    return math.exp(math.fsum(logs) / len(logs)) if logs else math.nan


def bpref(grades: Grades, judged_grades: Iterable[int], relevance_level: int = 1) -> float:
    """Binary preference (m_bpref.c; Buckley and Voorhees, SIGIR 2004): for each retrieved
    relevant document, 1 - (judged non-relevant documents above it, at most R) / min(judged
    non-relevant, R), summed and divided by R. Documents not judged, or graded below 0, are
    skipped.

    Relevant at ranks 1 and 3, a judged non-relevant one at 2 (R = 2, 1 judged non-relevant):
    (1 + (1 - 1/1)) / 2:

    >>> bpref([1, 0, None, 1], [1, 1, 0])
    0.5
    """
    judged_grades = list(judged_grades)
    relevant = sum(1 for g in judged_grades if g >= relevance_level)
    num_nonrel = sum(1 for g in judged_grades if 0 <= g < relevance_level)
    nonrel_so_far = 0
    total = 0.0
    for g in grades:
        if g is None or g < 0:
            continue
        if g < relevance_level:
            nonrel_so_far += 1
        elif nonrel_so_far > 0:
            total += 1.0 - min(nonrel_so_far, relevant) / min(num_nonrel, relevant)
        else:
            total += 1.0
    return total / relevant if relevant else total


def infap(grades: Grades, num_relevant: int, relevance_level: int = 1) -> float:
    """Inferred AP (m_infap.c; Yilmaz and Aslam, CIKM 2006): AP estimated from a judged
    sample of the pool. A negative grade is in the pool but not judged (sampled out); a
    document the judgements do not mention is outside the pool and counts as not relevant.
    With every retrieved document judged it equals AP up to trec_eval's epsilon 0.00001.

    Relevant at ranks 1 and 3, rank 2 never pooled, R = 2: rank 1 adds 1, rank 3 adds
    1/3 + (2/3) * (1/2) * (1 + e) / (1 + 2e) with e = 0.00001; (1 + 0.666663) / 2:

    >>> round(infap([1, None, 1], 2), 6)
    0.833332
    """
    nonrel_so_far = rel_so_far = unjudged_so_far = 0
    total = 0.0
    for j, g in enumerate(grades):
        if g is None:
            continue
        if g < 0:
            unjudged_so_far += 1
            continue
        if g < relevance_level:
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
    return total / num_relevant if num_relevant else total


def lround(x: float) -> int:
    """C's lround: the nearest integer, halves away from zero (Python's round() goes to even).

    >>> lround(0.5), lround(1.5), lround(2.5), lround(0.49999999999999994)
    (1, 2, 3, 0)
    """
    floor = math.floor(abs(x))
    whole = floor + 1 if abs(x) - floor >= 0.5 else floor
    return int(math.copysign(whole, x))


def recall_cutoffs(points: Sequence[float], num_relevant: int) -> list[int]:
    """How many relevant documents each recall point means: trec_eval 10 rounds
    (lround(point * R)); trec_eval 9.0.8 (pytrec_eval) truncated point * R + 0.9 instead. With
    R = 3, recall 0.1 is 0.3 relevant documents: 10 rounds it to 0, 9.0.8 made it 1.

    >>> recall_cutoffs([0.1, 0.5, 1.0], 3)
    [0, 2, 3]
    """
    return [lround(p * num_relevant) for p in points]


def iprec_at_recall(grades: Grades, num_relevant: int, relevance_level: int = 1,
                    points: Sequence[float] = IPREC_RECALL_POINTS) -> list[float]:
    """Interpolated precision at each recall point, points ascending (m_iprec_at_recall.c,
    trec_eval 10): the highest precision at any rank at or below the one where
    ``lround(point * R)`` relevant documents have been seen; 0 for a point the run never
    reaches. The 11 default points draw the standard recall-precision curve.

    Relevant at ranks 2 and 3 of 4, R = 4: precision 1/2 at rank 2, 2/3 at rank 3, so recall
    0.0 to 0.6 (lround: 0, 0, 1, 1, 2, 2, 2 relevant) interpolate to 2/3, and 0.7 to 1.0 (3 or
    4 relevant) are never reached:

    >>> [round(v, 4) for v in iprec_at_recall([0, 1, 1, 0], 4)]
    [0.6667, 0.6667, 0.6667, 0.6667, 0.6667, 0.6667, 0.6667, 0.0, 0.0, 0.0, 0.0]
    """
    cutoffs = recall_cutoffs(points, num_relevant)
    values = [0.0] * len(points)
    retrieved = len(grades)
    if not retrieved:
        return values
    relevant_retrieved = num_rel_ret(grades, relevance_level)
    current = len(points) - 1
    while current >= 0 and cutoffs[current] > relevant_retrieved:
        current -= 1
    # Walk the ranking bottom-up, carrying the best precision seen at this rank or below.
    best = relevant_retrieved / retrieved
    rel_so_far = relevant_retrieved
    i = retrieved
    while i > 0 and rel_so_far > 0:
        precision = rel_so_far / i
        if best < precision:
            best = precision
        if _relevant(grades[i - 1], relevance_level):
            while current >= 0 and rel_so_far == cutoffs[current]:
                values[current] = best
                current -= 1
            rel_so_far -= 1
        i -= 1
    while current >= 0:
        values[current] = best
        current -= 1
    return values


def eleven_point_average(grades: Grades, num_relevant: int, relevance_level: int = 1,
                         points: Sequence[float] = IPREC_RECALL_POINTS) -> float:
    """The mean of the interpolated precisions at the recall points (m_11pt_avg.c, trec_eval
    10's rounding, as ``iprec_at_recall``), summed from the highest point down as trec_eval
    sums them. Obsolete (trec_eval prefers map) but in every old paper.

    >>> round(eleven_point_average([0, 1, 1, 0], 4), 4)  # 7 * (2/3) / 11
    0.4242
    """
    values = iprec_at_recall(grades, num_relevant, relevance_level, points)
    total = 0.0
    for value in reversed(values):
        total += value
    return total / len(points)


def ndcg_whole(grades: Grades, judged_grades: Iterable[int], gain: str = "linear") -> float:
    """nDCG over the whole ranking, against the ideal order of every judged document (m_ndcg.c,
    Jarvelin and Kekalainen 2002): the gain is the grade itself (negative grades gain
    nothing), whatever the relevance level; 0 when no document has a positive grade. ``gain``
    ``"exponential"`` uses 2^grade - 1 instead (not trec_eval).

    Relevant grades 2 then 1 at ranks 2 and 3; the ideal puts them at 1 and 2:
    (2/log2(3) + 1/2) / (2 + 1/log2(3)):

    >>> round(ndcg_whole([0, 2, 1], [2, 1, 0]), 6)
    0.669672
    """
    ideal = ideal_gains(list(judged_grades), gain)
    best = dcg(ideal, len(ideal))
    if not best:
        return 0.0
    to_gain = gain_function(gain)
    gains = [to_gain(g) if g is not None and g > 0 else 0 for g in grades]
    return dcg(gains, len(gains)) / best


def set_precision(grades: Grades, relevance_level: int = 1) -> float:
    """Relevant retrieved over retrieved, the whole ranking as a set (m_set_P.c); 0 when
    nothing was retrieved.

    >>> set_precision([1, None, 0, 1])
    0.5
    """
    return num_rel_ret(grades, relevance_level) / len(grades) if grades else 0.0


def set_recall(grades: Grades, num_relevant: int, relevance_level: int = 1) -> float:
    """Relevant retrieved over relevant (m_set_recall.c); 0 when nothing is relevant.

    >>> set_recall([1, None, 0, 1], 4)
    0.5
    """
    return num_rel_ret(grades, relevance_level) / num_relevant if num_relevant else 0.0


def set_f(grades: Grades, num_relevant: int, relevance_level: int = 1, beta: float = 1.0) -> float:
    """trec_eval's set_F: (x + 1) P R / (x P + R) with x = ``beta`` the weight of recall
    against precision (m_set_F.c; van Rijsbergen's E measure). trec_eval's x is the weight
    itself, not its square as in the usual F-beta. 0 when nothing relevant was retrieved.

    P = 1/2, R = 1/3: 2 * (1/6) / (5/6) = 0.4

    >>> set_f([1, 0], 3)
    0.4
    """
    hits = num_rel_ret(grades, relevance_level)
    if not hits:
        return 0.0
    p = hits / len(grades)
    r = hits / num_relevant
    return (beta + 1.0) * p * r / (beta * p + r)


def success(grades: Grades, k: int, relevance_level: int = 1) -> float:
    """1 if a relevant document is in the top k, else 0 (m_success.c; Tomlinson).

    >>> success([0, None, 2], 2), success([0, None, 2], 3), success([0, None, 2], 3, 3)
    (0.0, 1.0, 0.0)
    """
    return 1.0 if any(_relevant(g, relevance_level) for g in grades[:k]) else 0.0


def utility(grades: Grades, num_relevant: int, relevance_level: int = 1,
            weights: Sequence[float] = UTILITY_WEIGHTS, num_docs: int = 0) -> float:
    """Set utility p1 a + p2 b + p3 c + p4 d over the contingency table of the whole ranking
    (m_utility.c): a relevant retrieved, b other retrieved (unjudged included), c relevant
    not retrieved, d the rest of a collection of ``num_docs`` (trec_eval ``-N``, default 0).
    Default weights 1, -1, 0, 0: relevant retrieved minus the others retrieved.

    >>> utility([1, None, 0, 1], 3), utility([1, None, 0, 1], 3, weights=(2, -1, -1, 0))
    (0.0, 1.0)
    """
    p1, p2, p3, p4 = map(float, weights)
    hits = num_rel_ret(grades, relevance_level)
    retrieved = len(grades)
    return (p1 * hits + p2 * (retrieved - hits) + p3 * (num_relevant - hits)
            + p4 * (num_docs + hits - retrieved - num_relevant))


def rprec_cutoff(multiple: float, num_relevant: int) -> int:
    """The rank a multiple of R means: (long)(multiple * R + 0.9), as trec_eval 10 still
    computes it for Rprec_mult (only iprec_at_recall and 11pt_avg changed to lround).

    >>> rprec_cutoff(0.2, 3), rprec_cutoff(1.0, 3)
    (1, 3)
    """
    return int(multiple * num_relevant + 0.9)


def rprec_mult(grades: Grades, num_relevant: int, relevance_level: int = 1,
               multiples: Sequence[float] = RPREC_MULTIPLES) -> list[float]:
    """Precision at rank ``multiple * R`` for each multiple (m_Rprec_mult.c): below the end of
    the ranking the missing documents count as not relevant; a cutoff of 0 gives 0.
    Rprec_mult_1.00 is Rprec.

    R = 2, relevant at 1 and 3: ranks 1 (0.2 R + 0.9 -> 1), 2 and 4 give 1, 1/2 and 2/4:

    >>> rprec_mult([1, 0, 1], 2, multiples=(0.2, 1.0, 2.0))
    [1.0, 0.5, 0.5]
    """
    values = []
    for multiple in multiples:
        cutoff = rprec_cutoff(multiple, num_relevant)
        hits = num_rel_ret(grades[:cutoff], relevance_level) if cutoff > 0 else 0
        values.append(hits / cutoff if cutoff > 0 else 0.0)
    return values


def err(grades: Grades, k: int | None = None, max_grade: int = ERR_MAX_GRADE) -> float:
    """Expected reciprocal rank at k (Chapelle et al., CIKM 2009), as gdeval.pl computes it
    (the TREC Web track's script, which ir_measures runs for ERR@k): a reader stops at rank i
    with probability R_i = (2^grade - 1) / 2^max_grade, max_grade 4; ERR = sum of R_i / i
    times the chance of reaching rank i. Grades of 0 or less stop nobody.

    Grades 4 then 2: 15/16 + (1/16) * (3/16) / 2:

    >>> err([4, 2], k=10)
    0.943359375
    """
    top = grades[:k] if k else grades
    scale = 2.0 ** max_grade
    total = 0.0
    reach = 1.0
    for rank, g in enumerate(top, 1):
        r = (2.0 ** g - 1) / scale if g is not None and g > 0 else 0.0
        total += r * reach / rank
        reach *= 1 - r
    return total


def rbp(grades: Grades, p: float = 0.8, relevance_level: int = 1) -> float:
    """Rank-biased precision (Moffat and Zobel, TOIS 2008): (1 - p) * sum of p^(i-1) over the
    relevant ranks i; a reader goes on to the next document with persistence ``p``. Binary
    relevance, as ir_measures' RBP(rel=relevance_level) (default p 0.8 as there; trec_eval's
    rbp defaults to 0.9).

    >>> rbp([1, 0, 1], p=0.5)  # 0.5 * (1 + 0.25)
    0.625
    """
    total = 0.0
    weight = 1.0
    for g in grades:
        if _relevant(g, relevance_level):
            total += weight
        weight *= p
    return (1.0 - p) * total


def rbp_residual(grades: Grades, p: float = 0.8) -> float:
    """How much RBP could still rise (Moffat and Zobel 2008, section 5): the weight of the
    unjudged documents in the ranking (not in the judgements, or graded below 0), (1 - p) *
    p^(i-1) each, plus the weight of everything past the end of the ranking, p^n. As
    trec_eval 10's rbp_resid (m_rbp_resid.c), except that trec_eval gives 0 when every
    retrieved document is judged, leaving out p^n.

    >>> rbp_residual([1, None, 0], p=0.5)  # 0.5 * 0.5 + 0.5^3
    0.375
    """
    total = 0.0
    weight = 1.0
    for g in grades:
        if g is None or g < 0:
            total += weight
        weight *= p
    return weight + (1.0 - p) * total


def ndcg_judged_only(grades: Grades, judged_grades: Iterable[int], k: int,
                     gain: str = "linear") -> float:
    """nDCG@k over the judged documents only (ir_measures' nDCG(judged_only=True)@k, trec_eval
    -J): the documents the judgements do not mention (or grade below 0) are taken out of the
    ranking before cutting at k; the ideal is that of every judged document, as in ndcg@k.

    The unjudged rank 1 goes, so grade 1 rises to rank 1 of the judged list; ideal 1 too:

    >>> ndcg_judged_only([None, 1, 0], [1, 0], k=1)
    1.0
    """
    judged_list = [g for g in grades if g is not None and g >= 0]
    ideal = ideal_gains(list(judged_grades), gain)
    best = dcg(ideal, k)
    if not best:
        return 0.0
    to_gain = gain_function(gain)
    return dcg([to_gain(g) if g > 0 else 0 for g in judged_list[:k]], k) / best
