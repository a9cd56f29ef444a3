"""Interpolated precision at recall levels, the 11-point average and precision at multiples
of R, for one query, as trec_eval 10 computes them (m_iprec_at_recall.c, m_11pt_avg.c,
m_Rprec_mult.c), with their registry entries and the spellings trec_eval uses for them
(``iprec_at_recall_0.10``, ``Rprec_mult_0.20``, ``11pt_avg``).
"""

from __future__ import annotations

import math
import re
from typing import Sequence

from ..errors import OptionError
from .grades import Grades, no_relevant, num_rel_ret
from .registry import Measure, MetricSpec, register, register_group, register_spelling

#: trec_eval's default parameters
IPREC_RECALL_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
RPREC_MULTIPLES = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)


def _relevant(g, level: int) -> bool:
    return g is not None and g >= level


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



_MEMO: list = [None, {}]  # the query last scored, and what its measures share


def _shared(q, name: str, make):
    """One query's value shared by several keys (the 11 recall points, the 10 multiples of R),
    computed once: queries are scored one after another, so the memo holds the last one."""
    if _MEMO[0] is not q:
        _MEMO[0], _MEMO[1] = q, {}
    memo = _MEMO[1]
    if name not in memo:
        memo[name] = make()
    return memo[name]


def _iprec(q, k, recall):
    if recall in IPREC_RECALL_POINTS:
        values = _shared(q, "iprec", lambda: iprec_at_recall(q.grades, q.num_relevant, q.threshold))
        return values[IPREC_RECALL_POINTS.index(recall)]
    return iprec_at_recall(q.grades, q.num_relevant, q.threshold, (recall,))[0]


def _rprec_mult(q, k, multiple):
    if multiple in RPREC_MULTIPLES:
        values = _shared(q, "rprec_mult", lambda: rprec_mult(q.grades, q.num_relevant, q.threshold))
        return values[RPREC_MULTIPLES.index(multiple)]
    return rprec_mult(q.grades, q.num_relevant, q.threshold, (multiple,))[0]


_WHOLE = {"cutoff": "none", "whole_ranking": True, "groups": ("trec",)}

register(Measure("iprec_at_recall", _iprec, params={"recall": None}, undefined=no_relevant,
                 spell=lambda k, p: f"iprec_at_recall_{p['recall']:.2f}",
                 trec_eval=lambda k, p: f"iprec_at_recall_{p['recall']:.2f}" if p else None,
                 **_WHOLE,
                 description="interpolated precision at a recall level (trec_eval 10's "
                             "rounding of level * R)"))
register(Measure("11pt_avg", lambda q, k: eleven_point_average(q.grades, q.num_relevant,
                                                               q.threshold),
                 undefined=no_relevant, trec_eval=lambda k, p: "11pt_avg", **_WHOLE,
                 description="mean interpolated precision at recall 0.0, 0.1, ..., 1.0"))
register(Measure("Rprec_mult", _rprec_mult, params={"multiple": None}, undefined=no_relevant,
                 spell=lambda k, p: f"Rprec_mult_{p['multiple']:.2f}",
                 trec_eval=lambda k, p: f"Rprec_mult_{p['multiple']:.2f}" if p else None,
                 **_WHOLE, description="precision at rank multiple * R"))


def iprec_points() -> list:
    return [MetricSpec("iprec_at_recall", None, (("recall", p),)) for p in IPREC_RECALL_POINTS]


def rprec_multiples() -> list:
    return [MetricSpec("Rprec_mult", None, (("multiple", x),)) for x in RPREC_MULTIPLES]


register_group("iprec_at_recall", iprec_points)
register_group("Rprec_mult", rprec_multiples)

_POINT = re.compile(r"\s*(iprec_at_recall|rprec_mult)\s*[_@]\s*(\d*\.?\d+)\s*", re.IGNORECASE)
_ELEVEN = re.compile(r"\s*11pt_avg\s*", re.IGNORECASE)
_BARE = re.compile(r"\s*(iprec_at_recall|rprec_mult)\s*", re.IGNORECASE)


@register_spelling
def _point_spelling(name: str):
    """``iprec_at_recall_0.10`` / ``@0.1``, ``Rprec_mult_0.20`` and ``11pt_avg``; None for
    any other name.

    >>> _point_spelling("iprec_at_recall_0.1").key, _point_spelling("Rprec_mult@2").key
    ('iprec_at_recall_0.10', 'Rprec_mult_2.00')
    """
    match = _POINT.fullmatch(name)
    if match:
        value = float(match.group(2))
        if match.group(1).lower() == "iprec_at_recall":
            if not 0.0 <= value <= 1.0:
                raise OptionError("metrics", f"{name!r}: the recall level must be from 0 to 1, "
                                  f"found {match.group(2)}")
            return MetricSpec("iprec_at_recall", None, (("recall", value),))
        if not value > 0:
            raise OptionError("metrics", f"{name!r}: the multiple of R must be above 0")
        return MetricSpec("Rprec_mult", None, (("multiple", value),))
    if _BARE.fullmatch(name):
        word = name.strip()
        example = "iprec_at_recall_0.10" if word.lower().startswith("i") else "Rprec_mult_0.20"
        raise OptionError("metrics", f"{word!r} needs its level, such as {example}; in a list "
                          f"of metrics, {word} alone means trec_eval's default levels")
    if _ELEVEN.fullmatch(name):
        return MetricSpec("11pt_avg")
    return None
