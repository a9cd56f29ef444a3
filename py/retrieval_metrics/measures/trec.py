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
from .registry import Measure, register, trec_names
from .trec_eval_rows import TrecMeasure, register_trec_eval
from .trec_ranked import rel_list

_WHOLE = {"cutoff": "none", "whole_ranking": True, "groups": ("trec",)}


def _own(name: str):
    """trec_eval's name is the measure's own."""
    return trec_names(whole=name)


register(Measure("num_q", lambda q, k: 1.0, binary=False, count=True, bounds=None, aggregate="sum",
                 trec_eval=_own("num_q"), **_WHOLE,
                 description="queries scored: 1 each, summed (trec_eval prints it on the all line)"))
register_trec_eval(TrecMeasure("num_q", "long", lambda q, p: [1.0], average="num_q",
                               per_query=False, reads=""))
register(Measure("num_ret", lambda q, k: float(len(q.grades)), binary=False, count=True, bounds=None,
                 trec_eval=_own("num_ret"), **_WHOLE,
                 description="documents retrieved (trec_eval's all line sums them)"))
register(Measure("num_rel", lambda q, k: float(q.num_relevant), binary=False, count=True, bounds=None,
                 trec_eval=_own("num_rel"), **_WHOLE,
                 description="relevant documents in the judgements, retrieved or not"))
register(Measure("num_rel_ret", lambda q, k: float(q.num_rel_ret),
                 count=True, bounds=None, trec_eval=_own("num_rel_ret"), **_WHOLE,
                 description="relevant documents retrieved"))
register(Measure("gm_map", lambda q, k: t.average_precision(q),
                 undefined=no_relevant, aggregate="geometric", trec_eval=_own("gm_map"), **_WHOLE,
                 description="AP per query; the mean is geometric, each AP floored at 0.00001"))
register(Measure("bpref", lambda q, k: t.bpref(rel_list(q)),
                 undefined=no_relevant, trec_eval=_own("bpref"), **_WHOLE,
                 citation="Buckley and Voorhees, SIGIR 2004",
                 description="binary preference: judged non-relevant documents ranked above "
                             "each relevant one"))
register(Measure("infAP", lambda q, k: t.inferred_ap(rel_list(q)),
                 undefined=no_relevant, trec_eval=_own("infAP"), **_WHOLE,
                 citation="Yilmaz and Aslam, CIKM 2006",
                 description="inferred AP: negative grades are pooled but unjudged"))
register(Measure("set_P", lambda q, k: t.set_precision(rel_list(q)),
                 trec_eval=_own("set_P"), **_WHOLE,
                 description="relevant retrieved over retrieved"))
register(Measure("set_recall", lambda q, k: t.set_recall(rel_list(q)),
                 undefined=no_relevant, trec_eval=_own("set_recall"), **_WHOLE,
                 description="relevant retrieved over relevant"))
register(Measure("set_F", lambda q, k, beta=1.0: t.set_f(rel_list(q), beta),
                 params={"beta": 1.0}, undefined=no_relevant, trec_eval=_own("set_F"), **_WHOLE,
                 description="(beta + 1) P R / (beta P + R) of the whole ranking as a set"))
register(Measure("utility", lambda q, k, a=1.0, b=-1.0, c=0.0, d=0.0, n=0: t.utility(
                     rel_list(q), (a, b, c, d), n),
                 params={"a": 1.0, "b": -1.0, "c": 0.0, "d": 0.0, "n": 0},
                 trec_eval=_own("utility"), bounds=None, **_WHOLE,
                 description="a * relevant retrieved + b * other retrieved + c * relevant "
                             "missed + d * the rest of n documents"))
