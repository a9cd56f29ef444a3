"""Registry entries of trec_eval's other measures: the counts, gm_map, bpref, infAP, the set
measures (set_P, set_recall, set_F, utility) and those only trec_eval had (gm_bpref,
relative_P, set_relative_P, set_map, ndcg_rel, Rndcg, binG, G, dcg, ideal_dcg,
num_nonrel_judged_ret, unj, yaap), each one registration carrying its row of the ``trec_eval``
mode's table; and that table's runid and relstring, which are text. Their arithmetic is
``trec_ranked``'s and ``trec_gains``' (one transcription of trec_eval 10's C per measure, which
the ``trec_eval`` mode runs too); each entry here reads it on the query's ``RelList``.
trec_eval's ``-m`` groups (official, all_trec, set) are in ``trec_groups``.

Relevance is trec_eval's: a document is relevant when its grade is at least the relevance level
(trec_eval ``-l``, default 1). trec_eval tells three kinds of "not relevant" apart, and bpref
and infAP read the difference: a grade from 0 to the level - 1 is judged not relevant; a
negative grade is in the pool but not judged; a document the judgements do not mention is not
in the pool.
"""

from __future__ import annotations

from . import trec_gains as gains
from . import trec_ranked as t
from .grades import no_relevant
from .registry import About, Measure, Param, TrecEval, register, trec_names
from .trec_eval_rows import TREC_CUTOFFS, TrecMeasure, at_cutoffs, one, register_trec_eval, with_pairs
from .trec_rel_list import rel_list

_WHOLE = {"cutoff": "none", "whole_ranking": True}


def _own(name: str):
    """trec_eval's name is the measure's own."""
    return trec_names(whole=name)


def _utility_row(q, params):
    """The ``trec_eval`` mode's utility: exactly four weights, or its refusal."""
    if len(params) != 4:
        raise ValueError("utility needs exactly 4 parameters (the weights of relevant "
                         f"retrieved, other retrieved, relevant missed, the rest), found "
                         f"{len(params)}")
    return [t.utility(q.rels(), params, q.options.num_docs)]


register(Measure(
    "num_q", lambda q, k: 1.0, binary=False, count=True, bounds=None, aggregate="sum", **_WHOLE,
    about=About(groups=("trec",),
                description="queries scored: 1 each, summed (trec_eval prints it on the all line)",
                order=90),
    trec=TrecEval(name=_own("num_q"), rows=(
        TrecMeasure("num_q", "long", lambda q, p: [1.0], average="num_q", per_query=False, reads=""),))))
register(Measure(
    "num_ret", lambda q, k: float(len(q.grades)), binary=False, count=True, bounds=None, **_WHOLE,
    about=About(groups=("trec",), description="documents retrieved (trec_eval's all line sums them)",
                order=100),
    trec=TrecEval(name=_own("num_ret"), rows=(
        TrecMeasure("num_ret", "long", lambda q, p: [float(q.rels().num_ret)], average="sum"),))))
register(Measure(
    "num_rel", lambda q, k: float(q.num_relevant), binary=False, count=True, bounds=None, **_WHOLE,
    about=About(groups=("trec",), description="relevant documents in the judgements, retrieved or not",
                order=110),
    trec=TrecEval(name=_own("num_rel"), rows=(
        TrecMeasure("num_rel", "long", lambda q, p: [float(q.rels().num_rel)], average="num_rel"),))))
register(Measure(
    "num_rel_ret", lambda q, k: float(q.num_rel_ret), count=True, bounds=None, **_WHOLE,
    about=About(groups=("trec",), description="relevant documents retrieved", order=120),
    trec=TrecEval(name=_own("num_rel_ret"), rows=(
        TrecMeasure("num_rel_ret", "long", lambda q, p: [float(q.rels().num_rel_ret)], average="sum"),))))
register(Measure(
    "gm_map", lambda q, k: t.average_precision(q), undefined=no_relevant, aggregate="geometric",
    **_WHOLE,
    about=About(groups=("trec",),
                description="AP per query; the mean is geometric, each AP floored at 0.00001",
                order=130),
    trec=TrecEval(name=_own("gm_map"), rows=(
        TrecMeasure("gm_map", "double", one(t.log_average_precision), average="geometric", per_query=False),))))
