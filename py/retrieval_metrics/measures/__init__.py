"""Every measure: the registry and the arithmetic.

``registry`` holds one entry per measure (its arithmetic, names, label, cutoff rule,
parameters, aggregation, citation) and reads metric names; it imports no measure. The other
modules define measures (registering them when imported) or support them (grades, gains, the
means), and this package imports every module and subpackage in its folder below (``core`` and
``trec`` first, then the rest by name), so ``from retrieval_metrics.measures import registry``
always finds every measure registered, and a new measure is one new file here
(docs/adding-a-measure.md). No list of modules is kept by hand: a support module imported here
registers nothing and costs nothing its measures do not already import.
"""

import importlib
import os

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
    names = [n for n in set(_module_names()) if not n.startswith("_")]
    for name in sorted(names, key=lambda n: (n not in _FIRST, _FIRST.index(n) if n in _FIRST else 0, n)):
        importlib.import_module(f"{__name__}.{name}")


_register_all()
