"""Per-query scores for parsed judgements and results, under SPEC.md's counting rules."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

from . import metrics as m

JUDGED_WARNING_BELOW = 0.5
_positive = (0).__lt__  # g > 0, at C speed


class Settings(NamedTuple):
    """What to compute; validated by ``options.settings``."""

    k: tuple[int, ...]
    metrics: tuple[str, ...]
    gain: str = "linear"
    missing: str = "zero"
    zero_division: "str | float" = "skip"  # queries without a relevant document: see below


#: metrics that divide by the number of relevant documents (or by the ideal DCG), and so are
#: undefined for a query without one; the others are defined (precision 0, RR 0, ...)
UNDEFINED_WITHOUT_RELEVANT = frozenset({"recall", "ndcg", "ap", "map", "rprec"})


def undefined_value(settings: Settings) -> float:
    """What an undefined metric becomes under ``zero_division`` (as in scikit-learn):
    0 (also ``warn``), 1, or NaN (left out of the mean)."""
    policy = settings.zero_division
    if policy == "nan":
        return math.nan
    return 1.0 if policy == 1 else 0.0


@lru_cache(maxsize=64)
def metric_keys(settings: Settings) -> tuple[str, ...]:
    """Column names in output order: each cutoff metric at each k, then the uncut ones."""
    keys = [f"{name}@{k}" for name in settings.metrics if name in m.CUTOFF_METRICS
            for k in settings.k]
    return tuple(keys + [name for name in settings.metrics if name in m.FULL_METRICS])


def score_query(ranked: list[str], judged: dict[str, int], settings: Settings) -> dict[str, float]:
    """Every asked-for metric of one query whose judgements hold a relevant document.

    >>> s = Settings(k=(2,), metrics=("recall", "precision", "mrr", "ndcg"))
    >>> score_query(["d4", "d2", "d1"], {"d1": 2, "d4": 1}, s)["recall@2"]
    0.5
    """
    num_relevant = sum(map(_positive, judged.values()))
    if not num_relevant:
        return _without_relevant(ranked, judged, settings)
    deepest = max(settings.k)
    get = judged.get
    top = list(map(get, ranked[:deepest]))
    values: dict[str, float] = {}
    needs_all = any(name in settings.metrics for name in ("rr", "map", "rprec"))
    full = list(map(get, ranked)) if needs_all else top
    ideal = m.ideal_gains(judged.values(), settings.gain) if "ndcg" in settings.metrics else None
    for name in settings.metrics:
        if name == "rr":
            values["rr"] = m.reciprocal_rank(full)
        elif name == "map":
            values["map"] = m.average_precision(full, num_relevant)
        elif name == "rprec":
            values["rprec"] = m.r_precision(full, num_relevant)
        else:
            for k in settings.k:
                values[f"{name}@{k}"] = _at_k(name, top, judged, num_relevant, k, settings.gain,
                                              ideal)
    return {key: values[key] for key in metric_keys(settings)}


def _without_relevant(ranked: list[str], judged: dict[str, int], settings: Settings):
    """A query whose judgements hold no relevant document (scored only when ``zero_division``
    asks for it): the defined metrics as computed, the undefined ones by the policy."""
    undefined = undefined_value(settings)
    top = list(map(judged.get, ranked[: max(settings.k)]))
    values = {}
    for key in metric_keys(settings):
        name, _, k = key.partition("@")
        if name in UNDEFINED_WITHOUT_RELEVANT:
            values[key] = undefined
        elif name == "rr":
            values[key] = 0.0
        else:
            values[key] = _at_k(name, top, judged, 0, int(k), settings.gain)
    return values


def _at_k(name: str, top, judged, num_relevant: int, k: int, gain: str, ideal=None) -> float:
    if name == "recall":
        return m.recall(top, num_relevant, k)
    if name == "precision":
        return m.precision(top, k)
    if name == "mrr":
        return m.reciprocal_rank(top, k)
    if name == "ndcg":
        return m.ndcg(top, judged.values(), k, gain, ideal)
    if name == "hit_rate":
        return m.hit_rate(top, k)
    if name == "ap":
        return m.average_precision(top, num_relevant, k)
    if name == "judged":
        return m.judged_share(top, k)
    raise AssertionError(name)


def zero_scores(settings: Settings, has_relevant: bool = True) -> dict[str, float]:
    """A judged query the run lacks scores 0 on everything (trec_eval -c), but for the values
    that are undefined when it has no relevant document either."""
    if has_relevant:
        return dict.fromkeys(metric_keys(settings), 0.0)
    return _without_relevant([], {}, settings)


def mean(values: list[float]) -> float:
    """The mean of the defined (non-NaN) values, summed exactly so that the order of queries
    cannot move the last digit; NaN when none is defined."""
    defined = [v for v in values if v == v]
    return math.fsum(defined) / len(defined) if defined else math.nan
