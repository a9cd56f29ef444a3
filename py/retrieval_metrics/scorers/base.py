"""The scorer contract of scikit-learn's ``sklearn.metrics._scorer._BaseScorer``, for when
scikit-learn is not installed (Pyodide, a slim environment).

Written from scikit-learn's behaviour (1.3.2 to 1.9.1), not copied: a scorer is called as
``scorer(estimator, X, y_true)``, which hands ``_score`` a *method caller*
``method_caller(estimator, method_name, X)`` (in scikit-learn, possibly shared by several
scorers so one ``predict`` serves them all) and returns ``sign * score_func(y_true, y_pred,
**kwargs)``. Only what needs scikit-learn's machinery is missing: metadata routing, so
``set_score_request`` and extra keyword arguments at call time are refused with a message
saying so.
"""

from __future__ import annotations


def call_method(estimator, method_name: str, X):
    """The method caller without a cache: ``getattr(estimator, method_name)(X)``."""
    return getattr(estimator, method_name)(X)


class BaseScorer:
    """What ``sklearn.metrics._scorer._BaseScorer`` provides, without metadata routing.

    >>> class Echo:
    ...     def predict(self, X):
    ...         return X
    >>> class Agreement(BaseScorer):
    ...     def _score(self, method_caller, estimator, X, y_true, **kwargs):
    ...         y_pred = method_caller(estimator, "predict", X)
    ...         return self._sign * self._score_func(y_true, y_pred, **self._kwargs)
    >>> share = lambda y_true, y_pred: sum(map(int.__eq__, y_true, y_pred)) / len(y_true)
    >>> Agreement(share, -1, {})(Echo(), [1, 2, 3, 4], [1, 2, 0, 0])
    -0.5
    """

    def __init__(self, score_func, sign, kwargs, response_method="predict"):
        self._score_func = score_func
        self._sign = sign
        self._kwargs = kwargs
        self._response_method = response_method

    def __call__(self, estimator, X, y_true, sample_weight=None, **kwargs):
        if kwargs:
            raise TypeError(
                f"metadata ({', '.join(sorted(kwargs))}) can only be routed to a scorer by "
                "scikit-learn's metadata routing, and scikit-learn is not installed: pip "
                "install \"retrieval-metrics[sklearn]\", or give the values to the scorer's "
                "factory as keyword arguments")
        if sample_weight is not None:
            kwargs["sample_weight"] = sample_weight
        return self._score(call_method, estimator, X, y_true, **kwargs)

    def _score(self, method_caller, estimator, X, y_true, **kwargs):  # pragma: no cover
        raise NotImplementedError

    def set_score_request(self, **kwargs):
        raise RuntimeError("set_score_request is metadata routing, which needs scikit-learn: "
                           "pip install \"retrieval-metrics[sklearn]\"")
