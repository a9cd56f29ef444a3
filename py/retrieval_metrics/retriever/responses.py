"""What a retriever returned -> (status, ranked ids): the shapes search libraries answer in.

A retriever's answer is read as, in this order:

1. a *response*: an object with a ``status`` attribute, or a mapping with a ``"status"`` key
   (unless that key's value and every other are numbers: then it is 2.); its hits are its ``hits``, ``results`` or ``documents``
   (attribute or key, the first present). An object without ``status`` but with one of those
   three attributes is a response too, with status ``"success"``.
2. a mapping ``{doc_id: score}``: ranked by score, highest first, equal scores by id descending
   (trec_eval's order, as the engine ranks a scored run).
3. a sequence (or any other ordered iterable: a generator, an array) of hits, best first,
   in the order given (scores, if any, are not used to reorder:
   some libraries return distances, where lower is better). Each hit is an id (``str`` or
   ``int``), an ``(id, score)`` pair (the second a number: a list of lists of ids is a
   batch of rankings, refused), an object with ``.doc_id`` or ``.doc.doc_id``, or a
   mapping with a ``"doc_id"`` key.
4. a pandas DataFrame of one query's hits (PyTerrier's ``qid, docno, score, rank`` shape, or
   any of the engine's column names): ranked by its rank column, else by score (highest
   first), else in row order. A pandas Series is refused: its index or its values could be
   the ids.

A status is a string (an ``enum.Enum`` gives its ``value``); ``"success"``, ``"ok"`` and
``"complete"`` (any case) mean the whole search ran, anything else that part of it did not.

>>> read_response(["d1", "d2"])
Response(status='success', ids=['d1', 'd2'])
>>> read_response({"status": "partial", "hits": [("d3", 0.9), ("d1", 0.5)]})
Response(status='partial', ids=['d3', 'd1'])
>>> read_response({"d1": 0.2, "d2": 0.7, "d3": 0.7}).ids
['d3', 'd2', 'd1']
"""

from __future__ import annotations

import enum
import math
import numbers
from collections.abc import Mapping
from typing import Any, NamedTuple

from ..errors import InputError
from ..inputs.objects import is_pandas

SUCCESS = "success"
SUCCESS_STATUSES = frozenset({"success", "ok", "complete"})
HIT_FIELDS = ("hits", "results", "documents")
SOURCE = "retriever"
EXPECTED = ("a list of ids, (id, score) pairs, hits with .doc_id or .doc.doc_id, a {id: score} "
            "mapping, or a response with a status and hits/results/documents")


class Response(NamedTuple):
    """One query's answer, normalised: its status and its document ids, best first."""

    status: str
    ids: list


def is_success(status: str) -> bool:
    """Whether a status says the whole search ran.

    >>> is_success("OK"), is_success("partial")
    (True, False)
    """
    return status.lower() in SUCCESS_STATUSES


def read_response(answer: Any, query_id: Any = None, doc_id: Any = None) -> Response:
    """The status and ranked ids of one answer; an ``InputError`` naming the query otherwise.

    ``doc_id``, if given, is a function from one hit to its id, for hits in another shape
    (``lambda hit: hit.metadata["source"]``); it replaces the reading of each hit, not of the
    response around them.

    >>> read_response([{"_id": "d7"}], doc_id=lambda hit: hit["_id"]).ids
    ['d7']
    """
    where = "" if query_id is None else f"query {query_id!r}: "
    status, hits = _unwrap(answer, where)
    if is_pandas(hits, "DataFrame") and doc_id is None:
        return Response(status, _frame_ids(hits, where))
    if is_pandas(hits, "Series"):
        raise InputError(SOURCE, f"{where}the retriever returned a pandas Series: its index or "
                         "its values could be the ids; return series.tolist() (ids, best first) "
                         "or series.to_dict() ({doc_id: score})", expected=EXPECTED)
    if isinstance(hits, Mapping):
        return Response(status, _by_score(hits, where))
    if isinstance(hits, (set, frozenset)):
        raise InputError(SOURCE, f"{where}the retriever returned a set, which has no order",
                         expected="a list, best first")
    if isinstance(hits, (str, bytes)) or not _is_sequence(hits):
        raise InputError(SOURCE, f"{where}the retriever returned {_show(hits)}, not a ranking",
                         expected=EXPECTED)
    if doc_id is not None:
        return Response(status, [_custom_id(doc_id, hit, where, rank)
                                 for rank, hit in enumerate(hits, 1)])
    return Response(status, [_hit_id(hit, where, rank) for rank, hit in enumerate(hits, 1)])


def _unwrap(answer: Any, where: str) -> tuple[str, Any]:
    """(status, hits) of a response; ``("success", answer)`` for a bare ranking."""
    if isinstance(answer, Mapping):
        has_hits = any(name in answer and not _is_number(answer[name]) for name in HIT_FIELDS)
        if "status" in answer and (has_hits or not _is_number(answer["status"])):
            return _status(answer["status"], where), _field(answer, where)
        if has_hits:
            return SUCCESS, _field(answer, where)
        return SUCCESS, answer
    if isinstance(answer, (str, bytes, tuple, list)) or answer is None or _is_pandas_object(answer):
        return SUCCESS, answer  # a DataFrame's .status would be its column of that name
    if hasattr(answer, "status"):
        return _status(answer.status, where), _field(answer, where)
    if any(hasattr(answer, name) for name in HIT_FIELDS):
        return SUCCESS, _field(answer, where)
    return SUCCESS, answer


