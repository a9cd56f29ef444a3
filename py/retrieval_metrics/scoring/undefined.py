"""``UndefinedMetricWarning``: scikit-learn's warning when scikit-learn is there, without its cost.

``zero_division="warn"`` warns when a metric is undefined for a query (recall without a
relevant document) and was set to 0. People who already silence scikit-learn's
``UndefinedMetricWarning`` expect ours to obey the same filter, and people who filter ours
expect that to work whatever else is installed. Importing scikit-learn takes seconds, so it is
never imported just to warn:

- ``UndefinedMetricWarning`` here is a plain ``UserWarning`` subclass, defined at import;
- the warnings are raised as ``warning_class()``: this class itself, or, once scikit-learn is
  imported (by anyone: a filter on its class needs that import), a subclass of both this class
  and scikit-learn's, so a filter on either catches them;
- ``retrieval_metrics.UndefinedMetricWarning`` (the package's attribute, resolved on first
  access) is that subclass of both when scikit-learn is installed, importing it then.

>>> issubclass(warning_class(), UndefinedMetricWarning)
True
"""

from __future__ import annotations

import sys


class UndefinedMetricWarning(UserWarning):
    """zero_division="warn": a metric was undefined for a query and set to 0."""


_with_sklearn = None


def _both(base) -> type:
    global _with_sklearn
    if _with_sklearn is None:
        _with_sklearn = type("UndefinedMetricWarning", (UndefinedMetricWarning, base),
                             {"__module__": "retrieval_metrics", "__doc__": UndefinedMetricWarning.__doc__})
    return _with_sklearn


def warning_class() -> type:
    """The class to warn with: a subclass of scikit-learn's too if scikit-learn is loaded."""
    if _with_sklearn is not None:
        return _with_sklearn
    exceptions = sys.modules.get("sklearn.exceptions")
    base = getattr(exceptions, "UndefinedMetricWarning", None)
    return UndefinedMetricWarning if base is None else _both(base)


def public_class() -> type:
    """The package's ``UndefinedMetricWarning``: a subclass of scikit-learn's when it is
    installed (imported now), else this module's class."""
    if _with_sklearn is not None:
        return _with_sklearn
    try:
        from sklearn.exceptions import UndefinedMetricWarning as base
    except ImportError:
        return UndefinedMetricWarning
    return _both(base)
