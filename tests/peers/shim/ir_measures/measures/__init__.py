"""``ir_measures.measures`` for ir_measures' own tests: the drop-in's measure objects."""
from retrieval_metrics.compat.ir_measures.api import *  # noqa: F403
