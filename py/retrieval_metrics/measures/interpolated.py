"""Interpolated precision at recall levels, the 11-point average and precision at multiples
of R: their registry entries, trec_eval's default levels and the spellings trec_eval uses for
them (``iprec_at_recall_0.10``, ``Rprec_mult_0.20``, ``11pt_avg``). The arithmetic is
``trec_ranked``'s (m_iprec_at_recall.c, m_11pt_avg.c, m_Rprec_mult.c), read on the query.
"""

from __future__ import annotations

import re

from ..errors import OptionError
from . import trec_ranked as t
from .grades import no_relevant
from .registry import (
    About,
    Measure,
    MetricSpec,
    Names,
    Param,
    TrecEval,
    register,
    register_group,
    register_spelling,
)
from .trec_eval_rows import R_MULTIPLES, RECALL_POINTS, TrecMeasure, at_cutoffs

#: trec_eval's default parameters
IPREC_RECALL_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
RPREC_MULTIPLES = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)


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


def _iprec_at_recall(q, points):
    """trec_eval's function on the query; 0 at every point for an empty ranking (where the C's
    0 / 0 never runs: trec_eval scores a missing query as 0)."""
    return t.iprec_at_recall(q, points) if q.num_ret else [0.0] * len(points)


def _iprec(q, k, recall):
    if recall in IPREC_RECALL_POINTS:
        values = _shared(q, "iprec", lambda: _iprec_at_recall(q, IPREC_RECALL_POINTS))
        return values[IPREC_RECALL_POINTS.index(recall)]
    return _iprec_at_recall(q, (recall,))[0]


def _rprec_mult(q, k, multiple):
    if multiple in RPREC_MULTIPLES:
        values = _shared(q, "rprec_mult", lambda: t.rprec_mult(q, RPREC_MULTIPLES))
        return values[RPREC_MULTIPLES.index(multiple)]
    return t.rprec_mult(q, (multiple,))[0]


def _eleven_point(q, k):
    return t.eleven_point_average(q, IPREC_RECALL_POINTS) if q.num_ret else 0.0


_WHOLE = {"cutoff": "none", "whole_ranking": True}

register(Measure(
    "iprec_at_recall", _iprec, undefined=no_relevant, **_WHOLE,
    params={"recall": Param(None, bounds="[0, 1]", description="the recall level")},
    names=Names(spell=lambda k, p: f"iprec_at_recall_{p['recall']:.2f}"),
    about=About(groups=("trec",),
                description="interpolated precision at a recall level (trec_eval 10's "
                            "rounding of level * R)", order=540),
    trec=TrecEval(name=lambda k, p: f"iprec_at_recall_{p['recall']:.2f}" if p else None,
                 rows=(TrecMeasure("iprec_at_recall", "cut_double", at_cutoffs(t.iprec_at_recall),
                                   RECALL_POINTS),))))
register(Measure(
    "11pt_avg", _eleven_point, undefined=no_relevant, **_WHOLE,
    about=About(groups=("trec",), description="mean interpolated precision at recall 0.0, 0.1, ..., 1.0",
                order=550),
    trec=TrecEval(name=lambda k, p: "11pt_avg",
                 rows=(TrecMeasure("11pt_avg", "params",
                                   lambda q, p: [t.eleven_point_average(q.rels(), p)],
                                   RECALL_POINTS),))))
register(Measure(
    "Rprec_mult", _rprec_mult, undefined=no_relevant, **_WHOLE,
    params={"multiple": Param(None, bounds="(0, inf)", description="the multiple of R")},
    names=Names(spell=lambda k, p: f"Rprec_mult_{p['multiple']:.2f}"),
    about=About(groups=("trec",), description="precision at rank multiple * R", order=560),
    trec=TrecEval(name=lambda k, p: f"Rprec_mult_{p['multiple']:.2f}" if p else None,
                 rows=(TrecMeasure("Rprec_mult", "cut_double", at_cutoffs(t.rprec_mult),
                                   R_MULTIPLES),))))


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
