"""ir_measures in one place: its measure strings read as it reads them (``names``:
``ir_measures:P(rel=2)@5``, registered with the measures), and its Python interface (``api``:
``calc_aggregate``, ``iter_calc``, ``evaluator``, the measure objects ``nDCG@10``,
``P(rel=2)@5``, ...).

``retrieval_metrics.compat.ir_measures`` is the interface: its names are ``api``'s, loaded on first
use, so that the measures can import ``names`` (they sit in the measures' stage)
without loading the interface, which sits above scoring.
"""

import importlib


def __getattr__(name: str):
    if (name.startswith("__") and name != "__all__") or name in ("api", "names", "arith"):
        raise AttributeError(name)  # the import system asks for submodules before loading them
    return getattr(importlib.import_module(f"{__name__}.api"), name)


def __dir__():
    return sorted(set(globals()) | set(dir(importlib.import_module(f"{__name__}.api"))))
