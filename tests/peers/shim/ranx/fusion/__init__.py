"""``ranx.fusion`` for ranx's own tests: ``compat.ranx.fusion``."""
from retrieval_metrics.compat.ranx.fusion import *  # noqa: F403
from retrieval_metrics.compat.ranx.fusion import __all__  # noqa: F401