register(Measure(
    "bpref", lambda q, k: t.bpref(rel_list(q)), undefined=no_relevant, **_WHOLE,
    about=About(groups=("trec",), citation="Buckley and Voorhees, SIGIR 2004",
                description="binary preference: judged non-relevant documents ranked above "
                            "each relevant one", order=140),
    trec=TrecEval(name=_own("bpref"), rows=(
        TrecMeasure("bpref", "double", one(t.bpref)),))))
register(Measure(
    "infAP", lambda q, k: t.inferred_ap(rel_list(q)), undefined=no_relevant, **_WHOLE,
    about=About(groups=("trec",), citation="Yilmaz and Aslam, CIKM 2006",
                description="inferred AP: negative grades are pooled but unjudged", order=150),
    trec=TrecEval(name=_own("infAP"), rows=(
        TrecMeasure("infAP", "double", one(t.inferred_ap)),))))
register(Measure(
    "set_P", lambda q, k: t.set_precision(rel_list(q)), **_WHOLE,
    about=About(groups=("trec",), description="relevant retrieved over retrieved", order=160),
    trec=TrecEval(name=_own("set_P"), rows=(
        TrecMeasure("set_P", "double", one(t.set_precision)),))))
register(Measure(
    "set_recall", lambda q, k: t.set_recall(rel_list(q)), undefined=no_relevant, **_WHOLE,
    about=About(groups=("trec",), description="relevant retrieved over relevant", order=170),
    trec=TrecEval(name=_own("set_recall"), rows=(
        TrecMeasure("set_recall", "double", one(t.set_recall)),))))
register(Measure(
    "set_F", lambda q, k, beta=1.0: t.set_f(rel_list(q), beta),
    params={"beta": Param(1.0, bounds="[0, inf)",
                          description="the weight of recall against precision")},
    undefined=no_relevant, **_WHOLE,
    about=About(groups=("trec",),
                description="(beta + 1) P R / (beta P + R) of the whole ranking as a set", order=180),
    trec=TrecEval(name=_own("set_F"), rows=(
        TrecMeasure("set_F", "params", lambda q, p: [t.set_f(q.rels(), p[0])], (1.0,)),))))
register(Measure(
    "utility",
    lambda q, k, a=1.0, b=-1.0, c=0.0, d=0.0, n=0: t.utility(rel_list(q), (a, b, c, d), n),
    params={"a": Param(1.0, description="the worth of a relevant document retrieved"),
            "b": Param(-1.0, description="the worth of another document retrieved"),
            "c": Param(0.0, description="the worth of a relevant document missed"),
            "d": Param(0.0, description="the worth of another document not retrieved"),
            "n": Param(0, bounds="[0, inf)", description="the collection's size (for d)")},
    bounds=None, **_WHOLE,
    about=About(groups=("trec",),
                description="a * relevant retrieved + b * other retrieved + c * relevant "
                            "missed + d * the rest of n documents", order=190),
    trec=TrecEval(name=_own("utility"), rows=(
        TrecMeasure("utility", "params", _utility_row, t.UTILITY_WEIGHTS),))))


# --- trec_eval's measures the rest of the package did not have (the chooser's "trec" group) ---

_CUT = {"cutoff": "required", "binary": False}


def _first(function):
    """A per-cutoff function read at one cutoff, for the registry's compute(q, k)."""
    return lambda q, k: function(rel_list(q), [k])[0]


def _trec_own(name: str, compute, shape: dict, description: str, order: int, row: TrecMeasure,
              citation: str = "", **fields) -> None:
    """Registers one of trec_eval's own measures, of the whole ranking (``_WHOLE``) or at a
    cutoff (``_CUT``), printed under its trec_eval name, with trec_eval's row of it."""
    whole = shape is _WHOLE
    register(Measure(
        name, compute, **shape, **({"binary": False} if whole else {}), **fields,
        about=About(groups=("trec",), description=description, citation=citation, order=order),
        trec=TrecEval(name=trec_names(whole=name) if whole else trec_names(cut=name + "_{k}"),
                      rows=(row,))))


