"""The standard-library statistics (retrieval_metrics.comparison.stats) against scipy and statsmodels.

Every expected value here comes from scipy (t distribution, ttest_rel, t.interval, bootstrap),
statsmodels (multipletests), numpy, closed forms, or a count done in the test itself.
"""

from __future__ import annotations

import math
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from retrieval_metrics.comparison import stats
from scipy import stats as sps
from scipy._lib._array_api import array_namespace
from scipy.stats._resampling import _bca_interval
from statsmodels.stats.multitest import multipletests

DFS = [1, 2, 3, 4, 5, 6, 7, 9, 10, 14, 19, 24, 29, 30, 40, 49, 50, 51, 60, 99, 100, 150, 249,
       500, 999, 1000, 4999, 10_000, 50_000, 100_000, 1_000_000, 0.5, 1.5, 2.5, 7.25, 37.3]
T_VALUES = [*np.linspace(-40.0, 40.0, 321), -1e4, -1e3, -100.0, -1e-3, 1e-3, 0.05, 100.0, 1e3, 1e4]


# --- Student's t ---------------------------------------------------------------------------------

@pytest.mark.slow
def test_t_cdf_and_sf_match_scipy_to_1e_10():
    worst = 0.0
    for df in DFS:
        for t in T_VALUES:
            t = float(t)
            worst = max(worst, abs(stats.t_cdf(t, df) - sps.t.cdf(t, df)),
                        abs(stats.t_sf(t, df) - sps.t.sf(t, df)))
    assert worst < 1e-10


@pytest.mark.slow
def test_t_tails_match_scipy_relatively():
    """Small tail probabilities (the p-values that matter) to 1e-9 relative, not just absolute."""
    for df in DFS:
        for t in (2.0, 3.0, 5.0, 10.0, 30.0):
            expected = sps.t.sf(t, df)
            if expected > 1e-280:
                assert stats.t_sf(t, df) == pytest.approx(expected, rel=1e-9, abs=0)


@pytest.mark.slow
@given(df=st.floats(min_value=0.5, max_value=2e5), t=st.floats(min_value=-60, max_value=60))
@settings(max_examples=400, deadline=None)
def test_t_cdf_generated(df, t):
    if df < 1.5 and abs(t) < 1e-3:
        return  # scipy's own error near 0 with df = 1 is ~1e-9 (see the closed form below)
    assert abs(stats.t_cdf(t, df) - sps.t.cdf(t, df)) < 1e-10


@pytest.mark.parametrize("t", [1e-12, 1e-8, 1e-4, 0.3, 1.0, 7.0, -2.5])
def test_t_cdf_closed_forms(t):
    """df = 1 is the Cauchy distribution, 1/2 + atan(t)/pi; df = 2: 1/2 + t / (2 sqrt(2 + t^2))."""
    assert stats.t_cdf(t, 1) == pytest.approx(0.5 + math.atan(t) / math.pi, abs=1e-15)
    assert stats.t_cdf(t, 2) == pytest.approx(0.5 + t / (2 * math.sqrt(2 + t * t)), abs=1e-15)


@pytest.mark.slow
def test_t_ppf_matches_scipy_to_1e_10():
    for df in DFS:
        for q in (1e-12, 1e-8, 1e-6, 1e-4, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.45,
                  0.5, 0.55, 0.7, 0.9, 0.95, 0.975, 0.99, 0.995, 0.999, 1 - 1e-6):
            expected = sps.t.ppf(q, df)
            assert stats.t_ppf(q, df) == pytest.approx(expected, rel=1e-10, abs=1e-13), (df, q)


@pytest.mark.slow
@given(df=st.integers(min_value=1, max_value=100_000),
       q=st.floats(min_value=1e-9, max_value=1 - 1e-9))
@settings(max_examples=300, deadline=None)
def test_t_ppf_generated(df, q):
    assert stats.t_ppf(q, df) == pytest.approx(sps.t.ppf(q, df), rel=1e-10, abs=1e-12)


def test_t_edges():
    assert stats.t_ppf(0.0, 5) == -math.inf and stats.t_ppf(1.0, 5) == math.inf
    assert stats.t_cdf(math.inf, 5) == 1.0 and stats.t_cdf(-math.inf, 5) == 0.0
    with pytest.raises(ValueError):
        stats.t_cdf(1.0, 0)
    with pytest.raises(ValueError):
        stats.t_ppf(1.5, 3)


@pytest.mark.parametrize("a, b, x", [(0.5, 0.5, 0.3), (2.0, 3.0, 0.4), (10.0, 0.5, 0.99),
                                     (0.5, 200.0, 0.001), (50.0, 50.0, 0.5), (1e4, 0.5, 0.9999)])
def test_betainc_matches_scipy(a, b, x):
    from scipy.special import betainc
    assert stats.betainc(a, b, x) == pytest.approx(betainc(a, b, x), rel=1e-12, abs=1e-15)


