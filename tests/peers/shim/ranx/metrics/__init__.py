"""``ranx.metrics`` for ranx's own tests: compat.ranx.metrics (over arrays)."""
from retrieval_metrics.compat.ranx.metrics import *  # noqa: F403
