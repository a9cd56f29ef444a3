"""nDCG@k over the judged documents only (ir_measures' ``nDCG(judged_only=True)@k``, trec_eval
``-J``), with its registry entry and ir_measures' spelling.
"""

from __future__ import annotations

import re
from typing import Iterable

from ..errors import OptionError
from .grades import Grades, dcg, gain_function, ideal_gains, no_gain
from .registry import Measure, MetricSpec, register, register_spelling


def ndcg_judged_only(grades: Grades, judged_grades: Iterable[int], k: int,
                     gain: str = "linear") -> float:
    """nDCG@k over the judged documents only (ir_measures' nDCG(judged_only=True)@k, trec_eval
    -J): the documents the judgements do not mention (or grade below 0) are taken out of the
    ranking before cutting at k; the ideal is that of every judged document, as in ndcg@k.

    The unjudged rank 1 goes, so grade 1 rises to rank 1 of the judged list; ideal 1 too:

    >>> ndcg_judged_only([None, 1, 0], [1, 0], k=1)
    1.0
    """
    judged_list = [g for g in grades if g is not None and g >= 0]
    ideal = ideal_gains(list(judged_grades), gain)
    best = dcg(ideal, k)
    if not best:
        return 0.0
    to_gain = gain_function(gain)
    return dcg([to_gain(g) if g > 0 else 0 for g in judged_list[:k]], k) / best



register(Measure("ndcg_judged", lambda q, k: ndcg_judged_only(q.grades, q.judged.values(), k,
                                                                q.gain),
                 cutoff="required", undefined=no_gain, whole_ranking=True, binary=False,
                 aliases=("ndcg_judged_only",), label="nDCG (judged)",
                 description="nDCG@k of the ranking without its unjudged documents",
                 names={"ir_measures": "nDCG(judged_only=True)"}))

_JUDGED_ONLY = re.compile(r"\s*ndcg\s*\(\s*judged_only\s*=\s*(?:true|1)\s*\)\s*[@_]\s*(\d+)\s*",
                          re.IGNORECASE)


@register_spelling
def _judged_only_spelling(name: str):
    """ir_measures' ``nDCG(judged_only=True)@10``; None for any other name.

    >>> _judged_only_spelling("nDCG(judged_only=True)@10").key
    'ndcg_judged@10'
    """
    match = _JUDGED_ONLY.fullmatch(name)
    if not match:
        return None
    k = int(match.group(1))
    if k < 1:
        raise OptionError("metrics", f"{name!r}: the cutoff must be at least 1")
    return MetricSpec("ndcg_judged", k)
