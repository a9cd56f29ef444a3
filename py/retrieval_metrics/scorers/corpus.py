"""scikit-learn scorers for ranking and answer metrics: model selection over retrievers.

``make_corpus_scorer`` mirrors ``sklearn.metrics.make_scorer`` and ``get_corpus_scorer``
mirrors ``sklearn.metrics.get_scorer``; the scorers plug into ``GridSearchCV``,
``cross_validate`` and anything else that calls ``scorer(estimator, X, y_true)``. Here ``X``
is the queries and ``y_true`` their judgements (or reference answers), one per query, aligned
by position. A scorer scores all the queries it is given at once (the mean of the per-query
values over a cross-validation fold's queries, say), which is what "corpus" means here.

Two ways to get the predictions (``response_method``):

- ``"predict"``: ``estimator.predict(X)`` returns one ranking (or answer) per query. For a
  scikit-learn estimator it goes through scikit-learn's method caller, so from scikit-learn 1.4
  one ``predict`` call serves every scorer of a multi-metric evaluation (1.3 calls it once per
  scorer); any other object's ``predict`` is called directly.
- ``"search"``: ``estimator.search(query)`` per query, so an index is scored as it is, with no
  ``fit``/``predict`` and no scikit-learn estimator tags (``sklearn.metrics.make_scorer``
  cannot: its scorer calls ``is_regressor(estimator)``). Each answer is read like
  ``evaluate_retrieval`` reads it (ids, ``(id, score)`` pairs, hits, a response with a status;
  a ``str`` is kept as an answer text); a status saying part of the search did not run raises
  ``DegradedSearchError``. Within one multi-metric call the answers are shared by the scorers.

With scikit-learn installed the scorers subclass ``sklearn.metrics._scorer._BaseScorer``
(checked on 1.3.2, 1.4.2 and 1.9.1), so scikit-learn treats them as its own, metadata routing
(``set_score_request``) included; without it they subclass :class:`.base.BaseScorer`,
a small copy of the same contract. ``scorer_backend_info()`` says which.

Importing this module imports scikit-learn if it is installed; the package imports this
module only when a scorer is asked for.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, Callable

from ..errors import OptionError
from ..retriever.responses import is_success, read_response


def _load_base() -> tuple[type, str | None]:
    try:
        import sklearn
        from sklearn.metrics._scorer import _BaseScorer
    except ImportError:
        from .base import BaseScorer
        return BaseScorer, None
    return _BaseScorer, sklearn.__version__


_Base, _SKLEARN_VERSION = _load_base()

RESPONSE_METHODS = ("predict", "search")
#: the answer metrics by every name get_corpus_scorer accepts
ANSWER_METRICS = {
    "exact_match": "exact_match_score", "em": "exact_match_score",
    "token_f1": "token_f1_score", "f1": "token_f1_score",
    "anls": "anls_score",
    "edit_similarity": "edit_similarity_score",
}
# the search answers of one multi-metric call, in scikit-learn's shared response cache
_SEARCH_CACHE_KEY = "retrieval_metrics.search"

__all__ = ["make_corpus_scorer", "get_corpus_scorer", "scorer_backend_info", "CorpusScorer"]


class CorpusScorer(_Base):
    """``scorer(estimator, X, y_true)`` = sign * ``score_func(y_true, predictions, **kwargs)``
    over all the queries of ``X`` at once."""

    def __init__(self, score_func: Callable, sign: int, kwargs: dict,
                 response_method: str = "predict"):
        # set here rather than by _BaseScorer.__init__, which takes response_method only
        # from scikit-learn 1.4 on
        self._score_func = score_func
        self._sign = sign
        self._kwargs = kwargs
        self._response_method = response_method

    def __repr__(self) -> str:
        name = getattr(self._score_func, "__name__", None) or repr(self._score_func)
        sign = "" if self._sign > 0 else ", greater_is_better=False"
        kwargs = "".join(f", {k}={v!r}" for k, v in self._kwargs.items())
        return (f"make_corpus_scorer({name}{sign}, response_method={self._response_method!r}"
                f"{kwargs})")

    def _score(self, method_caller, estimator, X, y_true, **kwargs):
        """Called by ``__call__`` and by scikit-learn's multi-metric scorer, which passes its
        shared (caching) ``method_caller``."""
        if kwargs and hasattr(self, "_warn_overlap"):
            self._warn_overlap(message="There is an overlap between set kwargs of this scorer "
                               "instance and passed metadata. Please pass them either as "
                               "kwargs to `make_corpus_scorer` or metadata, but not both.",
                               kwargs=kwargs)
        if self._response_method == "search":
            y_pred = _search_all(estimator, X, _shared_cache(method_caller))
        else:
            y_pred = _predict(method_caller, estimator, X)
        return self._sign * self._score_func(y_true, y_pred, **{**self._kwargs, **kwargs})


def make_corpus_scorer(score_func: Callable, *, greater_is_better: bool = True,
                       response_method: str = "predict", **kwargs) -> CorpusScorer:
    """A scorer from ``score_func(y_true, y_pred, **kwargs)``, as ``sklearn.metrics.make_scorer``.

    >>> from retrieval_metrics.scorers.corpus import make_corpus_scorer
    >>> def first_hit(y_true, y_pred):  # share of queries whose first result is relevant
    ...     return sum(ranked[0] in relevant for relevant, ranked in zip(y_true, y_pred)) / len(y_pred)
    >>> class Index:
    ...     def search(self, query):
    ...         return [("d1", 0.9), ("d2", 0.1)] if "oxygen" in query else ["d3", "d2"]
    >>> scorer = make_corpus_scorer(first_hit, response_method="search")
    >>> scorer(Index(), ["what carries oxygen", "blood clotting"], [["d1"], ["d2"]])
    0.5
    """
    if not callable(score_func):
        raise OptionError("score_func", f"score_func must be callable, found {score_func!r}")
    if response_method not in RESPONSE_METHODS:
        raise OptionError("response_method", f"response_method must be one of "
                          f"{', '.join(RESPONSE_METHODS)}, found {response_method!r}")
    return CorpusScorer(score_func, 1 if greater_is_better else -1, kwargs, response_method)


def get_corpus_scorer(name: str, *, response_method: str = "predict", **kwargs) -> CorpusScorer:
    """The scorer of one metric by name, as ``sklearn.metrics.get_scorer``: every ranking
    metric name ``ranking_metrics`` accepts (``"ndcg@10"``, ``"mrr"``, ``"recall@2"``, their
    ir_measures and trec_eval spellings), and the answer metrics ``"exact_match"`` (``"em"``),
    ``"token_f1"`` (``"f1"``), ``"anls"``, ``"edit_similarity"``. ``kwargs`` go to the metric
    (``zero_division=0.0``, ``relevance_threshold=2``, ``normalize="basic"``...).

    >>> get_corpus_scorer("recall@2", response_method="search")
    make_corpus_scorer(recall@2, response_method='search')
    """
    if not isinstance(name, str):
        raise OptionError("metrics", f"a metric name is a str such as 'ndcg@10', found {name!r}")
    answer = ANSWER_METRICS.get(name.lower().removesuffix("_score"))
    if answer is not None:
        from ..answers import metrics as answers
        return make_corpus_scorer(getattr(answers, answer), response_method=response_method,
                                  **kwargs)
    try:
        metric = RankingMetric(name)
    except OptionError as error:
        raise OptionError("metrics", f"{error.message}; answer metrics: "
                          f"{', '.join(ANSWER_METRICS)}") from None
    return make_corpus_scorer(metric, response_method=response_method, **kwargs)


def scorer_backend_info() -> dict:
    """Which base class the scorers use, and what follows from it.

    ``backend`` is ``"scikit-learn"`` or ``"vendored"``; ``sklearn_version`` the installed
    version (None without); ``base_class`` the dotted name of the base; ``shared_predict``
    whether one ``predict`` serves several scorers (scikit-learn >= 1.4); ``metadata_routing``
    whether ``set_score_request`` works (scikit-learn only).
    """
    version = _SKLEARN_VERSION
    return {
        "backend": "vendored" if version is None else "scikit-learn",
        "sklearn_version": version,
        "base_class": f"{_Base.__module__}.{_Base.__qualname__}",
        "shared_predict": version is not None and _version_at_least(version, (1, 4)),
        "metadata_routing": version is not None,
    }


class RankingMetric:
    """``metric(y_true, y_pred, **options)``: the mean of one named ranking metric, by
    ``ranking_metrics``; named after the metric, so scorers print as ``recall@2``."""

    def __init__(self, name: str):
        from ..measures.grammar import parse_metric
        parse_metric(name)  # an unknown name is refused now, not at the first score
        self.name = name
        self.__name__ = name

    def __call__(self, y_true, y_pred, **options) -> float:
        from ..scoring.functions import ranking_metrics
        return ranking_metrics(y_true, y_pred, [self.name], **options)[self.name]

    def __repr__(self) -> str:
        return f"RankingMetric({self.name!r})"

    def __reduce__(self):
        return (RankingMetric, (self.name,))


def _predict(method_caller, estimator, X):
    if _SKLEARN_VERSION is not None and _is_sklearn_estimator(estimator):
        return method_caller(estimator, "predict", X)
    predict = getattr(estimator, "predict", None)
    if not callable(predict):
        raise TypeError(f"{type(estimator).__name__} has no predict method; for an index with "
                        "search(query) use response_method=\"search\"")
    return predict(X)


def _is_sklearn_estimator(estimator) -> bool:
    from sklearn.base import BaseEstimator
    return isinstance(estimator, BaseEstimator)


def _shared_cache(method_caller) -> dict | None:
    """scikit-learn's per-call response cache, when its multi-metric scorer passes one.

    Its method caller is ``functools.partial(_cached_call, cache)``, with ``cache`` a dict
    (or None when no response is needed twice, and always None before 1.4)."""
    if isinstance(method_caller, functools.partial) and method_caller.args:
        cache = method_caller.args[0]
        if isinstance(cache, dict):
            return cache
    return None


def _search_all(estimator, X, cache: dict | None):
    """One search per query, in the shape of ``X``: a list, or ``{qid: ...}`` for a mapping."""
    if cache is not None and _SEARCH_CACHE_KEY in cache:
        return cache[_SEARCH_CACHE_KEY]
    search = getattr(estimator, "search", None)
    if not callable(search):
        raise TypeError(f"{type(estimator).__name__} has no search(query) method; for an "
                        "estimator with predict(X) use response_method=\"predict\"")
    if isinstance(X, Mapping):
        results = {qid: _answer(search, qid, query) for qid, query in X.items()}
    else:
        results = [_answer(search, i, query) for i, query in enumerate(X)]
    if cache is not None:
        cache[_SEARCH_CACHE_KEY] = results
    return results


def _answer(search: Callable, qid: Any, query: Any):
    from ..retriever.evaluate import DegradedSearchError, RetrieverError
    try:
        answer = search(query)
    except Exception as error:
        raise RetrieverError(f"query {qid!r}: the retriever raised {type(error).__name__}: "
                             f"{error}", qid, query) from error
    if isinstance(answer, str):
        return answer
    status, ids = read_response(answer, qid)
    if not is_success(status):
        raise DegradedSearchError(f"query {qid!r}: the retriever answered with status "
                                  f"{status!r}, so part of the search did not run and the "
                                  "ranking is partial", qid, query, status)
    return ids


def _version_at_least(version: str, wanted: tuple[int, int]) -> bool:
    parts = []
    for piece in version.split(".")[:2]:
        digits = "".join(c for c in piece if c.isdigit()) or "0"
        parts.append(int(digits))
    return tuple(parts) >= wanted
