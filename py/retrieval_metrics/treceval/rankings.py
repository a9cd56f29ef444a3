"""One query's ranking against its judgements, as trec_eval 10's form_res_rels.c (and
form_res_rels_jg.c, once per judgement group) builds it: the results sorted by score, highest
first, equal scores by document id descending (byte order); cut to ``-M`` documents; with
``-J`` only the judged ones kept, in rank order; a document listed twice in the results or in
the judgements of the query is refused, as trec_eval refuses it.
"""

from __future__ import annotations

from ..measures.trec_ranked import NONPOOL, UNJUDGED, RelList


class RankingError(Exception):
    """trec_eval would stop on this query (a document listed twice)."""


def ranked_docnos(results: list[tuple[bytes, float]], max_docs: int) -> list[bytes]:
    """The document ids best first, cut to ``max_docs``; refuses a document listed twice.

    >>> ranked_docnos([(b"a", 1.0), (b"c", 2.0), (b"b", 1.0)], 10)
    [b'c', b'b', b'a']
    """
    docs = sorted(results, key=lambda d: d[0], reverse=True)
    docs.sort(key=lambda d: d[1], reverse=True)
    docnos = [d for d, _sim in docs[:max(max_docs, 0)]]
    if len(set(docnos)) != len(docnos):
        seen = set()
        for d in sorted(docnos):
            if d in seen:
                raise RankingError(f"document {d.decode(errors='replace')} is listed twice in "
                                   "the results of one query")
            seen.add(d)
    return docnos


def judged_of(judgements: list[tuple[bytes, int]]) -> tuple[dict[bytes, int], list[int]]:
    """(docno -> rel, count of judged documents at each grade 0, 1, ...); refuses a document
    judged twice."""
    judged = dict(judgements)
    if len(judged) != len(judgements):
        for (a, _), (b, _) in zip(judgements, judgements[1:]):
            if a == b:
                raise RankingError(f"document {a.decode(errors='replace')} is judged twice for "
                                   "one query")
    top = max((rel for _d, rel in judgements), default=-1)
    levels = [0] * (top + 1 if top >= 0 else 0)
    for _d, rel in judgements:
        if rel >= 0:
            levels[rel] += 1
    return judged, levels


def rel_list(docnos: list[bytes], judged: dict[bytes, int], levels: list[int], level: int,
             judged_only: bool) -> RelList:
    """The RelList of a ranking: -1 not judged, -2 judged below 0, else the grade.

    >>> rel_list([b"a", b"x", b"b"], {b"a": 1, b"b": -1}, [0, 1], 1, False).rels
    [1, -1, -2]
    >>> rel_list([b"a", b"x", b"b"], {b"a": 1, b"b": -1}, [0, 1], 1, True).rels
    [1]
    """
    get = judged.get
    rels = [NONPOOL if (g := get(d)) is None else (UNJUDGED if g < 0 else g) for d in docnos]
    if judged_only:
        rels = [r for r in rels if r >= 0]
    return RelList(rels, levels, level)
