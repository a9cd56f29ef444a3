"""The averaging arithmetic: a report's means (``math.fsum``, so the order of queries cannot move
a digit), the geometric mean of gm_map and gm_bpref, and trec_eval's own ``all`` line (its sums,
in its order, for ``-o trec``). Pure functions of the values, and ``aggregate``, which takes
the one a key's measure declares (its ``Measure.aggregate``).
"""

from __future__ import annotations

import math

from .keys import measure_of


def arithmetic_mean(values) -> float:
    """The mean of the defined (non-NaN) values, summed with ``math.fsum`` (correctly rounded,
    so the order of queries, and CPython against Pyodide, cannot move a digit).

    >>> arithmetic_mean([0.1, 0.2, float("nan")])
    0.15000000000000002
    """
    defined = [v for v in values if v == v]
    return math.fsum(defined) / len(defined) if defined else math.nan


#: trec_eval.h's MIN_GEO_MEAN: the floor of each value in a geometric mean
MIN_GEO_MEAN = 0.00001


def geometric_mean(values) -> float:
    """exp(mean(log(max(v, 0.00001)))), as trec_eval's te_calc_avg_meas_s_gm (meas_avg.c)
    averages gm_map: the floor keeps one query at 0 from making the whole mean 0. NaN values
    (undefined) are left out; NaN when none is left.

    >>> round(geometric_mean([0.5, 0.125]), 6), round(geometric_mean([0.5, 0.0]), 6)
    (0.25, 0.002236)
    """
    logs = [math.log(max(v, MIN_GEO_MEAN)) for v in values if v == v]
    return math.exp(math.fsum(logs) / len(logs)) if logs else math.nan


def trec_eval_mean(values: list[float], how: str, count: bool = False) -> float:
    """trec_eval's ``all`` line from its per-query values, with its arithmetic (meas_avg.c):
    C's ``+=`` query after query in the order given (trec_eval's: ids in byte order), then
    the sum divided by the number of queries; a count stays a sum (num_ret), and a geometric
    mean sums log(max(v, 0.00001)). Not ``math.fsum``: the digits trec_eval prints depend on
    its order of additions, and ``-o trec`` must print them.

    >>> trec_eval_mean([0.1, 0.2, 0.3], "mean"), trec_eval_mean([2.0, 3.0], "mean", count=True)
    (0.20000000000000004, 5.0)
    >>> round(trec_eval_mean([0.5, 0.125], "geometric"), 6), trec_eval_mean([1.0, 1.0], "sum")
    (0.25, 2.0)
    """
    total = 0.0
    if how == "geometric":
        for v in values:
            total += math.log(max(v, MIN_GEO_MEAN))
        return math.exp(total / len(values)) if values else math.nan
    for v in values:
        total += v
    if count or how == "sum":
        return total
    return total / len(values) if values else math.nan


def aggregate(key: str, values: list[float]) -> float:
    """The mean over queries that the key's measure declares (NaN values are undefined and
    left out; NaN when none is left): the arithmetic mean, summed exactly so that the order of
    queries cannot move the last digit, or the geometric mean (gm_map)."""
    measure = measure_of(key)
    if measure is not None and measure.aggregate == "geometric":
        return geometric_mean(values)
    if measure is not None and measure.aggregate == "sum":  # ir_measures' NumRel, NumQ, ...
        defined = [v for v in values if v == v]
        return math.fsum(defined) if defined else math.nan
    return arithmetic_mean(values)
