"""The package's import graph: no cycle, counting imports inside functions, and a small top level.

A cycle hidden in a function-level import works until someone moves the import to the top of
the file, and it means two modules cannot be understood (or tested) one without the other. The
layout is by stage of the flow (``STAGES``: inputs < measures < report < scoring < comparison <
answers / retriever / compat < scorers < page < cli), one folder per stage, and imports point one
way: a module's stage is its folder, with no exception by pattern (other tools' readings of
measure names sit with the measures, in ``measures/dialects/``; their interfaces in
``compat/``). One exception is documented:
``Report.compare`` imports ``comparison.paired`` inside the method, so a report can be compared
with ``report.compare(baseline)`` while the comparison module sits above the report.

Two more rules make the stage order hold rather than be claimed: no module imports from a
higher stage (``STAGES``, the order docs/README.md writes down), and no module imports another
module's private name (``_name``): what two modules share is a public name of the lower one.

The graph is built from the source with ``ast``, so nothing is imported: every ``import`` and
``from ... import`` statement anywhere in a module (top level, functions, methods, ``if``
blocks) is an edge. ``from . import x`` points at the module ``x`` when ``x`` is a module and at
the package's ``__init__`` otherwise; importing ``a.b`` points at ``a.b`` only (the implicit
import of ``a/__init__`` that Python performs is not an edge, or every subpackage would be in a
cycle with its own ``__init__``).
"""

import ast
from pathlib import Path

PACKAGE = "retrieval_metrics"
ROOT = Path(__file__).resolve().parent.parent / "py" / PACKAGE

# The one documented exception (importer -> imported), see the module docstring.
ALLOWED = {(f"{PACKAGE}.report.report", f"{PACKAGE}.comparison.paired")}
MAX_TOP_LEVEL_MODULES = 12
#: the stages, lowest first (docs/README.md): a module may import from its own stage (the cycle
#: test keeps those apart) or a lower one. A stage is a subpackage or a top-level module; the
#: package's ``__init__`` is the top, beside the CLI.
STAGES = [
    ("version", "errors"),
    ("inputs",),
    ("measures",),
    ("report",),
    ("scoring",),
    ("comparison",),
    ("answers", "retriever", "compat"),
    ("scorers",),
    ("page",),
    ("cli", "__main__", ""),
]


def module_names(root=ROOT):
    """{dotted module name: path} of every module of the package (a package is its __init__)."""
    modules = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def is_package(name, modules):
    return modules[name].name == "__init__.py"


