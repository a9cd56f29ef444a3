"""ranx 0.3's fusion methods that learn from judgements, standard library only: each ``*_train``
learns from judgements and runs what ranx's learns (the same numbers, in ranx's order of
operations), and each method fuses with it as ranx does.

- ``probfuse`` (Lillis et al., SIGIR 2006): the share of relevant documents in each of
  ``n_segments`` segments of the rankings, a document scored by its segment's share over the
  segment's number;
- ``segfuse`` (Shokouhi, ECIR 2007): segments of growing size (5, 15, 35, ...), a document
  scored by its segment's share times (its normalised score + 1);
- ``slidefuse`` (Lillis et al., ECIR 2008): the share of relevant documents at each rank,
  averaged over a window of ``w`` ranks each side;
- ``posfuse`` (Lillis et al., 2008): the share at each rank;
- ``mapfuse`` (Lillis et al., 2010): each run's MAP over the rank;
- ``bayesfuse`` (Aslam and Montague, SIGIR 2001): the log odds of relevance at ranks 1-5,
  6-10, ..., summed, a run without the document counting log(0.001 / 0.999).

A document is relevant with a grade of 1 or more; ranks are each run's order (ranx's sort).
What ranx returns as numpy arrays comes back as ``Learned`` lists (``tolist()`` as numpy's).

>>> from retrieval_metrics.compat.ranx import Qrels, Run
>>> qrels = Qrels({"q1": {"d1": 1}})
>>> runs = [Run({"q1": {"d1": 2.0, "d2": 1.0}}), Run({"q1": {"d2": 2.0, "d1": 1.0}})]
>>> posfuse_train(qrels, runs)
[[1.0, 0.0], [0.0, 1.0]]
"""

from __future__ import annotations

import math

from .api import Qrels, Run, evaluate
from .fusion import by_place, comb_sum, combined
from .normalization import total, with_data

__all__ = ["Learned", "bayesfuse", "bayesfuse_train", "estimate_log_odds", "estimate_probs",
           "hit_lists", "mapfuse", "mapfuse_train", "posfuse",
           "posfuse_train", "probfuse", "probfuse_train", "segfuse", "segfuse_train",
           "slidefuse", "slidefuse_train"]

#: segfuse's segment bounds: 0, then 10 * 2^(k-1) - 5 for k = 1..10 (5, 15, 35, ..., 5115)
SEGMENTS = [0] + [(10 * 2 ** (k - 1)) - 5 for k in range(1, 11)]
#: bayesfuse's rank bands
BANDS = [0, 5, 10, 15, 20, 30, 100, 200, 500, 1000]
MIN_ODDS = math.log(0.001 / 0.999)


class Learned(list):
    """A list of numbers where ranx returns a numpy array: ``tolist()`` gives the list."""

    def tolist(self) -> list:
        return list(self)


def hit_lists(qrels: Qrels, run: Run) -> list[list[float]]:
    """ranx's ``get_hit_lists``: for each query (by id), 1.0 where the run's document at that
    rank is graded 1 or more, else 0.0."""
    grades = qrels.in_order()
    ranked = run.ranked()
    return [[1.0 if grades[q].get(doc, 0) >= 1 else 0.0 for doc in ranked.get(q, [])]
            for q in grades]


def estimate_probs(qrels: Qrels, run: Run) -> Learned:
    """The share of relevant documents at each rank, over the queries ranked that deep."""
    lists = hit_lists(qrels, run)
    depth = max((len(h) for h in lists), default=0)
    seen, hits = [0.0] * depth, [0.0] * depth
    for hit_list in lists:
        for i, hit in enumerate(hit_list):
            seen[i] += 1
            hits[i] += hit
    return Learned(h / s for h, s in zip(hits, seen))


def probfuse_train(qrels: Qrels, runs: list[Run], n_segments: int) -> list[Learned]:
    """Each run's share of relevant documents in each of ``n_segments`` segments, averaged over
    the queries (each query's ranking cut in segments of ceil(length / n_segments))."""
    out = []
    for run in runs:
        lists = hit_lists(qrels, run)
        shares = [0.0] * n_segments
        for hit_list in lists:
            size = math.ceil(len(hit_list) / n_segments)
            for k in range(n_segments):
                segment = hit_list[k * size:(k + 1) * size]
                if segment:
                    shares[k] += total(segment) / len(segment)
        out.append(Learned(share / len(lists) for share in shares))
    return out


