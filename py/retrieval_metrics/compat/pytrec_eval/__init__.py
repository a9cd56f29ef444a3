"""pytrec_eval's Python interface (``RelevanceEvaluator``, ``supported_measures``, ...), written
in ``api``; trec_eval 9.0.8's arithmetic where trec_eval 10 changed it is
``measures/dialects/trec_eval_9.py``.

Every public name is imported here by name, so an editor and a type checker resolve it.
"""

from .api import (  # noqa: F401 (the interface's public names)
    RelevanceEvaluator,
    compute_aggregated_measure,
    parse_qrel,
    parse_run,
    supported_measures,
    supported_nicknames,
)

__all__ = [
    "RelevanceEvaluator", "compute_aggregated_measure", "parse_qrel", "parse_run",
    "supported_measures", "supported_nicknames",
]
