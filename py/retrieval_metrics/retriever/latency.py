"""Latency of a retriever: per-call seconds summed up as mean, median, 95th percentile, max."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from ..inputs.records import as_dict


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile by linear interpolation between closest ranks.

    Hyndman and Fan's definition 7, the default of ``numpy.percentile`` (``method="linear"``)
    and of R's ``quantile``: with the values sorted as x[0] <= ... <= x[n-1], the position is
    h = (n - 1) * q / 100 and the percentile x[floor h] + (h - floor h) * (x[floor h + 1] -
    x[floor h]).

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50)   # h = 1.5: 2 + 0.5 * (3 - 2)
    2.5
    >>> percentile([1.0, 2.0, 3.0, 4.0], 95)   # h = 2.85: 3 + 0.85 * (4 - 3)
    3.85
    """
    if not values:
        raise ValueError("percentile of no values")
    if not 0 <= q <= 100:
        raise ValueError(f"q must be between 0 and 100, found {q!r}")
    ordered = sorted(values)
    h = (len(ordered) - 1) * q / 100
    low = math.floor(h)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (h - low) * (ordered[high] - ordered[low])


class Latency(NamedTuple):
    """Seconds per retriever call over the queries of one evaluation.

    ``total`` is the sum of the calls' seconds (the retriever's work); ``wall`` the elapsed
    seconds of the whole evaluation, lower than ``total`` when queries ran on a thread pool.
    All are None (null in JSON) when no query ran.
    """

    mean: float | None
    p50: float | None
    p95: float | None
    max: float | None
    total: float | None
    wall: float | None = None

    @classmethod
    def of(cls, seconds: Sequence[float], wall: float | None = None) -> Latency:
        """The summary of per-call seconds.

        >>> Latency.of([0.25, 0.5, 0.75, 1.0], wall=2.5)
        Latency(mean=0.625, p50=0.625, p95=0.9625, max=1.0, total=2.5, wall=2.5)
        """
        if not seconds:
            return cls(None, None, None, None, None, wall)
        total = math.fsum(seconds)
        return cls(total / len(seconds), percentile(seconds, 50), percentile(seconds, 95),
                   max(seconds), total, wall)

    to_dict = as_dict
