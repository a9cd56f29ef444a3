"""Novelty and diversity measures over subtopic (intent) judgements, as ndeval computes them
(the TREC Web track's program, version 4.5, which pyndeval wraps and ir_measures runs):
alpha-nDCG@k, ERR-IA@k, nERR-IA@k, NRBP, P-IA@k, subtopic recall@k and AP-IA, with their
registry entries.

The judgements are TREC diversity qrels, ``query subtopic doc grade``: a document is relevant
to a subtopic when its grade for that subtopic is at least the relevance threshold (ndeval
reads every grade above 0 as 1: binary judgements only). Only the subtopics with at least one
relevant document count (ndeval's "actual subtopics", m below). Qrels whose second column is
always the same read as one subtopic per query.

Each function takes, for each ranked document, the subtopics it is relevant to (``()`` for a
document with none, or not judged) and what it needs of the judgements. The arithmetic
follows ndeval.c step by step, in its order of operations, so the values agree to the last
digit: a document's gain is the sum over its relevant subtopics s of (1 - alpha)^(documents
above it relevant to s); ndeval divides the cumulated gains at each rank i >= 2 by those of an
"ideal ideal" list (m subtopics at rank 1, then decaying by 1 - alpha), though not at rank 1
(so ERR-IA@1 and alpha-DCG@1 are the raw sums), and normalises alpha-nDCG and nERR-IA by the
same numbers for a greedy ideal ranking of the judged documents (ties broken by the larger
document id, as ndeval breaks them).
"""

from __future__ import annotations

import math

from .registry import About, Measure, Names, Param, register

#: ndeval's defaults (ndeval.c's ALPHA and BETA)
ALPHA = 0.5
BETA = 0.5
Relevant = "tuple[object, ...]"


def _discounted(value: float, i: int) -> float:
    """ndeval's DCG term at 0-based rank i: value * (log(2) / log(i + 2))."""
    return value * (math.log(2.0) / math.log(i + 2.0))


def _reciprocal(value: float, i: int) -> float:
    """ndeval's ERR term at 0-based rank i: value / (i + 1)."""
    return value / (i + 1.0)


def subtopic_gains(relevant, alpha: float = ALPHA, depth: int | None = None) -> list[float]:
    """Each ranked document's novelty gain: the sum, over the subtopics it is relevant to, of
    (1 - alpha)^(documents above it relevant to that subtopic).

    >>> subtopic_gains([("a",), ("a", "b"), (), ("a",)])
    [1.0, 1.5, 0.0, 0.25]
    """
    seen: dict = {}
    out = []
    for subtopics in relevant[:depth] if depth is not None else relevant:
        score = 0.0
        for s in subtopics:
            gain = seen.get(s, 1.0)
            score += gain
            seen[s] = gain * (1.0 - alpha)
        out.append(score)
    return out


def _cumulated(gains: list[float], m: int, alpha: float, k: int, term) -> float:
    """ndeval's cumulated, "ideal ideal" normalised value at rank k: the sum of term(gain_i,
    i) over i < k, over the same sum for m subtopics decaying by (1 - alpha) per rank, except
    at k = 1 (ndeval leaves rank 1 as it is)."""
    total = ideal = 0.0
    ideal_gain = float(m)
    for i in range(k):
        total += term(gains[i] if i < len(gains) else 0.0, i)
        ideal += term(ideal_gain, i)
        ideal_gain *= 1.0 - alpha
    return total / ideal if k > 1 else total


def alpha_dcg(relevant, m: int, k: int, alpha: float = ALPHA) -> float:
    """ndeval's alpha-DCG@k (Clarke et al., SIGIR 2008), with its "ideal ideal" normalisation.

    Two subtopics; rank 1 covers both, rank 2 one again: (2 + 0.5 / log2(3)) / (2 + 1 /
    log2(3)):

    >>> round(alpha_dcg([("a", "b"), ("a",)], m=2, k=2), 6)
    0.880094
    """
    return _cumulated(subtopic_gains(relevant, alpha, k), m, alpha, k, _discounted)


