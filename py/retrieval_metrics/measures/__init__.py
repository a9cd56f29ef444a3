"""Every measure: the registry and the arithmetic.

``registry`` holds one entry per measure (its arithmetic, names, label, cutoff rule,
parameters, aggregation, citation) and reads metric names; it imports no measure. Each other
module here defines some measures and registers them when it is imported, and this package
imports every one of them below (``core`` and ``trec`` first, then the rest by name), so
``from retrieval_metrics.measures import registry`` always finds every measure registered, and
a new measure is one new file here (docs/adding-a-measure.md).
"""

import importlib
import pkgutil

#: modules that define no measure
_SUPPORT = ("registry", "grades")
_FIRST = ("core", "trec")


def _register_all() -> None:
    names = [m.name for m in pkgutil.iter_modules(__path__) if m.name not in _SUPPORT
             and not m.name.startswith("_")]
    for name in sorted(names, key=lambda n: (n not in _FIRST, _FIRST.index(n) if n in _FIRST else 0, n)):
        importlib.import_module(f"{__name__}.{name}")


_register_all()
