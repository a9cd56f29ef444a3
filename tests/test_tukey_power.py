"""Randomised Tukey HSD against an exact enumeration written here; power, topic-set size and
effect-size intervals against scipy's noncentral t; intervals kept inside the measure's range."""

from __future__ import annotations

import itertools
import math
import random

import pytest
from retrieval_metrics import compare_many
from retrieval_metrics.comparison.power import (
    minimum_detectable_difference,
    power_analysis,
    t_test_power,
    topic_set_size,
)
from retrieval_metrics.comparison.stats import effect_size_interval, nct_cdf
from retrieval_metrics.comparison.tukey import randomised_tukey_hsd
from retrieval_metrics.errors import OptionError
from scipy import stats as sp
from scipy.optimize import brentq


def _enumerated_tukey(rows):
    """p(i, j) = share of all (m!)^n per-topic permutations whose range of system means
    reaches |mean_i - mean_j|."""
    m, n = len(rows[0]), len(rows)
    means = [sum(r[i] for r in rows) / n for i in range(m)]
    ranges = []
    for choice in itertools.product(*(itertools.permutations(r) for r in rows)):
        perm_means = [sum(row[i] for row in choice) / n for i in range(m)]
        ranges.append(max(perm_means) - min(perm_means))
    return {(i, j): sum(r >= abs(means[i] - means[j]) - 1e-12 for r in ranges) / len(ranges)
            for i in range(m) for j in range(i + 1, m)}


def _rows(seed, m=3, n=5):
    rng = random.Random(seed)
    return [[round(rng.random(), 2) + 0.15 * i for i in range(m)] for _ in range(n)]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_tukey_exact_equals_the_enumeration(seed):
    rows = _rows(seed)
    expected = _enumerated_tukey(rows)
    result = randomised_tukey_hsd(rows, samples=10_000)   # 6^5 = 7,776 orders: all counted
    assert result.method == "exact" and result.permutations == 6 ** 5
    for pair, p in expected.items():
        assert result.p_values[pair] == pytest.approx(p, abs=1e-15)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1])
def test_tukey_sampled_agrees_within_monte_carlo_error(seed):
    rows = _rows(seed)
    expected = _enumerated_tukey(rows)
    samples = 4000
    result = randomised_tukey_hsd(rows, samples=samples, seed=seed)
    assert result.method == "sampled"
    for pair, p in expected.items():
        got = result.p_values[pair]
        assert got >= 1 / (samples + 1)
        se = math.sqrt(p * (1 - p) / samples) + 1 / samples
        assert abs(got - p) <= 4.5 * se, (pair, got, p)
        assert result.mc_error(got) == pytest.approx(math.sqrt(got * (1 - got) / samples))


@pytest.mark.slow
def test_compare_many_tukey_uses_every_system_and_needs_no_correction():
    rows = _rows(3, m=3, n=5)
    names = ["a", "b", "c"]
    reports = {name: {"per_query": {f"q{t}": {"ndcg@10": rows[t][i]} for t in range(5)}}
               for i, name in enumerate(names)}
    result = compare_many(reports, "a", test="tukey", pairs="all", samples=10_000)
    expected = _enumerated_tukey(rows)
    assert result.correction == "none"
    assert result.pairwise["b"]["a"]["ndcg@10"].p_value == pytest.approx(expected[(0, 1)])
    assert result.pairwise["c"]["b"]["ndcg@10"].p_value == pytest.approx(expected[(1, 2)])
    assert result.differences["c"]["ndcg@10"].method == "tukey exact"
    assert "Tukey" in result.describe()
    with pytest.raises(OptionError):
        compare_many(reports, "a", test="tukey", correction="holm")


# --- noncentral t: power, topic-set size, effect-size intervals ----------------------------

def _scipy_power(n, delta, sd, alpha):
    df = n - 1
    crit = sp.t.ppf(1 - alpha / 2, df)
    nc = delta / sd * math.sqrt(n)
    return sp.nct.sf(crit, df, nc) + sp.nct.cdf(-crit, df, nc)


@pytest.mark.parametrize("t,df,nc", [(2.0, 10, 1.0), (-1.0, 5, 0.5), (3.5, 49, 4.0),
                                     (0.4, 3, -2.0), (1.9, 199, 2.5)])
def test_nct_cdf_matches_scipy(t, df, nc):
    assert nct_cdf(t, df, nc) == pytest.approx(sp.nct.cdf(t, df, nc), abs=1e-12)