# --- t interval and paired t-test ----------------------------------------------------------------

samples_ = st.lists(st.floats(min_value=-1, max_value=1, allow_nan=False), min_size=2, max_size=60)


@pytest.mark.slow
@given(values=samples_, confidence=st.sampled_from([0.9, 0.95, 0.99]))
@settings(max_examples=200, deadline=None)
def test_t_interval_matches_scipy(values, confidence):
    got = stats.t_interval(values, confidence)
    arr = np.array(values)
    sem = sps.sem(arr)
    if sem == 0 or np.std(arr) == 0:
        assert got[1] == got[2] == got[0]
        return
    low, high = sps.t.interval(confidence, len(values) - 1, loc=np.mean(arr), scale=sem)
    assert got[0] == pytest.approx(np.mean(arr), abs=1e-14)
    assert got[1] == pytest.approx(low, abs=1e-12) and got[2] == pytest.approx(high, abs=1e-12)


def test_t_interval_needs_two_values():
    assert stats.t_interval([0.5]) is None


@pytest.mark.slow
@given(pairs=st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=2, max_size=80))
@settings(max_examples=200, deadline=None)
def test_paired_t_test_matches_ttest_rel(pairs):
    cand = np.array([c for c, _ in pairs])
    base = np.array([b for _, b in pairs])
    got = stats.paired_t_test(list(cand - base))
    assert got.df == len(pairs) - 1
    deltas = cand - base
    if np.std(deltas) < 1e-12 * max(1e-300, np.max(np.abs(deltas))) or np.all(deltas == deltas[0]):
        assert got.p_value is None  # scipy: nan (0/0) or a t of +-inf
        return
    expected = sps.ttest_rel(cand, base)
    assert got.statistic == pytest.approx(expected.statistic, rel=1e-9, abs=1e-12)
    assert got.p_value == pytest.approx(expected.pvalue, rel=1e-9, abs=1e-12)


def test_paired_t_test_hand_worked():
    # d = 0.1, 0.2, 0.3, -0.1: mean 0.125, sd sqrt(0.0875 / 3) = 0.170783, t = 0.125 / (sd / 2)
    r = stats.paired_t_test([0.1, 0.2, 0.3, -0.1])
    assert r.statistic == pytest.approx(0.125 / (math.sqrt(0.0875 / 3) / 2), rel=1e-12)
    assert stats.paired_t_test([0.2, 0.2, 0.2]).p_value is None
    assert stats.paired_t_test([0.2]).p_value is None


# --- multiple comparisons ------------------------------------------------------------------------

p_lists = st.lists(st.one_of(st.floats(min_value=0, max_value=1),
                             st.sampled_from([0.0, 1.0, 0.05, 0.01, 0.025, 1e-5, 0.5])),
                   min_size=1, max_size=60)


@pytest.mark.slow
@pytest.mark.parametrize("ours, theirs", [("holm", "holm"), ("bonferroni", "bonferroni"),
                                          ("bh", "fdr_bh")])
@given(p=p_lists, alpha=st.sampled_from([0.05, 0.01, 0.1, 0.2]))
@settings(max_examples=300, deadline=None)
def test_corrections_equal_statsmodels_exactly(ours, theirs, p, alpha):
    corrected, reject = stats.adjust_p_values(p, ours, alpha)
    with mock.patch("gc.collect", return_value=0):  # statsmodels' Holm collects garbage each call
        expected_reject, expected, _, _ = multipletests(p, alpha=alpha, method=theirs)
    assert corrected == expected.tolist()   # the same floats, not just close
    assert reject == expected_reject.tolist()


@pytest.mark.slow
@given(p=p_lists)
def test_correction_none(p):
    corrected, reject = stats.adjust_p_values(p, "none", 0.05)
    assert corrected == p and reject == [v <= 0.05 for v in p]


def test_corrections_hand_worked():
    # Holm on 0.01, 0.04, 0.03: sorted 0.01*3 = 0.03, 0.03*2 = 0.06, max(0.06, 0.04*1) = 0.06;
    # reject 0.01 (<= 0.05/3), then 0.03 > 0.05/2 stops.
    assert stats.adjust_p_values([0.01, 0.04, 0.03], "holm") == ([0.03, 0.06, 0.06],
                                                                 [True, False, False])
    # BH: 0.01*3/1 = 0.03, 0.03*3/2 = 0.045, 0.04*3/3 = 0.04 -> running min from the top: 0.04
    corrected, reject = stats.adjust_p_values([0.01, 0.04, 0.03], "bh")
    assert corrected == pytest.approx([0.03, 0.04, 0.04]) and reject == [True, True, True]
    assert stats.adjust_p_values([0.4, 0.01], "bonferroni")[0] == [0.8, 0.02]
    assert stats.adjust_p_values([], "holm") == ([], [])
    with pytest.raises(ValueError):
        stats.adjust_p_values([0.1], "sidak")


# --- the bootstrap -------------------------------------------------------------------------------

