"""The statistics a many-run comparison needs, in the standard library (so they run in the page).

Student's t distribution (CDF, survival function, quantile) through the regularised incomplete
beta function, evaluated by its continued fraction (modified Lentz); the t confidence interval of
a mean; the paired t-test; a seeded paired bootstrap of the mean difference (percentile or BCa
interval, and a two-sided p-value from the bootstrap distribution shifted to the null); and the
Holm, Bonferroni and Benjamini-Hochberg corrections, computed operation for operation as
statsmodels' ``multipletests`` computes them, so the corrected p-values agree exactly.

Every function is checked against scipy / statsmodels in tests/test_stats.py.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from operator import itemgetter
from statistics import NormalDist
from typing import NamedTuple

__all__ = [
    "BootstrapResult",
    "CORRECTIONS",
    "TTestResult",
    "adjust_p_values",
    "betainc",
    "bootstrap_means",
    "mean",
    "paired_bootstrap",
    "paired_t_test",
    "quantile",
    "sample_sd",
    "t_cdf",
    "t_interval",
    "t_ppf",
    "t_sf",
]

_EPS = 1e-16
_TINY = 1e-300
_MAX_TERMS = 10_000


def mean(values) -> float:
    """The exactly rounded mean (``math.fsum``).

    >>> mean([0.25, 0.5, 1.5])
    0.75
    """
    values = list(values)
    return math.fsum(values) / len(values)


def sample_sd(values) -> float:
    """Standard deviation with n - 1 in the denominator (numpy's ``ddof=1``); needs n >= 2.

    >>> sample_sd([1.0, 2.0, 3.0, 4.0])
    1.2909944487358056
    """
    values = list(values)
    if min(values) == max(values):
        return 0.0  # exactly: the mean of equal values can differ from them in the last bit
    m = mean(values)
    return math.sqrt(math.fsum((v - m) ** 2 for v in values) / (len(values) - 1))


def betainc(a: float, b: float, x: float, y: float | None = None) -> float:
    """The regularised incomplete beta function I_x(a, b), for a, b > 0 and 0 <= x <= 1.

    ``y`` is ``1 - x`` when the caller knows it more precisely than ``1 - x`` would be (the t
    distribution passes t^2 / (df + t^2)). The continued fraction converges quickly for
    ``x < (a + 1) / (a + b + 2)``; above that, I_x(a, b) = 1 - I_{1-x}(b, a).

    >>> round(betainc(2.0, 3.0, 0.4), 12)   # 1 - (1 - x)^4 - 4 x (1 - x)^3 = 0.5248
    0.5248
    """
    if y is None:
        y = 1.0 - x
    if not (a > 0 and b > 0 and 0.0 <= x <= 1.0):
        raise ValueError(f"betainc needs a, b > 0 and 0 <= x <= 1, found {a}, {b}, {x}")
    if x == 0.0:
        return 0.0
    if y == 0.0:
        return 1.0
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(_log_front(a, b, x, y)) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(_log_front(b, a, y, x)) * _beta_fraction(b, a, y) / b


def _log_front(a: float, b: float, x: float, y: float) -> float:
    """log(x^a y^b / B(a, b)), with log1p where x or y is close to 1."""
    log_x = math.log1p(-y) if y < 0.5 else math.log(x)
    log_y = math.log1p(-x) if x < 0.5 else math.log(y)
    return _log_inverse_beta(a, b) + a * log_x + b * log_y


def _log_inverse_beta(a: float, b: float) -> float:
    """-log B(a, b). For b = 1/2 and large a (the t distribution with many degrees of freedom)
    the three lgamma values are large and nearly cancel, so log(Gamma(a + 1/2) / Gamma(a)) is
    taken from its asymptotic series instead, accurate to ~1e-17 for a >= 50."""
    if a == 0.5:
        a, b = b, a  # B(a, b) is symmetric
    if b == 0.5 and a >= 50.0:
        inv = 1.0 / a
        inv2 = inv * inv
        # log Gamma(a + 1/2) - log Gamma(a) = 1/2 log a - 1/(8a) + 1/(192 a^3) - 1/(640 a^5)
        #                                     + 17/(14336 a^7) - ...
        ratio = (0.5 * math.log(a) - inv / 8.0
                 + inv * inv2 * (1.0 / 192.0 - inv2 * (1.0 / 640.0 - inv2 * 17.0 / 14336.0)))
        return ratio - 0.5 * math.log(math.pi)
    return math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of I_x(a, b) by the modified Lentz method (Numerical Recipes
    6.4, ``betacf``), to full double precision."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, _MAX_TERMS + 1):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _TINY else _TINY
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _TINY else _TINY
        step = d * c
        h *= step
        if abs(step - 1.0) < _EPS:
            return h
    raise ArithmeticError(f"incomplete beta continued fraction did not converge (a={a}, b={b}, x={x})")


def _check_df(df: float) -> None:
    if not df > 0 or math.isinf(df):
        raise ValueError(f"degrees of freedom must be a positive finite number, found {df!r}")


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom.

    >>> round(t_sf(2.0, 10), 12)   # scipy.stats.t.sf(2, 10)
    0.036694017385
    """
    _check_df(df)
    if math.isnan(t):
        return math.nan
    if math.isinf(t):
        return 0.0 if t > 0 else 1.0
    t2 = t * t
    # P(|T| > |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2)
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t2), t2 / (df + t2))
    return tail if t > 0 else 1.0 - tail


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom.

    >>> t_cdf(0.0, 3)
    0.5
    >>> round(t_cdf(-2.0, 10), 12)
    0.036694017385
    """
    return t_sf(-t, df)


def _t_pdf(t: float, df: float) -> float:
    log_norm = (math.lgamma((df + 1.0) / 2.0) - math.lgamma(df / 2.0)
                - 0.5 * math.log(df * math.pi))
    return math.exp(log_norm - (df + 1.0) / 2.0 * math.log1p(t * t / df))


@lru_cache(maxsize=256)
def t_ppf(q: float, df: float) -> float:
    """The quantile: the t with ``t_cdf(t, df) == q``.

    Solved on the lower tail (where the CDF is computed to full relative precision) by Newton
    steps kept inside a bracket that shrinks by bisection whenever a step would leave it.

    >>> round(t_ppf(0.975, 10), 10)   # scipy.stats.t.ppf(0.975, 10) = 2.2281388519649385
    2.228138852
    """
    _check_df(df)
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"a probability must be between 0 and 1, found {q!r}")
    if q == 0.0:
        return -math.inf
    if q == 1.0:
        return math.inf
    if q == 0.5:
        return 0.0
    if q > 0.5:
        return -t_ppf(1.0 - q, df) if 1.0 - q != q else 0.0
    # lower tail: t < 0 and t_cdf(t) = q
    high = 0.0
    low = -1.0
    while t_cdf(low, df) > q:
        high = low
        low *= 2.0
        if low < -1e300:
            return -math.inf
    t = max(low, min(high, NormalDist().inv_cdf(q)))
    for _ in range(200):
        f = t_cdf(t, df) - q
        if f == 0.0:
            return t
        if f > 0:
            high = t
        else:
            low = t
        slope = _t_pdf(t, df)
        step = f / slope if slope > 0 else math.inf
        new = t - step
        if not (low < new < high):
            new = low + (high - low) / 2.0
        if abs(new - t) <= 4e-16 * abs(t) or high - low <= 4e-16 * abs(low):
            return new
        t = new
    return t


def t_interval(values, confidence: float = 0.95) -> tuple[float, float, float] | None:
    """(mean, low, high): the t confidence interval of the mean over ``values``, as
    ``scipy.stats.t.interval(confidence, n - 1, loc=mean, scale=sd / sqrt(n))``.

    None with fewer than 2 values (no spread to estimate). With no spread at all (every value
    equal) the interval is the mean itself (scipy returns nan there: its scale must be > 0).

    >>> [round(v, 6) for v in t_interval([1.0, 2.0, 3.0, 4.0])]   # 2.5 -+ 3.182446 * 0.645497
    [2.5, 0.44574, 4.55426]
    """
    values = list(values)
    n = len(values)
    if n < 2:
        return None
    m = mean(values)
    sd = sample_sd(values)
    if sd == 0.0:
        return (m, m, m)
    half = t_ppf(0.5 + confidence / 2.0, n - 1) * (sd / math.sqrt(n))
    return (m, m - half, m + half)


class TTestResult(NamedTuple):
    """``statistic`` (t), ``df`` (n - 1) and the two-sided ``p_value``; both None when the
    differences have no spread (scipy gives nan or infinity there)."""

    statistic: float | None
    df: int
    p_value: float | None


def paired_t_test(deltas) -> TTestResult:
    """Two-sided paired t-test on per-query differences (candidate - baseline), as
    ``scipy.stats.ttest_rel(candidate, baseline)``. Needs at least 2 differences.

    >>> r = paired_t_test([0.1, 0.2, 0.3, -0.1])
    >>> round(r.statistic, 10), r.df, round(r.p_value, 10)   # mean 0.125, sd 0.1707825
    (1.4638501094, 3, 0.2394425986)
    """
    values = [float(d) for d in deltas]
    n = len(values)
    if n < 2:
        return TTestResult(None, max(n - 1, 0), None)
    sd = sample_sd(values)
    if sd == 0.0:
        return TTestResult(None, n - 1, None)
    t = mean(values) / (sd / math.sqrt(n))
    return TTestResult(t, n - 1, min(1.0, 2.0 * t_sf(abs(t), n - 1)))


def quantile(sorted_values: list[float], q: float) -> float:
    """The "linear" (Hyndman and Fan type 7) quantile of sorted values, computed as
    ``scipy.stats.quantile`` computes it (the function scipy's bootstrap reads its interval
    with), so the same sample gives the same float.

    >>> quantile([1.0, 2.0, 3.0, 4.0], 0.25)
    1.75
    """
    n = len(sorted_values)
    position = q * n + (1.0 - q)        # 1-based, as scipy's _quantile_hf
    above = position // 1
    below = above - 1
    fraction = position % 1
    if below < 0:
        fraction = 0.0
    below = int(min(max(below, 0), n - 1))
    above = int(min(max(above, 0), n - 1))
    return (1.0 - fraction) * sorted_values[below] + fraction * sorted_values[above]


class BootstrapResult(NamedTuple):
    """A paired bootstrap of the mean difference.

    ``low``/``high``: the ``confidence`` interval by ``method`` ("percentile" or "bca", scipy's
    names); ``p_value``: two-sided, from the bootstrap distribution shifted to mean 0
    (Efron and Tibshirani 1993, 16.4; Sakai 2006), ``(hits + 1) / (samples + 1)``; None
    when every difference is the same non-zero value (the distribution has no spread, and
    every resample would count as extreme), 1.0 when every difference is 0.
    """

    low: float | None
    high: float | None
    p_value: float | None
    samples: int
    seed: int
    method: str


BOOTSTRAP_METHODS = ("bca", "percentile")


def paired_bootstrap(deltas, *, samples: int = 10_000, seed: int = 0, confidence: float = 0.95,
                     method: str = "bca") -> BootstrapResult:
    """Resamples the queries ``samples`` times (``random.Random(seed)``): each resample's mean
    difference forms the bootstrap distribution. The confidence interval is read from it as
    scipy's ``bootstrap(..., method=...)`` reads it (BCa by default: bias-corrected and
    accelerated, Efron and Tibshirani 1993, 14.3). The p-value counts the resamples whose mean,
    moved by ``-mean(deltas)`` (the null: no difference), is at least as far from 0 as the
    observed mean. numpy's generator cannot be replayed in pure Python, so the draws differ
    from scipy's; tests/test_stats.py checks the interval against scipy's within Monte Carlo
    error.

    >>> r = paired_bootstrap([0.2, 0.1, 0.3, 0.2, 0.25, 0.15], samples=2000, seed=1)
    >>> r.p_value < 0.01, r.low < 0.2 < r.high
    (True, True)
    """
    if method not in BOOTSTRAP_METHODS:
        raise ValueError(f"bootstrap method must be one of {', '.join(BOOTSTRAP_METHODS)}")
    values = [float(d) for d in deltas]
    n = len(values)
    if n == 0:
        raise ValueError("the bootstrap needs at least one difference")
    observed = mean(values)
    means = bootstrap_means(values, samples, seed)
    if min(values) == max(values) and observed != 0:
        # every resample has the same mean: no spread to test against (as the t-test's
        # undefined t); the interval is that one value where the method allows it
        low = high = None if method == "bca" else values[0]
        return BootstrapResult(low, high, None, samples, seed, method)
    scale = math.fsum(abs(d) for d in values) / n
    threshold = abs(observed) - 1e-12 * scale
    # |m_b - observed| >= threshold  <=>  m_b <= observed - threshold or m_b >= observed + threshold
    from bisect import bisect_left, bisect_right
    if threshold <= 0:
        hits = samples
    else:
        hits = bisect_right(means, observed - threshold) + samples - bisect_left(means, observed + threshold)
    p_value = min(1.0, (hits + 1) / (samples + 1))
    alpha = (1.0 - confidence) / 2.0
    if method == "percentile":
        levels = (alpha, 1.0 - alpha)
    else:
        levels = _bca_levels(values, observed, means, alpha)
    if levels is None:
        return BootstrapResult(None, None, p_value, samples, seed, method)
    return BootstrapResult(quantile(means, levels[0]), quantile(means, levels[1]), p_value,
                           samples, seed, method)


def bootstrap_means(values: list[float], samples: int, seed: int) -> list[float]:
    """The sorted means of ``samples`` resamples (with replacement, ``len(values)`` each)
    drawn by ``random.Random(seed).choices``: the bootstrap distribution of the mean.

    The resampled positions depend only on (n, samples, seed), so every metric and system of
    a table with the same queries reuses one set of them: each resample is an ``itemgetter``
    that picks its values at C speed (a table of 100 cells costs one draw, not 100).
    """
    n = len(values)
    if n == 1:
        return [values[0] / 1] * samples
    if n * samples <= _CACHED_RESAMPLE_SIZE:
        getters = _resamplers(n, samples, seed)
    else:  # too large to keep: the same positions, drawn again
        choices = random.Random(seed).choices
        positions = range(n)
        getters = (itemgetter(*choices(positions, k=n)) for _ in range(samples))
    return sorted([sum(get(values)) / n for get in getters])


_CACHED_RESAMPLE_SIZE = 2_000_000


@lru_cache(maxsize=4)
def _resamplers(n: int, samples: int, seed: int) -> tuple:
    choices = random.Random(seed).choices
    positions = range(n)
    return tuple(itemgetter(*choices(positions, k=n)) for _ in range(samples))


def _bca_levels(values, observed, means, alpha):
    """scipy's ``_bca_interval`` for the mean: the two adjusted quantile levels, or None when
    the distribution is degenerate (scipy's nan)."""
    from bisect import bisect_left, bisect_right
    b = len(means)
    below = bisect_left(means, observed)
    at_or_below = bisect_right(means, observed)
    share = (below + at_or_below) / (2 * b)
    if not 0.0 < share < 1.0:
        return None
    normal = NormalDist()
    z0 = normal.inv_cdf(share)
    n = len(values)
    total = math.fsum(values)
    jack = [(total - v) / (n - 1) for v in values] if n > 1 else []
    if not jack:
        return None
    jack_mean = sum(jack) / n
    u = [(n - 1) * (jack_mean - j) for j in jack]
    num = sum(x ** 3 for x in u) / n ** 3
    den = sum(x ** 2 for x in u) / n ** 2
    if den == 0.0:
        return None
    a_hat = 1.0 / 6.0 * num / den ** 1.5
    z_alpha = normal.inv_cdf(alpha)
    levels = []
    for z in (z_alpha, -z_alpha):
        shifted = z0 + z
        levels.append(normal.cdf(z0 + shifted / (1.0 - a_hat * shifted)))
    return tuple(levels)


CORRECTIONS = ("holm", "bonferroni", "bh", "none")


def adjust_p_values(p_values, method: str = "holm", alpha: float = 0.05
                    ) -> tuple[list[float], list[bool]]:
    """Corrected p-values and rejections for a family of tests, as statsmodels'
    ``multipletests(p, alpha, method)`` with "holm", "bonferroni" and "fdr_bh" ("bh" here):
    the same arithmetic in the same order, so the floats are equal. "none" leaves the p-values
    as they are and rejects p <= alpha.

    >>> adjust_p_values([0.01, 0.04, 0.03], "holm")
    ([0.03, 0.06, 0.06], [True, False, False])
    >>> [round(p, 12) for p in adjust_p_values([0.01, 0.04, 0.03], "bh")[0]]
    [0.03, 0.04, 0.04]
    """
    p = [float(v) for v in p_values]
    n = len(p)
    if method not in CORRECTIONS:
        raise ValueError(f"correction must be one of {', '.join(CORRECTIONS)}, found {method!r}")
    if n == 0:
        return [], []
    if method == "none":
        return p, [v <= alpha for v in p]
    if method == "bonferroni":
        threshold = alpha / float(n)
        return [min(v * float(n), 1.0) for v in p], [v <= threshold for v in p]
    order = sorted(range(n), key=p.__getitem__)
    ranked = [p[i] for i in order]
    if method == "holm":
        corrected, running = [], -math.inf
        for i, v in enumerate(ranked):
            running = max(running, v * (n - i))
            corrected.append(running)
        reject = []
        stopped = False
        for i, v in enumerate(ranked):
            stopped = stopped or v > alpha / (n - i)
            reject.append(not stopped)
    else:  # Benjamini-Hochberg
        factors = [(i + 1) / float(n) for i in range(n)]
        corrected = [0.0] * n
        running = math.inf
        for i in range(n - 1, -1, -1):
            running = min(running, ranked[i] / factors[i])
            corrected[i] = running
        last = max((i for i in range(n) if ranked[i] <= factors[i] * alpha), default=-1)
        reject = [i <= last for i in range(n)]
    out_p, out_reject = [0.0] * n, [False] * n
    for position, index in enumerate(order):
        out_p[index] = min(corrected[position], 1.0)
        out_reject[index] = reject[position]
    return out_p, out_reject


def nct_cdf(t: float, df: float, nc: float) -> float:
    """P(T <= t) for the noncentral t distribution (``df`` degrees of freedom, noncentrality
    ``nc``), by Lenth's algorithm AS 243 (1989): the Poisson-weighted series of incomplete beta
    functions, each term from the one before by their recurrence, so only two ``betainc``
    calls. What the power of a paired t-test and topic-set sizes (Sakai 2016) need.

    >>> round(nct_cdf(2.0, 10, 1.0), 10)   # scipy.stats.nct.cdf(2, 10, 1)
    0.8076115625
    >>> nct_cdf(1.5, 7, 0.0) == t_cdf(1.5, 7)
    True
    """
    _check_df(df)
    if nc == 0.0:
        return t_cdf(t, df)
    if t < 0:
        return 1.0 - _nct_upper(-t, df, -nc)
    return _nct_upper(t, df, nc)


def _nct_upper(t: float, df: float, nc: float) -> float:
    """``nct_cdf`` for t >= 0: Phi(-nc) + 1/2 sum_j (p_j I_x(j + 1/2, df/2) + q_j I_x(j + 1, df/2)),
    x = t^2 / (t^2 + df), p_j and q_j Poisson-like weights of nc^2 / 2."""
    normal = NormalDist()
    if t == 0.0:
        return normal.cdf(-nc)
    x = t * t / (t * t + df)
    y = df / (t * t + df)
    lam = nc * nc / 2.0
    b = df / 2.0
    # j = 0 terms
    p = 0.5 * math.exp(-lam)
    q = math.sqrt(2.0 / math.pi) * p * nc
    i_half = betainc(0.5, b, x, y)
    i_one = betainc(1.0, b, x, y)
    # the pieces subtracted by the recurrence I_x(a + 1, b) = I_x(a, b) - g_a, where
    # g_a = Gamma(a + b) / (Gamma(a + 1) Gamma(b)) x^a y^b
    log_x = math.log(x) if x > 0 else -math.inf
    log_y = math.log(y)
    g_half = math.exp(math.lgamma(0.5 + b) - math.lgamma(1.5) - math.lgamma(b)
                      + 0.5 * log_x + b * log_y)
    g_one = math.exp(math.lgamma(1.0 + b) - math.lgamma(2.0) - math.lgamma(b)
                     + log_x + b * log_y)
    total = p * i_half + q * i_one
    weight = 2.0 * p  # the sum of the Poisson weights p_j / (1/2) so far
    j = 0
    while True:
        j += 1
        i_half -= g_half
        i_one -= g_one
        g_half *= x * (j + b - 0.5) / (j + 0.5)
        g_one *= x * (j + b) / (j + 1.0)
        p *= lam / j
        q *= lam / (j + 0.5)
        total += p * i_half + q * i_one
        weight += 2.0 * p
        if j > lam and (1.0 - weight) * max(i_half, 0.0) < 1e-16 or j > 100_000:
            break
    return min(1.0, max(0.0, normal.cdf(-nc) + total))


def effect_size_interval(d: float, n: int, confidence: float = 0.95
                         ) -> tuple[float, float] | None:
    """The exact confidence interval of a paired effect size d = mean / sd over ``n`` topics
    (Steiger and Fouladi 1997): t = d sqrt(n) is noncentral t with n - 1 degrees of freedom,
    so the interval's ends are the noncentralities that put t at the 1 - alpha/2 and alpha/2
    quantiles, divided by sqrt(n). None for n < 2.

    >>> [round(v, 4) for v in effect_size_interval(0.5, 20)]   # scipy: nct.cdf(t, 19, nc) = .975, .025
    [0.0284, 0.96]
    """
    if n < 2 or d is None or not math.isfinite(d):
        return None
    df = n - 1
    t = d * math.sqrt(n)
    tail = (1.0 - confidence) / 2.0
    # rounded to 10 decimals, inside the root's own precision (1e-12): the noncentral t's
    # lgamma, exp and log come from the platform's maths library, which differs in the last
    # bits between CPython here and Pyodide's WebAssembly, and the page must give the CLI's numbers
    return (round(_noncentrality(t, df, 1.0 - tail) / math.sqrt(n), 10),
            round(_noncentrality(t, df, tail) / math.sqrt(n), 10))


def _noncentrality(t: float, df: float, level: float) -> float:
    """The nc with nct_cdf(t, df, nc) == level (nct_cdf falls as nc grows): bracketed, then
    the Illinois variant of regula falsi (a secant step kept inside the bracket, the stale
    end's value halved when one end keeps moving), which needs about 10 evaluations of the
    noncentral t where bisection to the same 1e-12 needed about 45."""
    def excess(nc: float) -> float:
        return nct_cdf(t, df, nc) - level
    # T is about nc plus a normal error of sd sqrt(1 + t^2 / 2df): start the bracket there
    spread = math.sqrt(1.0 + t * t / (2.0 * df))
    guess = t - NormalDist().inv_cdf(level) * spread
    step = spread / 4.0
    low, high = guess - step, guess + step
    f_low, f_high = excess(low), excess(high)
    while f_low < 0:
        low, high, f_high = low - 2.0 * step, low, f_low
        step *= 2.0
        f_low = excess(low)
    while f_high > 0:
        low, high, f_low = high, high + 2.0 * step, f_high
        step *= 2.0
        f_high = excess(high)
    kept = 0  # which end stayed put at the last step: -1 low, +1 high
    for _ in range(200):
        if high - low <= 1e-12 * max(1.0, abs(low), abs(high)):
            break
        middle = (low * f_high - high * f_low) / (f_high - f_low) if f_high != f_low else (
            (low + high) / 2.0)
        if not low < middle < high:
            middle = (low + high) / 2.0
        f_middle = excess(middle)
        if abs(f_middle) < 1e-15:  # at the root to the precision nct_cdf has
            return middle
        if f_middle > 0:
            low, f_low = middle, f_middle
            if kept == 1:
                f_high /= 2.0
            kept = 1
        else:
            high, f_high = middle, f_middle
            if kept == -1:
                f_low /= 2.0
            kept = -1
    return (low + high) / 2.0
