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
from retrieval_metrics.compat.ranx.fuse import fusion_switch
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


def test_an_unknown_method_is_refused_in_ranxs_words():
    with pytest.raises(ValueError, match="Fusion method nonsense not supported."):
        fusion_switch("nonsense")


def test_fuse_refuses_one_run_and_runs_of_other_queries():
    from retrieval_metrics.errors import OptionError
    with pytest.raises(OptionError, match="Only one run provided"):
        fuse([Run({"q": {"d": 1.0}})])
    with pytest.raises(OptionError, match="Runs 0 and 1 query ids do not match"):
        fuse([Run({"q": {"d": 1.0}}), Run({"r": {"d": 1.0}})])


def judged_runs(seed: int):
    rng = random.Random(seed)
    qrels = {f"q{q}": {f"d{i}": rng.choice([0, 1, 2]) for i in rng.sample(range(20), 8)}
             for q in range(6)}
    runs = [{f"q{q}": {f"d{i}": rng.choice([0.5, 1.0, rng.random()])
                       for i in rng.sample(range(20), rng.randint(3, 15))} for q in range(6)}
            for _ in range(3)]
    return qrels, runs


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_the_methods_that_learn_from_judgements_learn_and_fuse_as_ranx(ranx, seed):
    """probfuse, segfuse, slidefuse, posfuse, mapfuse and bayesfuse: what each *_train learns
    (every number), and the run each fuses with it (documents, order, scores), are ranx's."""
    from importlib import import_module

    from retrieval_metrics.compat.ranx import Qrels
    from retrieval_metrics.compat.ranx import fusion_trained as mine
    theirs = import_module("ranx.fusion")
    qrels, runs = judged_runs(seed)
    for method, train_args, fuse_args in [("probfuse", (3,), {}), ("segfuse", (), {}),
                                          ("slidefuse", (), {"w": 2}), ("posfuse", (), {}),
                                          ("mapfuse", (), {}), ("bayesfuse", (), {})]:
        learned_theirs = getattr(theirs, f"{method}_train")(
            ranx.Qrels(qrels), [ranx.Run(r) for r in runs], *train_args)
        learned = getattr(mine, f"{method}_train")(Qrels(qrels), [Run(r) for r in runs],
                                                   *train_args)
        as_lists = [list(map(float, x)) if hasattr(x, "__len__") else float(x)
                    for x in learned_theirs]
        assert [list(x) if hasattr(x, "__len__") else x for x in learned] == as_lists, method
        fused_theirs = getattr(theirs, method)([ranx.Run(r) for r in runs], learned_theirs,
                                               **fuse_args)
        fused = getattr(mine, method)([Run(r) for r in runs], learned, **fuse_args)
        assert listed(fused) == listed(fused_theirs) and fused.name == fused_theirs.name, method


def plain(value):
    """ranx's numpy values as Python's, for comparing what optimize_fusion returns."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if hasattr(value, "tolist") and not isinstance(value, list):
        return plain(value.tolist())
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return float(value) if isinstance(value, (int, float)) or hasattr(value, "item") else value


LEARNED_ONLY = ("bayesfuse", "mapfuse", "posfuse", "segfuse")


@pytest.mark.slow
@pytest.mark.parametrize("method", ["rrf", "rbc", "gmnz", "logn_isr", "probfuse", "slidefuse",
                                    "wsum", "wmnz", "mixed", "w_bordafuse", "w_condorcet",
                                    *LEARNED_ONLY])
def test_optimize_fusion_picks_ranxs_parameters(ranx, method):
    """On the same grid (ranx's defaults), the parameters chosen by ndcg@10 are ranx's: the k,
    phi, gamma, sigma, window or weights, and what the learning methods learn."""
    from retrieval_metrics.compat.ranx import Qrels, optimize_fusion
    qrels, runs = judged_runs(0)
    options = {} if method in LEARNED_ONLY else {"show_progress": False}
    theirs = ranx.optimize_fusion(ranx.Qrels(qrels), [ranx.Run(r) for r in runs], method=method,
                                  metric="ndcg@10", **options)
    mine = optimize_fusion(Qrels(qrels), [Run(r) for r in runs], method=method,
                           metric="ndcg@10", **options)
    assert plain(mine) == plain(theirs)


@pytest.mark.slow
@pytest.mark.parametrize("method, metric, digits, percent", [
    ("rrf", "ndcg@10", 3, False), ("rbc", "map", 4, False), ("gmnz", "mrr", 3, True),
    ("logn_isr", "precision@5", 3, False), ("probfuse", "ndcg@10", 2, False),
    ("slidefuse", "recall@10", 3, False), ("wsum", "ndcg@10", 3, False),
    ("w_condorcet", "hit_rate@5", 3, False)])
def test_optimize_fusions_report_is_ranxs(ranx, method, metric, digits, percent):
    """return_optimization_report=True: the best parameters and ranx's OptimizationReport, its
    configurations (as ranx writes them; a weight tuple as Python's floats where ranx on numpy
    2 writes np.float64(...)), their scores, and the table ranx prints (its rich table written
    to a file), character for character where the configurations are written alike."""
    import re

    from retrieval_metrics.compat.ranx import Qrels, optimize_fusion
    qrels, runs = judged_runs(1)
    options = {"show_progress": False, "return_optimization_report": True,
               "rounding_digits": digits, "show_percentages": percent}
    best_theirs, theirs = ranx.optimize_fusion(ranx.Qrels(qrels), [ranx.Run(r) for r in runs],
                                               method=method, metric=metric, **options)
    best_mine, mine = optimize_fusion(Qrels(qrels), [Run(r) for r in runs], method=method,
                                      metric=metric, **options)
    assert plain(best_mine) == plain(best_theirs)

    def written(config):  # np.float64(0.1) -> 0.1
        return re.sub(r"np\.float64\(([^)]*)\)", r"\1", config)
    assert mine.configs == [written(c) for c in theirs.configs]
    assert mine.results == pytest.approx([float(r) for r in theirs.results], abs=1e-15)
    assert (mine.method, mine.metric) == (theirs.method, theirs.metric)
    if all("np.float64" not in c for c in theirs.configs):
        assert str(mine) == str(theirs)


def test_numpys_arange_and_the_weight_grid():
    """ranx's grids come from numpy's arange (0 .. 1 by 0.1: ceil(1.1 / 0.1) = 11 values, the
    last 1.0 once rounded), and the weights that add up to 1.0 left to right (62 of 1,331 for
    three runs)."""
    from retrieval_metrics.compat.ranx.fusion_search import arange, weight_grid
    assert [round(x, 1) for x in arange(0, 1.1, 0.1)] == [i / 10 for i in range(11)]
    assert len(arange(0.01, 1.01, 0.01)) == 100 and len(arange(0, 1.05, 0.05)) == 21
    grid = weight_grid(0.1, 3)
    assert len(grid) == 62 and (0.1, 0.2, 0.7) in grid and (0.7, 0.2, 0.1) not in grid
    # 0.7 + 0.2 + 0.1 is 0.9999999999999999 left to right: not in ranx's grid either
