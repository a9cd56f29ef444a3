"""The common measures: recall, precision, reciprocal rank, nDCG, hit rate, average
precision, R-precision and judged@k, each as trec_eval computes it.

Each function takes the grades of the ranked documents (``None`` for a document the judgements
do not mention) and what it needs of the judgements, so each can be checked by hand; its
``register`` entry below names it and says how it is read.
"""

from __future__ import annotations

from typing import Sequence

from . import tied
from .grades import Grades, dcg, gain_function, ideal_gains, no_gain, no_relevant
from .registry import Measure, register, trec_names


def recall(grades: Grades, num_relevant: int, k: int) -> float:
    """Share of the query's relevant documents found in the top k.

    >>> recall([1, 0, None, 2], num_relevant=3, k=2)
    0.3333333333333333
    """
    return sum(1 for g in grades[:k] if g is not None and g > 0) / num_relevant


def precision(grades: Grades, k: int) -> float:
    """Relevant documents in the top k over k, even when fewer than k came back (trec_eval P_k).

    >>> precision([1, 0], k=5)
    0.2
    """
    return sum(1 for g in grades[:k] if g is not None and g > 0) / k


def reciprocal_rank(grades: Grades, k: int | None = None) -> float:
    """1 / rank of the first relevant document in the top k (or anywhere, k=None), else 0.

    >>> reciprocal_rank([0, None, 2], k=3), reciprocal_rank([0, None, 2], k=2)
    (0.3333333333333333, 0.0)
    """
    for rank, g in enumerate(grades[:k] if k else grades, 1):
        if g is not None and g > 0:
            return 1.0 / rank
    return 0.0


def ndcg(grades: Grades, judged_grades: Sequence[int], k: int, gain: str = "linear",
         ideal: Sequence[float] | None = None) -> float:
    """DCG@k over the DCG@k of the best order of every judged document, retrieved or not
    (trec_eval's ndcg_cut); ``ideal`` (``ideal_gains``) saves sorting them again for each k.
    Wikipedia's example, with D7 = 3 and D8 = 2 never retrieved:

    >>> round(ndcg([3, 2, 3, 0, 1, 2], [3, 2, 3, 0, 1, 2, 3, 2], k=6), 3)
    0.785
    """
    to_gain = gain_function(gain)
    best = dcg(ideal_gains(judged_grades, gain) if ideal is None else ideal, k)
    if not best:
        return 0.0
    return dcg([to_gain(g) if g is not None and g > 0 else 0 for g in grades[:k]], k) / best


def hit_rate(grades: Grades, k: int) -> float:
    """1 if any of the top k is relevant, else 0 (trec_eval success_k).

    >>> hit_rate([0, None, 1], 2), hit_rate([0, None, 1], 3)
    (0.0, 1.0)
    """
    return 1.0 if any(g is not None and g > 0 for g in grades[:k]) else 0.0


def average_precision(grades: Grades, num_relevant: int, k: int | None = None) -> float:
    """Mean of precision at each relevant rank within k, over all relevant documents
    (trec_eval map_cut_k; with k=None its map).

    >>> average_precision([1, 0, 1], num_relevant=3)
    0.5555555555555555
    """
    hits = 0
    total = 0.0
    for rank, g in enumerate(grades[:k] if k else grades, 1):
        if g is not None and g > 0:
            hits += 1
            total += hits / rank
    return total / num_relevant


def r_precision(grades: Grades, num_relevant: int) -> float:
    """Precision at rank R, R being the number of relevant documents (trec_eval Rprec).

    >>> r_precision([1, 0, 1, 1], num_relevant=2)
    0.5
    """
    return precision(grades, num_relevant)


def judged_share(grades: Grades, k: int) -> float:
    """Share of the returned top k that the judgements mention at all (0 when nothing came
    back). Low values mean the other numbers are underestimates.

    >>> judged_share([1, None, 0, None], k=3)
    0.6666666666666666
    """
    top = grades[:k]
    return sum(1 for g in top if g is not None) / len(top) if top else 0.0