def _field(response: Any, where: str) -> Any:
    get = response.get if isinstance(response, Mapping) else (
        lambda name, default: getattr(response, name, default))
    for name in HIT_FIELDS:
        hits = get(name, None)
        if hits is not None:
            return hits
    raise InputError(SOURCE, f"{where}the response has a status but no hits, results or "
                     "documents", expected=EXPECTED)


def _status(status: Any, where: str) -> str:
    if isinstance(status, enum.Enum):
        status = status.value
    if not isinstance(status, str) or not status.strip():
        raise InputError(SOURCE, f"{where}the response's status is {_show(status)}, not a "
                         "status name", expected='a string such as "success" or "partial"')
    return status.strip()


def _hit_id(hit: Any, where: str, rank: int) -> Any:
    """The document id of one hit (validated as an id later, with the rest of the ranking)."""
    if isinstance(hit, (str, numbers.Integral)) and not isinstance(hit, bool):
        return hit
    if isinstance(hit, (tuple, list)):
        if len(hit) == 2 and _is_number(hit[1]) and not isinstance(hit[0], (tuple, list)):
            return hit[0]
        raise InputError(SOURCE, f"{where}hit {rank} is {_show(hit)}: a hit that is a list or "
                         "tuple must be an (id, score) pair; a list of lists of ids is one "
                         "ranking per query, but search() answers one query",
                         expected="an id, an (id, score) pair, or a hit with .doc_id")
    if isinstance(hit, Mapping) and "doc_id" in hit:
        return hit["doc_id"]
    if hasattr(hit, "doc_id"):
        return hit.doc_id
    doc = getattr(hit, "doc", None)
    if doc is not None and hasattr(doc, "doc_id"):
        return doc.doc_id
    raise InputError(SOURCE, f"{where}hit {rank} is {_show(hit)}: no document id found in it",
                     expected="an id, an (id, score) pair, or a hit with .doc_id or .doc.doc_id")


def _frame_ids(frame, where: str) -> list:
    """One query's ids from a DataFrame of hits: by rank, else by score, else row order."""
    from ..inputs.objects import DOC_COLUMNS, QUERY_COLUMNS, frame_column
    doc = frame_column(frame, DOC_COLUMNS)
    if doc is None:
        raise InputError(SOURCE, f"{where}the retriever returned a DataFrame with columns "
                         f"{[str(c) for c in frame.columns]}; none of them is a document id "
                         f"({', '.join(DOC_COLUMNS)})", expected="a DataFrame with docno or "
                         "doc_id, and rank or score columns")
    query = frame_column(frame, QUERY_COLUMNS[:3])  # query_id, qid, q_id (not the query's text)
    if query is not None and len(set(map(str, frame[query].tolist()))) > 1:
        raise InputError(SOURCE, f"{where}the retriever returned a DataFrame of "
                         f"{len(set(map(str, frame[query].tolist())))} queries; search() "
                         "answers one query", expected="the hits of one query")
    ids = frame[doc].tolist()
    rank, score = frame_column(frame, ("rank",)), frame_column(frame, ("score",))
    keys = frame[rank].tolist() if rank is not None else (
        frame[score].tolist() if score is not None else None)
    if keys is None:
        return ids
    for key in keys:
        if not _is_number(key) or not math.isfinite(float(key)):
            raise InputError(SOURCE, f"{where}the {'rank' if rank is not None else 'score'} "
                             f"column holds {_show(key)}, not a finite number",
                             expected="numbers")
    if rank is not None:
        order = sorted(range(len(ids)), key=keys.__getitem__)  # stable: ties keep row order
    else:  # highest first, equal scores by id descending (the engine's order for scores)
        order = sorted(range(len(ids)), key=lambda i: (float(keys[i]), str(ids[i])), reverse=True)
    return [ids[i] for i in order]


def _is_pandas_object(value: Any) -> bool:
    return is_pandas(value, "DataFrame") or is_pandas(value, "Series")


def _custom_id(doc_id, hit: Any, where: str, rank: int) -> Any:
    try:
        return doc_id(hit)
    except Exception as error:
        raise InputError(SOURCE, f"{where}doc_id could not read hit {rank} ({_show(hit)}): "
                         f"{type(error).__name__}: {error}",
                         expected="hits that the doc_id function reads") from error


def _by_score(scores: Mapping, where: str) -> list:
    for doc, score in scores.items():
        if not _is_number(score) or not math.isfinite(float(score)):
            raise InputError(SOURCE, f"{where}document {doc!r} has the score {_show(score)}, "
                             "not a finite number", expected="{doc_id: score}")
    try:
        ordered = sorted(scores.items(), key=lambda item: (float(item[1]), item[0]), reverse=True)
    except TypeError:
        raise InputError(SOURCE, f"{where}the document ids mix types "
                         f"({', '.join(sorted({type(d).__name__ for d in scores}))})",
                         expected="ids of one type: all str or all int") from None
    return [doc for doc, _ in ordered]


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _is_sequence(value: Any) -> bool:
    """Lists, tuples, arrays, generators: anything iterated in rank order."""
    if isinstance(value, (list, tuple)):
        return True
    return hasattr(value, "__iter__") and not isinstance(value, Mapping)


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:79] + "\u2026"
