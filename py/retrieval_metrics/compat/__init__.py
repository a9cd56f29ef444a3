"""Every other tool in one place, one folder each, as ir_measures keeps one provider per backend:
``ir_measures/`` (its names and its Python interface), ``ranx/`` (its names and arithmetic),
``pytrec_eval/`` (its interface and trec_eval 9.0.8's arithmetic) and ``trec_eval/`` (trec_eval
10's command line, the CLI's ``trec_eval`` mode); ``regrade`` is the relevance level the
ir_measures and ranx readings share. Standard library only, so code written for those tools
runs unchanged without a compiler and in the page (Pyodide); docs/names.md.

A tool's reading of names (``names``) and arithmetic (``arith``) sit in the measures' stage
(the measures register them); its interface sits above scoring. docs/README.md has the order.
"""


def interface_loader(package: str):
    """A tool package's ``__getattr__`` and ``__dir__``: its names are its ``api`` module's,
    loaded on first use, so the measures can import the tool's ``names`` and ``arith``
    without loading its interface (which sits above scoring)."""
    import importlib

    def __getattr__(name: str):
        if (name.startswith("__") and name != "__all__") or name in ("api", "names", "arith"):
            raise AttributeError(name)  # the import system asks for submodules before loading
        return getattr(importlib.import_module(f"{package}.api"), name)

    def __dir__():
        return sorted(set(vars(importlib.import_module(package)))
                      | set(dir(importlib.import_module(f"{package}.api"))))

    return __getattr__, __dir__
