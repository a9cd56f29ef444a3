"""ranx in one place: its metric names read as it reads them (``names``: ``ranx:hits@5``,
``ranx:rbp.95``, registered with the measures), its arithmetic where it differs from the
calculator's own (``arith``), and its Python interface (``api``: ``Qrels``, ``Run``,
``evaluate``), standard library only, so ranx's code runs where numba cannot.

``retrieval_metrics.compat.ranx`` is the interface: its names are ``api``'s, loaded on first
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
