"""Fusion in the page's Many runs box: the runs it holds fused into one more run (ranx's
methods and normalisations, ``compat.ranx.fuse``), which is then scored, tested and offered for
download like any run, as a TREC run the command line reads to the same numbers.

A run read as a TREC file is fused from its scores, in ranx's order (so the fused run is what
``ranx.fuse`` makes of those files); a run in another format from its ranking, each document
scored by its place (n, n - 1, ...), which the methods that read only ranks (RRF, ISR, Borda,
Condorcet, and any method after the rank or Borda normalisation) fuse to the same result. A
normalisation or method that reads the scores themselves is refused for such a run, by name.
A query some runs lack counts as an empty ranking in those runs.

>>> fused = fused_run({"a": "q1 Q0 d1 1 2.0 a\\nq1 Q0 d2 2 1.0 a",
...                    "b": "q1 Q0 d2 1 9.0 b\\nq1 Q0 d3 2 1.0 b"},
...                   {"a": "trec", "b": "trec"}, {}, "rrf", None)
>>> fused.splitlines()[0]
'q1 Q0 d2 1 0.03252247488101534 fused'
"""

from __future__ import annotations

import io

from ..compat.ranx import Run, fuse
from ..compat.trec_files import run_rows
from ..errors import OptionError
from ..inputs.records import doc_text
from ..inputs.source import decode, unwrap

#: the methods the page offers: those that take no parameter but the runs (RRF with ranx's k)
METHODS = {"rrf": "RRF", "sum": "CombSUM", "mnz": "CombMNZ", "anz": "CombANZ", "max": "CombMAX",
           "min": "CombMIN", "med": "CombMED", "isr": "ISR", "log_isr": "log ISR",
           "logn_isr": "logN ISR", "bordafuse": "BordaFuse", "condorcet": "Condorcet"}
NORMS = ("min-max", "max", "sum", "zmuv", "rank", "borda", "none")
#: what reads the scores themselves: a normalisation, or a method without one
SCORED_NORMS = ("min-max", "max", "sum", "zmuv")
SCORED_METHODS = ("sum", "mnz", "anz", "max", "min", "med")
NAME = "fused"


def fusion_choice(value) -> tuple[str, str | None] | None:
    """The page's ``fuse`` option (``{"method", "norm"}``, or empty: no fusion) as (method,
    normalisation or None), refusing what the page does not offer, by name."""
    if not value:
        return None
    if not isinstance(value, dict):
        raise OptionError("fuse", f"fuse must be an object {{method, norm}}, found "
                          f"{type(value).__name__}")
    method, norm = value.get("method"), value.get("norm", "none")
    if method not in METHODS:
        raise OptionError("fuse", f"fuse method must be one of {', '.join(METHODS)}, found "
                          f"{method!r}")
    if norm not in NORMS:
        raise OptionError("fuse", f"fuse norm must be one of {', '.join(NORMS)}, found {norm!r}")
    return method, None if norm == "none" else norm


def _scores(name: str, text, read_format: str, ranked: dict) -> dict:
    """A run's {query: {document: score}}: its TREC scores, else its places as scores."""
    if read_format == "trec":
        data: dict = {}
        for query, doc, score, _tag in run_rows(io.StringIO(_text(text, name)), f"run {name}"):
            data.setdefault(query, {})[doc] = score
        return data
    return {q: {doc_text(doc): float(len(docs) - i) for i, doc in enumerate(docs)}
            for q, docs in ranked.items()}



def _text(data, name: str) -> str:
    """A box's text or a file's bytes (gzip and UTF-16 unwrapped, as the run was read)."""
    if isinstance(data, str):
        return data
    raw, _steps = unwrap(bytes(data), f"run {name}")
    return raw if isinstance(raw, str) else decode(raw, f"run {name}")


def fused_run(texts: dict, formats: dict, ranked: dict, method: str, norm: str | None) -> str:
    """The fused run of ``texts`` ({name: run text}, each read as ``formats[name]``; a run not
    read as TREC is fused from ``ranked[name]``, its ranking) as TREC text, named ``fused``."""
    scored = norm in SCORED_NORMS or (norm is None and method in SCORED_METHODS)
    unscored = [name for name in texts if formats[name] != "trec"]
    if scored and unscored:
        why = f"the {norm} normalisation" if norm else f"{METHODS[method]} without a normalisation"
        raise OptionError("fuse", f"{why} reads each run's scores, and {', '.join(unscored)} "
                          "has none this page reads (its scores are read from TREC runs): "
                          "choose the rank or Borda normalisation, or a rank-based method")
    data = {name: _scores(name, text, formats[name], ranked.get(name, {}))
            for name, text in texts.items()}
    queries = sorted({q for run in data.values() for q in run})
    runs = [Run({q: run.get(q, {}) for q in queries}, name=name) for name, run in data.items()]
    combined = fuse(runs, norm=norm, method=method)
    return "".join(f"{q} Q0 {doc} {rank} {score!r} {NAME}\n"
                   for q, docs in combined.as_kept().items()
                   for rank, (doc, score) in enumerate(docs.items(), 1))
