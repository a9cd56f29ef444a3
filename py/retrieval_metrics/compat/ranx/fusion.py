"""ranx 0.3's run fusion (``ranx.fusion``), standard library only: each method gives ranx's fused
run (the same documents, scores to the last bit, and the same order, ties included) on the
runs it is handed, so code written for ranx fuses runs where numba cannot, the page included.

Score-combining methods (Fox and Shaw, TREC 1993; Lee, SIGIR 1997; Montague and Aslam, CIKM
2001 and 2002; Wu, 2012), each document scored over the runs that retrieved it:
``comb_sum``, ``comb_mnz`` (sum times the number of runs), ``comb_anz`` (the mean),
``comb_max``, ``comb_min`` (a run without the document counts -1e9 / 1e9, as ranx),
``comb_med``, ``comb_gmnz`` (sum times n^gamma), ``wsum``, ``wmnz``, ``mixed``.
Rank-based: ``rrf`` (1 / (k + rank), Cormack et al., SIGIR 2009), ``isr`` (1 / rank^2, then
CombMNZ), ``log_isr`` and ``logn_isr`` (Mourão et al., 2014), ``rbc`` ((1 - phi) phi^(rank-1),
Bailey et al., SIGIR 2017), ``bordafuse`` and ``weighted_bordafuse`` (Aslam and Montague,
SIGIR 2001), ``condorcet`` and ``weighted_condorcet`` (Montague and Aslam, CIKM 2002).

Every total is a left-to-right loop in ranx's order (its numba kernels add that way; Python's
``sum`` does not, from 3.12). The fused run is sorted as ranx sorts it (``order``). Borda and
Condorcet order a query's candidates as a Python set of them iterates, as ranx does: within
one process that is ranx's order; from one process to the next it follows the string hashes,
for ranx too. The methods ranx trains on judgements (probfuse, bayesfuse, mapfuse, posfuse,
segfuse, slidefuse) are refused by name.
"""

from __future__ import annotations

import math
from functools import cmp_to_key

from ...errors import OptionError
from ...measures.dialects.ranx_arith import int_power
from .api import Run
from .normalization import candidates, over_candidates, total, with_data

__all__ = ["bordafuse", "comb_anz", "comb_gmnz", "comb_max", "comb_med", "comb_min", "comb_mnz",
           "comb_sum", "condorcet", "get_candidates", "get_results", "isr", "log_isr",
           "logn_isr", "mixed", "rbc", "rrf", "weighted_bordafuse", "weighted_condorcet", "wmnz",
           "wsum"]



def combined(runs: list[Run], score) -> dict:
    """{query: {document: score(present, everything)}} over the first run's queries: each
    query's documents in the order ranx meets them (run by run, each run's order), where
    ``present`` are the values of the runs holding the document, in run order, and
    ``everything`` the value of each run (None where absent)."""
    data = [run.as_kept() for run in runs]
    fused = {}
    for q_id in data[0]:
        per_run = [docs.get(q_id, {}) for docs in data]
        scored = {}
        for docs in per_run:
            for doc in docs:
                if doc not in scored:
                    values = [d.get(doc) for d in per_run]
                    scored[doc] = score([v for v in values if v is not None], values)
        fused[q_id] = scored
    return fused


def _fused(runs, score, name: str) -> Run:
    return with_data(combined(runs, score), name, sort=True)


def comb_sum(runs: list[Run], name: str = "comb_sum") -> Run:
    """The sum of the document's scores (0 where a run lacks it)."""
    return _fused(runs, lambda present, _all: total(present), name)


def comb_mnz(runs: list[Run], name: str = "comb_mnz") -> Run:
    """The sum times the number of runs that retrieved the document."""
    return _fused(runs, lambda present, _all: total(present) * len(present), name)


def comb_anz(runs: list[Run], name: str = "comb_anz") -> Run:
    """The sum over the number of runs that retrieved the document."""
    return _fused(runs, lambda present, _all: total(present) / len(present), name)


