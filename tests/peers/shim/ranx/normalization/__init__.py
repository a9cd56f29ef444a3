"""``ranx.normalization`` for ranx's own tests: ``compat.ranx.normalization``."""
from retrieval_metrics.compat.ranx.normalization import *  # noqa: F403
from retrieval_metrics.compat.ranx.normalization import __all__  # noqa: F401
