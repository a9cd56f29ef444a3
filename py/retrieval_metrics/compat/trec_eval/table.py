"""The ``trec_eval`` mode's table of measures: every row the measure files register
(``measures.trec_eval_rows``) in trec_eval 10's order (measures.c: the order it computes and
prints them), and the rows only this mode computes (preferences, judgement groups); its
nicknames (``official``, ``all_trec``, ``set``, ``all_prefs``, ``prefs``, ``qrels_jg``); and
the readers of its parameter syntax (``P.5,10``, ``iprec_at_recall..25,.5``, ``set_F.0.5``,
``ndcg.1=3,2=9``).
"""

from __future__ import annotations

from ...measures import trec_ranked as t
from ...measures.trec_eval_rows import (  # noqa: F401 (NICKNAMES and the order: read from here too)
    NICKNAMES,
    R_MULTIPLES,
    RECALL_POINTS,
    ROWS,
    TREC_CUTOFFS,
    TREC_EVAL_ORDER,
    TrecMeasure,
    register_trec_eval,
)
from .cnum import atof, atol, double_name

__all__ = ["R_MULTIPLES", "RECALL_POINTS", "TREC_CUTOFFS", "TrecMeasure", "MEASURES", "BY_NAME",
           "NICKNAMES"]


def _jg(function):
    return lambda q, params: function(q.groups(), params)


def _avgjg(per_group, width: int | None = None):
    """trec_eval's ``*_avgjg`` measures: ``per_group(r, params)`` (a list of values, ``width``
    of them or one per parameter) summed over the judgement groups with C's ``+=`` in group
    order, then divided by their number when there is more than one (m_map_avgjg.c,
    m_P_avgjg.c, m_Rprec_mult_avgjg.c)."""
    def calc(groups, params):
        totals = [0.0] * (width if width is not None else len(params))
        for r in groups:
            for i, value in enumerate(per_group(r, params)):
                totals[i] += value
        return [v / len(groups) for v in totals] if len(groups) > 1 else totals
    return calc


def _prefs(name):
    def calc(q, params):
        from .prefs_measures import VALUES
        return [VALUES[name](q.prefs())]
    return calc


# the measures only this mode computes: preferences and judgement groups (their arithmetic is
# prefs_measures' and trec_ranked's, over judgements the calculator does not read)
for _row in (
    *[TrecMeasure(name, "long", _prefs(name), average="sum", reads="prefs")
      for name in ("prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret")],
    *[TrecMeasure(name, "double", _prefs(name), reads="prefs")
      for name in ("prefs_simp", "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel",
                   "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
                   "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp",
                   "prefs_avgjg_imp")],
    TrecMeasure("map_avgjg", "double", _jg(_avgjg(lambda r, _params: [t.average_precision(r)], width=1)), reads="qrels_jg"),
    TrecMeasure("P_avgjg", "cut_long", _jg(_avgjg(t.precision_at)), TREC_CUTOFFS, reads="qrels_jg"),
    TrecMeasure("Rprec_mult_avgjg", "cut_double", _jg(_avgjg(t.rprec_mult)), R_MULTIPLES,
                reads="qrels_jg"),
):
    register_trec_eval(_row)



def measures_in_order() -> list[TrecMeasure]:
    """Every registered row: trec_eval's own in its order, then any other."""
    known = [ROWS[name] for name in TREC_EVAL_ORDER if name in ROWS]
    return known + [row for name, row in ROWS.items() if name not in TREC_EVAL_ORDER]


MEASURES: list[TrecMeasure] = measures_in_order()
BY_NAME = {m.name: m for m in MEASURES}



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
