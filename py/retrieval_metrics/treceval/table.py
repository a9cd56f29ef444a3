"""trec_eval 10's measures in its order (measures.c: the order it computes and prints them),
each with how its parameters are read, how its values are named, averaged and printed, and
what computes it (the arithmetic is in ``measures.trec_ranked`` and ``prefs_measures``); its
nicknames (``official``, ``all_trec``, ``set``, ``all_prefs``, ``prefs``, ``qrels_jg``); and
the readers of its parameter syntax (``P.5,10``, ``iprec_at_recall..25,.5``, ``set_F.0.5``,
``ndcg.1=3,2=9``).
"""

from __future__ import annotations

from typing import Callable, NamedTuple

from ..measures import trec_ranked as t
from .cnum import atof, atol, double_name

TREC_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
RECALL_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
R_MULTIPLES = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)


class TrecMeasure(NamedTuple):
    """One row of trec_eval's measure table.

    ``kind`` says how parameters are read and values named: ``long`` / ``double`` (one value,
    printed whole / with 4 decimals), ``cut_long`` (``P_5``...: whole cutoffs, sorted),
    ``cut_double`` (``iprec_at_recall_0.10``...), ``params`` (one value, real parameters in
    the given order, named ``set_F_0.5``), ``pairs`` (``ndcg_1=3,2=9``), ``runid``,
    ``relstring``. ``average``: ``mean``, ``sum`` (counts), ``geometric``, ``num_q``,
    ``num_rel``, ``none``. ``per_query``: printed for each query under ``-q``. ``reads``: the
    judgements it needs (``qrels``, ``qrels_jg`` or ``prefs``)."""

    name: str
    kind: str
    calc: Callable | None  # calc(query, params) -> list of values
    default: tuple = ()
    average: str = "mean"
    per_query: bool = True
    reads: str = "qrels"


def _one(function):
    return lambda q, params: [function(q.rels())]


def _cuts(function):
    return lambda q, params: function(q.rels(), params)


def _pairs(function):
    return lambda q, params: [function(q.rels(), params)]


def _utility(q, params):
    if len(params) != 4:
        raise ValueError("utility needs exactly 4 parameters (the weights of relevant "
                         f"retrieved, other retrieved, relevant missed, the rest), found "
                         f"{len(params)}")
    return [t.utility(q.rels(), params, q.options.num_docs)]


def _jg(function):
    return lambda q, params: function(q.groups(), params)


def _map_avgjg(groups, params):
    total = 0.0
    for r in groups:
        so_far = 0
        value = 0.0
        for i, rel in enumerate(r.rels):
            if rel >= r.level:
                so_far += 1
                value += so_far / (i + 1)
        if so_far:
            total += value / r.num_rel
    return [total / len(groups) if len(groups) > 1 else total]


def _p_avgjg(groups, cutoffs):
    totals = [0.0] * len(cutoffs)
    for r in groups:
        for i, value in enumerate(t.precision_at(r, cutoffs)):
            totals[i] += value
    return [v / len(groups) for v in totals] if len(groups) > 1 else totals


def _rprec_mult_avgjg(groups, multiples):
    totals = [0.0] * len(multiples)
    for r in groups:
        for i, value in enumerate(t.rprec_mult(r, multiples)):
            totals[i] += value
    return [v / len(groups) for v in totals] if len(groups) > 1 else totals


def _prefs(name):
    def calc(q, params):
        from .prefs_measures import VALUES
        return [VALUES[name](q.prefs())]
    return calc


