"""The common measures: recall, precision, reciprocal rank, nDCG, hit rate, average
precision, R-precision and judged@k, each as trec_eval computes it.

Each is read on a query's ``grades.QueryGrades`` (what the registry hands every measure) and
cut at k, or over the whole ranking with ``k=None``. The arithmetic of those trec_eval has is
``trec_ranked``'s, the one transcription of its C that the ``trec_eval`` mode runs too, read on
the query's ``RelList``; so ``ndcg@10`` here and trec_eval's ``ndcg_cut_10`` are one function
in one order of operations. Each ``register`` entry below names a function and says how it is
read.

>>> from .grades import QueryGrades
>>> q = QueryGrades([b"d1", b"d2", b"d3", b"d4", b"d5", b"d6"],
...                 {b"d1": 3, b"d2": 2, b"d3": 3, b"d4": 0, b"d5": 1, b"d6": 2, b"d7": 3, b"d8": 2})
>>> round(ndcg(q, 6), 3), recall(q, 2), precision(q, 4), reciprocal_rank(q, 3), hit_rate(q, 1)
(0.785, 0.2857142857142857, 0.75, 1.0, 1.0)
"""

from __future__ import annotations

from . import tied, trec_gains
from . import trec_ranked as t
from .grades import Grades, QueryGrades, gain_function, no_gain, no_relevant
from .registry import About, Measure, Names, TrecEval, register, trec_names
from .trec_eval_rows import TREC_CUTOFFS, TrecMeasure, at_cutoffs, one, with_pairs


def recall(q: QueryGrades, k: int | None = None) -> float:
    """Share of the query's relevant documents found in the top k (trec_eval recall_k; with
    k=None, set_recall); 0 when nothing is relevant."""
    return t.recall_at(q, (k,))[0] if k else t.set_recall(q)


def precision(q: QueryGrades, k: int) -> float:
    """Relevant documents in the top k over k, even when fewer than k came back (trec_eval P_k)."""
    return t.precision_at(q, (k,))[0]


def reciprocal_rank(q: QueryGrades, k: int | None = None) -> float:
    """1 / rank of the first relevant document in the top k (or anywhere, k=None), else 0
    (trec_eval recip_rank)."""
    return t.reciprocal_rank(q, k)


def hit_rate(q: QueryGrades, k: int) -> float:
    """1 if any of the top k is relevant, else 0 (trec_eval success_k)."""
    return t.success_at(q, (k,))[0]


def average_precision(q: QueryGrades, k: int | None = None) -> float:
    """Mean of precision at each relevant rank within k, over all relevant documents
    (trec_eval map_cut_k; with k=None its map); 0 when nothing is relevant."""
    return t.map_at(q, (k,))[0] if k else t.average_precision(q)


def r_precision(q: QueryGrades) -> float:
    """Precision at rank R, R being the number of relevant documents (trec_eval Rprec)."""
    return t.r_precision(q)


def ndcg(q: QueryGrades, k: int | None = None) -> float:
    """DCG@k over the DCG@k of the best order of every judged document, retrieved or not
    (trec_eval's ndcg_cut_k; k=None, the whole ranking), gain = the grade or, with the query's
    ``gain`` "exponential", 2^grade - 1: ``trec_ranked.dcg_over_ideal``, as trec_eval."""
    to_gain = gain_function(q.gain)
    gained = [(i, to_gain(g)) for i, g in enumerate(q.grades) if g is not None and g > 0]
    cut = k if k else max(len(q.grades), len(q.ideal)) + 1
    return t.dcg_over_ideal(gained, q.ideal, (cut,), len(q.grades))[0]


def judged_share(grades: Grades, k: int) -> float:
    """Share of the returned top k that the judgements mention at all (0 when nothing came
    back). Low values mean the other numbers are underestimates.

    >>> judged_share([1, None, 0, None], k=3)
    0.6666666666666666
    """
    top = grades[:k]
    return sum(1 for g in top if g is not None) / len(top) if top else 0.0



def _trec(cut: str | None = None, whole: str | None = None, *, at=None, whole_row=None,
          cutoffs=TREC_CUTOFFS) -> TrecEval:
    """How a measure meets trec_eval: ``cut`` is trec_eval's name of its rows at cutoffs
    (printed ``cut_k``, read with ``at``), ``whole`` its name without a cutoff, and
    ``whole_row`` = (kind, compute) when the ``trec_eval`` mode prints that name as a row."""
    rows = (TrecMeasure(whole, *whole_row),) if whole_row else ()
    if cut:
        rows += (TrecMeasure(cut, "cut_long", at_cutoffs(at), cutoffs),)
    return TrecEval(name=trec_names(cut and cut + "_{k}", whole), rows=rows)

