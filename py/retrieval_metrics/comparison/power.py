"""How many topics: the power of a paired t-test, the smallest difference it can detect, and
the number of topics a difference needs (Sakai, "Topic set size design", IRJ 2016).

Everything comes from the noncentral t distribution (``stats.nct_cdf``): with n topics whose
per-topic differences have standard deviation ``sd``, a true mean difference ``delta`` makes
the paired t statistic noncentral t with n - 1 degrees of freedom and noncentrality
``delta / sd * sqrt(n)``; the two-sided test at ``alpha`` rejects when ``|t|`` exceeds the
central t's ``1 - alpha / 2`` quantile.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import NamedTuple

from ..errors import OptionError
from .stats import nct_cdf, sample_sd, t_ppf

__all__ = ["PowerAnalysis", "minimum_detectable_difference", "power_analysis", "t_test_power",
           "topic_set_size"]

MAX_TOPICS = 1_000_000


def t_test_power(n: int, delta: float, sd: float, alpha: float = 0.05) -> float:
    """P(reject) of the two-sided paired t-test on ``n`` topics when the true mean difference
    is ``delta`` and the differences' standard deviation ``sd``.

    >>> round(t_test_power(50, 0.05, 0.15, 0.05), 6)   # scipy: 1 - nct.cdf(t, 49, nc) + nct.cdf(-t, 49, nc)
    0.637094
    """
    if n < 2 or sd <= 0:
        return math.nan
    df = n - 1
    critical = t_ppf(1.0 - alpha / 2.0, df)
    nc = delta / sd * math.sqrt(n)
    return (1.0 - nct_cdf(critical, df, nc)) + nct_cdf(-critical, df, nc)


def minimum_detectable_difference(n: int, sd: float, alpha: float = 0.05,
                                  power: float = 0.8) -> float:
    """The smallest true mean difference ``n`` topics detect with probability ``power``
    (bisection on ``t_test_power``, which grows with the difference).

    >>> round(minimum_detectable_difference(50, 0.15), 4)
    0.0606
    """
    if n < 2 or sd <= 0:
        return math.nan
    guess = _normal_guess(alpha, power) * sd / math.sqrt(n)  # the t answer is a little above
    low, high = 0.5 * guess, guess
    while t_test_power(n, high, sd, alpha) < power:
        low, high = high, high * 1.5
    for _ in range(100):
        middle = (low + high) / 2.0
        if t_test_power(n, middle, sd, alpha) < power:
            low = middle
        else:
            high = middle
        if high - low <= 1e-11 * high:
            break
    return high


def topic_set_size(delta: float, sd: float, alpha: float = 0.05, power: float = 0.8) -> int | None:
    """The fewest topics whose paired t-test detects a true difference ``delta`` with
    probability ``power`` (None when ``delta`` is 0 or ``sd`` is 0: no finite answer or none
    needed).

    >>> topic_set_size(0.05, 0.15)
    73
    """
    if sd <= 0 or delta == 0 or not math.isfinite(delta):
        return None
    if t_test_power(2, delta, sd, alpha) >= power:
        return 2
    guess = math.ceil((_normal_guess(alpha, power) * sd / delta) ** 2)
    if guess > MAX_TOPICS:
        return None
    low, high = 2, max(3, guess)  # the normal approximation never needs more topics than t
    while t_test_power(high, delta, sd, alpha) < power:
        low, high = high, high + max(2, high // 8)
        if high > MAX_TOPICS:
            return None
    step = 1
    while high - step > low and t_test_power(high - step, delta, sd, alpha) >= power:
        high -= step
        step *= 2
    low = max(low, high - step)
    while high - low > 1:  # power(low) < power <= power(high)
        middle = (low + high) // 2
        if t_test_power(middle, delta, sd, alpha) < power:
            low = middle
        else:
            high = middle
    return high


def _normal_guess(alpha: float, power: float) -> float:
    """z_{1 - alpha/2} + z_power: the normal approximation's factor, where searches start."""
    normal = NormalDist()
    return normal.inv_cdf(1.0 - alpha / 2.0) + normal.inv_cdf(power)


class PowerAnalysis(NamedTuple):
    """One comparison's design numbers: ``n`` topics, ``sd`` of their per-topic differences,
    the power these topics have for the observed difference, the smallest difference they
    detect at ``alpha`` with probability ``power``, and the topics ``difference`` needs."""

    n: int
    sd: float | None
    alpha: float
    power: float
    observed: float | None
    observed_power: float | None
    detectable: float | None
    difference: float | None
    topics_needed: int | None

    def to_dict(self) -> dict:
        return {k: (None if isinstance(v, float) and not math.isfinite(v) else v)
                for k, v in self._asdict().items()}


def power_analysis(deltas, alpha: float = 0.05, power: float = 0.8,
                   difference: float | None = None) -> PowerAnalysis:
    """From per-topic differences: their sd, the power for their mean, the minimum detectable
    difference with ``len(deltas)`` topics, and the topic-set size for ``difference``
    (default: the observed mean difference).

    >>> r = power_analysis([0.1, 0.0, 0.2, -0.05, 0.15, 0.1], difference=0.05)
    >>> r.n, round(r.sd, 4), r.topics_needed
    (6, 0.0931, 30)
    """
    for field, value in (("alpha", alpha), ("power", power)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1:
            raise OptionError(field, f"{field} must be a number between 0 and 1, found {value!r}")
    values = [float(d) for d in deltas]
    n = len(values)
    if n < 2:
        return PowerAnalysis(n, None, alpha, power, None, None, None, difference, None)
    sd = sample_sd(values)
    observed = math.fsum(values) / n
    target = observed if difference is None else float(difference)
    if sd == 0:
        return PowerAnalysis(n, 0.0, alpha, power, observed, None, None, target, None)
    return PowerAnalysis(n, sd, alpha, power, observed, t_test_power(n, observed, sd, alpha),
                         minimum_detectable_difference(n, sd, alpha, power), target,
                         topic_set_size(abs(target), sd, alpha, power))