MEASURES: list[TrecMeasure] = [
    TrecMeasure("runid", "runid", None, average="none", per_query=False, reads=""),
    TrecMeasure("num_q", "long", lambda q, p: [1.0], average="num_q", per_query=False, reads=""),
    TrecMeasure("num_ret", "long", lambda q, p: [float(q.rels().num_ret)], average="sum"),
    TrecMeasure("num_rel", "long", lambda q, p: [float(q.rels().num_rel)], average="num_rel"),
    TrecMeasure("num_rel_ret", "long", lambda q, p: [float(q.rels().num_rel_ret)], average="sum"),
    TrecMeasure("map", "double", _one(t.average_precision)),
    TrecMeasure("gm_map", "double", _one(t.log_average_precision), average="geometric",
                per_query=False),
    TrecMeasure("Rprec", "double", _one(t.r_precision)),
    TrecMeasure("bpref", "double", _one(t.bpref)),
    TrecMeasure("recip_rank", "double", _one(t.reciprocal_rank)),
    TrecMeasure("iprec_at_recall", "cut_double", _cuts(t.iprec_at_recall), RECALL_POINTS),
    TrecMeasure("P", "cut_long", _cuts(t.precision_at), TREC_CUTOFFS),
    TrecMeasure("relstring", "relstring", None, (10.0,), average="none"),
    TrecMeasure("recall", "cut_long", _cuts(t.recall_at), TREC_CUTOFFS),
    TrecMeasure("infAP", "double", _one(t.inferred_ap)),
    TrecMeasure("gm_bpref", "double", _one(t.log_bpref), average="geometric", per_query=False),
    TrecMeasure("Rprec_mult", "cut_double", _cuts(t.rprec_mult), R_MULTIPLES),
    TrecMeasure("utility", "params", _utility, t.UTILITY_WEIGHTS),
    TrecMeasure("11pt_avg", "params", lambda q, p: [t.eleven_point_average(q.rels(), p)],
                RECALL_POINTS),
    TrecMeasure("binG", "double", _one(t.binary_g)),
    TrecMeasure("G", "pairs", _pairs(t.g_measure)),
    TrecMeasure("dcg", "pairs", lambda q, p: [t.ndcg_parts(q.rels(), p)[0]]),
    TrecMeasure("ideal_dcg", "pairs", lambda q, p: [t.ndcg_parts(q.rels(), p)[1]]),
    TrecMeasure("ndcg", "pairs", _pairs(t.ndcg)),
    TrecMeasure("ndcg_rel", "pairs", _pairs(t.ndcg_rel)),
    TrecMeasure("Rndcg", "pairs", _pairs(t.r_ndcg)),
    TrecMeasure("ndcg_cut", "cut_long", _cuts(t.ndcg_at), TREC_CUTOFFS),
    TrecMeasure("map_cut", "cut_long", _cuts(t.map_at), TREC_CUTOFFS),
    TrecMeasure("relative_P", "cut_long", _cuts(t.relative_precision_at), TREC_CUTOFFS),
    TrecMeasure("success", "cut_long", _cuts(t.success_at), (1, 5, 10)),
    TrecMeasure("set_P", "double", _one(t.set_precision)),
    TrecMeasure("set_relative_P", "double", _one(t.set_relative_precision)),
    TrecMeasure("set_recall", "double", _one(t.set_recall)),
    TrecMeasure("set_map", "double", _one(t.set_map)),
    TrecMeasure("set_F", "params", lambda q, p: [t.set_f(q.rels(), p[0])], (1.0,)),
    TrecMeasure("num_nonrel_judged_ret", "long", _one(t.num_nonrel_judged_ret), average="sum"),
    *[TrecMeasure(name, "long", _prefs(name), average="sum", reads="prefs")
      for name in ("prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret")],
    *[TrecMeasure(name, "double", _prefs(name), reads="prefs")
      for name in ("prefs_simp", "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel",
                   "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
                   "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp",
                   "prefs_avgjg_imp")],
    TrecMeasure("map_avgjg", "double", _jg(_map_avgjg), reads="qrels_jg"),
    TrecMeasure("P_avgjg", "cut_long", _jg(_p_avgjg), TREC_CUTOFFS, reads="qrels_jg"),
    TrecMeasure("Rprec_mult_avgjg", "cut_double", _jg(_rprec_mult_avgjg), R_MULTIPLES,
                reads="qrels_jg"),
    TrecMeasure("yaap", "double", _one(t.yaap)),
    TrecMeasure("rbp", "pairs", _pairs(t.graded_rbp)),
    TrecMeasure("rbp_resid", "pairs", _pairs(t.rbp_residual)),
    TrecMeasure("unj", "cut_long", _cuts(t.unjudged_at), (5, 10, 20)),
]
BY_NAME = {m.name: m for m in MEASURES}

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