@pytest.mark.slow
def test_quantile_is_scipys():
    rng = np.random.default_rng(3)
    for size in (1, 2, 7, 100, 1001):
        values = sorted(rng.normal(size=size).tolist())
        for q in (0.0, 0.004, 0.025, 0.25, 0.5, 0.6, 0.975, 0.999, 1.0):
            assert stats.quantile(values, q) == sps.quantile(np.array(values), q)
            assert stats.quantile(values, q) == pytest.approx(np.quantile(values, q), rel=1e-14)


def test_bootstrap_means_are_the_resample_means():
    """Recounted here: each mean is one random.Random(seed).choices draw of n values."""
    import random
    d = [0.1, -0.2, 0.4, 0.0, 0.3]
    draw = random.Random(9).choices
    expected = sorted(sum(draw(d, k=5)) / 5 for _ in range(200))
    assert stats.bootstrap_means(d, 200, 9) == expected


@pytest.mark.slow
def test_bca_levels_equal_scipys_for_the_same_distribution():
    """scipy's own BCa step (bias z0 from the share below the estimate, acceleration from the
    jackknife) on our bootstrap distribution gives the same two quantile levels."""
    rng = np.random.default_rng(0)
    for n, power in ((40, 3), (12, 1), (100, 2)):
        d = (rng.normal(0.03, 0.2, n) ** power).tolist()
        means = stats.bootstrap_means(d, 3000, 1)
        ours = stats._bca_levels(d, stats.mean(d), means, 0.025)
        x = np.array(d)
        theirs = _bca_interval((x,), np.mean, axis=-1, alpha=0.025, theta_hat_b=np.array(means),
                               batch=None, xp=array_namespace(x))
        assert ours == pytest.approx((float(theirs[0]), float(theirs[1])), abs=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("method", ["bca", "percentile"])
@pytest.mark.parametrize("seed", [0, 1])
def test_bootstrap_interval_close_to_scipys(method, seed):
    """numpy's generator cannot be replayed in pure Python, so the resamples differ from
    scipy.stats.bootstrap's (same seed number, different generator). With 40,000 resamples
    each, the Monte Carlo standard error of a 2.5% quantile is about 1.5% of the interval's
    half-width; the tolerance is 6% of the interval's width."""
    rng = np.random.default_rng(11 + seed)
    d = (rng.normal(0.04, 0.25, 60) ** 3 * 4).tolist()
    ours = stats.paired_bootstrap(d, samples=40_000, seed=seed, method=method)
    theirs = sps.bootstrap((np.array(d),), np.mean, n_resamples=40_000, method=method,
                           random_state=seed).confidence_interval
    width = theirs.high - theirs.low
    assert abs(ours.low - theirs.low) < 0.06 * width
    assert abs(ours.high - theirs.high) < 0.06 * width
    # the paired form scipy documents gives the same interval (the same generator draws)
    cand = np.array(d) + 0.5
    paired = sps.bootstrap((cand, np.full(len(d), 0.5)), lambda c, b, axis: np.mean(c - b, axis=axis),
                           paired=True, n_resamples=40_000, method=method,
                           random_state=seed).confidence_interval
    assert abs(ours.low - paired.low) < 0.06 * width


@pytest.mark.slow
def test_bootstrap_p_value_counts_the_shifted_distribution():
    d = [0.3, -0.1, 0.2, 0.25, 0.0, 0.15, -0.05, 0.4]
    r = stats.paired_bootstrap(d, samples=5000, seed=4)
    observed = sum(d) / len(d)
    means = stats.bootstrap_means(d, 5000, 4)
    hits = sum(abs(m - observed) >= abs(observed) for m in means)
    assert r.p_value == (hits + 1) / 5001
    assert (r.samples, r.seed, r.method) == (5000, 4, "bca")
    assert r == stats.paired_bootstrap(d, samples=5000, seed=4)        # seeded: reproducible
    assert means != stats.bootstrap_means(d, 5000, 5)


@pytest.mark.slow
def test_bootstrap_p_value_near_the_t_tests_for_normal_differences():
    """For many normal differences the two tests agree closely (both approximate the same
    sampling distribution of the mean)."""
    rng = np.random.default_rng(5)
    for shift in (0.0, 0.02, 0.05):
        d = rng.normal(shift, 0.2, 200).tolist()
        boot = stats.paired_bootstrap(d, samples=20_000, seed=0).p_value
        t = stats.paired_t_test(d).p_value
        assert abs(boot - t) < 0.03


def test_bootstrap_degenerate():
    r = stats.paired_bootstrap([0.0, 0.0, 0.0], samples=100)
    assert r.p_value == 1.0 and r.low is None      # BCa undefined (scipy: nan)
    r = stats.paired_bootstrap([0.1, 0.1], samples=100, method="percentile")
    assert r.low == r.high == 0.1 and r.p_value is None   # no spread: nothing to test against
    assert stats.paired_bootstrap([0.3], samples=100).p_value is None