def ideal_ranking(subtopics: dict, threshold: int = 1, alpha: float = ALPHA,
                  depth: int = 20) -> list:
    """ndeval's greedy ideal ranking (idealResult): at each rank the judged document of the
    highest novelty gain, ties going to the larger document id, for ``depth`` ranks (those
    after the last positive gain add nothing and are left out). ``subtopics`` is ``{doc:
    ((subtopic, grade), ...)}``. d2 covers both subtopics; then d1 and d3 tie at 0.5 and the
    larger id, d3, goes first:

    >>> ideal_ranking({b"d1": (("a", 1),), b"d2": (("a", 1), ("b", 1)), b"d3": (("b", 1),)})
    [('a', 'b'), ('b',), ('a',)]
    """
    left = {doc: tuple(_ordered(s for s, g in per if g >= threshold))
            for doc, per in subtopics.items()}
    left = {doc: subs for doc, subs in left.items() if subs}
    gain: dict = {}
    out = []
    while left and len(out) < depth:
        best_doc, best = None, -1.0
        for doc, subs in left.items():
            score = 0.0
            for s in subs:
                score += gain.get(s, 1.0)
            if score > best or (score == best and doc > best_doc):
                best_doc, best = doc, score
        if best <= 0.0:
            break
        subs = left.pop(best_doc)
        for s in subs:
            gain[s] = gain.get(s, 1.0) * (1.0 - alpha)
        out.append(subs)
    return out


def alpha_ndcg(relevant, ideal, m: int, k: int, alpha: float = ALPHA) -> float:
    """alpha-nDCG@k: the run's alpha-DCG@k over the ideal ranking's (0 when the run's is 0).

    >>> alpha_ndcg([("a",), ("a", "b")], [("a", "b"), ("a",)], m=2, k=2) < 1.0
    True
    """
    value = alpha_dcg(relevant, m, k, alpha)
    return value / alpha_dcg(ideal, m, k, alpha) if value else 0.0


def err_ia(relevant, m: int, k: int) -> float:
    """ndeval's ERR-IA@k (Chapelle et al., CIKM 2009, intent-aware with binary grades, so a
    reader stops with probability 1/2 at a relevant document): the sum of gain_i / i, gains
    decaying by 1/2 per relevant document above, over the same sum for m subtopics decaying
    by 1/2 per rank ("collection-independent normalisation"; raw at k = 1).

    Two subtopics, rank 2 covers both: (2 / 2) / (2 + 1 / 2):

    >>> err_ia([(), ("a", "b")], m=2, k=2)
    0.4
    """
    return _cumulated(subtopic_gains(relevant, ALPHA, k), m, ALPHA, k, _reciprocal)


def nerr_ia(relevant, ideal, m: int, k: int) -> float:
    """nERR-IA@k: ERR-IA@k over that of the ideal ranking (0 when the run's is 0).

    >>> nerr_ia([(), ("a", "b")], [("a", "b")], m=2, k=2)
    0.5
    """
    value = err_ia(relevant, m, k)
    return value / err_ia(ideal, m, k) if value else 0.0


def nrbp(relevant, m: int, alpha: float = ALPHA, beta: float = BETA) -> float:
    """Novelty- and rank-biased precision (Clarke, Kolla and Vechtomova, ICTIR 2009) over the
    whole ranking: (1 - (1 - alpha) beta) / m times the sum of gain_i beta^(i-1).

    One subtopic at ranks 1 and 2: (1 + 0.5 * 0.5) * 0.75:

    >>> nrbp([("a",), ("a",)], m=1)
    0.9375
    """
    total = 0.0
    decay = 1.0
    for score in subtopic_gains(relevant, alpha):
        total += score * decay
        decay *= beta
    return total * ((1 - (1 - alpha) * beta) / m)


def precision_ia(relevant, m: int, k: int) -> float:
    """Intent-aware precision@k (Agrawal et al., WSDM 2009): relevant (document, subtopic)
    pairs in the top k over k * m, k even when fewer came back.

    >>> precision_ia([("a", "b"), ()], m=2, k=2)
    0.5
    """
    return sum(map(len, relevant[:k])) / (k * m)


def subtopic_recall(relevant, m: int, k: int) -> float:
    """Subtopic recall@k (Zhai, Cohen and Lafferty, SIGIR 2003): the share of the m
    subtopics that the top k cover.

    >>> subtopic_recall([("a",), ("a",), ("b",)], m=3, k=2)
    0.3333333333333333
    """
    return len({s for subs in relevant[:k] for s in subs}) / m


def ap_ia(relevant, relevant_per_subtopic: dict, m: int) -> float:
    """ndeval's MAP-IA: average precision for each subtopic (over its relevant documents),
    averaged over the m subtopics, over the whole ranking.

    Subtopic a (2 relevant) at rank 2, b (1 relevant) at rank 1: (0.5 / 2 + 1 / 1) / 2:

    >>> ap_ia([("b",), ("a",)], {"a": 2, "b": 1}, m=2)
    0.625
    """
    found: dict = {}
    total: dict = {}
    for i, subs in enumerate(relevant):
        for s in subs:
            found[s] = found.get(s, 0) + 1
            total[s] = total.get(s, 0.0) + found[s] / (i + 1.0)
    value = 0.0
    for s in _ordered(relevant_per_subtopic):
        if relevant_per_subtopic[s]:
            value += total.get(s, 0.0) / relevant_per_subtopic[s]
    return value / m