_trec_own("gm_bpref", lambda q, k: t.bpref(rel_list(q)), _WHOLE,
          "bpref per query; the mean is geometric, each value floored at 0.00001", 210,
          TrecMeasure("gm_bpref", "double", one(t.log_bpref), average="geometric",
                      per_query=False),
          aggregate="geometric", undefined=no_relevant)
_trec_own("relative_P", _first(t.relative_precision_at), _CUT,
          "relevant documents in the top k over min(k, R)", 220,
          TrecMeasure("relative_P", "cut_long", at_cutoffs(t.relative_precision_at), TREC_CUTOFFS),
          undefined=no_relevant)
_trec_own("set_relative_P", lambda q, k: t.set_relative_precision(rel_list(q)), _WHOLE,
          "relevant retrieved over min(retrieved, R)", 230,
          TrecMeasure("set_relative_P", "double", one(t.set_relative_precision)),
          undefined=no_relevant)
_trec_own("set_map", lambda q, k: t.set_map(rel_list(q)), _WHOLE,
          "set precision times set recall", 240,
          TrecMeasure("set_map", "double", one(t.set_map)), undefined=no_relevant)
_trec_own("ndcg_rel", lambda q, k: gains.ndcg_rel(rel_list(q)), _WHOLE,
          "nDCG averaged at the rank of each relevant document (trec_eval's experimental "
          "measure)", 250, TrecMeasure("ndcg_rel", "pairs", with_pairs(gains.ndcg_rel)))
_trec_own("Rndcg", lambda q, k: gains.r_ndcg(rel_list(q)), _WHOLE,
          "nDCG averaged at the ranks where the ideal gain changes (trec_eval's experimental "
          "measure)", 260, TrecMeasure("Rndcg", "pairs", with_pairs(gains.r_ndcg)),
          undefined=no_relevant)
_trec_own("binG", lambda q, k: t.binary_g(rel_list(q)), _WHOLE,
          "mean over relevant documents of 1 / log2(2 + non-relevant documents above it) "
          "(trec_eval's experimental measure)", 270, TrecMeasure("binG", "double", one(t.binary_g)))
_trec_own("G", lambda q, k: gains.g_measure(rel_list(q)), _WHOLE,
          "gain discounted by the ideal gain still missing (trec_eval's experimental measure)",
          280, TrecMeasure("G", "pairs", with_pairs(gains.g_measure)))
_trec_own("dcg", lambda q, k: gains.ndcg_parts(rel_list(q))[0], _WHOLE,
          "DCG of the whole ranking, gain = grade (trec_eval's dcg)", 290,
          TrecMeasure("dcg", "pairs", lambda q, p: [gains.ndcg_parts(q.rels(), p)[0]]),
          bounds=None)
_trec_own("ideal_dcg", lambda q, k: gains.ndcg_parts(rel_list(q))[1], _WHOLE,
          "the DCG of the best order of every judged document", 300,
          TrecMeasure("ideal_dcg", "pairs", lambda q, p: [gains.ndcg_parts(q.rels(), p)[1]]),
          bounds=None)
_trec_own("num_nonrel_judged_ret", lambda q, k: t.num_nonrel_judged_ret(rel_list(q)), _WHOLE,
          "judged non-relevant documents retrieved", 310,
          TrecMeasure("num_nonrel_judged_ret", "long", one(t.num_nonrel_judged_ret),
                      average="sum"),
          count=True, bounds=None)
_trec_own("unj", _first(t.unjudged_at), _CUT,
          "share of the top k without a judgement (1 - judged@k when k documents came back)", 320,
          TrecMeasure("unj", "cut_long", at_cutoffs(t.unjudged_at), (5, 10, 20)))
_trec_own("yaap", lambda q, k: t.yaap(rel_list(q)), _WHOLE,
          "yet another average precision: log((1 + S) / (1 + R - S)), S the sum of precisions "
          "at the relevant ranks", 330, TrecMeasure("yaap", "double", one(t.yaap)),
          citation="Robertson, ECIR 2012", bounds=None)

# what only the trec_eval mode prints: text, not numbers
register_trec_eval(TrecMeasure("runid", "runid", None, average="none", per_query=False, reads=""))
register_trec_eval(TrecMeasure("relstring", "relstring", None, (10.0,), average="none"))