register(Measure(
    "recall", lambda q, k: recall(q.binary, q.num_relevant, k), tie_average=tied.expected_recall,
    aliases=("r",), undefined=no_relevant, label="Recall", default=True,
    trec_eval=trec_names("recall_{k}", "set_recall"),
    description="relevant documents in the top k over all relevant documents",
    names={"ir_measures": "R", "ranx": "recall"}))
register(Measure(
    "precision", lambda q, k: precision(q.binary, k), cutoff="required", tie_average=tied.expected_precision,
    aliases=("p",), label="Precision", default=True, trec_eval=trec_names("P_{k}"),
    description="relevant documents in the top k over k, even when fewer came back (trec_eval P_k)",
    names={"ir_measures": "P", "ranx": "precision"}))
register(Measure(
    "rr", lambda q, k: reciprocal_rank(q.binary, k), cut_name="mrr", tie_average=tied.expected_rr,
    aliases=("reciprocal_rank",), uncut_aliases=("recip_rank",), label="RR", cut_label="MRR",
    default=True, groups=("cutoff", "whole"), trec_eval=trec_names(whole="recip_rank"),
    description="1 / rank of the first relevant document (0 when none is retrieved); MRR is its mean",
    names={"ir_measures": "RR", "ranx": "mrr"}))
register(Measure(
    "ndcg", lambda q, k: ndcg(q.grades, q.judged.values(), k, q.gain, q.ideal), tie_average=tied.expected_ndcg,
    undefined=no_gain, binary=False, cut_aliases=("ndcg_cut",), label="nDCG", default=True,
    groups=("cutoff", "trec"), whole_name="ndcg_whole",
    trec_eval=trec_names("ndcg_cut_{k}", "ndcg"),
    citation="Jarvelin and Kekalainen, TOIS 2002",
    description="DCG over the ideal DCG of every judged document, gain = grade (every positive "
                "grade, whatever the relevance threshold, as trec_eval's ndcg_cut)",
    names={"ir_measures": "nDCG", "ranx": "ndcg"}))
register(Measure(
    "hit_rate", lambda q, k: hit_rate(q.binary, k), tie_average=tied.expected_hit_rate,
    aliases=("hitrate", "hit", "hits"), cut_aliases=("success",), label="Hit rate",
    trec_eval=trec_names("success_{k}"),
    description="1 if a relevant document is in the top k, else 0 (trec_eval success_k)",
    names={"ir_measures": "Success", "ranx": "hit_rate"}))
register(Measure(
    "map", lambda q, k: average_precision(q.binary, q.num_relevant, k), cut_name="ap", tie_average=tied.expected_ap,
    aliases=("average_precision",), cut_aliases=("map_cut",), undefined=no_relevant,
    label="MAP", cut_label="AP", groups=("cutoff", "whole"), trec_eval=trec_names("map_cut_{k}", "map"),
    description="average precision: the mean of the precision at each relevant document's rank, "
                "over all relevant documents (trec_eval map; with a cutoff, map_cut_k)",
    names={"ir_measures": "AP", "ranx": "map"}))
register(Measure(
    "rprec", lambda q, k: r_precision(q.binary, q.num_relevant), cutoff="none", tie_average=tied.expected_rprec,
    aliases=("r_precision", "r-precision", "r-prec"), undefined=no_relevant, whole_ranking=True,
    label="R-prec", groups=("whole",), trec_eval=trec_names(whole="Rprec"),
    description="precision at rank R, R the number of relevant documents (trec_eval Rprec)",
    names={"ir_measures": "Rprec", "ranx": "r-precision"}))
register(Measure(
    "judged", lambda q, k: judged_share(q.grades, k), cutoff="required", binary=False, tie_average=tied.expected_judged,
    label="Judged",
    description="share of the top k that has a judgement; low values make every other number "
                "an underestimate",
    names={"ir_measures": "Judged"}))
