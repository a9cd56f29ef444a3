"""Compatibility (Clarke, Vtyurina and Smucker, TOIS 2021): how close a ranking is to an ideal
ranking of the judged relevant documents, by rank-biased overlap (Webber, Moffat and Zobel,
TOIS 2010), with its registry entry.

The ideal ranking holds every document with a positive grade, higher grades first; among
equal grades the documents the run retrieved come first, in the run's order (the ideal most
compatible with the run, as the paper asks), then the others in the judgements' order. As
ir_measures' Compat computes it: RBO to depth max(|ranking|, |ideal|), each depth d weighing
p^(d-1) times the overlap of the two prefixes over d, the sum divided by the sum of the
weights; normalised (the default) by the same for the ideal against itself, so that the ideal
ranking scores 1.
"""

from __future__ import annotations

from .grades import no_gain
from .registry import About, Measure, Names, Param, register

COMPAT_P = 0.95


def rbo(ranking, ideal, p: float, depth: int) -> float:
    """Rank-biased overlap of two rankings to ``depth``: the sum over depths d of p^(d-1)
    |prefix overlap| / d, over the sum of p^(d-1).

    Overlaps 0 then 2 at depths 1, 2: (0 + 0.5 * 2 / 2) / 1.5:

    >>> rbo(["a", "b"], ["b", "a"], p=0.5, depth=2)
    0.3333333333333333
    """
    seen_ranking, seen_ideal = set(), set()
    overlap = 0
    score = normalizer = 0.0
    weight = 1.0
    for i in range(depth):
        if i < len(ranking):
            doc = ranking[i]
            seen_ranking.add(doc)
            overlap += doc in seen_ideal
        if i < len(ideal):
            doc = ideal[i]
            seen_ideal.add(doc)
            overlap += doc in seen_ranking
        score += weight * overlap / (i + 1)
        normalizer += weight
        weight *= p
    return score / normalizer


def ideal_order(ranked, judged: dict) -> list:
    """The ideal ranking: positive grades, higher first; ties in the run's order, then the
    unretrieved documents in the judgements' order.

    >>> ideal_order(["x", "c", "b"], {"a": 1, "b": 1, "c": 2, "d": 0})
    ['c', 'b', 'a']
    """
    rank = {doc: i for i, doc in enumerate(ranked)}
    end = len(rank)
    relevant = [(doc, g) for doc, g in judged.items() if g > 0]
    order = sorted(range(len(relevant)),
                   key=lambda i: (-relevant[i][1], rank.get(relevant[i][0], end), i))
    return [relevant[i][0] for i in order]


def compatibility(ranked, judged: dict, p: float = COMPAT_P, normalize: bool = True) -> float:
    """Compatibility of a ranking with the ideal ranking of the judgements.

    The ideal order scores 1; the two relevant documents swapped, with p = 0.5: RBO 1/3 (see
    ``rbo``) over the ideal's (1 * 1 / 1 + 0.5 * 2 / 2) / 1.5 = 1, so 1/3; and a relevant
    document at rank 2 behind an unjudged one: (0 + 0.5 * 1 / 2) / 1.5 over (1 + 0.5 * 1 /
    2) / 1.5, 1/5:

    >>> compatibility(["a", "b"], {"a": 2, "b": 1}), compatibility(["b", "a"], {"a": 2, "b": 1}, p=0.5)
    (1.0, 0.3333333333333333)
    >>> round(compatibility(["x", "a"], {"a": 1}, p=0.5), 12)
    0.2
    """
    return compatibility_with(ranked, ideal_order(ranked, judged), p, normalize)


def compatibility_with(ranked, ideal, p: float, normalize: bool = True) -> float:
    """RBO of ``ranked`` with ``ideal`` to depth max(|ranked|, |ideal|), over the ideal's with
    itself (``normalize``): compatibility once an ideal ranking is chosen (ir_measures'
    compat provider chooses its own, ``compat.ir_measures.compatibility``)."""
    depth = max(len(ranked), len(ideal))
    score = rbo(ranked, ideal, p, depth)
    if normalize:
        best = rbo(ideal, ideal, p, depth)
        if best > 0.0:
            score = score / best
    return score


register(Measure(
    "compat",
    lambda q, k, p=COMPAT_P, normalize=1: compatibility(q.ranked[:k] if k else q.ranked,
                                                        q.judged, p, bool(normalize)),
    cutoff="none",
    params={"p": Param(COMPAT_P, bounds="(0, 1)", description="the overlap's persistence"),
            "normalize": Param(1, bounds="[0, 1]",
                               description="1: over the ideal ranking's own overlap; 0: not")},
    undefined=no_gain, binary=False, whole_ranking=True,
    names=Names(label="Compat", peers={"ir_measures": "Compat"}),
    about=About(groups=("whole",), citation="Clarke, Vtyurina and Smucker, TOIS 2021",
                description="compatibility: rank-biased overlap (persistence p) between the ranking and an "
                            "ideal ranking of the relevant documents (higher grades first), over that of "
                            "the ideal itself (normalize=0: not normalised), as ir_measures' Compat",
                order=200)))
