"""Registry entries of trec_eval's other measures: the counts, gm_map, bpref, infAP, the set
measures (set_P, set_recall, set_F, utility). Their arithmetic is ``trec_ranked``'s (one
transcription of trec_eval 10's C per measure, which the ``trec_eval`` mode runs too); each entry
here reads it on the query's ``RelList``. trec_eval's ``-m`` groups (official, all_trec, set)
are in ``trec_groups``.

Relevance is trec_eval's: a document is relevant when its grade is at least the relevance level
(trec_eval ``-l``, default 1). trec_eval tells three kinds of "not relevant" apart, and bpref
and infAP read the difference: a grade from 0 to the level - 1 is judged not relevant; a
negative grade is in the pool but not judged; a document the judgements do not mention is not
in the pool.
"""

from __future__ import annotations

from . import trec_ranked as t
from .grades import no_relevant
from .registry import About, Measure, Param, TrecEval, register, trec_names
from .trec_eval_rows import TrecMeasure, register_trec_eval
from .trec_ranked import rel_list

_WHOLE = {"cutoff": "none", "whole_ranking": True}


def _own(name: str):
    """trec_eval's name is the measure's own."""
    return trec_names(whole=name)


register(Measure(
    "num_q", lambda q, k: 1.0, binary=False, count=True, bounds=None, aggregate="sum", **_WHOLE,
    about=About(groups=("trec",),
                description="queries scored: 1 each, summed (trec_eval prints it on the all line)",
                order=90),
    trec=TrecEval(name=_own("num_q"))))
register_trec_eval(TrecMeasure("num_q", "long", lambda q, p: [1.0], average="num_q",
                               per_query=False, reads=""))
register(Measure(
    "num_ret", lambda q, k: float(len(q.grades)), binary=False, count=True, bounds=None, **_WHOLE,
    about=About(groups=("trec",), description="documents retrieved (trec_eval's all line sums them)",
                order=100),
    trec=TrecEval(name=_own("num_ret"))))
register(Measure(
    "num_rel", lambda q, k: float(q.num_relevant), binary=False, count=True, bounds=None, **_WHOLE,
    about=About(groups=("trec",), description="relevant documents in the judgements, retrieved or not",
                order=110),
    trec=TrecEval(name=_own("num_rel"))))
register(Measure(
    "num_rel_ret", lambda q, k: float(q.num_rel_ret), count=True, bounds=None, **_WHOLE,
    about=About(groups=("trec",), description="relevant documents retrieved", order=120),
    trec=TrecEval(name=_own("num_rel_ret"))))
register(Measure(
    "gm_map", lambda q, k: t.average_precision(q), undefined=no_relevant, aggregate="geometric",
    **_WHOLE,
    about=About(groups=("trec",),
                description="AP per query; the mean is geometric, each AP floored at 0.00001",
                order=130),
    trec=TrecEval(name=_own("gm_map"))))
register(Measure(
    "bpref", lambda q, k: t.bpref(rel_list(q)), undefined=no_relevant, **_WHOLE,
    about=About(groups=("trec",), citation="Buckley and Voorhees, SIGIR 2004",
                description="binary preference: judged non-relevant documents ranked above "
                            "each relevant one", order=140),
    trec=TrecEval(name=_own("bpref"))))
register(Measure(
    "infAP", lambda q, k: t.inferred_ap(rel_list(q)), undefined=no_relevant, **_WHOLE,
    about=About(groups=("trec",), citation="Yilmaz and Aslam, CIKM 2006",
                description="inferred AP: negative grades are pooled but unjudged", order=150),
    trec=TrecEval(name=_own("infAP"))))
register(Measure(
    "set_P", lambda q, k: t.set_precision(rel_list(q)), **_WHOLE,
    about=About(groups=("trec",), description="relevant retrieved over retrieved", order=160),
    trec=TrecEval(name=_own("set_P"))))
register(Measure(
    "set_recall", lambda q, k: t.set_recall(rel_list(q)), undefined=no_relevant, **_WHOLE,
    about=About(groups=("trec",), description="relevant retrieved over relevant", order=170),
    trec=TrecEval(name=_own("set_recall"))))
register(Measure(
    "set_F", lambda q, k, beta=1.0: t.set_f(rel_list(q), beta),
    params={"beta": Param(1.0, bounds="[0, inf)",
                          description="the weight of recall against precision")},
    undefined=no_relevant, **_WHOLE,
    about=About(groups=("trec",),
                description="(beta + 1) P R / (beta P + R) of the whole ranking as a set", order=180),
    trec=TrecEval(name=_own("set_F"))))
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
    trec=TrecEval(name=_own("utility"))))
