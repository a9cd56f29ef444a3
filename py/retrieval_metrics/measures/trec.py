"""trec_eval's other measures, and ERR, RBP and judged-only nDCG, in the metric registry.

The arithmetic is in ``trec_measures`` (one function per measure, each worked by hand); this
module only names them, as ``names.py`` asks. Keys are trec_eval's names where it has one
(``bpref``, ``infAP``, ``iprec_at_recall_0.10``, ``Rprec_mult_0.20``, ``set_F``, ``num_rel``)
and follow ``names.py``'s ``name(param=value)@k`` otherwise (``err@10``, ``rbp(p=0.9)``,
``ndcg_judged@10``). ``GROUPS`` adds trec_eval's ``-m`` groups: ``official`` (what trec_eval
prints without ``-m``), ``all_trec`` (every measure of trec_eval's all_trec this package
computes), ``set``, and ``iprec_at_recall`` / ``Rprec_mult`` (their default points).

>>> from retrieval_metrics.measures.registry import parse_metric
>>> [parse_metric(n).key for n in ("iprec_at_recall_0.1", "Rprec_mult@2", "11pt_avg", "infap")]
['iprec_at_recall_0.10', 'Rprec_mult_2.00', '11pt_avg', 'infAP']
>>> parse_metric("nDCG(judged_only=True)@10").key, parse_metric("RBP(p=0.9)").key
('ndcg_judged@10', 'rbp(p=0.9)')
"""

from __future__ import annotations

import re

from . import core as m
from . import trec_arith as t
from ..errors import InputError, OptionError

#: trec_eval's cutoffs for P, recall, map_cut and ndcg_cut in its official and all_trec groups
TREC_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
#: trec_eval's rbp persistence (ir_measures' RBP, and so ``rbp``, defaults to 0.8)
TREC_RBP_P = 0.9


def _binary_ap(q, k):
    return m.average_precision(q.binary, q.num_relevant)


_MEMO: list = [None, {}]  # the query last scored, and what its measures share


def _shared(q, name: str, make):
    """One query's value shared by several keys (the 11 recall points, the 10 multiples of R),
    computed once: queries are scored one after another, so the memo holds the last one."""
    if _MEMO[0] is not q:
        _MEMO[0], _MEMO[1] = q, {}
    memo = _MEMO[1]
    if name not in memo:
        memo[name] = make()
    return memo[name]


def _iprec(q, k, recall):
    if recall in t.IPREC_RECALL_POINTS:
        values = _shared(q, "iprec", lambda: t.iprec_at_recall(q.grades, q.num_relevant, q.threshold))
        return values[t.IPREC_RECALL_POINTS.index(recall)]
    return t.iprec_at_recall(q.grades, q.num_relevant, q.threshold, (recall,))[0]


def _rprec_mult(q, k, multiple):
    if multiple in t.RPREC_MULTIPLES:
        values = _shared(q, "rprec_mult", lambda: t.rprec_mult(q.grades, q.num_relevant, q.threshold))
        return values[t.RPREC_MULTIPLES.index(multiple)]
    return t.rprec_mult(q.grades, q.num_relevant, q.threshold, (multiple,))[0]


def _err(q, k, max_grade=t.ERR_MAX_GRADE):
    top = max(q.judged.values(), default=0)
    if top > max_grade:  # evaluate() names the line first; ranking_metrics gets here
        raise InputError("qrels", f"a grade of {top:,} is above ERR's max_grade {max_grade}",
                         expected=f"grades up to {max_grade}, or err(max_grade={top})")
    return t.err(q.grades, k, max_grade)


def _cut(q, k):
    return q.grades[:k] if k else q.grades


_WHOLE = {"cutoff": "none", "whole_ranking": True}

# --- spellings the registry's pattern cannot read ------------------------------------------

_POINT = re.compile(r"\s*(iprec_at_recall|rprec_mult)\s*[_@]\s*(\d*\.?\d+)\s*", re.IGNORECASE)
_JUDGED_ONLY = re.compile(r"\s*ndcg\s*\(\s*judged_only\s*=\s*(?:true|1)\s*\)\s*[@_]\s*(\d+)\s*",
                          re.IGNORECASE)
_ELEVEN = re.compile(r"\s*11pt_avg\s*", re.IGNORECASE)
_BARE = re.compile(r"\s*(iprec_at_recall|rprec_mult)\s*", re.IGNORECASE)


