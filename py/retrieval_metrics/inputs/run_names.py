"""The names of runs given as files (the CLI's and ``evaluate_many``'s file paths, the files
dropped on the page's Many runs box): each file's name without its extension, told apart where
two would clash, and the sentences saying how; and how an error names one of many runs.
"""

from __future__ import annotations

__all__ = ["name_clashes", "run_names", "run_source"]


def run_names(paths: list[str]) -> list[str]:
    """Names for runs given as file paths: each file's name without its extension; where two
    different files would get the same name, as much of the folder as tells them apart, else
    their names with the extension (``x.trec``, ``x.run``); the same file given twice gets
    " (2)". ``-`` (standard input) is "stdin". ``name_clashes`` says what was done.

    >>> run_names(["runs/bm25.trec", "a/dense.run", "b/dense.run", "runs/bm25.trec", "-"])
    ['bm25', 'a/dense', 'b/dense', 'bm25 (2)', 'stdin']
    >>> run_names(["x.trec", "x.run", "y.trec"])
    ['x.trec', 'x.run', 'y']
    """
    parts, full = [], []
    for path in paths:
        if path == "-":
            parts.append(["stdin"])
            full.append(["stdin"])
            continue
        pieces = [p for p in str(path).replace("\\", "/").split("/") if p not in ("", ".")]
        name = pieces[-1] if pieces else str(path)
        stem = name.rsplit(".", 1)[0] if "." in name.lstrip(".") else name
        parts.append([*pieces[:-1], stem])
        full.append([*pieces[:-1], name])
    depth = [1] * len(parts)
    while True:
        names = ["/".join(p[-d:]) for p, d in zip(parts, depth)]
        grown = False
        for i, name in enumerate(names):
            clash = any(other == name and parts[j] != parts[i] for j, other in enumerate(names))
            if clash and depth[i] < len(parts[i]):
                depth[i] += 1
                grown = True
        if not grown:
            break
    names = ["/".join(full[i][-depth[i]:])  # the same folder and stem: the extension tells
             if any(other == name and full[j] != full[i] for j, other in enumerate(names))
             else name for i, name in enumerate(names)]
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        name = name if seen[name] == 1 else f"{name} ({seen[name]})"
        while name in out:  # a file really named "x (2)" next to x given twice
            seen[name] = seen.get(name, 1) + 1
            name = f"{name} ({seen[name]})"
        out.append(name)
    return out


def name_clashes(paths: list[str], names: list[str]) -> list[str]:
    """Sentences saying how run names that would have clashed were told apart, for the CLI's
    notices (one per group of runs whose file names without extension are equal).

    >>> name_clashes(["x.trec", "x.run"], run_names(["x.trec", "x.run"]))
    ['x.trec and x.run would both be named x: named x.trec and x.run.']
    >>> name_clashes(["a.trec", "a.trec"], ["a", "a (2)"])
    ['a.trec is given 2 times: named a and a (2).']
    """
    groups: dict[str, list[int]] = {}
    for i, path in enumerate(paths):
        plain = run_names([path])[0]
        groups.setdefault(plain, []).append(i)
    out = []
    for plain, members in groups.items():
        if len(members) < 2:
            continue
        shown = " and ".join(names[i] for i in members) if len(members) == 2 else (
            ", ".join(names[i] for i in members[:-1]) + " and " + names[members[-1]])
        given = [paths[i] for i in members]
        if len(set(given)) == 1:
            out.append(f"{given[0]} is given {len(given)} times: named {shown}.")
        else:
            files = " and ".join(given) if len(given) == 2 else (
                ", ".join(given[:-1]) + " and " + given[-1])
            out.append(f"{files} would both be named {plain}: named {shown}." if len(given) == 2
                       else f"{files} would all be named {plain}: named {shown}.")
    return out


def run_source(name: str) -> str:
    """How errors and notices name one of many runs: ``run bm25, line 3: ...``."""
    return f"run {name}"