def _ordered(subtopics):
    """Subtopics in ndeval's order (it numbers them): numbers by value, then other ids."""
    return sorted(subtopics, key=lambda s: (0, int(s), "") if str(s).isdigit() else (1, 0, str(s)))


def nnrbp(relevant, ideal, m: int, alpha: float = ALPHA, beta: float = BETA) -> float:
    """NRBP over the NRBP of ndeval's greedy ideal ranking of every judged document (ndeval's
    nNRBP; 0 when the run's is 0).

    >>> nnrbp([("a",), ("b",)], [("a",), ("b",)], m=2)
    1.0
    """
    value = nrbp(relevant, m, alpha, beta)
    return value / nrbp(ideal, m, alpha, beta) if value else 0.0


# --- one query's subtopics, read once for all the measures --------------------------------

class _Query:
    """What the diversity measures read of one query: each ranked document's relevant
    subtopics, the subtopics with a relevant document (m of them) and their counts, and the
    ideal rankings (by alpha and depth), computed once per query."""

    __slots__ = ("q", "relevant", "m", "per_subtopic", "ideals")

    def __init__(self, q):
        self.q = q
        subtopics, t = q.subtopics, q.threshold
        per_subtopic: dict = {}
        for per in subtopics.values():
            for s, g in per:
                if g >= t:
                    per_subtopic[s] = per_subtopic.get(s, 0) + 1
        self.per_subtopic = per_subtopic
        self.m = len(per_subtopic)
        empty = ()
        self.relevant = [tuple(_ordered(s for s, g in subtopics.get(doc, empty) if g >= t))
                         for doc in q.ranked]
        self.ideals: dict = {}

    def ideal(self, alpha: float, k: int) -> list:
        key = (alpha, k)
        if key not in self.ideals:
            self.ideals[key] = ideal_ranking(self.q.subtopics, self.q.threshold, alpha, k)
        return self.ideals[key]


_LAST: list = [None]


def _query(q) -> _Query:
    """The last query's subtopics (queries are scored one after another)."""
    if _LAST[0] is None or _LAST[0].q is not q:
        _LAST[0] = _Query(q)
    return _LAST[0]


def no_subtopic(q) -> bool:
    """Undefined when no subtopic has a relevant document (m = 0; ndeval gives 0)."""
    return not _query(q).m


_CITE_ALPHA = "Clarke, Kolla, Cormack, Vechtomova, Ashkan, Buettcher and MacKinnon, SIGIR 2008"
_NDEVAL = "; as ndeval 4.5 (TREC Web track) computes it"
_COMMON = {"undefined": no_subtopic, "binary": False}
_BETA = Param(BETA, bounds="(0, 1)", description="persistence: the chance of reading on to the "
               "next document")
_ALPHA = Param(ALPHA, bounds="[0, 1]", description="the chance that a judged subtopic is wrong: "
               "how much a subtopic already covered is worth less")

register(Measure(
    "alpha_ndcg",
    lambda q, k, alpha=ALPHA: alpha_ndcg(
    _query(q).relevant, _query(q).ideal(alpha, k), _query(q).m, k, alpha), cutoff="required",
    params={"alpha": _ALPHA}, **_COMMON,
    names=Names(aliases=("alpha-ndcg",), label="alpha-nDCG",
                peers={"ir_measures": "alpha_nDCG", "ndeval": "alpha-nDCG"}),
    about=About(citation=_CITE_ALPHA + _NDEVAL,
                description="novelty-aware nDCG over subtopic judgements: a document's gain is the sum over "
                            "its relevant subtopics of (1 - alpha)^(relevant documents above it for that "
                            "subtopic), over a greedy ideal ranking's (ndeval's alpha-nDCG)", order=460)))
register(Measure(
    "alpha_dcg", lambda q, k, alpha=ALPHA: alpha_dcg(_query(q).relevant, _query(q).m, k, alpha),
    cutoff="required", params={"alpha": _ALPHA}, **_COMMON,
    names=Names(aliases=("alpha-dcg",), label="alpha-DCG",
                peers={"ir_measures": "alpha_DCG", "ndeval": "alpha-DCG"}),
    about=About(groups=(), citation=_CITE_ALPHA + _NDEVAL,
                description="alpha-DCG with ndeval's \"ideal ideal\" normalisation (m subtopics at rank 1, "
                            "decaying by 1 - alpha per rank)", order=470)))
