"""One query's ranking against its judgements, as trec_eval 10's form_res_rels.c (and
form_res_rels_jg.c, once per judgement group) builds it: the results sorted by score, highest
first, equal scores by document id descending (byte order); cut to ``-M`` documents; with
``-J`` only the judged ones kept, in rank order; a document listed twice in the results or in
the judgements of the query is refused, as trec_eval refuses it.
"""

from __future__ import annotations

from itertools import compress
from math import isnan
from operator import ge

from ...inputs.records import equal_score_runs, sort_tied_ids
from ...measures.trec_rel_list import UNJUDGED, RelList


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
    refuse_repeats(docnos)
    return docnos


def refuse_repeats(docnos: list[bytes]) -> None:
    """RankingError naming the first document (in byte order) listed twice in one query's
    results, as trec_eval refuses them."""
    if len(set(docnos)) != len(docnos):
        seen = set()
        for d in sorted(docnos):
            if d in seen:
                raise RankingError(f"document {d.decode(errors='replace')} is listed twice in "
                                   "the results of one query")
            seen.add(d)


def ranked_by_score(docnos: list[bytes], sims: list[float], max_docs: int) -> list[bytes]:
    """``ranked_docnos`` of the columns of one query's lines: runs are nearly always written
    best first, so that case costs a few C-level passes (only runs of equal scores are
    sorted, by id descending); NaN scores go the way of ``ranked_docnos``.

    >>> ranked_by_score([b"a", b"c", b"b", b"d"], [2.0, 1.0, 1.0, 3.0], 3)
    [b'd', b'a', b'c']
    >>> ranked_by_score([b"a", b"b", b"c", b"d"], [3.0, 1.0, 1.0, 0.5], 10)
    [b'a', b'c', b'b', b'd']
    """
    if all(map(ge, sims, sims[1:])):
        groups = equal_score_runs(sims)
        if groups:
            docnos = list(docnos)
            sort_tied_ids(docnos, groups)
    elif any(map(isnan, sims)):
        return ranked_docnos(list(zip(docnos, sims)), max_docs)
    else:
        docnos = [d for _sim, d in sorted(zip(sims, docnos), reverse=True)]
    if max_docs < len(docnos):
        docnos = docnos[:max(max_docs, 0)]
    if len(set(docnos)) != len(docnos):
        ranked_docnos([(d, 0.0) for d in docnos], max_docs)  # raises, naming the document
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
    """The RelList of a ranking: -1 not judged, -2 judged below 0, else the grade (held as
    the judged ranks only).

    >>> rel_list([b"a", b"x", b"b"], {b"a": 1, b"b": -1}, [0, 1], 1, False).rels
    [1, -1, -2]
    >>> rel_list([b"a", b"x", b"b"], {b"a": 1, b"b": -1}, [0, 1], 1, True).rels
    [1]
    """
    at = list(compress(range(len(docnos)), map(judged.__contains__, docnos)))
    grades = map(judged.__getitem__, map(docnos.__getitem__, at))
    found = [(i, UNJUDGED if g < 0 else g) for i, g in zip(at, grades)]
    if judged_only:
        found = list(enumerate(rel for _i, rel in found if rel >= 0))
        return RelList.from_judged(len(found), found, levels, level)
    return RelList.from_judged(len(docnos), found, levels, level)