def comb_max(runs: list[Run], name: str = "comb_max") -> Run:
    """The largest score (a run without the document counts -1e9, as in ranx)."""
    return _fused(runs, lambda _p, values: max(-1e9 if v is None else v for v in values), name)


def comb_min(runs: list[Run], name: str = "comb_min") -> Run:
    """The smallest score (a run without the document counts 1e9, as in ranx)."""
    return _fused(runs, lambda _p, values: min(1e9 if v is None else v for v in values), name)


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    n = len(ordered)
    middle = n // 2
    return ordered[middle] if n % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def comb_med(runs: list[Run], name: str = "comb_med") -> Run:
    """The median of the document's scores over the runs that retrieved it."""
    return _fused(runs, lambda present, _all: _median(present), name)


def comb_gmnz(runs: list[Run], gamma: float, name: str = "comb_gmnz") -> Run:
    """The sum times (number of runs that retrieved the document) ^ gamma."""
    return _fused(runs, lambda present, _all: total(present) * (len(present) ** gamma), name)


def _weights(weights, runs) -> list[float]:
    weights = list(weights)
    if len(weights) != len(runs):
        raise OptionError("weights", f"give one weight per run: {len(runs)} runs, "
                          f"{len(weights)} weights")
    return weights


def wsum(runs: list[Run], weights, name: str = "weighted_sum") -> Run:
    """The weighted sum of the document's scores (0 where a run lacks it)."""
    w = _weights(weights, runs)
    return _fused(runs, lambda _p, values: total(w[i] * (0.0 if v is None else v)
                                                 for i, v in enumerate(values)), name)


def wmnz(runs: list[Run], weights, name: str = "wmnz") -> Run:
    """The sum of the document's scores times the sum of the weights of the runs holding it."""
    w = _weights(weights, runs)

    def score(_present, values):
        held = [i for i, v in enumerate(values) if v is not None]
        return total(values[i] for i in held) * total(w[i] for i in held)
    return _fused(runs, score, name)


def mixed(runs: list[Run], weights, name: str = "mixed") -> Run:
    """The sum of the weighted scores times the square root of the number of runs holding it."""
    w = _weights(weights, runs)

    def score(_present, values):
        weighted = [v * w[i] for i, v in enumerate(values) if v is not None]
        return total(weighted) * math.sqrt(len(weighted))
    return _fused(runs, score, name)


def by_place(run: Run, score) -> Run:
    """A run whose scores are ``score(i, value)`` for the document at place i (0 first) with
    its value, in the run's order (the rank-based methods here and in ``fusion_trained``)."""
    return with_data({q_id: {doc: score(i, value) for i, (doc, value) in enumerate(docs.items())}
                      for q_id, docs in run.as_kept().items()}, run.name)


def rrf(runs: list[Run], k: int = 60, name: str = "rrf") -> Run:
    """Reciprocal rank fusion: the sum of 1 / (k + rank)."""
    return comb_sum([by_place(run, lambda i, _v: 1 / (k + i + 1)) for run in runs], name)


def isr(runs: list[Run], name: str = "isr") -> Run:
    """Inverse square rank: CombMNZ of 1 / rank^2."""
    return comb_mnz([by_place(run, lambda i, _v: 1 / ((i + 1) ** 2)) for run in runs], name)


def log_isr(runs: list[Run], name: str = "log_isr") -> Run:
    """The sum of 1 / rank^2 times log(number of runs holding the document)."""
    ranked = [by_place(run, lambda i, _v: 1 / ((i + 1) ** 2)) for run in runs]
    return _fused(ranked, lambda present, _all: total(present) * math.log(len(present)), name)