def _trec_spelling(name: str):
    """``iprec_at_recall_0.10`` / ``@0.1``, ``Rprec_mult_0.20``, ``11pt_avg`` and ir_measures'
    ``nDCG(judged_only=True)@10``; None for any other name."""
    match = _POINT.fullmatch(name)
    if match:
        value = float(match.group(2))
        if match.group(1).lower() == "iprec_at_recall":
            if not 0.0 <= value <= 1.0:
                raise OptionError("metrics", f"{name!r}: the recall level must be from 0 to 1, "
                                  f"found {match.group(2)}")
            return MetricSpec("iprec_at_recall", None, (("recall", value),))
        if not value > 0:
            raise OptionError("metrics", f"{name!r}: the multiple of R must be above 0")
        return MetricSpec("Rprec_mult", None, (("multiple", value),))
    if _BARE.fullmatch(name):
        word = name.strip()
        example = "iprec_at_recall_0.10" if word.lower().startswith("i") else "Rprec_mult_0.20"
        raise OptionError("metrics", f"{word!r} needs its level, such as {example}; in a list "
                          f"of metrics, {word} alone means trec_eval's default levels")
    if name.strip().lower() in ("official", "all_trec", "set"):
        raise OptionError("metrics", f"{name.strip()!r} names a group of metrics, which "
                          "evaluate() and the CLI's -m expand; here, list the metrics themselves")
    if _ELEVEN.fullmatch(name):
        return MetricSpec("11pt_avg")
    match = _JUDGED_ONLY.fullmatch(name)
    if match:
        k = int(match.group(1))
        if k < 1:
            raise OptionError("metrics", f"{name!r}: the cutoff must be at least 1")
        return MetricSpec("ndcg_judged", k)
    return None




# --- trec_eval's -m groups ----------------------------------------------------------------

def iprec_points() -> list:
    return [MetricSpec("iprec_at_recall", None, (("recall", p),)) for p in t.IPREC_RECALL_POINTS]


def rprec_multiples() -> list:
    return [MetricSpec("Rprec_mult", None, (("multiple", x),)) for x in t.RPREC_MULTIPLES]


def official() -> list:
    """What ``trec_eval`` prints without ``-m`` (but runid and num_q, which are not per-query
    values)."""
    return (["num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
             "recip_rank"] + iprec_points() + [f"P_{k}" for k in TREC_CUTOFFS])


def all_trec() -> list:
    """trec_eval's ``-m all_trec`` with its default parameters, in its order, less the
    measures this package does not compute (relstring, unj, gm_bpref, relative_P, ndcg_rel,
    Rndcg, binG, G, set_relative_P, set_map, num_nonrel_judged_ret)."""
    return (official() + [f"recall_{k}" for k in TREC_CUTOFFS]
            + [f"rbp(p={TREC_RBP_P})", f"rbp_resid(p={TREC_RBP_P})", "infAP", "utility",
               "11pt_avg", "ndcg_whole"] + rprec_multiples()
            + ["success_1", "success_5", "success_10"]
            + [f"map_cut_{k}" for k in TREC_CUTOFFS] + [f"ndcg_cut_{k}" for k in TREC_CUTOFFS]
            + ["set_P", "set_recall", "set_F"])


def set_group() -> list:
    return ["num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall", "set_F"]


