"""The randomised Tukey HSD test: every pair of systems at once, paired by topic.

Carterette ("Multiple testing in statistical analysis of systems-based information retrieval
experiments", TOIS 2012) and Sakai ("Statistical reform in information retrieval?", SIGIR
Forum 2014): under the null hypothesis that the m systems are exchangeable on each topic, any
permutation of a topic's row of m scores is as likely as the observed one. For each of B
random permutations (one per topic, drawn independently) the test statistic is the range of
the systems' means, max - min; the p-value of a pair is the share of permutations whose range
reaches the pair's observed |difference of means|. Because every pair is compared with the
distribution of the largest difference, the p-values already control the family-wise error
over the pairs: no further correction.

Sampled p-values are ``(b + 1) / (B + 1)`` (the observed order counted as one of the
permutations; Phipson and Smyth 2010), with Monte Carlo standard error sqrt(p (1 - p) / B).
When the permutations are no more than ``samples``, all (m!)^n are counted instead (exact).
"""

from __future__ import annotations

import itertools
import math
import random
from bisect import bisect_left
from operator import getitem
from typing import NamedTuple

__all__ = ["TukeyResult", "randomised_tukey_hsd"]

_RELATIVE_SLACK = 1e-12  # as the sign-flip test: float noise must not drop the observed order
_TABLE_MAX_SYSTEMS = 6  # up to 6! = 720 orders per topic are tabulated; beyond, shuffled


class TukeyResult(NamedTuple):
    """``p_values[(i, j)]`` for every pair of system indices i < j; ``method`` "exact" or
    "sampled"; ``permutations``: how many were counted (B, or (m!)^n when exact)."""

    p_values: dict
    n: int
    method: str
    permutations: int
    seed: int | None

    def mc_error(self, p: float) -> float:
        """The Monte Carlo standard error of a sampled p-value (0 when exact)."""
        if self.method == "exact":
            return 0.0
        return math.sqrt(p * (1.0 - p) / self.permutations)


def randomised_tukey_hsd(rows, *, samples: int = 10_000, seed: int = 0) -> TukeyResult:
    """``rows``: one list of m system scores per topic (every topic scored by every system).

    >>> r = randomised_tukey_hsd([[0.0, 1.0], [0.0, 1.0]])   # 2 systems, 2 topics: 4 orders
    >>> r.method, r.p_values[(0, 1)]
    ('exact', 0.5)
    """
    rows = [tuple(float(v) for v in row) for row in rows]
    n = len(rows)
    m = len(rows[0]) if rows else 0
    pairs = [(i, j) for i in range(m) for j in range(i + 1, m)]
    if n == 0 or m < 2:
        return TukeyResult({pair: None for pair in pairs}, n, "exact", 0, None)
    sums = [math.fsum(column) for column in zip(*rows)]
    scale = math.fsum(abs(v) for row in rows for v in row)
    observed = {(i, j): abs(sums[i] - sums[j]) - _RELATIVE_SLACK * scale for i, j in pairs}
    orders = math.factorial(m)
    if orders ** n <= samples:
        tables = [list(itertools.permutations(row)) for row in rows]
        ranges = sorted(_range(list(map(sum, zip(*choice))))
                        for choice in itertools.product(*tables))
        total = len(ranges)
        p = {pair: (total - bisect_left(ranges, observed[pair])) / total for pair in pairs}
        return TukeyResult(p, n, "exact", total, None)
    ranges = sorted(_sampled_ranges(rows, m, samples, seed))
    p = {pair: (samples - bisect_left(ranges, observed[pair]) + 1) / (samples + 1)
         for pair in pairs}
    return TukeyResult(p, n, "sampled", samples, seed)


def _range(sums) -> float:
    return max(sums) - min(sums)


def _sampled_ranges(rows, m: int, samples: int, seed: int) -> list[float]:
    """The range of the column sums under ``samples`` random per-topic permutations.

    With few systems each topic's m! orders are tabulated once, so a permutation of all
    topics is n table look-ups (``random.choices`` draws the n indices at C speed) and one
    ``zip`` of the chosen rows."""
    rng = random.Random(seed)
    out = []
    if m <= _TABLE_MAX_SYSTEMS:
        tables = [list(itertools.permutations(row)) for row in rows]
        count = range(math.factorial(m))
        n = len(rows)
        choices = rng.choices
        for _ in range(samples):
            sums = list(map(sum, zip(*map(getitem, tables, choices(count, k=n)))))
            out.append(max(sums) - min(sums))
        return out
    shuffle = rng.shuffle
    work = [list(row) for row in rows]
    for _ in range(samples):
        for row in work:
            shuffle(row)
        sums = list(map(sum, zip(*work)))
        out.append(max(sums) - min(sums))
    return out
