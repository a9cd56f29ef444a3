"""``ranx.data_structures.run``: compat.ranx's Run."""
from retrieval_metrics.compat.ranx.api import Run, get_file_kind  # noqa: F401
