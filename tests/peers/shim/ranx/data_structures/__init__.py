"""``ranx.data_structures`` for ranx's own tests: compat.ranx's Qrels, Run and OptimizationReport."""
from retrieval_metrics.compat.ranx.api import Qrels, Run, get_file_kind  # noqa: F401
from retrieval_metrics.compat.ranx.optimization_report import OptimizationReport  # noqa: F401
