"""ranx 0.3's search for each fusion method's parameters (``optimize_fusion``): every value of a
grid tried on the judgements, the one with the best score of ``metric`` kept (the last of
equal scores, as ranx keeps it), standard library only.

The grids are ranx's: whole numbers by ``range`` (RRF's k 10-100 by 10; ProbFuse's segments
1-100; SlideFuse's window 1-100), fractions by numpy's ``arange`` rounded to the step's digits
(RBC's phi, CombGMNZ's gamma, logN ISR's sigma: 0.01-1.0 by 0.01), and for the weighted methods
every combination of weights 0, 0.1, ..., 1 (by ``step``) that adds up to 1.0, added left to
right as Python 3.11's ``sum`` adds (0.7 + 0.2 + 0.1 is 0.9999999999999999 and is left out;
Python 3.12 adds floats with compensation and would keep it: ranx's own grid then depends on
the Python it runs on, this one does not).

>>> arange(0.0, 1.1, 0.1)[-2:], weight_grid(0.5, 2)
([0.9, 1.0], [(0.0, 1.0), (0.5, 0.5), (1.0, 0.0)])
"""

from __future__ import annotations

import itertools
import math

from . import fusion as f
from . import fusion_trained as t
from .api import evaluate
from .normalization import total

__all__ = ["arange", "optimization_switch", "weight_grid", "HYPERPARAMETERS"]

#: the methods whose search has parameters to report (ranx's has_hyperparams)
HYPERPARAMETERS = ("gmnz", "logn_isr", "mixed", "probfuse", "rbc", "rrf", "slidefuse",
                   "w_bordafuse", "w_condorcet", "wmnz", "wsum")


def arange(start: float, stop: float, step: float) -> list[float]:
    """numpy's ``arange(start, stop, step)`` for floats: ceil((stop - start) / step) values,
    start + i * (the step as numpy takes it, (start + step) - start)."""
    count = max(0, math.ceil((stop - start) / step))
    delta = (start + step) - start
    return [start + i * delta for i in range(count)]


def _digits(step) -> int:
    return str(step)[::-1].find(".")  # ranx's rounding: the step's digits after the point


def _fractions(low: float, high: float, step: float) -> list[float]:
    return [round(x, _digits(step)) for x in arange(low, high + step, step)]


def weight_grid(step: float, n_runs: int) -> list[tuple]:
    """Every tuple of ``n_runs`` weights from 0 to 1 by ``step`` adding up to 1.0."""
    weights = [round(x, _digits(step)) for x in arange(0, 1 + step, step)]
    return [seq for seq in itertools.product(*[weights] * n_runs) if total(seq) == 1.0]


def _best(qrels, trials, fused, metric: str, report: dict | None = None):
    """The trial whose fused run scores best on ``metric`` (the last of equal scores); each
    trial's score goes into ``report`` under ``str(trial)``, as ranx's optimisation report."""
    best_score, best = 0.0, None
    for trial in trials:
        score = evaluate(qrels, fused(trial), metric, save_results_in_run=False)
        if report is not None:
            report[str(trial)] = score
        if score >= best_score:
            best_score, best = score, trial
    return best


def _reported(best: dict, report: dict | None):
    """ranx's answer: the parameters, and the report when one was asked for."""
    return best if report is None else (best, report)


def _weights(method):
    def search(qrels, runs, metric, step: float = 0.1, show_progress: bool = True,
               return_optimization_report: bool = False):
        grid = weight_grid(step, len(runs))
        report = {} if return_optimization_report else None
        return _reported({"weights": _best(qrels, grid, lambda w: method(runs, list(w)), metric,
                                           report) or []}, report)
    return search


def optimize_rrf(qrels, runs, metric, min_k: int = 10, max_k: int = 100, step: int = 10,
                 show_progress: bool = True, return_optimization_report: bool = False):
    report = {} if return_optimization_report else None
    return _reported({"k": _best(qrels, range(min_k, max_k + 1, step),
                                 lambda k: f.rrf(runs, k), metric, report)}, report)


def _fraction_search(name: str, method):
    def search(qrels, runs, metric, step: float = 0.01, show_progress: bool = True,
               return_optimization_report: bool = False, **bounds):
        low, high = bounds.get(f"min_{name}", 0.01), bounds.get(f"max_{name}", 1.0)
        grid = _fractions(low, high, step)
        report = {} if return_optimization_report else None
        return _reported({name: _best(qrels, grid, lambda value: method(runs, value), metric,
                                      report)}, report)
    return search


def optimize_probfuse(qrels, runs, metric, min_n_segments: int = 1, max_n_segments: int = 100,
                      show_progress: bool = True, return_optimization_report: bool = False):
    learned = {n: t.probfuse_train(qrels, runs, n) for n in range(min_n_segments,
                                                                 max_n_segments + 1)}
    report = {} if return_optimization_report else None
    best = _best(qrels, list(learned), lambda n: t.probfuse(runs, learned[n]), metric, report)
    return _reported({"probs": learned[best] if best is not None else None}, report)


def optimize_slidefuse(qrels, runs, metric, min_w: int = 1, max_w: int = 100,
                       show_progress: bool = True, return_optimization_report: bool = False):
    probs = t.slidefuse_train(qrels, runs)
    report = {} if return_optimization_report else None
    return _reported({"probs": probs,
                      "w": _best(qrels, range(min_w, max_w + 1),
                                 lambda w: t.slidefuse(runs, probs, w), metric, report)}, report)


SEARCHES = {
    "rrf": optimize_rrf, "rbc": _fraction_search("phi", f.rbc),
    "gmnz": _fraction_search("gamma", f.comb_gmnz), "logn_isr": _fraction_search("sigma", f.logn_isr),
    "probfuse": optimize_probfuse, "slidefuse": optimize_slidefuse,
    "wsum": _weights(f.wsum), "wmnz": _weights(f.wmnz), "mixed": _weights(f.mixed),
    "w_bordafuse": _weights(f.weighted_bordafuse), "w_condorcet": _weights(f.weighted_condorcet),
    "bayesfuse": lambda qrels, runs, **_: {"log_odds": t.bayesfuse_train(qrels, runs)},
    "mapfuse": lambda qrels, runs, **_: {"map_scores": t.mapfuse_train(qrels, runs)},
    "posfuse": lambda qrels, runs, **_: {"probs": t.posfuse_train(qrels, runs)},
    "segfuse": lambda qrels, runs, **_: {"probs": t.segfuse_train(qrels, runs)},
}


def optimization_switch(method: str):
    """ranx's search for ``method``'s parameters."""
    if method not in SEARCHES:
        raise ValueError(f"Fusion method {method} not supported.")
    return SEARCHES[method]
