"""Every public name of a drop-in is bound in source, where an editor or a type checker finds it.

``from retrieval_metrics.compat.ranx import Qrels`` or ``compat.ir_measures.nDCG`` must resolve
without running the package: a name handed out by a module ``__getattr__`` or written into
``globals()`` in a loop works at run time and is invisible to every static tool. These tests
read the sources with ``ast`` (nothing imported for the check itself): each name a tool's
package exports is imported there by name from a module that assigns, defines or imports it,
and no module of a drop-in defines a module-level ``__getattr__``. (The package's own
``__init__`` loads ``compare`` and the scorers on first use, so the command line starts fast;
it is not a drop-in of another tool.)
"""

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "py" / "retrieval_metrics"
TOOLS = ("ir_measures", "pytrec_eval", "ranx")


def bound_names(path: Path) -> set[str]:
    """The names a module's top level binds: assignments, definitions and imports by name (a
    star import binds nothing a reader can see)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names if a.name != "*"}
    return names


def imported_from(path: Path) -> dict[str, str]:
    """{name: module it is imported from} for a package ``__init__``'s ``from .m import name``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {(a.asname or a.name): node.module for node in tree.body
            if isinstance(node, ast.ImportFrom) and node.level == 1 for a in node.names}


@pytest.mark.parametrize("tool", TOOLS)
def test_each_public_name_of_a_drop_in_is_bound_in_its_source(tool):
    package = importlib.import_module(f"retrieval_metrics.compat.{tool}")
    init = ROOT / "compat" / tool / "__init__.py"
    imported = imported_from(init)
    public = list(package.__all__)
    assert len(public) >= 3
    unbound = [name for name in public if name not in bound_names(init)]
    assert unbound == [], f"compat.{tool} exports names its __init__ does not bind: {unbound}"
    for name in public:
        if imported[name] is None:  # `from . import providers`: a module of the folder
            assert (ROOT / "compat" / tool / f"{name}.py").is_file(), name
            continue
        source = ROOT / "compat" / tool / f"{imported[name]}.py"
        assert name in bound_names(source), f"{name} is not bound in {source.name}"
    # and the run-time view agrees: every exported name is there, no module attribute missing
    assert all(hasattr(package, name) for name in public)


def test_ir_measures_binds_every_measure_object_it_computes():
    """One binding per measure name, alias and preset: the list written out in api.py is the
    one its tables imply (a measure added to SIGNATURES without its line fails here)."""
    from retrieval_metrics.compat.ir_measures import api
    from retrieval_metrics.measures.dialects import ir_measures as dialect

    expected = set(api.SIGNATURES) | set(api.ALIASES) | set(dialect.PRESETS)
    assert set(api.MEASURE_OBJECTS) == expected
    bound = bound_names(ROOT / "compat" / "ir_measures" / "api.py")
    assert expected <= bound
    for alias, name in api.ALIASES.items():
        assert api.MEASURE_OBJECTS[alias] is api.MEASURE_OBJECTS[name]
    for alias, (name, preset) in dialect.PRESETS.items():
        assert repr(api.MEASURE_OBJECTS[alias]) == repr(api.Measure(name, **preset))


def test_no_module_of_a_drop_in_has_a_module_getattr():
    found = [str(path.relative_to(ROOT)) for path in sorted((ROOT / "compat").rglob("*.py"))
             if "__getattr__" in {n.name for n in ast.parse(path.read_text(encoding="utf-8")).body
                                  if isinstance(n, ast.FunctionDef)}
             or "__getattr__" in bound_names(path)]
    assert found == []
    assert len(list((ROOT / "compat").rglob("*.py"))) > 10


def test_the_checker_sees_a_name_bound_only_at_run_time_as_unbound(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("import os\nfrom .api import *\nglobals().update({'X': 1})\n"
                      "def f(): pass\nY: int = 2\nZ = W = 3\n__getattr__ = None\n")
    assert bound_names(source) == {"os", "f", "Y", "Z", "W", "__getattr__"}
