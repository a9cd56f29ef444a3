"""Exact, trec_eval-compatible recall, precision, MRR and nDCG at k.

Pure standard library, so the same code runs in CPython (library and command line) and in
Pyodide (the page). The contract is in docs/ (docs/README.md lists
its files; docs/api.md is the Python API).
"""

from .errors import InputError, OptionError
from .inputs.records import InputSummary, Notice
from .report.report import Report, report_from_dict
from .scoring.evaluate import evaluate
from .scoring.functions import (
    average_precision,
    hit_rate_at_k,
    mrr_at_k,
    ndcg_at_k,
    precision_at_k,
    r_precision,
    ranking_metrics,
    recall_at_k,
)
from .version import __version__  # noqa: F401 (retrieval_metrics.__version__)

_LAZY = {
    "compare": "comparison.paired", "evaluate_many": "comparison.many",
    "compare_many": "comparison.many", "diagnose": "scoring.pool",
    "check_inputs": "scoring.checks", "randomised_tukey_hsd": "comparison.tukey",
    "power_analysis": "comparison.power", "topic_set_size": "comparison.power",
    "evaluate_retrieval": "retriever.evaluate", "RetrievalEvaluation": "retriever.result",
    "RetrieverError": "retriever.evaluate", "DegradedSearchError": "retriever.evaluate",
    "DegradedSearchWarning": "retriever.evaluate", "RetrievalTimeoutWarning": "retriever.evaluate",
    "CorpusDocument": "retriever.corpus", "SearchHit": "retriever.corpus",
    "SearchResponse": "retriever.corpus", "RetrievalConfig": "retriever.config",
    "RetrievalIndex": "retriever.index", "CustomRetrievalIndex": "retriever.index",
    "make_corpus_scorer": "scorers.corpus", "get_corpus_scorer": "scorers.corpus",
    "scorer_backend_info": "scorers.corpus",
    "exact_match_score": "answers.metrics", "token_f1_score": "answers.metrics",
    "anls_score": "answers.metrics", "edit_similarity_score": "answers.metrics",
}


def __getattr__(name):
    """``compare``, ``evaluate_many``, ``compare_many``, ``evaluate_retrieval``, the index,
    the scorers, the answer metrics... load on first use: the CLI's start-up need not pay for
    them (and the scorers import scikit-learn when it is there)."""
    if name in _LAZY:
        import importlib
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    if name == "UndefinedMetricWarning":
        from .scoring.undefined import public_class
        return public_class()
    raise AttributeError(f"module 'retrieval_metrics' has no attribute {name!r}")

__all__ = ["evaluate", "ranking_metrics", "compare", "evaluate_many", "compare_many",
           "diagnose", "check_inputs", "randomised_tukey_hsd", "power_analysis", "topic_set_size",
           "InputError", "OptionError", "Report", "report_from_dict", "Notice", "InputSummary",
           "UndefinedMetricWarning",
           "recall_at_k", "precision_at_k", "mrr_at_k", "ndcg_at_k", "hit_rate_at_k",
           "average_precision", "r_precision",
           "exact_match_score", "token_f1_score", "anls_score", "edit_similarity_score",
           "evaluate_retrieval", "RetrievalEvaluation", "RetrieverError", "DegradedSearchError",
           "DegradedSearchWarning", "RetrievalTimeoutWarning", "CorpusDocument", "RetrievalConfig",
           "RetrievalIndex", "CustomRetrievalIndex", "SearchHit", "SearchResponse",
           "make_corpus_scorer", "get_corpus_scorer", "scorer_backend_info"]
