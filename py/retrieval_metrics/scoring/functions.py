"""``ranking_metrics``: several ranking metrics in one validated pass, scikit-learn style.

``y_true`` holds the judgements of each query, ``y_pred`` the rankings (see ``inputs.objects`` for
every shape read: mappings keyed by query id, sequences aligned by position, DataFrames, rows,
text, paths, files). Each metric name carries its own cutoff (``"ndcg@3"``; ``"mrr"`` has
none); ``measures.grammar.parse_metric`` lists the spellings. The reference case
of docs/api.md:

>>> qrels = {"q1": {"d1": 2, "d4": 1}, "q2": ["d3"]}
>>> runs = {"q1": ["d4", "d2", "d1"], "q2": ["d5", "d3"]}
>>> ranking_metrics(qrels, runs, metrics=["mrr", "hit_rate@1"])
{'mrr': 0.75, 'hit_rate@1': 0.5}
>>> per_query = ranking_metrics(qrels, runs, metrics=["mrr", "hit_rate@1", "recall@2", "ndcg@3"],
...                             average=None)
>>> {name: [round(v, 4) for v in values] for name, values in per_query.items()}
{'mrr': [1.0, 0.5], 'hit_rate@1': [1.0, 0.0], 'recall@2': [0.5, 1.0], 'ndcg@3': [0.7602, 0.6309]}

Every query of ``y_true`` is scored, in its order; a query ``y_pred`` lacks scores as an empty
ranking (0, as trec_eval -c), and a ranked query ``y_true`` does not judge is not scored.
"""

from __future__ import annotations

import warnings

from ..errors import InputError, OptionError
from ..report.wording import agreeing
from .evaluate import load, paused_gc
from .query import mean_of, score_query
from .settings import NAMED_DEFAULT as DEFAULT_METRICS
from .settings import parse_zero_division
from .settings import settings as make_settings
from .undefined import warning_class

AVERAGES = ("mean", None)
ZERO_DIVISION = ("warn", 0, 1, "nan")


def ranking_metrics(y_true, y_pred, metrics=DEFAULT_METRICS, *, average="mean",
                    zero_division="warn", relevance_threshold=1, duplicates="raise",
                    gain="linear", dialect=None) -> dict:
    """The mean of each metric over the queries of ``y_true`` (``average="mean"``), or each
    query's values in ``y_true``'s order (``average=None``), keyed by the names as given.

    ``zero_division`` decides a metric that is undefined for a query (recall, AP, R-precision
    without a relevant document, nDCG without a positive grade): ``"warn"`` scores 0.0 and
    emits ``UndefinedMetricWarning``; ``0.0`` / ``1.0`` score that; ``nan`` (``np.nan``)
    leaves it undefined and out of the mean. ``relevance_threshold``: a grade at or above it
    is relevant (trec_eval's -l); nDCG keeps every positive grade as its gain.
    ``duplicates="first"`` keeps a repeated id at its first rank instead of refusing it.
    ``dialect="ir_measures"`` or ``"ranx"`` reads every name as that tool does (keys stay the
    names as given; a ``tool:`` prefix reads one name so), docs/names.md.

    The undefined case of docs/counting.md: q2 has no relevant id, so its recall is undefined.

    >>> y_true, y_pred = {"q1": ["d1"], "q2": []}, {"q1": ["d1"], "q2": ["d2"]}
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     ranking_metrics(y_true, y_pred, ["recall@1"])
    {'recall@1': 0.5}
    >>> [w.category.__name__ for w in caught]
    ['UndefinedMetricWarning']
    >>> [ranking_metrics(y_true, y_pred, ["recall@1"], zero_division=policy)["recall@1"]
    ...  for policy in (0.0, 1.0, float("nan"))]
    [0.5, 1.0, 1.0]
    """
    if average not in AVERAGES:
        raise OptionError("average", f'average must be "mean" or None, found {average!r}')
    settings = make_settings(None, gain, "zero", metrics,
                             parse_zero_division(zero_division, ZERO_DIVISION),
                             relevance_threshold, dialect=dialect)
    judgements, ranked = load(y_true, y_pred, duplicates=duplicates)
    grades, rankings = judgements.grades, ranked.ranked
    if not grades:
        raise InputError("qrels", "no query has judgements", expected="at least one query")
    if rankings and not any(query in rankings for query in grades):
        raise InputError("run", f"no query of the results is in the judgements (judgements: "
                         f"{_some(grades)}; results: {_some(rankings)})",
                         expected="the judgements' query ids")
    undefined: dict[str, list[str]] = {}
    rows = []
    with paused_gc():
        for query, judged in grades.items():
            row = score_query(rankings.get(query, []), judged, settings, undefined, query)
            rows.append((query, row))
    if settings.zero_division == "warn" and undefined:
        _warn(undefined)
    if average is None:
        return {name: [row[name] for _, row in rows] for name in settings.labels}
    return {name: mean_of(name, [row[name] for _, row in rows], settings) for name in settings.labels}


