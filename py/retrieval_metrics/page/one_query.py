"""One query looked at closely, and the precision-recall curve of a whole run.

The page's per-query drill-down asks: what did the run return for this query, how was each
document judged, which relevant documents did it never return, and what did the query score?
In a comparison the same for the baseline's ranking, each document with its rank in the other
ranking. Everything comes back as plain dicts (strict JSON) for the worker to hand over.

The precision-recall curve is trec_eval's ``iprec_at_recall`` (11 interpolated points) per
query, averaged over the queries the report scores.
"""

from __future__ import annotations

import math

from ..inputs.records import Judgements, Rankings, doc_text
from ..measures.interpolated import IPREC_RECALL_POINTS
from ..measures.trec_ranked import iprec_at_recall
from ..measures.trec_rel_list import Ranks, lround
from ..scoring.query import Settings, has_relevant, score_query, zero_scores

#: trec_eval's default recall levels for iprec_at_recall (0.0, 0.1, ..., 1.0)
RECALL_LEVELS = IPREC_RECALL_POINTS
MAX_DEPTH = 1000  # documents listed per ranking at most (the page asks for max(k))


def status(grade: int | None, threshold: int = 1) -> str:
    """``relevant`` (grade >= the relevance threshold, 1 unless trec_eval's -l says otherwise),
    ``non-relevant`` (judged, below it) or ``unjudged``.

    >>> status(2), status(0), status(None), status(1, threshold=2)
    ('relevant', 'non-relevant', 'unjudged', 'non-relevant')
    """
    if grade is None:
        return "unjudged"
    return "relevant" if grade >= threshold else "non-relevant"


def ranking_rows(ranked: list[bytes], grades: dict[bytes, int], depth: int,
                 other: list[bytes] | None = None, threshold: int = 1) -> list[dict]:
    """The top ``depth`` documents with their grade, status and (when ``other`` is given)
    their rank in the other ranking (None when it does not return them).

    >>> ranking_rows([b"d4", b"d2"], {b"d4": 1, b"d1": 2}, 5, other=[b"d2"])
    ... # doctest: +NORMALIZE_WHITESPACE
    [{'rank': 1, 'doc': 'd4', 'grade': 1, 'status': 'relevant', 'other_rank': None},
     {'rank': 2, 'doc': 'd2', 'grade': None, 'status': 'unjudged', 'other_rank': 1}]
    """
    other_rank = {doc: i for i, doc in enumerate(other, 1)} if other is not None else None
    rows = []
    for rank, doc in enumerate(ranked[:depth], 1):
        grade = grades.get(doc)
        row = {"rank": rank, "doc": doc_text(doc), "grade": grade, "status": status(grade, threshold)}
        if other_rank is not None:
            row["other_rank"] = other_rank.get(doc)
        rows.append(row)
    return rows


def never_retrieved(ranked: list[bytes], grades: dict[bytes, int], threshold: int = 1) -> list[dict]:
    """The relevant documents the ranking does not contain at all, best grade first (then by
    document id).

    >>> never_retrieved([b"d4", b"d2"], {b"d4": 1, b"d1": 2, b"d3": 1, b"d5": 0})
    [{'doc': 'd1', 'grade': 2}, {'doc': 'd3', 'grade': 1}]
    """
    returned = set(ranked)
    missing = [(doc, grade) for doc, grade in grades.items()
               if grade >= threshold and doc not in returned]
    missing.sort(key=lambda pair: (-pair[1], pair[0]))
    return [{"doc": doc_text(doc), "grade": grade} for doc, grade in missing]


def query_values(query: str, judgements: Judgements, rankings: Rankings,
                 settings: Settings) -> dict[str, float] | None:
    """The query's values exactly as ``evaluate.score`` gives them, or None when the report
    does not score it (no judgements; no relevant document under ``zero_division="skip"``;
    missing from the results under ``missing="skip"``)."""
    grades = judgements.grades.get(query)
    if grades is None:
        return None
    if not has_relevant(grades, settings.relevance_threshold) and settings.zero_division == "skip":
        return None
    ranked = rankings.ranked.get(query)
    if ranked is not None:
        values = score_query(ranked, grades, settings)
    elif settings.missing == "zero":
        values = zero_scores(settings, grades)
    else:
        return None
    return {key: (None if isinstance(v, float) and math.isnan(v) else v) for key, v in values.items()}


def side(query: str, judgements: Judgements, rankings: Rankings, settings: Settings,
         depth: int, other: Rankings | None = None) -> dict:
    """One ranking of the query: its rows to ``depth``, counts, never-retrieved relevant
    documents and values."""
    grades = judgements.grades.get(query, {})
    threshold = settings.relevance_threshold
    ranked = rankings.ranked.get(query)
    returned = ranked or []
    other_ranked = None
    if other is not None:
        other_ranked = other.ranked.get(query, [])

    def relevant(doc) -> bool:
        grade = grades.get(doc)
        return grade is not None and grade >= threshold
    return {
        "in_results": ranked is not None,
        "retrieved": len(returned),
        "relevant_retrieved": sum(map(relevant, returned)),
        "relevant_in_depth": sum(map(relevant, returned[:depth])),
        "unjudged_in_depth": sum(1 for doc in returned[:depth] if doc not in grades),
        "ranking": ranking_rows(returned, grades, depth, other_ranked, threshold),
        "never_retrieved": never_retrieved(returned, grades, threshold),
        "values": query_values(query, judgements, rankings, settings),
    }


