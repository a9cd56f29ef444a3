"""``ranx.data_structures`` for ranx's own tests: compat.ranx's Qrels and Run."""
from retrieval_metrics.compat.ranx.api import Qrels, Run, get_file_kind  # noqa: F401
