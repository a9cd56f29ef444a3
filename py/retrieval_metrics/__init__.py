"""Exact, trec_eval-compatible recall, precision, MRR and nDCG at k.

Pure standard library, so the same code runs in CPython (library and command line) and in
Pyodide (the page). See docs/engine-api.md for the contract.
"""

from .errors import InputError, OptionError
from .evaluate import evaluate
from .helpers import mrr_at_k, ndcg_at_k, precision_at_k, recall_at_k
from .records import InputSummary, Notice
from .report import Report

__all__ = ["evaluate", "InputError", "OptionError", "Report", "Notice", "InputSummary",
           "recall_at_k", "precision_at_k", "mrr_at_k", "ndcg_at_k"]
__version__ = "0.1.0"
