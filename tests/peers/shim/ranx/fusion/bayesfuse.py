"""``ranx.fusion.bayesfuse`` for ranx's own tests: compat.ranx's BayesFuse, its log odds
under ranx's private name."""
from retrieval_metrics.compat.ranx.fusion_trained import bayesfuse, bayesfuse_train  # noqa: F401
from retrieval_metrics.compat.ranx.fusion_trained import estimate_log_odds as _estimate_log_odds  # noqa: F401
