"""``ranx`` for ranx's own tests: this project's drop-in (see ../README.md)."""
from retrieval_metrics.compat.ranx import *  # noqa: F403
from retrieval_metrics.compat.ranx import __all__  # noqa: F401