def resolve(name, modules):
    """The module a dotted name points at: itself, or (for a name inside a module) the nearest
    enclosing module. ``retrieval_metrics.inputs.qrels.read_qrels`` -> ``...inputs.qrels``."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(name, modules):
    """Every module ``name`` imports, anywhere in its source, as dotted names in the package."""
    path = modules[name]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if is_package(name, modules) else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = resolve(alias.name, modules)
                if target:
                    found.add(target)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                if node.level > 1:
                    base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join(base_parts)
                if node.module:
                    base = f"{base}.{node.module}"
            else:
                base = node.module or ""
            if not (base == PACKAGE or base.startswith(PACKAGE + ".")):
                continue
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                if candidate in modules:           # `from . import qrels`: the module itself
                    found.add(candidate)
                else:                              # `from .qrels import read_qrels`: its module
                    target = resolve(base, modules)
                    if target:
                        found.add(target)
    found.discard(name)
    return found


def import_graph(modules=None):
    modules = modules if modules is not None else module_names()
    return {name: imports_of(name, modules) for name in modules}


def find_cycle(graph, allowed=frozenset()):
    """One cycle of ``graph`` (a list of modules, first == last) ignoring ``allowed`` edges, or
    None. Depth-first search with the usual white / grey / black colouring."""
    edges = {a: sorted(b for b in targets if (a, b) not in allowed) for a, targets in graph.items()}
    colour = dict.fromkeys(edges, 0)
    stack = []

    def visit(node):
        colour[node] = 1
        stack.append(node)
        for nxt in edges.get(node, ()):
            if colour.get(nxt, 0) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if colour.get(nxt, 0) == 0:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        stack.pop()
        colour[node] = 2
        return None

    for start in sorted(edges):
        if colour[start] == 0:
            cycle = visit(start)
            if cycle:
                return cycle
    return None


def all_cycles(graph, allowed=frozenset()):
    """Every strongly connected component with more than one module (Tarjan), each sorted: the
    full list of what has to be untangled, for the failure message."""
    edges = {a: sorted(b for b in targets if (a, b) not in allowed) for a, targets in graph.items()}
    index, low, on_stack, stack, components = {}, {}, set(), [], []
    counter = [0]

    def strongconnect(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in edges.get(node, ()):
            if nxt not in index:
                strongconnect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            strongconnect(node)
    return sorted(components)


def short(name):
    return name[len(PACKAGE) + 1:] if name.startswith(PACKAGE + ".") else name


def stage_rank(name, stages=STAGES):
    """The index in ``stages`` of a module's stage: its folder, the first name below the
    package (a top-level module is its own; the package's ``__init__`` is ""). A stage missing
    from the list is an error, so a new subpackage must be placed."""
    first = short(name).split(".")[0] if name != PACKAGE else ""
    for rank, names in enumerate(stages):
        if first in names:
            return rank
    raise AssertionError(f"{short(name) or PACKAGE}: stage {first!r} is not in STAGES")


def upward_imports(graph, stages=STAGES, allowed=frozenset()):
    """Every edge from a module to one of a higher stage, as (importer, imported)."""
    return sorted((a, b) for a, targets in graph.items() for b in targets
                  if (a, b) not in allowed and stage_rank(b, stages) > stage_rank(a, stages))


def private_imports(modules):
    """Every ``from M import _name`` (``import M._name`` too) of a private name of another module
    of the package, as (importer, "M._name")."""
    found = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        package = name if is_package(name, modules) else name.rpartition(".")[0]
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts)
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            if not (base == PACKAGE or base.startswith(PACKAGE + ".")):
                continue
            for alias in node.names:
                private = alias.name.startswith("_") and not alias.name.startswith("__")
                if private and f"{base}.{alias.name}" not in modules and base != name:
                    found.append((short(name), f"{short(base)}.{alias.name}"))
    return sorted(found)


# ---- the checker itself, on small made-up packages ----------------------------------------------

def _tiny_package(tmp_path, files):
    root = tmp_path / PACKAGE
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return module_names(root)


def test_relative_imports_resolve_to_modules_and_names(tmp_path):
    modules = _tiny_package(tmp_path, {
        "__init__.py": "from .a import thing\n",
        "a/__init__.py": "",
        "a/x.py": "from . import y\nfrom .y import name\n",
        "a/y.py": "def f():\n    from ..b.z import helper\n    from .. import b\n",
        "b/__init__.py": "",
        "b/z.py": "import retrieval_metrics.a.x\nimport os\nfrom retrieval_metrics import a\n",
    })
    graph = import_graph(modules)
    p = PACKAGE
    assert graph[p] == {f"{p}.a"}                      # `thing` is a name in a/__init__
    assert graph[f"{p}.a.x"] == {f"{p}.a.y"}           # both spellings point at the module y
    assert graph[f"{p}.a.y"] == {f"{p}.b.z", f"{p}.b"}  # inside a function, two levels up
    assert graph[f"{p}.b.z"] == {f"{p}.a.x", f"{p}.a"}  # absolute; os is not in the package
    assert graph[f"{p}.a"] == set()                    # no implicit edge to a parent package


def test_a_cycle_through_a_function_level_import_is_found(tmp_path):
    modules = _tiny_package(tmp_path, {
        "__init__.py": "",
        "low.py": "def f():\n    from .high import g\n",
        "high.py": "from .low import f\n",
        "other.py": "from . import low\n",
    })
    graph = import_graph(modules)
    cycle = find_cycle(graph)
    assert cycle is not None and cycle[0] == cycle[-1]
    assert set(cycle) == {f"{PACKAGE}.low", f"{PACKAGE}.high"}
    assert all_cycles(graph) == [[f"{PACKAGE}.high", f"{PACKAGE}.low"]]
    assert find_cycle(graph, allowed={(f"{PACKAGE}.low", f"{PACKAGE}.high")}) is None


def test_an_upward_import_and_a_private_name_are_found(tmp_path):
    modules = _tiny_package(tmp_path, {
        "__init__.py": "",
        "inputs/__init__.py": "",
        "inputs/read.py": "def f():\n    from ..scoring.run import score\n",
        "scoring/__init__.py": "",
        "scoring/run.py": "from ..inputs.read import _helper, f\nfrom ..inputs import read\n",
        "scoring/other.py": "from .run import score\nfrom . import _private_module\n",
        "scoring/_private_module.py": "",
    })
    graph = import_graph(modules)
    stages = [("inputs",), ("scoring",), ("",)]
    p = PACKAGE
    assert upward_imports(graph, stages) == [(f"{p}.inputs.read", f"{p}.scoring.run")]
    assert upward_imports(graph, stages, {(f"{p}.inputs.read", f"{p}.scoring.run")}) == []
    # a private module is a module: importing it is no private-name import
    assert private_imports(modules) == [("scoring.run", "inputs.read._helper")]


# ---- the package ------------------------------------------------------------------------------

def test_no_module_imports_from_a_higher_stage():
    graph = import_graph()
    upward = [f"{short(a)} -> {short(b)}" for a, b in upward_imports(graph, STAGES, ALLOWED)]
    assert upward == [], "imports from a higher stage (tests/test_import_graph.py STAGES): " + \
        "; ".join(upward)


def test_no_module_imports_another_modules_private_name():
    found = [f"{a} imports {b}" for a, b in private_imports(module_names())]
    assert found == [], "private names imported from another module: " + "; ".join(found)


def test_the_package_has_no_import_cycle():
    graph = import_graph()
    assert len(graph) > 30                   # the walk found the package, subpackages included
    for importer, imported in ALLOWED:       # the exception still exists, or the list is stale
        assert imported in graph[importer], f"{short(importer)} no longer imports {short(imported)}"
    cycle = find_cycle(graph, ALLOWED)
    if cycle:
        components = "; ".join(" <-> ".join(map(short, c)) for c in all_cycles(graph, ALLOWED))
        print("import cycle:", " -> ".join(map(short, cycle)))
        print("modules in cycles:", components)
    assert cycle is None, (
        "import cycle: " + " -> ".join(map(short, cycle))
        + "; every group of modules in a cycle: "
        + "; ".join(" <-> ".join(map(short, c)) for c in all_cycles(graph, ALLOWED)))


def test_at_most_twelve_modules_at_the_top_level():
    top = sorted(path.name for path in ROOT.glob("*.py"))
    assert len(top) <= MAX_TOP_LEVEL_MODULES, f"{len(top)} top-level modules: {top}"


def test_every_documented_import_path_of_another_tool_works(tmp_path, capsys):
    """The tools moved into one folder each (compat/<tool>/); the paths docs/names.md, README
    and callers' code use still work: the two Python interfaces (attributes, ``from ... import``
    and ``import *``, which pytrec_eval's own test file is run through) and the CLI's trec_eval
    mode. P@1 of a one-document run that finds its relevant document is 1 in each."""
    import retrieval_metrics.compat.ir_measures as ir_measures
    import retrieval_metrics.compat.pytrec_eval as pytrec_eval
    from retrieval_metrics.cli import main
    from retrieval_metrics.compat.ir_measures import P

    evaluator = pytrec_eval.RelevanceEvaluator({"q1": {"d1": 1}}, {"P"})
    assert evaluator.evaluate({"q1": {"d1": 1.0}})["q1"]["P_5"] == 0.2
    assert ir_measures.calc_aggregate([P@1], {"q1": {"d1": 1}}, {"q1": {"d1": 1.0}}) == {P@1: 1.0}
    for module in ("retrieval_metrics.compat.pytrec_eval", "retrieval_metrics.compat.ir_measures"):
        namespace = {}
        exec(f"from {module} import *", namespace)
        assert {"RelevanceEvaluator", "calc_aggregate"} & set(namespace), module
    (tmp_path / "q").write_text("q1 0 d1 1\n")
    (tmp_path / "r").write_text("q1 Q0 d1 1 1.0 run\n")
    assert main(["trec_eval", "-m", "P.1", str(tmp_path / "q"), str(tmp_path / "r")]) == 0
    assert capsys.readouterr().out == "P_1                   \tall\t1.0000\n"