def logn_isr(runs: list[Run], sigma: float = 0.01, name: str = "logn_isr") -> Run:
    """The sum of 1 / rank^2 times log(number of runs holding the document + sigma)."""
    if not 0.0 <= sigma <= 1.0:
        raise OptionError("sigma", f"sigma must be in [0, 1], found {sigma!r}")
    ranked = [by_place(run, lambda i, _v: 1 / ((i + 1) ** 2)) for run in runs]
    return _fused(ranked, lambda present, _all: total(present) * math.log(len(present) + sigma),
                  name)


def rbc(runs: list[Run], phi: float, name: str = "rbc") -> Run:
    """Rank-biased centroid: the sum of (1 - phi) phi^(rank - 1), the power as numba's."""
    return comb_sum([by_place(run, lambda i, _v: (1 - phi) * int_power(phi, i)) for run in runs],
                    name)


def _borda_points(runs: list[Run]) -> list[Run]:
    """Each run's Borda points: n - (rank - 1) for what it retrieved, (n - retrieved + 1) / 2
    for a candidate only other runs retrieved (n: the query's candidates), those after."""
    def points(docs, docs_of_query):
        n = len(docs_of_query)
        unranked = (n - len(docs) + 1) / 2
        out = {doc: float(n - i) for i, doc in enumerate(docs)}
        out.update((doc, unranked) for doc in docs_of_query if doc not in docs)
        return out
    return over_candidates(runs, points)


def bordafuse(runs: list[Run], name: str = "bordafuse") -> Run:
    """The sum of the Borda points."""
    return comb_sum(_borda_points(runs), name)


def weighted_bordafuse(runs: list[Run], weights, name: str = "weighted_bordafuse") -> Run:
    """The weighted sum of the Borda points."""
    fused = wsum(_borda_points(runs), weights)
    fused.name = name
    return fused


def get_candidates(runs) -> list[list[str]]:
    """ranx's ``get_candidates`` over runs' data (``run.run`` each): each query's documents
    over every run, in a Python set's order (see ``normalization.candidates``)."""
    return candidates([with_data(data, None) for data in runs])


def get_results(runs) -> list[list[list[str]]]:
    """ranx's ``get_results`` over runs' data: for each query of the first, each run's
    documents in its order."""
    runs = list(runs)
    return [[list(data.get(q_id, {})) for data in runs] for q_id in runs[0]]


def _condorcet(runs: list[Run], vote, name: str) -> Run:
    """The candidates sorted by pairwise majority (``vote(x, y, places)``: -1 when x goes
    first), scored n, n - 1, ... in that order; Python's sort with that comparison, as ranx's."""
    data = [run.as_kept() for run in runs]
    pool = candidates(runs)
    fused = {}
    for q_id, docs_of_query in zip(data[0], pool):
        places = []
        for docs in data:
            where = {doc: i for i, doc in enumerate(docs.get(q_id, {}))}
            places.append([where.get(doc, 1_000_000) for doc in docs_of_query])
        order = sorted(range(len(docs_of_query)),
                       key=cmp_to_key(lambda x, y, places=places: vote(x, y, places)))
        n = len(order)
        fused[q_id] = {docs_of_query[j]: float(n - i) for i, j in enumerate(order)}
    return with_data(fused, name)


def condorcet(runs: list[Run], name: str = "condorcet") -> Run:
    """Condorcet fusion: x before y when at least as many runs rank x above y as not."""
    def vote(x, y, places):
        for_x = sum(1 for p in places if p[x] < p[y])
        return -1 if for_x >= len(places) - for_x else 1
    return _condorcet(runs, vote, name)


def weighted_condorcet(runs: list[Run], weights, name: str = "weighted_condorcet") -> Run:
    """Condorcet fusion with each run's vote weighted."""
    w = _weights(weights, runs)

    def vote(x, y, places):
        for_x = for_y = 0
        for i, p in enumerate(places):
            if p[x] < p[y]:
                for_x += w[i]
            else:
                for_y += w[i]
        return -1 if for_x >= for_y else 1
    return _condorcet(runs, vote, name)
