"""trec_eval's own rows of its measures: what the ``trec_eval`` mode reads of each measure it
prints (its name, how its parameters are read and its values named, averaged and printed, and
the function computing it). Each measure file registers the rows of the trec_eval measures
whose arithmetic it holds, beside its registry entries (``register_trec_eval``), so a measure
trec_eval also has is one file here and the mode's table (``compat.trec_eval.table``) is read from
``ROWS``, never kept beside the measures.

``kind`` says how parameters are read and values named: ``long`` / ``double`` (one value,
printed whole / with 4 decimals), ``cut_long`` (``P_5``...: whole cutoffs, sorted),
``cut_double`` (``iprec_at_recall_0.10``...), ``params`` (one value, real parameters in the
given order, named ``set_F_0.5``), ``pairs`` (``ndcg_1=3,2=9``), ``runid``, ``relstring``.
``average``: ``mean``, ``sum`` (counts), ``geometric``, ``num_q``, ``num_rel``, ``none``.
``per_query``: printed for each query under ``-q``. ``reads``: the judgements it needs
(``qrels``, ``qrels_jg`` or ``prefs``; ``""`` for none).

``calc(query, params) -> list of values``: ``query.rels()`` is the query's ``RelList``
(``query.groups()`` the RelList of each judgement group, ``query.prefs()`` its preferences,
``query.options`` the command line's ``-N`` and friends).
"""

from __future__ import annotations

from typing import Callable, NamedTuple

KINDS = ("long", "double", "cut_long", "cut_double", "params", "pairs", "runid", "relstring")
AVERAGES = ("mean", "sum", "geometric", "num_q", "num_rel", "none")
#: trec_eval's default parameters
TREC_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
RECALL_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
R_MULTIPLES = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)


class TrecMeasure(NamedTuple):
    """One row of trec_eval's measure table (see the module docstring)."""

    name: str
    kind: str
    calc: Callable | None  # calc(query, params) -> list of values
    default: tuple = ()
    average: str = "mean"
    per_query: bool = True
    reads: str = "qrels"


#: every registered row by trec_eval's name, in registration order
ROWS: dict[str, TrecMeasure] = {}


def register_trec_eval(row: TrecMeasure) -> TrecMeasure:
    """Add a trec_eval measure to the ``trec_eval`` mode (refusing a name given twice or a
    kind or average it does not know)."""
    if row.name in ROWS:
        raise ValueError(f"trec_eval's {row.name} is registered twice")
    if row.kind not in KINDS:
        raise ValueError(f"{row.name}: kind must be one of {KINDS}, not {row.kind!r}")
    if row.average not in AVERAGES:
        raise ValueError(f"{row.name}: average must be one of {AVERAGES}, not {row.average!r}")
    ROWS[row.name] = row
    return row


def one(function: Callable) -> Callable:
    """A row's calc of ``function(RelList) -> value``."""
    return lambda q, params: [function(q.rels())]


def at_cutoffs(function: Callable) -> Callable:
    """A row's calc of ``function(RelList, cutoffs) -> values``."""
    return lambda q, params: function(q.rels(), params)


def with_pairs(function: Callable) -> Callable:
    """A row's calc of ``function(RelList, name=value pairs) -> value``."""
    return lambda q, params: [function(q.rels(), params)]
