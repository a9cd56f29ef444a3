"""Per-query scores for parsed judgements and results, under the counting rules of docs/counting.md."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

from ..measures.aggregation import aggregate, arithmetic_mean
from ..measures.grades import QueryGrades
from ..measures.grammar import family_specs
from ..measures.judged_only import JUDGED_ONLY, judged_only_step
from ..measures.registry import BY_NAME

JUDGED_WARNING_BELOW = 0.5
_positive = (0).__lt__  # g > 0, at C speed


class Settings(NamedTuple):
    """What to compute; validated by ``options.settings``.

    ``specs`` lists the metrics (``names.MetricSpec``, each with its own cutoff); when empty,
    they are evaluate()'s families ``metrics`` at each cutoff of ``k``. ``labels``, if given,
    are the report's keys for them (the names as the caller wrote them).
    """

    k: tuple[int, ...]
    metrics: tuple[str, ...]
    gain: str = "linear"
    missing: str = "zero"
    zero_division: "str | float" = "skip"  # queries without a relevant document: see below
    relevance_threshold: int = 1  # grade >= this is relevant (trec_eval -l)
    specs: tuple = ()
    labels: tuple = ()  # report keys as the names were given, one per spec (else spec.key)
    ties: str = "trec_eval"  # equal scores: trec_eval | optimistic | pessimistic | average (ties.py)


def undefined_value(settings: Settings) -> float:
    """What an undefined metric becomes under ``zero_division`` (as in scikit-learn):
    0 (also ``warn``), 1, or NaN (left out of the mean)."""
    policy = settings.zero_division
    if policy == "nan":
        return math.nan
    return 1.0 if policy == 1 else 0.0


class Plan(NamedTuple):
    """Settings turned into the work for each query."""

    keys: tuple[str, ...]
    steps: tuple  # (key, compute, cutoff, params as a dict, undefined(q) or None)
    depth: int | None  # how many ranked grades the measures read (None: all)
    undefined: float


@lru_cache(maxsize=64)
def plan(settings: Settings) -> Plan:
    specs = metric_specs(settings)
    labels = settings.labels or [spec.key for spec in specs]
    steps = tuple(_step(label, spec) for label, spec in zip(labels, specs))
    whole = any(spec.needs_whole_ranking or JUDGED_ONLY in dict(spec.params) for spec in specs)
    depth = None if whole or not specs else max(spec.cutoff for spec in specs)
    return Plan(tuple(step[0] for step in steps), steps, depth, undefined_value(settings))


def _step(label: str, spec):
    """(key, compute, cutoff, params, undefined) for one metric; ``judged_only=True`` (any
    measure) computes it on the ranking without its unjudged documents."""
    measure = BY_NAME[spec.measure]
    params = dict(spec.params)
    compute, undefined = measure.compute, measure.undefined
    if params.pop(JUDGED_ONLY, False):
        compute, undefined = judged_only_step(compute, undefined)
    return label, compute, spec.cutoff, params, undefined


@lru_cache(maxsize=64)
def metric_specs(settings: Settings) -> tuple:
    if settings.labels:
        return tuple(settings.specs)
    if settings.specs:
        return tuple(dict.fromkeys(settings.specs))
    return family_specs(settings.metrics, settings.k)


def mean_of(key: str, values: list[float], settings: Settings | None = None) -> float:
    """The report's mean of one metric, as its measure aggregates (``Measure.aggregate``: the
    arithmetic mean, or trec_eval's geometric mean for gm_map)."""
    return aggregate(key, values)


def metric_keys(settings: Settings) -> tuple[str, ...]:
    """Column names in output order: each cutoff metric at each k, then the uncut ones."""
    return plan(settings).keys


def score_query(ranked: list[str], judged: dict[str, int], settings: Settings,
                undefined_keys: dict | None = None, query: str = "") -> dict[str, float]:
    """Every asked-for metric of one query; a metric undefined there (recall without a
    relevant document, ...) gets ``zero_division``'s value (and the query is listed under
    its key in ``undefined_keys``, if given).

    >>> s = Settings(k=(2,), metrics=("recall", "precision", "mrr", "ndcg"))
    >>> score_query(["d4", "d2", "d1"], {"d1": 2, "d4": 1}, s)["recall@2"]
    0.5
    """
    work = plan(settings)
    q = QueryGrades(ranked, judged, settings.relevance_threshold, settings.gain, work.depth)
    values = {}
    for key, compute, k, params, undefined in work.steps:
        if undefined is not None and undefined(q):
            values[key] = work.undefined
            if undefined_keys is not None:
                undefined_keys.setdefault(key, []).append(query)
        elif params:
            values[key] = compute(q, k, **params)
        else:
            values[key] = compute(q, k)
    return values


def zero_scores(settings: Settings, judged: dict | None = None) -> dict[str, float]:
    """A judged query the run lacks: scored as an empty ranking (trec_eval -c), so every
    metric is 0 but for those undefined without a relevant document."""
    return score_query([], judged or {}, settings)


def has_relevant(judged: dict, threshold: int = 1) -> bool:
    if threshold == 1:
        return any(map(_positive, judged.values()))
    return any(g >= threshold for g in judged.values())


mean = arithmetic_mean  # the one mean (summed exactly), under the name the package used
