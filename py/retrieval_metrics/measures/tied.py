"""Expected values over the orders of tied documents (McSherry and Najork, "Computing
information retrieval performance measures efficiently in the presence of tied scores", ECIR
2008), in closed form: the arithmetic behind ``ties="average"``.

Each ``expected_*(q, binary, blocks, k)`` reads a ``grades.QueryGrades``, its 0/1 relevance
per rank (``binary``), and ``blocks``: every rank's block, a run of tied documents or a single
untied one (``blocks_of``). A measure's registry entry names its function (``tie_average``),
so the scorer needs no list of measures.

>>> q = QueryGrades([b"a", b"b", b"c"], {b"a": 1})
>>> expected_precision(q, [1, 0, 0], blocks_of(3, ((0, 3),)), 1)   # one relevant of 3 tied
0.3333333333333333
"""

from __future__ import annotations

import math
from math import comb

from .grades import QueryGrades, gain_function, ideal_gains  # noqa: F401 (QueryGrades: the doctest)


def blocks_of(n: int, groups) -> list[tuple[int, int]]:
    """Every position in a block: the tied runs, and each untied document alone."""
    blocks, at = [], 0
    for start, end in groups:
        blocks.extend((i, i + 1) for i in range(at, start))
        blocks.append((start, end))
        at = end
    blocks.extend((i, i + 1) for i in range(at, n))
    return blocks


def _expected_count(values, blocks, k) -> float:
    """E[sum of values over the top k]: a block straddling k gives its mean per position in it."""
    total = []
    for start, end in blocks:
        if k is not None and start >= k:
            break
        inside = (end if k is None else min(end, k)) - start
        total.append(math.fsum(values[start:end]) * inside / (end - start))
    return math.fsum(total)


def expected_precision(q, binary, blocks, k):
    return _expected_count(binary, blocks, k) / k


def expected_recall(q, binary, blocks, k):
    return _expected_count(binary, blocks, k) / q.num_relevant


def expected_rprec(q, binary, blocks, k):
    return _expected_count(binary, blocks, q.num_relevant) / q.num_relevant


def expected_judged(q, binary, blocks, k):
    shown = min(k, len(q.grades))
    if not shown:
        return 0.0
    return _expected_count([0 if g is None else 1 for g in q.grades], blocks, k) / shown


def expected_hit_rate(q, binary, blocks, k):
    """1 - P(no relevant document in the top k): hypergeometric in each block cut by k."""
    none = 1.0
    for start, end in blocks:
        if start >= k:
            break
        n, r = end - start, sum(binary[start:end])
        drawn = min(end, k) - start
        none *= comb(n - r, drawn) / comb(n, drawn)
        if not none:
            break
    return 1.0 - none


def expected_rr(q, binary, blocks, k):
    """In the first block holding a relevant document (n tied, r relevant), the first relevant
    one is at its j-th place with probability C(n - j, r - 1) / C(n, r)."""
    for start, end in blocks:
        if k is not None and start >= k:
            return 0.0
        n, r = end - start, sum(binary[start:end])
        if not r:
            continue
        total = comb(n, r)
        last = n - r + 1 if k is None else min(n - r + 1, k - start)
        return math.fsum(comb(n - j, r - 1) / total / (start + j) for j in range(1, last + 1))
    return 0.0


def expected_ap(q, binary, blocks, k):
    """Sum over places i <= k of P(relevant at i) * E[relevant in the top i | relevant at i] / i:
    in a block of n tied with r relevant after B relevant, place j gives
    (r / n) * (1 + B + (j - 1)(r - 1) / (n - 1)) / i."""
    terms, before = [], 0
    for start, end in blocks:
        if k is not None and start >= k:
            break
        n, r = end - start, sum(binary[start:end])
        if r:
            stop = end if k is None else min(end, k)
            for i in range(start + 1, stop + 1):
                j = i - start
                within = (j - 1) * (r - 1) / (n - 1) if n > 1 else 0.0
                terms.append(r / n * (1 + before + within) / i)
        before += r
    return math.fsum(terms) / q.num_relevant


def expected_ndcg(q, binary, blocks, k):
    """DCG is a sum over places, so its expectation spreads each block's mean gain over it."""
    to_gain = gain_function(q.gain)
    gains = [to_gain(g) if g is not None and g > 0 else 0 for g in q.grades]
    depth = len(gains) if k is None else min(k, len(gains))
    spread = list(gains)
    for start, end in blocks:
        if end - start > 1:
            spread[start:end] = [math.fsum(gains[start:end]) / (end - start)] * (end - start)
    best = _dcg(ideal_gains(q.judged.values(), q.gain), k)
    return _dcg(spread[:depth], k) / best if best else 0.0


def _dcg(gains, k):
    top = gains if k is None else gains[:k]
    return math.fsum(g / math.log2(i + 2) for i, g in enumerate(top))