register(Measure(
    "recall", recall, tie_average=tied.expected_recall, undefined=no_relevant,
    names=Names(aliases=("r",), label="Recall", peers={"ir_measures": "R", "ranx": "recall"}),
    about=About(default=True, description="relevant documents in the top k over all relevant documents",
                order=10),
    trec=_trec("recall", "set_recall", at=t.recall_at)))
register(Measure(
    "precision", precision, cutoff="required", tie_average=tied.expected_precision,
    names=Names(aliases=("p",), label="Precision", peers={"ir_measures": "P", "ranx": "precision"}),
    about=About(default=True,
                description="relevant documents in the top k over k, even when fewer came back (trec_eval P_k)",
                order=20),
    trec=_trec("P", at=t.precision_at)))
register(Measure(
    "rr", reciprocal_rank, tie_average=tied.expected_rr,
    names=Names(cut_name="mrr", aliases=("reciprocal_rank",), uncut_aliases=("recip_rank",), label="RR",
                cut_label="MRR", peers={"ir_measures": "RR", "ranx": "mrr"}),
    about=About(default=True, groups=("cutoff", "whole"),
                description="1 / rank of the first relevant document (0 when none is retrieved); MRR is its mean",
                order=30),
    trec=_trec(whole="recip_rank", whole_row=("double", one(t.reciprocal_rank)))))
register(Measure(
    "ndcg", ndcg, tie_average=tied.expected_ndcg, undefined=no_gain, binary=False,
    names=Names(cut_aliases=("ndcg_cut",), label="nDCG", whole_name="ndcg_whole",
                peers={"ir_measures": "nDCG", "ranx": "ndcg"}),
    about=About(default=True, groups=("cutoff", "trec"), citation="Jarvelin and Kekalainen, TOIS 2002",
                description="DCG over the ideal DCG of every judged document, gain = grade (every positive "
                            "grade, whatever the relevance threshold, as trec_eval's ndcg_cut)",
                order=40),
    trec=_trec("ndcg_cut", "ndcg", at=t.ndcg_at, whole_row=("pairs", with_pairs(trec_gains.ndcg)))))
register(Measure(
    "hit_rate", hit_rate, tie_average=tied.expected_hit_rate,
    names=Names(aliases=("hitrate", "hit", "hits"), cut_aliases=("success",), label="Hit rate",
                peers={"ir_measures": "Success", "ranx": "hit_rate"}),
    about=About(description="1 if a relevant document is in the top k, else 0 (trec_eval success_k)",
                order=50),
    trec=_trec("success", at=t.success_at, cutoffs=(1, 5, 10))))
register(Measure(
    "map", average_precision, tie_average=tied.expected_ap, undefined=no_relevant,
    names=Names(cut_name="ap", aliases=("average_precision",), cut_aliases=("map_cut",), label="MAP",
                cut_label="AP", peers={"ir_measures": "AP", "ranx": "map"}),
    about=About(groups=("cutoff", "whole"),
                description="average precision: the mean of the precision at each relevant document's rank, "
                            "over all relevant documents (trec_eval map; with a cutoff, map_cut_k)",
                order=60),
    trec=_trec("map_cut", "map", at=t.map_at, whole_row=("double", one(t.average_precision)))))
register(Measure(
    "rprec", lambda q, k: r_precision(q), cutoff="none", tie_average=tied.expected_rprec,
    undefined=no_relevant, whole_ranking=True,
    names=Names(aliases=("r_precision", "r-precision", "r-prec"), label="R-prec",
                peers={"ir_measures": "Rprec", "ranx": "r-precision"}),
    about=About(groups=("whole",),
                description="precision at rank R, R the number of relevant documents (trec_eval Rprec)",
                order=70),
    trec=_trec(whole="Rprec", whole_row=("double", one(t.r_precision)))))
register(Measure(
    "judged", lambda q, k: judged_share(q.grades, k), cutoff="required", binary=False,
    tie_average=tied.expected_judged,
    names=Names(label="Judged", peers={"ir_measures": "Judged"}),
    about=About(description="share of the top k that has a judgement; low values make every other number "
                            "an underestimate", order=80)))
