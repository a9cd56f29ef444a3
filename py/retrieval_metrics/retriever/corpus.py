"""What an index holds and what a search answers: documents, hits and responses.

A :class:`CorpusDocument` is one searchable chunk of an input file: ``doc_id`` is the id the
judgements use (several chunks of one source document may share it; score them with
``duplicates="first"``), ``input_path`` and ``chunk_index`` say where the text came from.
A search answers a :class:`SearchResponse`: its ``status`` (``"success"``, or a word saying
which part of the search did not run) and its :class:`SearchHit` list, best first, which
``evaluate_retrieval`` and the scorers read as they are (``hit.doc_id`` / ``hit.doc.doc_id``).
"""

from __future__ import annotations

import numbers
import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Iterator

from ..errors import InputError
from .responses import is_success

__all__ = ["CorpusDocument", "SearchHit", "SearchResponse", "SUCCESS", "DEGRADED"]

SUCCESS = "success"
#: a hybrid search answered by its keyword half only
DEGRADED = "degraded"


@dataclass(frozen=True)
class CorpusDocument:
    """One chunk of text to search, with the id the judgements know it by.

    - ``doc_id``: a ``str`` or ``int`` (one type per index).
    - ``input_path``: the file the text came from (a ``str`` or path; ``""`` if none).
    - ``chunk_index``: the chunk's position in that file, from 0.
    - ``text``: what is searched.
    - ``metadata``: anything else, as a mapping (None: nothing).

    >>> doc = CorpusDocument("d2", "notes/blood.txt", 0, "platelets help blood clot")
    >>> doc.doc_id, doc.chunk_index
    ('d2', 0)
    >>> CorpusDocument("d2", "notes/blood.txt", -1, "platelets")
    Traceback (most recent call last):
    ...
    retrieval_metrics.errors.InputError: documents: document 'd2': chunk_index must be a whole number >= 0, found -1
    """

    doc_id: str | int
    input_path: str | os.PathLike
    chunk_index: int
    text: str
    metadata: Mapping | None = None

    def __post_init__(self):
        doc_id = self.doc_id
        if isinstance(doc_id, bool) or not isinstance(doc_id, (str, numbers.Integral)):
            _refuse(f"a document id must be a str or an int, found {_show(doc_id)}")
        if isinstance(doc_id, numbers.Integral) and not isinstance(doc_id, int):
            object.__setattr__(self, "doc_id", int(doc_id))  # numpy integers count as int
        where = f"document {self.doc_id!r}"
        if not isinstance(self.input_path, (str, os.PathLike)):
            _refuse(f"{where}: input_path must be a str or a path, found {_show(self.input_path)}")
        chunk = self.chunk_index
        if isinstance(chunk, bool) or not isinstance(chunk, numbers.Integral) or chunk < 0:
            _refuse(f"{where}: chunk_index must be a whole number >= 0, found {_show(chunk)}")
        object.__setattr__(self, "chunk_index", int(chunk))
        if not isinstance(self.text, str):
            _refuse(f"{where}: text must be a str, found {type(self.text).__name__}")
        if self.metadata is not None and not isinstance(self.metadata, Mapping):
            _refuse(f"{where}: metadata must be a mapping or None, found "
                    f"{type(self.metadata).__name__}")


@dataclass(frozen=True)
class SearchHit:
    """One ranked result: ``rank`` (from 1), ``doc_id``, ``score`` (higher is better; None when
    the search function gave none) and ``doc``, the :class:`CorpusDocument` (None when a custom
    search function answered an id the index has no document for)."""

    doc_id: str | int
    score: float | None
    rank: int
    doc: CorpusDocument | None = None


@dataclass(frozen=True)
class SearchResponse:
    """One search's answer: ``hits`` best first, the ``status`` (``"success"`` when the whole
    search ran) and, when it did not, a ``message`` saying what was left out.

    It is also the sequence of its hits, so code that treats a search's answer as a list of
    hits (``for hit in index.search(q)``, ``len(...)``, ``[0]``, ``[:k]``, a slice being the
    same answer cut; an answer without hits is false) runs unchanged.

    >>> response = SearchResponse("q", (SearchHit("d1", 0.5, 1), SearchHit("d2", 0.25, 2)),
    ...                           "degraded", "no embedding")
    >>> response.doc_ids, response.ok, len(response), response[0].doc_id
    (['d1', 'd2'], False, 2, 'd1')
    >>> [hit.doc_id for hit in response], response[:1].doc_ids, response[:1].status
    (['d1', 'd2'], ['d1'], 'degraded')
    """

    query: Any
    hits: tuple[SearchHit, ...]
    status: str = SUCCESS
    message: str | None = None

    @property
    def doc_ids(self) -> list:
        return [hit.doc_id for hit in self.hits]

    @property
    def ok(self) -> bool:
        """Whether the whole search ran (the status rule of ``evaluate_retrieval``)."""
        return is_success(self.status)

    def __iter__(self) -> Iterator[SearchHit]:
        return iter(self.hits)

    def __len__(self) -> int:
        return len(self.hits)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return replace(self, hits=tuple(self.hits[index]))
        return self.hits[index]


def _refuse(problem: str):
    raise InputError("documents", problem, expected="CorpusDocument(doc_id, input_path, "
                     "chunk_index, text, metadata=None)")


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:79] + "\u2026"
