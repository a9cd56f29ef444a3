"""pytrec_eval in one place: trec_eval 9.0.8's arithmetic where trec_eval 10 changed it
(``arith``), and its Python interface (``api``: ``RelevanceEvaluator``,
``supported_measures``, ...).

``retrieval_metrics.compat.pytrec_eval`` is the interface: its names are ``api``'s, loaded on first
use (``compat.interface_loader``).
"""

from .. import interface_loader

__getattr__, __dir__ = interface_loader(__name__)
