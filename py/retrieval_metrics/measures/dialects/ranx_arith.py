"""ranx's arithmetic where it differs from the calculator's own measures (ranx 0.3's numba
functions, each docstring naming its source), with hand-worked doctests.
"""

from __future__ import annotations

import math

from ..grades import Grades, num_rel_ret


def f1_at_k(grades: Grades, num_relevant: int, k: int | None, level: int = 1) -> float:
    """ranx's f1@k: 2PR / (P + R) with P = hits / k, R = hits / |R| (k None: the ranking's
    length); 0 without a relevant document or hit.

    >>> f1_at_k([1, 0, 1, 0], 4, k=4)  # P = R = 1/2
    0.5
    """
    k = k or len(grades)
    if not num_relevant or not k:
        return 0.0
    hits = num_rel_ret(grades[:k], level)
    p, r = hits / k, hits / num_relevant
    return 2 * (p * r) / (p + r) if p + r else 0.0


def graded_gains(grades: Grades, level: int, burges: bool) -> list[float]:
    """ranx's gains: the grade (Jarvelin) or 2^grade - 1 (Burges) of a document graded at
    least ``level``, else 0.

    >>> graded_gains([2, 1, None, 3], 2, False), graded_gains([2, 1, None, 3], 2, True)
    ([2, 0, 0, 3], [3, 0, 0, 7])
    """
    return [((2 ** g - 1) if burges else g) if g is not None and g >= level else 0
            for g in grades]


def ranx_dcg(grades: Grades, k: int | None, level: int = 1, burges: bool = False) -> float:
    """ranx's dcg@k / dcg_burges@k: gains of the documents graded at least ``level``,
    discounted by log2(rank + 1), over the top k (k None: the whole ranking), summed in
    ranx's order (numba's ``np.sum``: rank after rank), so each value is ranx's to the bit.

    >>> round(ranx_dcg([3, 0, 2], 3), 6)  # 3 + 2 / log2(4)
    4.0
    """
    top = grades[:k] if k else grades
    total = 0.0  # ranx's np.sum under numba: one addition after another, in rank order
    for rank, gain in enumerate(graded_gains(top, level, burges), 2):
        total += gain / math.log2(rank)
    return total


def ranx_ndcg(grades: Grades, judged_grades, k: int | None, level: int = 1,
              burges: bool = False) -> float:
    """ranx's ndcg@k / ndcg_burges@k: dcg@k over the dcg@k of the judgements graded at least
    ``level``, best first (documents graded below the level gain nothing in either); 0 when
    the ideal is 0.

    >>> round(ranx_ndcg([1, 2], [2, 1], k=2), 6)  # (1 + 2/log2 3) / (2 + 1/log2 3)
    0.859719
    """
    ideal = sorted((g for g in judged_grades if g >= level), reverse=True)
    best = ranx_dcg(ideal, k or None, level, burges) if ideal else 0.0
    if not best:
        return 0.0
    return ranx_dcg(grades, k, level, burges) / best


def ranx_bpref(grades: Grades, judged_grades, level: int = 1) -> float:
    """ranx's bpref: over the ranking without the documents the judgements do not mention,
    each relevant one scores 1 - min(non-relevant above it, R) / min(R, N), summed and
    divided by R; N counts every judgement below the level (negative grades too, unlike
    trec_eval's). NaN where ranx divides 0 by 0 (N = 0: no judged non-relevant document).
    0 without a relevant document: ranx's kernel raises dividing by R = 0 inside its loop over
    the queries, and the query keeps the 0 its result array started with (docs/names.md: with
    10 queries or more ranx runs that loop in parallel threads, and the failure leaves other
    queries at 0 as well; this gives each of them its own value).

    >>> ranx_bpref([1, 0, None, 1], [1, 1, 0])  # (1 + (1 - 1/1)) / 2
    0.5
    >>> ranx_bpref([0, 0], [0, 0])
    0.0
    """
    judged_grades = list(judged_grades)
    relevant = sum(1 for g in judged_grades if g >= level)
    nonrel = len(judged_grades) - relevant
    total = 0.0
    above = 0
    for g in grades:
        if g is None:
            continue
        if g < level:
            above += 1
            continue
        bound = min(relevant, nonrel)
        if bound == 0:
            part = min(above, relevant)
            total += math.nan if part == 0 else -math.inf
            continue
        total += 1.0 - min(above, relevant) / bound
    return total / relevant if relevant else 0.0


def ranx_rbp(grades: Grades, p: float, level: int = 1) -> float:
    """ranx's rbp.P: graded, (1 - p) times the sum of grade * p^(i-1) over the documents
    graded at least ``level`` (the grade itself, not a 0-1 gain), the whole ranking.

    >>> ranx_rbp([2, 0, 1], 0.5)  # 0.5 * (2 + 0.25)
    1.125
    """
    total = 0.0  # ranx's order: sum(grades * p ** arange(n)), rank after rank
    for i, g in enumerate(grades):
        if g is not None and g >= level:
            total += g * int_power(p, i)
    return (1.0 - p) * total


def int_power(base: float, exponent: int) -> float:
    """``base ** exponent`` as numba computes a float to a whole power (ranx's ``p ** arange``):
    by squaring, so each power is numba's to the bit (libm's pow differs in the last bit).

    >>> int_power(0.5, 3), int_power(0.95, 0), int_power(0.8, 7) == 0.8 ** 7
    (0.125, 1.0, False)

    Above 65,536 numba's ``int_power`` calls ``pow`` itself, and so does this.
    """
    if exponent > 0x10000:
        return math.pow(base, float(exponent))
    result = 1.0
    while exponent:
        if exponent & 1:
            result *= base
        exponent >>= 1
        base *= base
    return result