@pytest.mark.parametrize("n,delta,sd,alpha", [(50, 0.05, 0.15, 0.05), (20, 0.1, 0.2, 0.01),
                                              (8, -0.2, 0.25, 0.05), (150, 0.02, 0.12, 0.05)])
def test_power_matches_scipy(n, delta, sd, alpha):
    assert t_test_power(n, delta, sd, alpha) == pytest.approx(_scipy_power(n, delta, sd, alpha),
                                                              abs=1e-10)


@pytest.mark.parametrize("delta,sd,alpha,power", [(0.05, 0.15, 0.05, 0.8),
                                                  (0.02, 0.1, 0.05, 0.9), (0.1, 0.3, 0.01, 0.8)])
def test_topic_set_size_is_the_fewest_topics_reaching_the_power(delta, sd, alpha, power):
    n = topic_set_size(delta, sd, alpha, power)
    assert _scipy_power(n, delta, sd, alpha) >= power
    assert _scipy_power(n - 1, delta, sd, alpha) < power


@pytest.mark.parametrize("n,sd", [(25, 0.2), (50, 0.15), (200, 0.1)])
def test_minimum_detectable_difference_has_the_power(n, sd):
    delta = minimum_detectable_difference(n, sd, 0.05, 0.8)
    assert _scipy_power(n, delta, sd, 0.05) == pytest.approx(0.8, abs=1e-9)


def test_power_analysis_from_differences():
    rng = random.Random(4)
    deltas = [rng.gauss(0.03, 0.1) for _ in range(40)]
    sd = float(sp.tstd(deltas))
    result = power_analysis(deltas, 0.05, 0.8, difference=0.02)
    assert result.sd == pytest.approx(sd)
    assert result.topics_needed == topic_set_size(0.02, sd)
    mean = sum(deltas) / 40
    assert result.observed_power == pytest.approx(_scipy_power(40, mean, sd, 0.05), abs=1e-10)


@pytest.mark.parametrize("d,n", [(0.5, 20), (1.5, 10), (-0.3, 40), (0.0, 8)])
def test_effect_size_interval_inverts_the_noncentral_t(d, n):
    t = d * math.sqrt(n)
    low = brentq(lambda nc: sp.nct.cdf(t, n - 1, nc) - 0.975, t - 8, t + 8) / math.sqrt(n)
    high = brentq(lambda nc: sp.nct.cdf(t, n - 1, nc) - 0.025, t - 8, t + 8) / math.sqrt(n)
    got = effect_size_interval(d, n, 0.95)
    assert got[0] == pytest.approx(low, abs=1e-9) and got[1] == pytest.approx(high, abs=1e-9)


# --- intervals inside the range; Monte Carlo error stated ---------------------------------

def test_intervals_never_leave_the_measure_range():
    base = {"per_query": {f"q{i}": {"recall@10": v} for i, v in enumerate([1, 1, 1, 0.8])}}
    cand = {"per_query": {f"q{i}": {"recall@10": v} for i, v in enumerate([0, 0, 0, 1.0])}}
    result = compare_many({"base": base, "cand": cand}, test="t")
    mean = result.means["base"]["recall@10"]
    unclipped = sp.t.interval(0.95, 3, loc=0.95, scale=sp.sem([1, 1, 1, 0.8]))
    assert unclipped[1] > 1 and mean.high == 1.0 and mean.low == pytest.approx(unclipped[0])
    d = result.differences["cand"]["recall@10"]
    raw = sp.t.interval(0.95, 3, loc=-0.7, scale=sp.sem([-1, -1, -1, 0.2]))
    assert raw[0] < -1 and d.low == -1.0 and d.high == pytest.approx(raw[1])


def test_sampled_p_value_states_its_monte_carlo_error():
    rng = random.Random(7)
    base = {"per_query": {f"q{i}": {"map": rng.random()} for i in range(30)}}
    cand = {"per_query": {q: {"map": min(1.0, v["map"] + rng.gauss(0.05, 0.1))}
                          for q, v in base["per_query"].items()}}
    d = compare_many({"base": base, "cand": cand}, samples=2000).differences["cand"]["map"]
    assert d.method == "sampled"
    assert d.mc_error == pytest.approx(math.sqrt(d.p_value * (1 - d.p_value) / 2000))