def install(ns: dict) -> None:
    """Registers the measures, spellings and groups into ``names.py``'s registry, whose
    namespace ``ns`` is (names.py calls this as its last line, so that it needs no import of a
    half-initialised module)."""
    global MetricSpec
    MetricSpec = ns["MetricSpec"]
    Measure, register = ns["Measure"], ns["register"]
    no_gain, no_relevant = ns["no_gain"], ns["no_relevant"]
    register(Measure("num_ret", lambda q, k: float(t.num_ret(q.grades)), binary=False, **_WHOLE,
                     description="documents retrieved (trec_eval's all line sums them)"))
    register(Measure("num_rel", lambda q, k: float(q.num_relevant), binary=False, **_WHOLE,
                     description="relevant documents in the judgements, retrieved or not"))
    register(Measure("num_rel_ret", lambda q, k: float(t.num_rel_ret(q.grades, q.threshold)),
                     **_WHOLE, description="relevant documents retrieved"))
    register(Measure("gm_map", _binary_ap, undefined=no_relevant, aggregate="geometric", **_WHOLE,
                     description="AP per query; the mean is geometric, each AP floored at 0.00001"))
    register(Measure("bpref", lambda q, k: t.bpref(q.grades, q.judged.values(), q.threshold),
                     undefined=no_relevant, **_WHOLE,
                     description="binary preference: judged non-relevant documents ranked above "
                                 "each relevant one (Buckley and Voorhees 2004)"))
    register(Measure("infAP", lambda q, k: t.infap(q.grades, q.num_relevant, q.threshold),
                     undefined=no_relevant, **_WHOLE,
                     description="inferred AP (Yilmaz and Aslam 2006): negative grades are pooled "
                                 "but unjudged"))
    register(Measure("iprec_at_recall", _iprec, params={"recall": None}, undefined=no_relevant,
                     spell=lambda k, p: f"iprec_at_recall_{p['recall']:.2f}", **_WHOLE,
                     description="interpolated precision at a recall level (trec_eval 10's "
                                 "rounding)"))
    register(Measure("11pt_avg", lambda q, k: t.eleven_point_average(q.grades, q.num_relevant,
                                                                     q.threshold),
                     undefined=no_relevant, **_WHOLE,
                     description="mean interpolated precision at recall 0.0, 0.1, ..., 1.0"))
    register(Measure("Rprec_mult", _rprec_mult, params={"multiple": None}, undefined=no_relevant,
                     spell=lambda k, p: f"Rprec_mult_{p['multiple']:.2f}", **_WHOLE,
                     description="precision at rank multiple * R"))
    register(Measure("set_P", lambda q, k: t.set_precision(q.grades, q.threshold), **_WHOLE,
                     description="relevant retrieved over retrieved"))
    register(Measure("set_recall", lambda q, k: t.set_recall(q.grades, q.num_relevant, q.threshold),
                     undefined=no_relevant, **_WHOLE, description="relevant retrieved over relevant"))
    register(Measure("set_F", lambda q, k, beta=1.0: t.set_f(q.grades, q.num_relevant, q.threshold,
                                                             beta),
                     params={"beta": 1.0}, undefined=no_relevant, **_WHOLE,
                     description="(beta + 1) P R / (beta P + R) of the whole ranking as a set"))
    register(Measure("utility", lambda q, k, a=1.0, b=-1.0, c=0.0, d=0.0, n=0: t.utility(
                         q.grades, q.num_relevant, q.threshold, (a, b, c, d), n),
                     params={"a": 1.0, "b": -1.0, "c": 0.0, "d": 0.0, "n": 0}, **_WHOLE,
                     description="a * relevant retrieved + b * other retrieved + c * relevant "
                                 "missed + d * the rest of n documents"))
    register(Measure("err", _err,
                     params={"max_grade": t.ERR_MAX_GRADE}, binary=False,
                     description="expected reciprocal rank (Chapelle et al. 2009), gdeval.pl's: "
                                 "stop probability (2^grade - 1) / 2^max_grade"))
    register(Measure("rbp", lambda q, k, p=0.8: t.rbp(_cut(q, k), p, q.threshold), params={"p": 0.8},
                     description="rank-biased precision (Moffat and Zobel 2008), persistence p"))
    register(Measure("rbp_resid", lambda q, k, p=0.8: t.rbp_residual(_cut(q, k), p),
                     params={"p": 0.8}, aliases=("rbp_residual",), binary=False,
                     description="how much rbp could still rise: unjudged documents and the rest "
                                 "of the ranking"))
    register(Measure("ndcg_judged", lambda q, k: t.ndcg_judged_only(q.grades, q.judged.values(), k,
                                                                    q.gain),
                     cutoff="required", undefined=no_gain, whole_ranking=True, binary=False,
                     aliases=("ndcg_judged_only",),
                     description="nDCG@k of the ranking without its unjudged documents "
                                 "(ir_measures' judged_only)"))
    # trec_eval's ndcg (no cutoff) is the registry's ndcg over the whole ranking; in evaluate()'s
    # lists a bare "ndcg" means nDCG at each k, so it also has a name of its own
    ns["ALIASES"].setdefault("ndcg_whole", ("ndcg", "uncut"))
    ns["SPELLINGS"].append(_trec_spelling)
    ns["GROUPS"].update({"official": official, "all_trec": all_trec, "set": set_group,
                         "iprec_at_recall": iprec_points, "rprec_mult": rprec_multiples})


MetricSpec = None  # names.MetricSpec, set by install()
