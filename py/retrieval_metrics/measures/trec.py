"""trec_eval's other measures, for one query, and their registry entries: the counts,
gm_map, bpref, infAP, the set measures (set_P, set_recall, set_F, utility) and success.

Each function reads the grades of the ranked documents, best first, over the whole ranking
(``None`` for a document the judgements do not mention) and what it needs of the judgements.
Relevance is trec_eval's: a document is relevant when its grade is at least
``relevance_level`` (trec_eval ``-l``, default 1). trec_eval tells three kinds of "not
relevant" apart, and bpref and infAP read the difference:

- a grade from 0 to ``relevance_level - 1``: judged not relevant;
- a negative grade: in the pool but not judged (trec_eval's RELVALUE_UNJUDGED);
- ``None``, a document the judgements do not mention: not in the pool (RELVALUE_NONPOOL).

Every function transcribes the C of trec_eval 10.0 (the m_*.c file named in its docstring),
which is also trec_eval 9.0.8's (pytrec_eval's) arithmetic except where a docstring says
otherwise. trec_eval's ``-m`` groups (official, all_trec, set) are in ``trec_groups``.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from .core import average_precision
from .grades import Grades, dcg, gain_function, ideal_gains, no_relevant
from .registry import Measure, register, trec_names

#: trec_eval's default utility weights
UTILITY_WEIGHTS = (1.0, -1.0, 0.0, 0.0)
#: trec_eval.h's INFAP_EPSILON
INFAP_EPSILON = 0.00001


def _relevant(g, level: int) -> bool:
    return g is not None and g >= level


def num_ret(grades: Grades) -> int:
    """Documents retrieved (m_num_ret.c).

    >>> num_ret([1, None, 0])
    3
    """
    return len(grades)


def num_rel(judged_grades: Iterable[int], relevance_level: int = 1) -> int:
    """Relevant documents in the judgements, retrieved or not (m_num_rel.c).

    >>> num_rel([2, 1, 0, -1]), num_rel([2, 1, 0, -1], relevance_level=2)
    (2, 1)
    """
    return sum(1 for g in judged_grades if g >= relevance_level)


def num_rel_ret(grades: Grades, relevance_level: int = 1) -> int:
    """Relevant documents retrieved (m_num_rel_ret.c).

    >>> num_rel_ret([1, None, 0, 2])
    2
    """
    if relevance_level >= 1:  # at C speed: filter(None) drops None and 0, neither relevant
        return sum(map(relevance_level.__le__, filter(None, grades)))
    return sum(1 for g in grades if _relevant(g, relevance_level))


def bpref(grades: Grades, judged_grades: Iterable[int], relevance_level: int = 1) -> float:
    """Binary preference (m_bpref.c; Buckley and Voorhees, SIGIR 2004): for each retrieved
    relevant document, 1 - (judged non-relevant documents above it, at most R) / min(judged
    non-relevant, R), summed and divided by R. Documents not judged, or graded below 0, are
    skipped.

    Relevant at ranks 1 and 3, a judged non-relevant one at 2 (R = 2, 1 judged non-relevant):
    (1 + (1 - 1/1)) / 2:

    >>> bpref([1, 0, None, 1], [1, 1, 0])
    0.5
    """
    judged_grades = list(judged_grades)
    relevant = sum(1 for g in judged_grades if g >= relevance_level)
    num_nonrel = sum(1 for g in judged_grades if 0 <= g < relevance_level)
    nonrel_so_far = 0
    total = 0.0
    for g in grades:
        if g is None or g < 0:
            continue
        if g < relevance_level:
            nonrel_so_far += 1
        elif nonrel_so_far > 0:
            total += 1.0 - min(nonrel_so_far, relevant) / min(num_nonrel, relevant)
        else:
            total += 1.0
    return total / relevant if relevant else total


def infap(grades: Grades, num_relevant: int, relevance_level: int = 1) -> float:
    """Inferred AP (m_infap.c; Yilmaz and Aslam, CIKM 2006): AP estimated from a judged
    sample of the pool. A negative grade is in the pool but not judged (sampled out); a
    document the judgements do not mention is outside the pool and counts as not relevant.
    With every retrieved document judged it equals AP up to trec_eval's epsilon 0.00001.

    Relevant at ranks 1 and 3, rank 2 never pooled, R = 2: rank 1 adds 1, rank 3 adds
    1/3 + (2/3) * (1/2) * (1 + e) / (1 + 2e) with e = 0.00001; (1 + 0.666663) / 2:

    >>> round(infap([1, None, 1], 2), 6)
    0.833332
    """
    nonrel_so_far = rel_so_far = unjudged_so_far = 0
    total = 0.0
    for j, g in enumerate(grades):
        if g is None:
            continue
        if g < 0:
            unjudged_so_far += 1
            continue
        if g < relevance_level:
            nonrel_so_far += 1
            continue
        rel_so_far += 1
        if j == 0:
            total += 1.0
        else:
            fj = float(j)
            total += 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * (
                (rel_so_far - 1 + nonrel_so_far + unjudged_so_far) / fj) * (
                (rel_so_far - 1 + INFAP_EPSILON)
                / (rel_so_far - 1 + nonrel_so_far + 2 * INFAP_EPSILON))
    return total / num_relevant if num_relevant else total


def ndcg_whole(grades: Grades, judged_grades: Iterable[int], gain: str = "linear") -> float:
    """nDCG over the whole ranking, against the ideal order of every judged document (m_ndcg.c,
    Jarvelin and Kekalainen 2002): the gain is the grade itself (negative grades gain
    nothing), whatever the relevance level; 0 when no document has a positive grade. ``gain``
    ``"exponential"`` uses 2^grade - 1 instead (not trec_eval).

    Relevant grades 2 then 1 at ranks 2 and 3; the ideal puts them at 1 and 2:
    (2/log2(3) + 1/2) / (2 + 1/log2(3)):

    >>> round(ndcg_whole([0, 2, 1], [2, 1, 0]), 6)
    0.669672
    """
    ideal = ideal_gains(list(judged_grades), gain)
    best = dcg(ideal, len(ideal))
    if not best:
        return 0.0
    to_gain = gain_function(gain)
    gains = [to_gain(g) if g is not None and g > 0 else 0 for g in grades]
    return dcg(gains, len(gains)) / best


def set_precision(grades: Grades, relevance_level: int = 1) -> float:
    """Relevant retrieved over retrieved, the whole ranking as a set (m_set_P.c); 0 when
    nothing was retrieved.

    >>> set_precision([1, None, 0, 1])
    0.5
    """
    return num_rel_ret(grades, relevance_level) / len(grades) if grades else 0.0


def set_recall(grades: Grades, num_relevant: int, relevance_level: int = 1) -> float:
    """Relevant retrieved over relevant (m_set_recall.c); 0 when nothing is relevant.

    >>> set_recall([1, None, 0, 1], 4)
    0.5
    """
    return num_rel_ret(grades, relevance_level) / num_relevant if num_relevant else 0.0


def set_f(grades: Grades, num_relevant: int, relevance_level: int = 1, beta: float = 1.0) -> float:
    """trec_eval's set_F: (x + 1) P R / (x P + R) with x = ``beta`` the weight of recall
    against precision (m_set_F.c; van Rijsbergen's E measure). trec_eval's x is the weight
    itself, not its square as in the usual F-beta. 0 when nothing relevant was retrieved.

    P = 1/2, R = 1/3: 2 * (1/6) / (5/6) = 0.4

    >>> set_f([1, 0], 3)
    0.4
    """
    hits = num_rel_ret(grades, relevance_level)
    if not hits:
        return 0.0
    p = hits / len(grades)
    r = hits / num_relevant
    return (beta + 1.0) * p * r / (beta * p + r)


def success(grades: Grades, k: int, relevance_level: int = 1) -> float:
    """1 if a relevant document is in the top k, else 0 (m_success.c; Tomlinson).

    >>> success([0, None, 2], 2), success([0, None, 2], 3), success([0, None, 2], 3, 3)
    (0.0, 1.0, 0.0)
    """
    return 1.0 if any(_relevant(g, relevance_level) for g in grades[:k]) else 0.0


def utility(grades: Grades, num_relevant: int, relevance_level: int = 1,
            weights: Sequence[float] = UTILITY_WEIGHTS, num_docs: int = 0) -> float:
    """Set utility p1 a + p2 b + p3 c + p4 d over the contingency table of the whole ranking
    (m_utility.c): a relevant retrieved, b other retrieved (unjudged included), c relevant
    not retrieved, d the rest of a collection of ``num_docs`` (trec_eval ``-N``, default 0).
    Default weights 1, -1, 0, 0: relevant retrieved minus the others retrieved.

    >>> utility([1, None, 0, 1], 3), utility([1, None, 0, 1], 3, weights=(2, -1, -1, 0))
    (0.0, 1.0)
    """
    p1, p2, p3, p4 = map(float, weights)
    hits = num_rel_ret(grades, relevance_level)
    retrieved = len(grades)
    return (p1 * hits + p2 * (retrieved - hits) + p3 * (num_relevant - hits)
            + p4 * (num_docs + hits - retrieved - num_relevant))



_WHOLE = {"cutoff": "none", "whole_ranking": True, "groups": ("trec",)}


def _own(name: str):
    """trec_eval's name is the measure's own."""
    return trec_names(whole=name)


register(Measure("num_ret", lambda q, k: float(num_ret(q.grades)), binary=False, count=True,
                 trec_eval=_own("num_ret"), **_WHOLE,
                 description="documents retrieved (trec_eval's all line sums them)"))
register(Measure("num_rel", lambda q, k: float(q.num_relevant), binary=False, count=True,
                 trec_eval=_own("num_rel"), **_WHOLE,
                 description="relevant documents in the judgements, retrieved or not"))
register(Measure("num_rel_ret", lambda q, k: float(num_rel_ret(q.grades, q.threshold)),
                 count=True, trec_eval=_own("num_rel_ret"), **_WHOLE,
                 description="relevant documents retrieved"))
register(Measure("gm_map", lambda q, k: average_precision(q.binary, q.num_relevant),
                 undefined=no_relevant, aggregate="geometric", trec_eval=_own("gm_map"), **_WHOLE,
                 description="AP per query; the mean is geometric, each AP floored at 0.00001"))
register(Measure("bpref", lambda q, k: bpref(q.grades, q.judged.values(), q.threshold),
                 undefined=no_relevant, trec_eval=_own("bpref"), **_WHOLE,
                 citation="Buckley and Voorhees, SIGIR 2004",
                 description="binary preference: judged non-relevant documents ranked above "
                             "each relevant one"))
register(Measure("infAP", lambda q, k: infap(q.grades, q.num_relevant, q.threshold),
                 undefined=no_relevant, trec_eval=_own("infAP"), **_WHOLE,
                 citation="Yilmaz and Aslam, CIKM 2006",
                 description="inferred AP: negative grades are pooled but unjudged"))
register(Measure("set_P", lambda q, k: set_precision(q.grades, q.threshold),
                 trec_eval=_own("set_P"), **_WHOLE,
                 description="relevant retrieved over retrieved"))
register(Measure("set_recall", lambda q, k: set_recall(q.grades, q.num_relevant, q.threshold),
                 undefined=no_relevant, trec_eval=_own("set_recall"), **_WHOLE,
                 description="relevant retrieved over relevant"))
register(Measure("set_F", lambda q, k, beta=1.0: set_f(q.grades, q.num_relevant, q.threshold, beta),
                 params={"beta": 1.0}, undefined=no_relevant, trec_eval=_own("set_F"), **_WHOLE,
                 description="(beta + 1) P R / (beta P + R) of the whole ranking as a set"))
register(Measure("utility", lambda q, k, a=1.0, b=-1.0, c=0.0, d=0.0, n=0: utility(
                     q.grades, q.num_relevant, q.threshold, (a, b, c, d), n),
                 params={"a": 1.0, "b": -1.0, "c": 0.0, "d": 0.0, "n": 0},
                 trec_eval=_own("utility"), **_WHOLE,
                 description="a * relevant retrieved + b * other retrieved + c * relevant "
                             "missed + d * the rest of n documents"))
