"""Tukey's HSD test as ranx runs it (``compare(stat_test="tukey")``): scipy's ``tukey_hsd``
over the runs' per-query scores as independent groups, whose p-values are the studentized range
distribution's survival function, ``studentized_range.sf(q, k, df)``.

scipy 1.17.1 computes that as 1 - its CDF, the double integral (Lund and Lund, 1983)

    CDF(q; k, df) = ∫_0^∞ ∫_-∞^∞ k g_df(s) φ(z) [Φ(z + q s) - Φ(z)]^(k-1) dz ds,

g_df the density of sqrt(chi²_df / df), by QUADPACK to 1e-11 (``epsabs``) and 1e-12
(``epsrel``); from df = 100,000 it takes the limit df = ∞ (one integral, s = 1). Here the same
integrals are taken with Gauss-Legendre panels: z over [-8.5, 8.5] (beyond it φ(z) < 1e-16, and
the bracket is at most 1) and s over the window where g_df is within e^-45 of its peak, each
panel exact for polynomials of degree 23; the nodes of the inner integral are fixed, so each
outer node costs one ``erfc`` per inner node. ``tests/test_studentized_range.py`` holds the
p-values within 1e-9 of scipy's (its own error is of that order) across k, df and q.
"""

from __future__ import annotations

import math

from ..numpy_order import numpy_mean, numpy_sum

__all__ = ["sf", "tukey_hsd_p_values"]

_ORDER = 12  # Gauss-Legendre points per panel
_Z_PANELS = 17  # over [-8.5, 8.5]: panels of width 1
_S_PANELS = 24
_WINDOW = 45.0  # log-density below the peak where the outer integral stops
ASYMPTOTIC_DF = 100_000  # scipy's switch to df = infinity


def _legendre(n: int) -> list[tuple[float, float]]:
    """Gauss-Legendre nodes and weights on [-1, 1] (Newton's method on P_n)."""
    out = []
    for i in range(1, n + 1):
        x = math.cos(math.pi * (i - 0.25) / (n + 0.5))
        for _ in range(100):
            p0, p1 = 1.0, x
            for j in range(2, n + 1):
                p0, p1 = p1, ((2 * j - 1) * x * p1 - (j - 1) * p0) / j
            derivative = n * (x * p1 - p0) / (x * x - 1)
            step = p1 / derivative
            x -= step
            if abs(step) < 1e-16:
                break
        out.append((x, 2 / ((1 - x * x) * derivative * derivative)))
    return out


_NODES = _legendre(_ORDER)


def _panels(low: float, high: float, count: int) -> list[tuple[float, float]]:
    """(point, weight) of Gauss-Legendre on ``count`` equal panels of [low, high]."""
    width = (high - low) / count
    out = []
    for p in range(count):
        middle = low + (p + 0.5) * width
        out += [(middle + 0.5 * width * x, 0.5 * width * w) for x, w in _NODES]
    return out


def _cdf_normal(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


# the inner integral's nodes: z, Φ(z) and the weight times φ(z), the same for every s
_Z = [(z, _cdf_normal(z), w * math.exp(-0.5 * z * z) / math.sqrt(2 * math.pi))
      for z, w in _panels(-8.5, 8.5, _Z_PANELS)]


def _range_cdf(w: float, k: float) -> float:
    """P(the range of k standard normals <= w) = k ∫ φ(z) [Φ(z + w) - Φ(z)]^(k-1) dz."""
    total = 0.0
    for z, below, weight in _Z:
        total += weight * (_cdf_normal(z + w) - below) ** (k - 1)
    return k * total


def _log_density(s: float, df: float) -> float:
    """log g_df(s), the density of sqrt(chi²_df / df) (df >= 1)."""
    log_s = (df - 1) * math.log(s) if df != 1 else 0.0
    return ((df / 2) * math.log(df) - math.lgamma(df / 2) - (df / 2 - 1) * math.log(2)
            + log_s - df * s * s / 2)


def _window(df: float) -> tuple[float, float]:
    """Where g_df is within e^-_WINDOW of its peak (at sqrt((df - 1) / df))."""
    peak = math.sqrt((df - 1) / df)
    floor = _log_density(peak, df) - _WINDOW
    spread = 1 / math.sqrt(2 * df)

    def edge(step: float) -> float:
        inside, outside = peak, peak + step
        while outside > 0 and _log_density(outside, df) > floor:
            inside, outside, step = outside, outside + step, step * 2
        if outside <= 0:
            return 0.0
        for _ in range(60):  # bisection to the edge
            middle = 0.5 * (inside + outside)
            inside, outside = (middle, outside) if _log_density(middle, df) > floor \
                else (inside, middle)
        return outside

    return (edge(-spread) if peak > 0 else 0.0), edge(spread)


def cdf(q: float, k: float, df: float) -> float:
    """The studentized range distribution's CDF at q, for k groups and df degrees of freedom."""
    if q <= 0:
        return 0.0
    if not df >= 1:
        return math.nan
    if df >= ASYMPTOTIC_DF:
        return min(1.0, _range_cdf(q, k))
    low, high = _window(df)
    # the range's CDF climbs from 0 to 1 while q s goes from 0 to about 8: where that happens
    # inside the window (a large q, a small df), it has panels of its own
    turn = 8.0 / q
    parts = [(low, turn, _S_PANELS), (turn, high, _S_PANELS)] if low < turn < high \
        else [(low, high, _S_PANELS)]
    total = 0.0
    for start, end, count in parts:
        for s, weight in _panels(start, end, count):
            if s > 0:
                total += weight * math.exp(_log_density(s, df)) * _range_cdf(q * s, k)
    return min(1.0, max(0.0, total))


def sf(q: float, k: float, df: float) -> float:
    """1 - CDF, as scipy's ``studentized_range.sf`` gives it (NaN for a NaN q)."""
    if q != q:
        return math.nan
    return 1.0 - cdf(q, k, df)


def tukey_hsd_p_values(groups: list[list[float]]) -> list[list[float]]:
    """scipy's ``tukey_hsd(*groups).pvalue`` (equal variances): the matrix of p-values of every
    pair of groups, 1 on the diagonal."""
    count = len(groups)
    sizes = [len(g) for g in groups]
    means = [numpy_mean(g) for g in groups]
    variances = [numpy_sum([(x - m) * (x - m) for x in g]) / (len(g) - 1)
                 for g, m in zip(groups, means)]
    observations = sum(sizes)
    mse = numpy_sum([v * (n - 1) for v, n in zip(variances, sizes)]) / (observations - count)
    df = observations - count
    p_values = [[1.0] * count for _ in range(count)]
    for i in range(count):
        for j in range(count):
            if i == j:
                continue
            normalize = (2 / sizes[0] if len(set(sizes)) == 1
                         else 1 / sizes[j] + 1 / sizes[i])
            error = math.sqrt(normalize * mse / 2)
            difference = abs(means[i] - means[j])
            q = difference / error if error else (math.nan if difference == 0 else math.inf)
            p_values[i][j] = 0.0 if q == math.inf else sf(q, count, df)
    return p_values
