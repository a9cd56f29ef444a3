"""ranx's Python interface (``api``: ``Qrels``, ``Run``, ``evaluate``, ``compare``; ``report``:
``Report``; ``order``: the order its sort gives tied scores; ``student_t``: Student's t as
scipy computes it, for ``compare``; ``fusion`` and ``normalization``: ranx's run fusion, for
``fuse``), standard library only, so ranx's code runs where numba cannot. Its metric names and arithmetic are ``measures/dialects/ranx.py`` and ``ranx_arith.py``,
registered with the measures.

Every public name is imported here by name, so an editor and a type checker resolve it.
"""

from .api import (  # noqa: F401 (the interface's public names)
    Qrels,
    Report,
    Run,
    compare,
    evaluate,
    get_file_kind,
    numpy_mean,
    numpy_std,
    numpy_sum,
)
from .fuse import fuse, optimize_fusion  # noqa: F401 (ranx's run fusion)
from .optimization_report import OptimizationReport  # noqa: F401 (optimize_fusion's report)

__all__ = [
    "Qrels", "Run", "evaluate", "get_file_kind", "Report", "compare", "numpy_mean", "numpy_std",
    "numpy_sum", "fuse", "optimize_fusion", "OptimizationReport",
]
