"""ranx in one place: its metric names read as it reads them (``names``: ``ranx:hits@5``,
``ranx:rbp.95``, registered with the measures), its arithmetic where it differs from the
calculator's own (``arith``), the order its sort gives tied scores (``order``), and its Python
interface (``api``: ``Qrels``, ``Run``, ``evaluate``, ``compare``; ``report``: ``Report``;
``fuse`` and ``optimize_fusion`` refused by name), standard library only, so ranx's code runs
where numba cannot.

``retrieval_metrics.compat.ranx`` is the interface: its names are ``api``'s, loaded on first
use (``compat.interface_loader``).
"""

from .. import interface_loader

__getattr__, __dir__ = interface_loader(__name__)