def inspect_query(query: str, judgements: Judgements, rankings: Rankings, settings: Settings,
                  depth: int | None = None, baseline: Rankings | None = None) -> dict:
    """Everything the page shows about one query: ``run`` (and ``baseline`` when a baseline
    run is given) as ``side`` describes, to ``depth`` documents (default: the largest k).

    >>> from retrieval_metrics.inputs.qrels import parse_qrels
    >>> from retrieval_metrics.inputs.runs import parse_run
    >>> from retrieval_metrics.scoring.settings import settings
    >>> out = inspect_query("q1", parse_qrels({"q1": {"d1": 2, "d4": 1}}),
    ...                     parse_run({"q1": ["d4", "d2", "d1"]}), settings(k=2))
    >>> [row["status"] for row in out["run"]["ranking"]], out["run"]["never_retrieved"]
    (['relevant', 'unjudged'], [])
    >>> out["run"]["values"]["recall@2"], out["relevant"]
    (0.5, 2)
    """
    depth = max(settings.k) if depth is None else depth
    depth = max(1, min(int(depth), MAX_DEPTH))
    grades = judgements.grades.get(query)
    out = {
        "query": query,
        "depth": depth,
        "judged": grades is not None,
        "judged_documents": len(grades) if grades else 0,
        "relevant": sum(1 for g in grades.values() if g >= settings.relevance_threshold) if grades else 0,
        "run": side(query, judgements, rankings, settings, depth, baseline),
        "baseline": None,
    }
    if baseline is not None:
        out["baseline"] = side(query, judgements, baseline, settings, depth, rankings)
    return out


def relevant_needed(level: float, num_relevant: int) -> int:
    """How many relevant documents reach recall ``level``: trec_eval 10 rounds level * R to
    the nearest whole number, halves away from zero (C's ``round``; trec_eval 9.0.8, and so
    pytrec_eval, truncated level * R + 0.9 instead). R = 77 at 0.5: 38.5 -> 39; R = 4 at 0.3:
    1.2 -> 1 (9.0.8: int(2.1) = 2).

    >>> relevant_needed(0.5, 77), relevant_needed(0.3, 4), relevant_needed(0.1, 3)
    (39, 1, 0)
    """
    return lround(level * num_relevant)


def interpolated_precision(grades: list, num_relevant: int,
                           levels: tuple[float, ...] = RECALL_LEVELS, threshold: int = 1) -> list[float]:
    """trec_eval's ``iprec_at_recall`` of one query (``measures.trec_ranked.iprec_at_recall``, the
    measure itself, so the page's curve and the reports agree): at each recall level, the highest
    precision at any rank at or after the c-th relevant document, c = ``relevant_needed``
    (0 when the run never finds c relevant documents; c = 0 counts as c = 1).

    Ranking relevant, not, not, relevant, with R = 4: precision 1/1 at rank 1, 2/4 at rank 4.
    c = round(r * 4): 0 or 1 for r <= 0.3 (max precision from rank 1 on: 1.0), 2 for 0.4-0.6
    (from rank 4 on: 0.5), 3 or 4 from 0.7 (never found: 0).

    >>> interpolated_precision([1, 0, 0, 1], 4)
    [1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0]
    """
    if not grades:
        return [0.0] * len(levels)
    return iprec_at_recall(Ranks.of_grades(grades, num_relevant, threshold), levels)


def precision_recall(judgements: Judgements, rankings: Rankings, queries, threshold: int = 1) -> dict:
    """The mean of ``interpolated_precision`` over ``queries`` (the report's scored queries;
    a query the run lacks counts as zeros, as trec_eval -c), at trec_eval's 11 levels.

    >>> from retrieval_metrics.inputs.qrels import parse_qrels
    >>> from retrieval_metrics.inputs.runs import parse_run
    >>> curve = precision_recall(parse_qrels({"q1": ["a", "c", "e"], "q2": ["x"]}),
    ...                          parse_run({"q1": ["a", "b", "c"]}), ["q1", "q2"])
    >>> [round(p, 4) for p in curve["precision"]]
    [0.5, 0.5, 0.5, 0.5, 0.5, 0.3333, 0.3333, 0.3333, 0.3333, 0.0, 0.0]
    """
    sums = [[] for _ in RECALL_LEVELS]
    count = 0
    for query in queries:
        grades = judgements.grades.get(query, {})
        ranked = rankings.ranked.get(query, [])
        num_relevant = sum(1 for g in grades.values() if g >= threshold)
        points = interpolated_precision(list(map(grades.get, ranked)), num_relevant,
                                        threshold=threshold)
        for column, value in zip(sums, points):
            column.append(value)
        count += 1
    return {"recall": list(RECALL_LEVELS),
            "precision": [math.fsum(c) / count if count else 0.0 for c in sums],
            "queries": count}


__all__ = ["inspect_query", "interpolated_precision", "precision_recall", "relevant_needed",
           "RECALL_LEVELS"]