register(Measure(
    "err_ia", lambda q, k: err_ia(_query(q).relevant, _query(q).m, k), cutoff="required", **_COMMON,
    names=Names(aliases=("err-ia",), label="ERR-IA",
                peers={"ir_measures": "ERR_IA", "ndeval": "ERR-IA"}),
    about=About(citation="Chapelle, Ji, Liao, Velipasaoglu, Lai and Wu, IRJ 2011" + _NDEVAL,
                description="intent-aware expected reciprocal rank with binary subtopic judgements, over "
                            "that of m subtopics all found at rank 1 and every rank after (ndeval's ERR-IA)",
                order=480)))
register(Measure(
    "nerr_ia",
    lambda q, k: nerr_ia(_query(q).relevant, _query(q).ideal(ALPHA, k),
    _query(q).m, k), cutoff="required", **_COMMON,
    names=Names(aliases=("nerr-ia",), label="nERR-IA",
                peers={"ir_measures": "nERR_IA", "ndeval": "nERR-IA"}),
    about=About(groups=(), citation="Chapelle, Ji, Liao, Velipasaoglu, Lai and Wu, IRJ 2011" + _NDEVAL,
                description="ERR-IA over the ERR-IA of ndeval's greedy ideal ranking", order=490)))
register(Measure(
    "nrbp", lambda q, k, alpha=ALPHA, beta=BETA: nrbp(_query(q).relevant, _query(q).m, alpha, beta),
    cutoff="none", params={"alpha": _ALPHA, "beta": _BETA},
    whole_ranking=True, **_COMMON,
    names=Names(label="NRBP", peers={"ir_measures": "NRBP", "ndeval": "NRBP"}),
    about=About(groups=("whole",), citation="Clarke, Kolla and Vechtomova, ICTIR 2009" + _NDEVAL,
                description="novelty- and rank-biased precision: novelty gains (decaying by 1 - alpha) "
                            "discounted by beta^(rank - 1), over the whole ranking, scaled by "
                            "(1 - (1 - alpha) beta) / m", order=500)))
register(Measure(
    "nnrbp",
    lambda q, k, alpha=ALPHA, beta=BETA: nnrbp(
        _query(q).relevant, _query(q).ideal(alpha, len(q.subtopics)), _query(q).m, alpha, beta),
    cutoff="none", params={"alpha": _ALPHA, "beta": _BETA}, whole_ranking=True, **_COMMON,
    names=Names(label="nNRBP", peers={"ir_measures": "nNRBP", "ndeval": "nNRBP"}),
    about=About(groups=(), citation="Clarke, Kolla and Vechtomova, ICTIR 2009" + _NDEVAL,
                description="NRBP over the NRBP of ndeval's greedy ideal ranking of every judged "
                            "document", order=505)))
register(Measure(
    "p_ia", lambda q, k: precision_ia(_query(q).relevant, _query(q).m, k), cutoff="required", **_COMMON,
    names=Names(aliases=("p-ia", "precision_ia"), label="P-IA",
                peers={"ir_measures": "P_IA", "ndeval": "P-IA"}),
    about=About(citation="Agrawal, Gollapudi, Halverson and Ieong, WSDM 2009" + _NDEVAL,
                description="intent-aware precision: relevant (document, subtopic) pairs in the top k over "
                            "k times the number of subtopics", order=510)))
register(Measure(
    "st_recall", lambda q, k: subtopic_recall(_query(q).relevant, _query(q).m, k), cutoff="required",
    **_COMMON,
    names=Names(aliases=("strec", "strecall", "subtopic_recall"), label="S-recall",
                peers={"ir_measures": "StRecall", "ndeval": "strec"}),
    about=About(citation="Zhai, Cohen and Lafferty, SIGIR 2003" + _NDEVAL,
                description="subtopic recall: the share of the query's subtopics that the top k cover",
                order=520)))
register(Measure(
    "ap_ia", lambda q, k: ap_ia(_query(q).relevant, _query(q).per_subtopic, _query(q).m), cutoff="none",
    whole_ranking=True, **_COMMON,
    names=Names(aliases=("map_ia", "map-ia"), label="AP-IA",
                peers={"ir_measures": "AP_IA", "ndeval": "MAP-IA"}),
    about=About(groups=("whole",),
                citation="Agrawal, Gollapudi, Halverson and Ieong, WSDM 2009" + _NDEVAL,
                description="intent-aware average precision: each subtopic's average precision, averaged "
                            "over the subtopics (ndeval's MAP-IA)", order=530)))
