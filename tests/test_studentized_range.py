"""compat.ranx.studentized_range against scipy 1.17.1: the studentized range distribution's
survival function (ranx's Tukey HSD p-values) across groups, degrees of freedom (both sides of
scipy's switch to df = infinity at 100,000) and ranges, and tukey_hsd's p-value matrix on
generated groups. scipy integrates to 1e-11 absolute, so the values agree to about that; 1e-9
is the bound held."""

import math
import random

import pytest
from retrieval_metrics.compat.ranx.studentized_range import cdf, sf, tukey_hsd_p_values

stats = pytest.importorskip("scipy.stats")
pytestmark = pytest.mark.slow  # scipy integrates each value (a second or so for the grid)


@pytest.mark.parametrize("k", [2, 3, 5, 8])
@pytest.mark.parametrize("df", [2, 3, 7, 30, 117, 1000, 20_000, 99_999, 100_000, 250_000])
def test_sf_is_scipys(k, df):
    for q in (0.05, 0.5, 1.0, 2.0, 3.3, 4.0, 5.5, 8.0, 12.0):
        assert sf(q, k, df) == pytest.approx(stats.studentized_range.sf(q, k, df), rel=0, abs=1e-9), q


def test_the_edges():
    assert sf(0.0, 3, 10) == 1.0 and cdf(0.0, 3, 10) == 0.0
    assert math.isnan(sf(math.nan, 3, 10))
    assert sf(60.0, 4, 50) < 1e-12


@pytest.mark.parametrize("seed", range(6))
def test_tukey_hsd_p_values_are_scipys(seed):
    rng = random.Random(seed)
    groups = [[rng.random() ** rng.choice([1, 2, 3]) for _ in range(rng.choice([3, 10, 40]))]]
    size = len(groups[0])
    groups += [[min(1.0, x + rng.uniform(-0.2, 0.3)) for x in groups[0][:size]] for _ in range(rng.randint(1, 4))]
    expected = stats.tukey_hsd(*groups).pvalue
    got = tukey_hsd_p_values(groups)
    for i, row in enumerate(got):
        for j, p in enumerate(row):
            assert p == pytest.approx(float(expected[i][j]), rel=0, abs=1e-9), (i, j)
