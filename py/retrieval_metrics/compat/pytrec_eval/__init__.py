"""pytrec_eval in one place: trec_eval 9.0.8's arithmetic where trec_eval 10 changed it
(``arith``), and its Python interface (``api``: ``RelevanceEvaluator``,
``supported_measures``, ...).

``retrieval_metrics.compat.pytrec_eval`` is the interface: its names are ``api``'s, loaded on first
use, so that the measures can import ``names`` and ``arith`` (they sit in the measures' stage)
without loading the interface, which sits above scoring.
"""

import importlib


def __getattr__(name: str):
    if (name.startswith("__") and name != "__all__") or name in ("api", "names", "arith"):
        raise AttributeError(name)  # the import system asks for submodules before loading them
    return getattr(importlib.import_module(f"{__name__}.api"), name)


def __dir__():
    return sorted(set(globals()) | set(dir(importlib.import_module(f"{__name__}.api"))))
