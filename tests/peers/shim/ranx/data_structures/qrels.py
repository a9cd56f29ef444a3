"""``ranx.data_structures.qrels``: compat.ranx's Qrels."""
from retrieval_metrics.compat.ranx.api import Qrels, get_file_kind  # noqa: F401
