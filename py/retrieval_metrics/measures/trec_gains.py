"""trec_eval 10's graded measures over one query's ``RelList``: gain_init.c's gains (``-m
ndcg.1=3,2=9`` pairs), ndcg, ndcg_rel, Rndcg, G and rbp / rbp_resid, transcribed from its C in
its own order of floating-point operations. Each sums over the judged ranks where it can, and
keeps the C's walk over every rank (the ``_walk`` functions) where the sum cannot be had from
those ranks alone.
"""

from __future__ import annotations

import math
from functools import cmp_to_key, reduce
from operator import add
from typing import Sequence

from .trec_rel_list import NONPOOL, RelList, cdiv

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
    summed = _RndcgSum(gains[-1][1] if gains else 0.0)
    results_dcg = 0.0
    at = 0
    for i, ideal_gain in enumerate(steps):
        while at < len(gained) and gained[at][0] < i:  # the DCG of the ranks above i
            results_dcg += gained[at][1] / math.log2(gained[at][0] + 2)
            at += 1
        summed.at_rank(i, ideal_gain, results_dcg)
    if len(steps) < r.num_ret:  # ranks below the ideal ones: their DCG, once more
        for i, gain in gained[at:]:
            results_dcg += gain / math.log2(i + 2)
        summed.add(results_dcg)
    return summed.value()


class _RndcgSum:
    """Rndcg's running sum (m_Rndcg.c): the nDCG at each rank where the ideal gain changes,
    for the fast path and the C's walk alike, in the C's order of operations."""

    __slots__ = ("old", "ideal_dcg", "total", "changes")

    def __init__(self, old: float):
        self.old = old
        self.ideal_dcg = self.total = 0.0
        self.changes = 0

    def at_rank(self, i: int, ideal_gain: float, results_dcg: float) -> None:
        """Rank i (0-based) of the ideal ranking; ``results_dcg`` is the DCG above rank i."""
        if self.old != ideal_gain:
            self.add(results_dcg)
            self.old = ideal_gain
        if ideal_gain > 0.0:
            self.ideal_dcg += ideal_gain / math.log2(i + 2)

    def add(self, results_dcg: float) -> None:
        if self.ideal_dcg > 0.0:
            self.total += results_dcg / self.ideal_dcg
            self.changes += 1

    def value(self) -> float:
        return cdiv(self.total, self.changes)


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

def _discounted(gain: float, i: int) -> float:
    """The DCG term of rank i (0-based); a rank without gain adds nothing, as in the C."""
    return gain / math.log2(i + 2) if gain != 0 else 0.0


def _dcg_below(rels, gains, i: int, results_dcg: float) -> tuple[float, int]:
    """``results_dcg`` with the ranks from i to the end added one by one, and the end's rank."""
    for j in range(i, len(rels)):
        results_dcg += _discounted(_gain(rels[j], gains), j)
    return results_dcg, max(i, len(rels))


def _ndcg_parts_walk(r: RelList, gains) -> tuple[float, float]:
    """``ndcg_parts`` step by step as the C walks every rank."""
    ideal = _Ideal(gains)
    results_dcg = ideal_dcg = 0.0
    rels = r.rels
    i = 0
    n = len(rels)
    while i < n and ideal.gain > 0.0:
        gain = _gain(rels[i], gains)
        results_dcg += _discounted(gain, i)
        ideal_gain = ideal.step()
        if ideal_gain > 0.0:
            ideal_dcg += ideal_gain / math.log2(i + 2)
        i += 1
    results_dcg, i = _dcg_below(rels, gains, i, results_dcg)
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
        results_dcg += _discounted(gain, i)
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
        results_dcg += _discounted(gain, i)
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
    summed = _RndcgSum(ideal.gain)
    results_dcg = 0.0
    rels = r.rels
    n = len(rels)
    i = 0
    while i < n and ideal.gain > 0.0:
        gain = _gain(rels[i], gains)
        summed.at_rank(i, ideal.step(), results_dcg)
        results_dcg += _discounted(gain, i)
        i += 1
    if i < n:
        results_dcg, i = _dcg_below(rels, gains, i, results_dcg)
        summed.add(results_dcg)
    while ideal.gain > 0.0:
        summed.at_rank(i, ideal.step(), results_dcg)
        i += 1
    return summed.value()


def _g_measure_walk(r: RelList, gains) -> float:
    """``g_measure`` step by step as the C walks every rank: the ranking's and the ideal
    ranking's together, then the rest of whichever is longer."""
    ideal = _Ideal(gains)
    results_g = sum_results = sum_ideal = sum_cost = 0.0
    min_cost = 1.0
    for rel in r.rels:
        gain = _gain(rel, gains)
        sum_results += gain
        ideal_gain = ideal.step() if ideal.gain > 0.0 else 0.0
        if ideal_gain > 0.0:
            sum_ideal += ideal_gain
        sum_cost += ideal_gain if ideal_gain >= min_cost else min_cost
        if gain != 0:
            results_g += gain / math.log2(2 + sum_cost - sum_results)
    while ideal.gain > 0.0:
        ideal_gain = ideal.step()
        if ideal_gain > 0.0:
            sum_ideal += ideal_gain
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
