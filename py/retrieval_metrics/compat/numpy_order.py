"""Float sums in numpy's order, in the standard library: the drop-ins' means equal the peers'
(ranx's ``np.mean``, pytrec_eval's ``compute_aggregated_measure``) to the last bit, where a
plain running sum or ``math.fsum`` differs in the last digit on about half of them."""

from __future__ import annotations

import math

__all__ = ["numpy_mean", "numpy_std", "numpy_sum"]


def numpy_sum(values: list[float]) -> float:
    """A float64 sum in numpy's order (``np.add.reduce`` on a contiguous array: numpy's pairwise
    sum, eight accumulators per block of up to 128 values), so a mean equals ``np.mean``'s to
    the last bit (checked against numpy on arrays of 1 to 5,000 values in the tests).

    >>> numpy_sum([0.1] * 10), sum([0.1] * 10), numpy_sum([])
    (1.0, 0.9999999999999999, 0.0)
    """
    return _pairwise(values, 0, len(values)) + 0.0


def _pairwise(a: list[float], start: int, n: int) -> float:
    """numpy's ``pairwise_sum_DOUBLE`` (loops_utils.h) over ``a[start:start + n]``."""
    if n < 8:
        total = 0.0
        for i in range(start, start + n):
            total += a[i]
        return total
    if n <= 128:
        r = a[start:start + 8]
        i = 8
        while i < n - (n % 8):
            for j in range(8):
                r[j] += a[start + i + j]
            i += 8
        total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for k in range(i, n):
            total += a[start + k]
        return total
    half = n // 2
    half -= half % 8
    return _pairwise(a, start, half) + _pairwise(a, start + half, n - half)


def numpy_mean(values: list[float]) -> float:
    """``np.mean``: numpy's sum over the count (NaN for none)."""
    return numpy_sum(values) / len(values) if values else math.nan


def numpy_std(values: list[float]) -> float:
    """``np.std`` (the population standard deviation, ``ddof=0``), in numpy's order."""
    mean = numpy_mean(values)
    return math.sqrt(numpy_mean([(v - mean) * (v - mean) for v in values]))
