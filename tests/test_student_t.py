"""``compat.ranx.student_t.stdtr`` equals scipy's ``stdtr`` bit for bit (scipy run here, on the
same C library), on every branch of the algorithm it follows; the closed forms for one and two
degrees of freedom hold; a long double literal is rounded twice, as a C compiler rounds it."""

import math
import random
from decimal import Decimal
from fractions import Fraction

import pytest
from retrieval_metrics.compat.ranx import student_t
from retrieval_metrics.compat.ranx.student_t import OutsidePort, stdtr

special = pytest.importorskip("scipy.special")


def assert_same(df, t):
    expected = float(special.stdtr(df, t))
    got = stdtr(df, t)
    assert got == expected or (math.isnan(got) and math.isnan(expected)), (df, t, got, expected)


def test_generated_pairs_equal_scipy():
    """Integer degrees of freedom (a paired t-test's n - 1) from 1 to 10^6 and t over every scale:
    the series, the sidestep, BGRAT (with erfc, and with Q's series below u = 0.2), the
    arcsine (df = 1) and the df = 2 forms, on both sides of df = 2 t^2."""
    rng = random.Random(20261206)
    for _ in range(12_000):
        df = float(rng.choice([rng.randint(1, 12), rng.randint(1, 60), rng.randint(1, 5000),
                               rng.randint(1, 1_000_000)]))
        kind = rng.random()
        if kind < 0.25:
            t = rng.uniform(-4.0, 4.0)
        elif kind < 0.45:
            t = rng.uniform(-0.7, 0.7)
        elif kind < 0.6:
            t = math.sqrt(df / 2) * rng.uniform(0.97, 1.03) * rng.choice([-1, 1])
        elif kind < 0.8:
            t = 10 ** rng.uniform(-12, 3) * rng.choice([-1, 1])
        else:
            t = rng.uniform(-60.0, 60.0)
        assert_same(df, t)


def test_fractional_degrees_of_freedom_equal_scipy():
    rng = random.Random(7)
    for _ in range(3000):
        assert_same(rng.uniform(0.4, 3.0), rng.uniform(-25.0, 25.0))
        assert_same(10 ** rng.uniform(0, 9), rng.uniform(-12.0, 12.0))


@pytest.mark.parametrize("df", [1.0, 2.0, 3.0, 29.0, 30.0, 31.0, 1e15, 1e16])
@pytest.mark.parametrize("t", [0.0, -0.0, 5e-324, -1e-300, -1e-8, -1.0, -37.5, -1e10, -1e300,
                               1e300, math.inf, -math.inf, math.nan])
def test_edges_equal_scipy(df, t):
    assert_same(df, t)


def test_closed_forms():
    """One degree of freedom is the Cauchy distribution, 1/2 + atan(t)/pi; two give
    1/2 + t / (2 sqrt(2 + t^2)). Near 0 with one degree of freedom the algorithm (scipy's) takes
    the arcsine of a number within t^2 of 1 and loses digits: 1e-14 off at t = 1e-3."""
    for t in (-30.0, -2.5, -1.0, -0.3, -1e-3, 0.05, 1.0, 7.0):
        cauchy_error = 2e-14 if abs(t) < 0.01 else 1e-15
        assert stdtr(1.0, t) == pytest.approx(0.5 + math.atan(t) / math.pi, abs=cauchy_error)
        assert stdtr(2.0, t) == pytest.approx(0.5 + t / (2 * math.sqrt(2 + t * t)), abs=1e-15)


def test_the_unported_branch_says_so():
    """Below 0.4 degrees of freedom one branch needs Q(b, u) for b other than 1/2: refused by
    name rather than computed another way; the rest of that range still equals scipy."""
    refused = 0
    rng = random.Random(3)
    for _ in range(400):
        df, t = rng.uniform(0.02, 0.39), rng.uniform(-3.0, 3.0)
        try:
            got = stdtr(df, t)
        except OutsidePort as error:
            refused += 1
            assert "degrees of freedom" in str(error)
            continue
        assert got == float(special.stdtr(df, t))
    assert refused > 0


def test_long_double_literals_round_twice():
    """1 + 2^-53 + 2^-70 rounds up to 1 + 2^-52 directly, but to 1 + 2^-53 in a long double
    (64-bit significand) and then, a tie, to even: 1.0."""
    value = Fraction(1) + Fraction(1, 2 ** 53) + Fraction(1, 2 ** 70)
    text = str(Decimal(value.numerator) / Decimal(value.denominator))
    assert float(text) == 1.0 + 2.0 ** -52
    assert student_t._long_double(text) == 1.0
