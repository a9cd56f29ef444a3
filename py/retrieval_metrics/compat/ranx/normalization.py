"""ranx 0.3's score normalisations (``ranx.normalization``), standard library only, each giving
ranx's numbers to the last bit: its numba kernels add up scores one after another (not
numpy's pairwise sums, not Python 3.12's compensated ``sum``), so every total here is a plain
left-to-right loop in the same order.

- ``min_max_norm`` (``min-max``, and ``min-max-inverted``), ``max_norm``, ``sum_norm``,
  ``zmuv_norm`` (zero mean, unit variance), ``rank_norm`` (1 - rank / n): one query at a time;
- ``borda_norm``: every run against the candidates all the runs retrieved for the query.

A normalised run keeps its documents in the order they came (ranx sorts only the inverted
min-max one), since fusion by rank reads that order.

>>> from retrieval_metrics.compat.ranx import Run
>>> min_max_norm(Run({"q1": {"a": 3.0, "b": 1.0, "c": 2.0}})).to_dict()
{'q1': {'a': 1.0, 'c': 0.5, 'b': 0.0}}
"""

from __future__ import annotations

import math

from .api import Run

__all__ = ["borda_norm", "max_norm", "min_max_norm", "norm_switch", "rank_norm", "sum_norm",
           "zmuv_norm"]

TINY = 1e-9  # ranx's floor under every denominator


def total(values) -> float:
    """A left-to-right sum, as numba's loops add (0 for none)."""
    out = 0.0
    for value in values:
        out += value
    return out


def with_data(data: dict, name: str | None, sort: bool = False) -> Run:
    """A Run holding ``data`` in the order given (sorted only when ``sort``), as ranx builds
    its results: ``Run()`` with ``.run`` set, then ``.sort()`` where ranx calls it."""
    run = Run(name=name)
    run.run = data
    if sort:
        run.sort()
    return run


def _per_query(run: Run, normalise) -> dict:
    return {q_id: normalise(docs) for q_id, docs in run.as_kept().items()}


def _min_max(docs: dict, invert: bool) -> dict:
    scores = list(docs.values())
    low = min(scores) if scores else 0
    high = max(scores) if scores else 0
    denominator = max(high - low, TINY)
    if invert:
        return {doc: (high - s) / denominator for doc, s in docs.items()}
    return {doc: (s - low) / denominator for doc, s in docs.items()}


def min_max_norm(run: Run, invert: bool = False) -> Run:
    """(score - min) / (max - min) per query (``invert``: (max - score) / (max - min), then
    sorted), the denominator at least 1e-9."""
    return with_data(_per_query(run, lambda docs: _min_max(docs, invert)), run.name, sort=invert)


def max_norm(run: Run) -> Run:
    """score / max per query (the denominator at least 1e-9)."""
    def normalise(docs):
        scores = list(docs.values())
        denominator = max(max(scores) if scores else 0, TINY)
        return {doc: s / denominator for doc, s in docs.items()}
    return with_data(_per_query(run, normalise), run.name)


def sum_norm(run: Run) -> Run:
    """(score - min) / (sum - min * n) per query (the denominator at least 1e-9)."""
    def normalise(docs):
        scores = list(docs.values())
        low = min(scores) if scores else 0
        denominator = max(total(scores) - low * len(docs), TINY)
        return {doc: (s - low) / denominator for doc, s in docs.items()}
    return with_data(_per_query(run, normalise), run.name)


def zmuv_norm(run: Run) -> Run:
    """(score - mean) / standard deviation per query (the population deviation, as numba's
    ``np.std``; at least 1e-9). An empty query stays empty."""
    def normalise(docs):
        scores = list(docs.values())
        if not scores:
            return {}
        mean = total(scores) / len(scores)
        deviation = math.sqrt(total((s - mean) * (s - mean) for s in scores) / len(scores))
        denominator = max(deviation, TINY)
        return {doc: (s - mean) / denominator for doc, s in docs.items()}
    return with_data(_per_query(run, normalise), run.name)


def rank_norm(run: Run) -> Run:
    """1 - (rank - 1) / n per query, the rank being the document's place in the run."""
    def normalise(docs):
        n = len(docs)
        return {doc: 1 - (i / n) for i, doc in enumerate(docs)}
    return with_data(_per_query(run, normalise), run.name)


def candidates(runs: list[Run]) -> list[list[str]]:
    """Each query's documents over every run (of the first run's queries), in the order of a
    Python set built as ranx builds it, so that in one process the order is ranx's own. (A
    set's order follows the process's string hashes: ranx's Borda and Condorcet order their
    ties by it, and so do these.)"""
    data = [run.as_kept() for run in runs]
    return [list({doc for docs in data for doc in list(docs.get(q_id, {}))})
            for q_id in data[0]]


def over_candidates(runs: list[Run], points) -> list[Run]:
    """Each run scored against each query's candidates (``candidates``): ``points(docs,
    candidates)`` gives a query's {document: points} from the run's documents (in its order)
    and the candidates (in theirs)."""
    pool = candidates(runs)
    out = []
    for run in runs:
        data = run.as_kept()
        out.append(with_data({q_id: points(data[q_id], docs_of_query)
                              for q_id, docs_of_query in zip(data, pool)}, run.name))
    return out


def borda_norm(runs: list[Run]) -> list[Run]:
    """Each run's Borda points over the query's candidates: 1 - (rank - 1) / n for a document
    it retrieved, 0.5 - (retrieved - 1) / 2n for one only other runs retrieved, n the number
    of candidates; each query's documents in the candidates' order."""
    def points(docs, docs_of_query):
        ranks = {doc: i for i, doc in enumerate(docs)}
        n = len(docs_of_query)
        return {doc: (1 - (ranks[doc] / n)) if doc in ranks
                else 0.5 - ((len(docs) - 1) / (2 * n)) for doc in docs_of_query}
    return over_candidates(runs, points)


def norm_switch(method: str = "min-max"):
    """The normalisation of ranx's name (``fuse(norm=...)``)."""
    methods = {"borda": borda_norm, "max": max_norm, "rank": rank_norm, "sum": sum_norm,
               "zmuv": zmuv_norm, "min_max": min_max_norm, "min-max": min_max_norm,
               "min_max_inverted": lambda run: min_max_norm(run, invert=True),
               "min-max-inverted": lambda run: min_max_norm(run, invert=True)}
    if method not in methods:
        raise ValueError(f"Normalization method {method} not supported.")
    return methods[method]

