"""A header row's column names, read as the columns' places.

People export runs and judgements from pandas, spreadsheets and other tools with a header row
whose columns are not always in this calculator's order (``qid,rank,pid`` or ``docid,qid,score``).
Read by position such a file would score 0, or fail on a number column holding an id; where
every name of the header is a known name of one of the layout's columns, the columns are
taken by their names instead, and a notice says so.
"""

from __future__ import annotations

from itertools import permutations
from typing import Sequence

QUERY = frozenset({"query", "query_id", "queryid", "qid", "topic", "topic_id", "topicid", "q",
                   "qno", "query_no", "question_id"})
DOC = frozenset({"doc", "docid", "doc_id", "docno", "doc_no", "document", "document_id",
                 "documentid", "pid", "passage", "passage_id", "did", "corpus_id", "id",
                 "item", "item_id", "docname"})
ITERATION = frozenset({"iter", "iteration", "q0", "0", "unused", "subtopic"})
RANK = frozenset({"rank", "ranks", "ranking", "position", "pos", "place"})
SCORE = frozenset({"score", "scores", "sim", "similarity", "relevance", "rel", "grade",
                   "weight", "prob", "probability", "logit", "value"})
TAG = frozenset({"tag", "run", "run_id", "runid", "run_name", "system", "name"})
GRADE = frozenset({"rel", "relevance", "grade", "label", "judgement", "judgment", "score",
                   "qrel", "qrels", "level", "gain", "relevant"})


def normal_name(cell: str) -> str:
    """A header cell as the name sets hold it: no quotes or outer spaces, lower case, ``_``
    for ``-`` and inner spaces.

    >>> normal_name(' "Query-ID" '), normal_name("doc id")
    ('query_id', 'doc_id')
    """
    return "_".join(cell.strip().strip("\"'").lower().replace("-", "_").split())


def names_columns(cells: Sequence[str], layouts: dict[int, tuple]) -> bool:
    """Whether a first row is a header by its names alone: every cell a known name of one of
    the layout's columns for its width, and one of them the query's (so ``q1 d1 1`` never is).

    >>> names_columns(["docid", "qid", "score"], {3: (QUERY, DOC, RANK | SCORE)})
    True
    >>> names_columns(["q1", "d1", "rank"], {3: (QUERY, DOC, RANK | SCORE)})
    False
    """
    roles = layouts.get(len(cells))
    return (bool(roles) and any(normal_name(c) in QUERY for c in cells)
            and column_order(cells, roles) is not None)


def column_order(header: Sequence[str], roles: tuple) -> tuple[int, ...] | None:
    """For each of the layout's columns (``roles``: the names each may have, in the layout's
    order), the header's column that holds it; None when the names do not fit the layout
    one to one. The layout's own order wins where it fits.

    >>> column_order(["qid", "rank", "pid"], (QUERY, DOC, RANK | SCORE))
    (0, 2, 1)
    >>> column_order(["qid", "pid", "score"], (QUERY, DOC, RANK | SCORE))
    (0, 1, 2)
    >>> column_order(["qid", "pid", "colour"], (QUERY, DOC, RANK | SCORE)) is None
    True
    """
    if len(header) != len(roles):
        return None
    names = [normal_name(c) for c in header]
    for order in permutations(range(len(names))):
        if all(names[at] in allowed for at, allowed in zip(order, roles)):
            return order
    return None


def reordering(header: Sequence[str] | None, roles: tuple | None) -> tuple[int, ...] | None:
    """``column_order`` when it is not the layout's own order (the columns must move), else
    None.

    >>> reordering(["qid", "rank", "pid"], (QUERY, DOC, RANK | SCORE))
    (0, 2, 1)
    >>> reordering(["qid", "pid", "rank"], (QUERY, DOC, RANK | SCORE)) is None
    True
    """
    if not header or not roles:
        return None
    order = column_order(header, roles)
    if order is None or order == tuple(range(len(order))):
        return None
    return order
