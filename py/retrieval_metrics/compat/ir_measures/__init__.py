"""ir_measures in one place: its measure strings read as it reads them (``names``:
``ir_measures:P(rel=2)@5``, registered with the measures), and its Python interface (``api``:
``calc_aggregate``, ``iter_calc``, ``evaluator``, the measure objects ``nDCG@10``,
``P(rel=2)@5``, ...).

``retrieval_metrics.compat.ir_measures`` is the interface: its names are ``api``'s, loaded on first
use (``compat.interface_loader``).
"""

from .. import interface_loader

__getattr__, __dir__ = interface_loader(__name__)