def _some(queries) -> str:
    shown = [repr(q) for q in list(queries)[:3]]
    return ", ".join(shown) + (", ..." if len(queries) > 3 else "")


def _warn(undefined: dict[str, list[str]]) -> None:
    shown = list(undefined)
    queries = sorted({q for qs in undefined.values() for q in qs})
    listed = ", ".join(queries[:5]) + (f" and {len(queries) - 5:,} more" if len(queries) > 5 else "")
    warnings.warn(f"{', '.join(shown)} {agreeing(len(shown), 'is')} undefined for "
                  f"{len(queries):,} quer{'y' if len(queries) == 1 else 'ies'} without a "
                  f"relevant document ({listed}) and set to 0.0. Use zero_division=0.0 to "
                  "score 0 without this warning, or zero_division=np.nan to leave those "
                  "queries out of the mean.", warning_class(), stacklevel=3)


# --- one metric at a time -------------------------------------------------------------------

def _one(name: str, y_true, y_pred, options) -> float:
    return ranking_metrics(y_true, y_pred, [name], **options)[name]


def recall_at_k(y_true, y_pred, k: int = 10, **options):
    """Mean recall@k: relevant ids in the top k over all relevant ids.

    >>> recall_at_k({"q1": {"d1": 2, "d4": 1}, "q2": ["d3"]},
    ...             {"q1": ["d4", "d2", "d1"], "q2": ["d5", "d3"]}, k=2)
    0.75
    """
    return _one(f"recall@{_k(k)}", y_true, y_pred, options)


def precision_at_k(y_true, y_pred, k: int = 10, **options):
    """Mean precision@k: relevant ids in the top k over k (trec_eval's P_k).

    >>> precision_at_k({"q1": ["d1"], "q2": ["d3"]}, {"q1": ["d1", "d2"], "q2": ["d5"]}, k=2)
    0.25
    """
    return _one(f"precision@{_k(k)}", y_true, y_pred, options)


def mrr_at_k(y_true, y_pred, k: int | None = None, **options):
    """Mean reciprocal rank of the first relevant id within the top k (k=None: anywhere).

    >>> mrr_at_k({"q1": ["d1"], "q2": ["d3"]}, {"q1": ["d2", "d1"], "q2": ["d5", "d6", "d3"]}, k=2)
    0.25
    """
    return _one("mrr" if k is None else f"mrr@{_k(k)}", y_true, y_pred, options)


def ndcg_at_k(y_true, y_pred, k: int = 10, **options):
    """Mean nDCG@k, gain = grade (trec_eval's ndcg_cut), or ``gain="exponential"``.

    >>> round(ndcg_at_k({"q1": {"d1": 2, "d4": 1}, "q2": ["d3"]},
    ...                 {"q1": ["d4", "d2", "d1"], "q2": ["d5", "d3"]}, k=3), 4)
    0.6956
    """
    return _one(f"ndcg@{_k(k)}", y_true, y_pred, options)


def hit_rate_at_k(y_true, y_pred, k: int = 10, **options):
    """Share of queries with a relevant id in the top k (trec_eval's success_k).

    >>> hit_rate_at_k({"q1": ["d1"], "q2": ["d3"]}, {"q1": ["d1"], "q2": ["d5", "d3"]}, k=1)
    0.5
    """
    return _one(f"hit_rate@{_k(k)}", y_true, y_pred, options)


def average_precision(y_true, y_pred, k: int | None = None, **options):
    """Mean average precision (MAP; with k, trec_eval's map_cut_k).

    >>> average_precision({"q1": ["d1", "d3"]}, {"q1": ["d1", "d2", "d3"]})  # (1/1 + 2/3) / 2
    0.8333333333333333
    """
    return _one("map" if k is None else f"map@{_k(k)}", y_true, y_pred, options)


def r_precision(y_true, y_pred, **options):
    """Mean precision at rank |R| (trec_eval's Rprec).

    >>> r_precision({"q1": ["d1", "d3"]}, {"q1": ["d1", "d2", "d3"]})  # 1 of the top 2
    0.5
    """
    return _one("rprec", y_true, y_pred, options)


def _k(k) -> int:
    if isinstance(k, bool) or not isinstance(k, int):
        try:
            if float(k).is_integer() and not isinstance(k, (bool, str)):
                return int(k)
        except (TypeError, ValueError):
            pass
        raise OptionError("k", f"k must be a whole number >= 1, found {k!r}")
    if k < 1:
        raise OptionError("k", f"k must be a whole number >= 1, found {k}")
    return k
