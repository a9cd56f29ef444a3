"""trec_eval's own rows of its measures: what the ``trec_eval`` mode reads of each measure it
prints (its name, how its parameters are read and its values named, averaged and printed, and
the function computing it), trec_eval 10's order, default parameters and nicknames.

A measure the calculator and trec_eval both have is one registration: its registry entry
carries its rows (``registry.TrecEval(rows=...)``), and ``registry.register`` adds them here
with the measure as their owner (``ROW_OWNERS``), so the ``trec_eval`` mode's table
(``compat.trec_eval.table``) and the calculator's groups of trec_eval's nicknames
(``trec_groups``) are both read from ``ROWS``, never kept beside the measures. Rows of what
only the mode prints (runid, relstring, the preference measures) are registered on their own
(``register_trec_eval``).

``kind`` says how parameters are read and values named: ``long`` / ``double`` (one value,
printed whole / with 4 decimals), ``cut_long`` (``P_5``...: whole cutoffs, sorted),
``cut_double`` (``iprec_at_recall_0.10``...), ``params`` (one value, real parameters in the
given order, named ``set_F_0.5``), ``pairs`` (``ndcg_1=3,2=9``), ``runid``, ``relstring``.
``average``: ``mean``, ``sum`` (counts), ``geometric``, ``num_q``, ``num_rel``, ``none``.
``per_query``: printed for each query under ``-q``. ``reads``: the judgements it needs
(``qrels``, ``qrels_jg`` or ``prefs``; ``""`` for none). ``calculator_params``: the owner's
parameters that give the row's default value, where they are not the owner's own defaults (rbp's
``p = 0.9``).

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


#: trec_eval 10's order (measures.c's table: the order it computes and prints them); a measure
#: registered later and not named here comes after these, in registration order
TREC_EVAL_ORDER = (
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
    "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref",
    "Rprec_mult", "utility", "11pt_avg", "binG", "G", "dcg", "ideal_dcg", "ndcg", "ndcg_rel",
    "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P", "set_relative_P",
    "set_recall", "set_map", "set_F", "num_nonrel_judged_ret", "prefs_num_prefs_poss",
    "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg",
    "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
    "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp",
    "map_avgjg", "P_avgjg", "Rprec_mult_avgjg", "yaap", "rbp", "rbp_resid", "unj",
)

#: trec_eval 10's nicknames (``-m official``...): its measures by trec_eval's name. The
#: ``trec_eval`` mode expands them; the calculator's groups of the same names are made from them
#: (``measures.trec_groups``), so the two print the same measures.
_OFFICIAL = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
             "bpref", "recip_rank", "iprec_at_recall", "P")
NICKNAMES = {
    "official": _OFFICIAL,
    "set": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
            "set_recall", "set_relative_P", "set_map", "set_F"),
    "all_trec": _OFFICIAL + ("relstring", "recall", "unj", "rbp", "rbp_resid", "infAP",
                             "gm_bpref", "utility", "11pt_avg", "ndcg", "relative_P",
                             "Rprec_mult", "success", "map_cut", "ndcg_cut", "ndcg_rel",
                             "Rndcg", "binG", "G", "set_P", "set_recall", "set_relative_P",
                             "set_map", "set_F", "num_nonrel_judged_ret"),
    "all_prefs": ("runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful",
                  "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg",
                  "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret",
                  "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp",
                  "prefs_pair_imp", "prefs_avgjg_imp"),
    "prefs": ("runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful",
              "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg"),
    "qrels_jg": ("runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"),
}


class TrecMeasure(NamedTuple):
    """One row of trec_eval's measure table (see the module docstring)."""

    name: str
    kind: str
    calc: Callable | None  # calc(query, params) -> list of values
    default: tuple = ()
    average: str = "mean"
    per_query: bool = True
    reads: str = "qrels"
    calculator_params: tuple = ()  # (name, value) pairs, see the module docstring


#: every registered row by trec_eval's name, in registration order
ROWS: dict[str, TrecMeasure] = {}
#: trec_eval's name -> the registry measure whose record carries the row (absent: mode only)
ROW_OWNERS: dict[str, str] = {}


def register_trec_eval(row: TrecMeasure, owner: str | None = None) -> TrecMeasure:
    """Add a trec_eval measure to the ``trec_eval`` mode (refusing a name given twice or a
    kind or average it does not know); ``owner``: the registry measure it belongs to (set by
    ``registry.register`` for the rows in a measure's ``TrecEval``)."""
    if row.name in ROWS:
        raise ValueError(f"trec_eval's {row.name} is registered twice")
    if row.kind not in KINDS:
        raise ValueError(f"{row.name}: kind must be one of {KINDS}, not {row.kind!r}")
    if row.average not in AVERAGES:
        raise ValueError(f"{row.name}: average must be one of {AVERAGES}, not {row.average!r}")
    ROWS[row.name] = row
    if owner is not None:
        ROW_OWNERS[row.name] = owner
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
