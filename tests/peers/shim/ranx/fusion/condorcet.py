"""``ranx.fusion.condorcet`` for ranx's own tests: compat.ranx.fusion's Condorcet."""
from retrieval_metrics.compat.ranx.fusion import condorcet, get_candidates, get_results  # noqa: F401
