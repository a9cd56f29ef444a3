"""Other tools' readings of metric names, each giving that tool's number: ``ir_measures``
(its measure strings, ``P(rel=2)@5``), ``ranx`` (its metric names, ``hits@5``, ``rbp.95``),
and the names the calculator's own syntax refuses because tools read them differently
(``own``). Each module registers its reading (``registry.register_dialect``) and the entries
its names compute, hidden from the page's chooser; docs/names.md states the rules.
"""

from . import ir_measures_names, own, ranx_names  # noqa: F401 (each registers itself)