class ParamError(Exception):
    """A parameter list trec_eval refuses (the message says which and why)."""


def _split(text: str) -> list[str]:
    return text.split(",")


def long_cutoffs(text: str) -> tuple[int, ...]:
    """``5,10`` -> (5, 10): atol each, sorted; refuses a cutoff <= 0 or a repeated one.

    >>> long_cutoffs("10,5,23.4")
    (5, 10, 23)
    """
    cutoffs = sorted(atol(part) for part in _split(text))
    if cutoffs[0] <= 0:
        raise ParamError(f"cutoffs must be above 0, found {cutoffs[0]} in '{text}'")
    if len(set(cutoffs)) != len(cutoffs):
        raise ParamError(f"a cutoff is given twice in '{text}'")
    return tuple(cutoffs)


def double_cutoffs(text: str) -> tuple[float, ...]:
    """``.25,.1`` -> (0.1, 0.25): atof each, sorted; refuses a repeated one."""
    cutoffs = sorted(atof(part.encode()) for part in _split(text))
    if len(set(cutoffs)) != len(cutoffs):
        raise ParamError(f"a cutoff is given twice in '{text}'")
    return tuple(cutoffs)


def double_params(text: str) -> tuple[float, ...]:
    """``2,-1,0,0`` -> (2.0, -1.0, 0.0, 0.0), in the given order."""
    return tuple(atof(part.encode()) for part in _split(text))


def param_pairs(text: str) -> tuple[tuple[str, float], ...]:
    """``1=3,2=9`` -> (("1", 3.0), ("2", 9.0)); refuses what trec_eval's get_param_pairs
    refuses (a part without ``=``, ``==``, ``,,``).

    >>> param_pairs("p=0.5"), param_pairs("1=3,2=9")
    ((('p', 0.5),), (('1', 3.0), ('2', 9.0)))
    """
    last = ","
    for char in text:
        if char == ",":
            if last == ",":
                break
            last = ","
        elif char == "=":
            if last == "=":
                last = ","
                break
            last = "="
    if last != "=":
        raise ParamError(f"malformed name=value parameters in '{text}'")
    pairs = []
    for part in _split(text):
        name, _eq, value = part.partition("=")
        pairs.append((name, atof(value.encode())))
    return tuple(pairs)


def read_params(measure: TrecMeasure, text: str | None):
    """A measure's parameters from its ``-m name.params`` (None: its defaults)."""
    kind = measure.kind
    if text is None:
        if kind == "pairs":
            return ()
        return measure.default
    if kind == "cut_long":
        return long_cutoffs(text)
    if kind == "cut_double":
        return double_cutoffs(text)
    if kind in ("params", "relstring"):
        return double_params(text)
    if kind == "pairs":
        return param_pairs(text)
    return measure.default  # a measure without parameters ignores them, as trec_eval does


def value_names(measure: TrecMeasure, params, text: str | None) -> list[str]:
    """The printed names of a measure's values: ``P_5``, ``iprec_at_recall_0.10``,
    ``set_F_0.5``, ``ndcg_1=3,2=9``, or the measure's own name."""
    kind = measure.kind
    if kind == "cut_long":
        return [f"{measure.name}_{c}" for c in params]
    if kind == "cut_double":
        return [double_name(measure.name, c) for c in params]
    if kind in ("params", "pairs", "relstring") and text is not None:
        return [f"{measure.name}_{text}"]
    return [measure.name]
