"""ranx's ``fuse``: the runs normalised (``normalization``), then fused by one of ranx's
methods (``fusion``; those that learn from judgements, ``fusion_trained``), each named as
ranx's ``fuse(method=...)`` names it.
"""

from __future__ import annotations

from ...errors import OptionError
from . import fusion as f
from . import fusion_trained as t
from .fusion_search import HYPERPARAMETERS, optimization_switch
from .normalization import norm_switch
from .optimization_report import OptimizationReport

__all__ = ["fuse", "fusion_switch", "optimize_fusion"]

METHODS = {"bordafuse": f.bordafuse, "anz": f.comb_anz, "gmnz": f.comb_gmnz, "max": f.comb_max,
           "med": f.comb_med, "min": f.comb_min, "mnz": f.comb_mnz, "sum": f.comb_sum,
           "condorcet": f.condorcet, "isr": f.isr, "log_isr": f.log_isr, "logn_isr": f.logn_isr,
           "mixed": f.mixed, "rbc": f.rbc, "rrf": f.rrf, "w_bordafuse": f.weighted_bordafuse,
           "w_condorcet": f.weighted_condorcet, "wmnz": f.wmnz, "wsum": f.wsum,
           "bayesfuse": t.bayesfuse, "mapfuse": t.mapfuse, "posfuse": t.posfuse,
           "probfuse": t.probfuse, "segfuse": t.segfuse, "slidefuse": t.slidefuse}


def fusion_switch(method: str):
    """The fusion method of ranx's name (``fuse(method=...)``)."""
    if method not in METHODS:
        raise ValueError(f"Fusion method {method} not supported.")
    return METHODS[method]


def two_or_more(runs) -> list:
    """The runs as a list, refusing fewer than two (ranx asserts the same)."""
    runs = list(runs)
    if len(runs) < 2:
        raise OptionError("runs", "Only one run provided: fusion needs two runs or more")
    return runs


def normalised(runs: list, norm: str | None) -> list:
    """The runs normalised as ranx's ``fuse`` normalises them: ``None`` as they are, Borda over
    all the runs at once, any other one run at a time."""
    if norm is None:
        return runs
    if norm == "borda":
        return norm_switch(norm)(runs)
    return [norm_switch(norm)(run) for run in runs]


def fuse(runs, norm: str | None = "min-max", method: str = "wsum", params: dict | None = None):
    """ranx's ``fuse``: the runs normalised (``normalization.norm_switch``, ``None``: as they
    are; ``"borda"`` over all the runs at once), then fused by ``method``
    (``fusion_switch``) with ``params`` (``weights``, ``k``, ``phi``, ``gamma``, ``sigma``;
    ``probs``, ``log_odds``, ``map_scores`` and ``w`` learned by ``fusion_trained``). The
    runs must hold the same queries, as ranx asserts."""
    runs = two_or_more(runs)
    for i, first in enumerate(runs):
        for j, other in enumerate(runs[i + 1:], i + 1):
            if set(first.keys()) != set(other.keys()):
                raise OptionError("runs", f"Runs {i} and {j} query ids do not match")
    combine = fusion_switch(method)
    return combine(normalised(runs, norm), **(params or {}))


def optimize_fusion(qrels, runs, norm: str | None = "min-max", method: str = "wsum",
                    metric: str = "ndcg", return_optimization_report: bool = False,
                    rounding_digits: int = 3, show_percentages: bool = False, **kwargs):
    """ranx's ``optimize_fusion``: the runs normalised as ``fuse`` normalises them, then the
    parameters of ``method`` searched on ``qrels`` by ``metric`` (``fusion_search``: ranx's
    grids; ``kwargs`` its bounds and steps), returned as ``fuse``'s ``params``; with
    ``return_optimization_report`` (a method with parameters to search), also ranx's
    ``OptimizationReport`` of every value tried."""
    runs = two_or_more(runs)
    for i, run in enumerate(runs):
        if set(run.keys()) != set(qrels.keys()):
            raise OptionError("runs", f"Run {i} and Qrels query ids do not match")
    search = optimization_switch(method)
    if method not in HYPERPARAMETERS:  # the methods that only learn: no metric, no report
        return search(qrels, normalised(runs, norm), **kwargs)
    if return_optimization_report:
        best, report = search(qrels, normalised(runs, norm), metric=metric,
                              return_optimization_report=True, **kwargs)
        return best, OptimizationReport(method, list(report), list(report.values()), metric,
                                        rounding_digits, show_percentages)
    return search(qrels, normalised(runs, norm), metric=metric, **kwargs)
