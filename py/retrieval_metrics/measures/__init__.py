"""Every measure: the registry and the arithmetic.

``registry`` holds one entry per measure (its arithmetic, names, label, cutoff rule,
parameters, aggregation, citation) and reads metric names; it imports no measure. Each other
module here defines some measures and registers them when it is imported, and this package
imports every one of them below (``core`` and ``trec`` first, then the rest by name), so
``from retrieval_metrics.measures import registry`` always finds every measure registered, and
a new measure is one new file here (docs/adding-a-measure.md).
"""

import importlib
import os

#: modules that define no measure
_SUPPORT = ("registry", "grades", "tied", "aggregation", "catalogue", "trec_eval_rows")
_FIRST = ("core", "trec")


def _module_names() -> list[str]:
    """The modules in this folder. A directory listing: ``pkgutil`` would find the same names
    but costs every command line a fifth of its start-up (it imports ``inspect``); a package
    not in a directory (a zip file) is listed by ``pkgutil``."""
    names = []
    for folder in __path__:
        try:
            entries = os.listdir(folder)
        except OSError:
            import pkgutil
            return [m.name for m in pkgutil.iter_modules(__path__)]
        names += [e.rpartition(".")[0] for e in entries
                  if e.endswith((".py", ".pyc")) and not e.startswith("__init__.")]
        names += [e for e in entries if os.path.isfile(os.path.join(folder, e, "__init__.py"))]
    return names


def _register_all() -> None:
    names = [n for n in set(_module_names()) if n not in _SUPPORT and not n.startswith("_")]
    for name in sorted(names, key=lambda n: (n not in _FIRST, _FIRST.index(n) if n in _FIRST else 0, n)):
        importlib.import_module(f"{__name__}.{name}")


_register_all()
