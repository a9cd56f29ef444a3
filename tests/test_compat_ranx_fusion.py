"""``compat.ranx``'s ``fuse`` and ``ranx.normalization`` against ranx 0.3.21 itself, in the same
process: on generated runs with ties (scores drawn from a few values), every fusion method under
every normalisation gives ranx's fused run: the same queries, the same documents in the same
order, and the same scores to the last bit. (Borda and Condorcet order their candidates as a
Python set iterates, as ranx does; in one process that order is the same for both.)"""

from __future__ import annotations

import random

import pytest
from retrieval_metrics.compat.ranx import Run, fuse
from retrieval_metrics.compat.ranx import normalization as ours_norm
from retrieval_metrics.compat.ranx.fusion import TRAINED, fusion_switch
from retrieval_metrics.measures.dialects.ranx_arith import int_power

WEIGHTS = [0.2, 0.5, 0.3]
METHODS = {"sum": {}, "mnz": {}, "anz": {}, "max": {}, "min": {}, "med": {},
           "gmnz": {"gamma": 0.7}, "wsum": {"weights": WEIGHTS}, "wmnz": {"weights": WEIGHTS},
           "mixed": {"weights": WEIGHTS}, "rrf": {"k": 60}, "isr": {}, "log_isr": {},
           "logn_isr": {"sigma": 0.01}, "rbc": {"phi": 0.8}, "bordafuse": {},
           "w_bordafuse": {"weights": WEIGHTS}, "condorcet": {},
           "w_condorcet": {"weights": WEIGHTS}}
NORMS = [None, "min-max", "min-max-inverted", "max", "sum", "zmuv", "rank", "borda"]


def generated(seed: int, queries: int = 6, docs: int = 14) -> list[dict]:
    """Three runs over the same queries, each query's documents a random subset, scores drawn
    from a few values (ties) and a few random ones."""
    rng = random.Random(seed)
    pool = [f"d{i}" for i in range(docs)]
    runs = []
    for _ in range(3):
        runs.append({f"q{q}": {d: rng.choice([0.5, 1.0, 1.5, 2.0, -1.0, rng.random()])
                               for d in rng.sample(pool, rng.randint(1, docs - 2))}
                     for q in range(queries)})
    return runs


@pytest.fixture(scope="module")
def ranx():
    """ranx itself (imported only by the tests that compare with it: numba takes seconds)."""
    import ranx
    return ranx


def listed(run) -> dict:
    return {q: list(docs.items()) for q, docs in run.to_dict().items()}


@pytest.mark.slow  # ranx's numba kernels compile or load: seconds
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("norm", NORMS)
def test_every_method_gives_ranxs_fused_run(ranx, seed, norm):
    data = generated(seed)
    differ = []
    for method, params in METHODS.items():
        theirs = ranx.fuse([ranx.Run(d) for d in data], norm=norm, method=method, params=params)
        ours = fuse([Run(d) for d in data], norm=norm, method=method, params=params)
        if listed(ours) != listed(theirs):
            differ.append(method)
    assert differ == []


@pytest.mark.slow
def test_the_fused_run_is_named_as_ranx_names_it(ranx):
    data = generated(5)
    for method, params in METHODS.items():
        theirs = ranx.fuse([ranx.Run(d) for d in data], norm=None, method=method, params=params)
        ours = fuse([Run(d) for d in data], norm=None, method=method, params=params)
        assert ours.name == theirs.name, method


@pytest.mark.slow
@pytest.mark.parametrize("name", ["min_max_norm", "max_norm", "sum_norm", "zmuv_norm",
                                  "rank_norm"])
def test_each_normalisation_gives_ranxs_run_and_leaves_its_input_alone(ranx, name):
    data = generated(7)[0]
    run = Run(data)
    before = listed(run)
    from importlib import import_module
    theirs = getattr(import_module("ranx.normalization"), name)(ranx.Run(data))
    assert listed(getattr(ours_norm, name)(run)) == listed(theirs)
    assert listed(run) == before


def test_rrf_by_hand():
    """Two runs: d1 first in a, second in b: 1/61 + 1/62; d2 the other way round: the same sum
    (a tie, kept in the order met); d3 only in b at rank 3: 1/63."""
    a, b = Run({"q": {"d1": 2.0, "d2": 1.0}}), Run({"q": {"d2": 3.0, "d1": 2.0, "d3": 1.0}})
    fused = fuse([a, b], norm=None, method="rrf")
    assert fused.to_dict() == {"q": {"d1": 1 / 61 + 1 / 62, "d2": 1 / 62 + 1 / 61, "d3": 1 / 63}}


def test_numbas_power_is_not_cs_pow_and_rbc_uses_numbas():
    """phi ** 7 by square and multiply differs from pow() in the last bit for phi = 0.8."""
    assert int_power(0.8, 7) != 0.8 ** 7
    assert int_power(0.8, 7) == 0.8 * 0.8 ** 2 * (0.8 ** 2) ** 2  # 1, then a, a^2, a^4


def test_a_method_that_learns_from_judgements_is_refused_by_name():
    from retrieval_metrics.errors import OptionError
    for method in TRAINED:
        with pytest.raises(OptionError, match=f"ranx's {method} learns from judgements"):
            fusion_switch(method)


def test_fuse_refuses_one_run_and_runs_of_other_queries():
    from retrieval_metrics.errors import OptionError
    with pytest.raises(OptionError, match="Only one run provided"):
        fuse([Run({"q": {"d": 1.0}})])
    with pytest.raises(OptionError, match="Runs 0 and 1 query ids do not match"):
        fuse([Run({"q": {"d": 1.0}}), Run({"r": {"d": 1.0}})])
