"""``ir_measures`` for ir_measures' own tests: this project's drop-in (see ../README.md)."""
from retrieval_metrics.compat.ir_measures import *  # noqa: F403
from retrieval_metrics.compat.ir_measures import __all__  # noqa: F401