def probfuse(runs: list[Run], probs, name: str = "probfuse") -> Run:
    """The sum over the runs of the document's segment's share over the segment's number
    (segment k of ceil(length / n) ranks, counted from 1)."""
    def scored(run, shares):
        n = len(shares)
        out = {}
        for q, docs in run.as_kept().items():
            size = math.ceil(len(docs) / n)
            out[q] = {doc: shares[i // size] / (i // size + 1) for i, doc in enumerate(docs)}
        return with_data(out, run.name)
    return comb_sum([scored(run, p) for run, p in zip(runs, probs)], name)


def segfuse_train(qrels: Qrels, runs: list[Run]) -> list[Learned]:
    """Each run's share of relevant documents in each of segfuse's segments, averaged over
    the queries (a segment counted at its full size, however many documents it holds)."""
    out = []
    for run in runs:
        lists = hit_lists(qrels, run)
        shares = [0.0] * (len(SEGMENTS) - 1)
        for hit_list in lists:
            for k in range(len(SEGMENTS) - 1):
                start, end = SEGMENTS[k], SEGMENTS[k + 1]
                shares[k] += total(hit_list[start:end]) / (end - start)
        out.append(Learned(share / len(lists) for share in shares))
    return out


def segfuse(runs: list[Run], probs, name: str = "segfuse") -> Run:
    """The sum over the runs of the document's segment's share times (its score + 1)."""
    def segment_of(i):
        return next((k for k in range(len(SEGMENTS) - 1) if SEGMENTS[k] <= i < SEGMENTS[k + 1]),
                    None)
    return comb_sum([by_place(run, lambda i, value, p=p: (p[segment_of(i)] if segment_of(i)
                                                          is not None else 0.0) * (value + 1))
                     for run, p in zip(runs, probs)], name)


def slidefuse_train(qrels: Qrels, runs: list[Run]) -> list[Learned]:
    """Each run's share of relevant documents at each rank (``estimate_probs``)."""
    return [estimate_probs(qrels, run) for run in runs]


def slidefuse(runs: list[Run], probs, w: int, name: str = "slidefuse") -> Run:
    """The sum over the runs of the mean share over ranks p - w .. p + w (within the run)."""
    def scored(run, shares):
        out = {}
        for q, docs in run.as_kept().items():
            n = len(docs)
            out[q] = {}
            for p, doc in enumerate(docs):
                a, b = max(p - w, 0), min(p + w, n - 1)
                out[q][doc] = total(shares[a:b + 1]) / (b - a + 1)
        return with_data(out, run.name)
    return comb_sum([scored(run, p) for run, p in zip(runs, probs)], name)


def posfuse_train(qrels: Qrels, runs: list[Run]) -> list[Learned]:
    """Each run's share of relevant documents at each rank (``estimate_probs``)."""
    return [estimate_probs(qrels, run) for run in runs]


def posfuse(runs: list[Run], probs, name: str = "posfuse") -> Run:
    """The sum over the runs of the share at the document's rank (0 past the learned ranks)."""
    return comb_sum([by_place(run, lambda i, _v, p=p: p[i] if i < len(p) else 0.0)
                     for run, p in zip(runs, probs)], name)


def mapfuse_train(qrels: Qrels, runs: list[Run]) -> list[float]:
    """Each run's MAP (ranx's ``map``)."""
    return [evaluate(qrels, run, "map") for run in runs]


def mapfuse(runs: list[Run], map_scores, name: str = "mapfuse") -> Run:
    """The sum over the runs of the run's MAP over the document's rank."""
    return comb_sum([by_place(run, lambda i, _v, m=m: m / (i + 1))
                     for run, m in zip(runs, map_scores)], name)


def estimate_log_odds(lists: list[list[float]], bands=BANDS) -> Learned:
    """The log odds of relevance in each rank band of ``bands`` over the hit lists (ranx's
    ``_estimate_log_odds``): the mean precision in the band (0.001 for none, 0.999 for all),
    as log(p / (1 - p)), for every rank of the band."""
    bands = list(bands)
    odds = [0.0] * max(bands)
    for i in range(len(bands) - 1):
        start, end = bands[i], bands[i + 1]
        precision = 0.0
        for hit_list in lists:
            precision += (total(hit_list[start:end]) / (end - start)) / len(lists)
        if precision == 0:
            precision += 0.001
        against = 1 - precision
        if against == 0:
            against += 0.001
        odds[start:end] = [math.log(precision / against)] * (end - start)
    return Learned(odds)


def bayesfuse_train(qrels: Qrels, runs: list[Run]) -> list[Learned]:
    """Each run's log odds of relevance in each rank band (1-5, 6-10, ..., 501-1000)."""
    return [estimate_log_odds(hit_lists(qrels, run)) for run in runs]


def bayesfuse(runs: list[Run], log_odds, name: str = "bayesfuse") -> Run:
    """The sum over the runs of the log odds at the document's rank (a run without the
    document counting log(0.001 / 0.999))."""
    ranked = [by_place(run, lambda i, _v, o=o: o[i]) for run, o in zip(runs, log_odds)]
    fused = combined(ranked, lambda _present, values: total(MIN_ODDS if v is None else v
                                                             for v in values))
    return with_data(fused, name, sort=True)
