"""The small records that flow between the parsing, scoring and reporting steps."""

from __future__ import annotations

from itertools import compress, count
from operator import eq
from typing import Callable, NamedTuple


class Notice(NamedTuple):
    """Something in the input that changed the numbers, as data: the page and the CLI word it.

    ``queries`` lists the affected query ids (all of them; renderers may shorten the list).
    """

    code: str
    level: str  # "info" or "warning"
    message: str
    count: int = 0
    queries: tuple[str, ...] = ()

    @classmethod
    def about(cls, code: str, level: str, message: str, queries) -> Notice:
        """The notice about ``queries``: its count is theirs."""
        return cls(code, level, message, len(queries), tuple(queries))

    def to_dict(self) -> dict:
        return {"code": self.code, "level": self.level, "message": self.message,
                "count": self.count, "queries": list(self.queries)}


class InputSummary(NamedTuple):
    """What was detected in one box, for the line under it ("TREC run: 6 columns, ...")."""

    format: str  # json | trec | csv | tsv | whitespace
    label: str  # "TREC run", "CSV judgements", ...
    columns: int | None  # None for JSON
    rows: int  # data rows (JSON: judgements or ranked documents)
    queries: int
    third_column: str | None = None  # runs with 3 columns: "rank" or "score"

    @property
    def description(self) -> str:
        parts = [f"{self.columns} columns"] if self.columns else []
        one, many = ("row", "rows") if self.columns else ("entry", "entries")
        parts.append(f"{self.rows:,} {many if self.rows != 1 else one}")
        parts.append(f"{self.queries:,} quer{'ies' if self.queries != 1 else 'y'}")
        text = f"{self.label}: " + ", ".join(parts)
        if self.third_column == "score":
            text += "; third column read as scores" if self.columns else "; ordered by score"
        elif self.third_column == "rank":
            text += "; third column read as ranks"
        return text

    def to_dict(self) -> dict:
        return {"format": self.format, "label": self.label, "columns": self.columns,
                "rows": self.rows, "queries": self.queries, "third_column": self.third_column,
                "description": self.description}


class Judgements(NamedTuple):
    """Parsed qrels: ``grades[query][doc] = grade`` (every judged document, any grade).

    ``line_of(query, doc)`` finds ``(line number, line text)`` of a judgement again, for an
    error found later (a grade too large for the chosen gain); None for dicts and JSON.
    """

    grades: dict[str, dict[str, int]]
    summary: InputSummary
    notices: list[Notice]
    line_of: Callable[[str, str], "tuple[int, str] | None"] = lambda query, doc: None
    origin: object = None  # inputs.objects.Origin for a Python object (id types, by position), else None


class SubtopicGrades(dict):
    """One query's judgements ``{doc: grade}`` that also carry ``subtopics``, ``{doc:
    ((subtopic, grade), ...)}`` for the positive grades (a document without one is left out):
    TREC diversity qrels (``query subtopic doc grade``) judge a document
    once per subtopic (intent), and the diversity measures read each judgement, while every
    other measure reads the document's grade, its highest over its subtopics (relevant to the
    query when relevant to any of its intents). A plain dict everywhere else, so the measures
    that ignore subtopics see no difference.

    >>> g = SubtopicGrades({b"d1": 1}, {b"d1": (("2", 1),)})
    >>> g[b"d1"], g.subtopics[b"d1"]
    (1, (('2', 1),))
    """

    __slots__ = ("subtopics",)

    def __init__(self, grades, subtopics):
        super().__init__(grades)
        self.subtopics = subtopics


class Rankings(NamedTuple):
    """Parsed run: ``ranked[query]`` lists document ids best first, each document once.

    ``ties[query]``: where the run gave scores, the runs of equal scores in that ranking as
    half-open ``(start, end)`` positions (two or more documents each); queries without ties
    are absent. Only scores tie: a rank column or a list decides the order by itself.
    """

    ranked: dict[str, list[str]]
    summary: InputSummary
    notices: list[Notice]
    origin: object = None  # inputs.objects.Origin for a Python object (id types, by position), else None
    ties: "dict[str, tuple[tuple[int, int], ...]] | None" = None


def tie_groups(scores, ids=None) -> tuple[tuple[int, int], ...]:
    """The runs of equal scores in ``scores`` (sorted best first) as half-open ``(start,
    end)`` positions, two or more long. With ``ids`` (aligned with the scores, repeats not yet
    dropped), the positions are those of the ranking each document keeps once, at its first
    (best) place.

    >>> tie_groups([3.0, 2.0, 2.0, 2.0, 1.0, 1.0])
    ((1, 4), (4, 6))
    >>> tie_groups([2.0, 2.0, 2.0, 1.0], [b"a", b"b", b"a", b"c"])
    ((0, 2),)
    """
    groups = equal_score_runs(scores)
    if not groups or ids is None or len(set(ids)) == len(ids):
        return groups
    seen = set()
    kept = []
    for score, doc in zip(scores, ids):
        if doc not in seen:
            seen.add(doc)
            kept.append(score)
    return equal_score_runs(kept)


def equal_score_runs(scores) -> tuple[tuple[int, int], ...]:
    """The runs of equal neighbours in ``scores`` as ``(start, end)`` positions, two or more
    long. The positions ``i`` where ``scores[i] == scores[i + 1]`` are found at C speed, so
    only the ties are walked in Python.

    >>> equal_score_runs([3.0, 2.0, 2.0, 1.0, 1.0, 1.0])
    ((1, 3), (3, 6))
    """
    return equal_runs(list(compress(count(), map(eq, scores, scores[1:]))))


def sort_tied_ids(ids: list, groups) -> None:
    """Each run of equal scores (``groups``, as ``equal_score_runs`` gives them) sorted by
    id, descending, in place: trec_eval's order for equal scores.

    >>> ids = [b"a", b"b", b"c", b"d"]; sort_tied_ids(ids, ((1, 4),)); ids
    [b'a', b'd', b'c', b'b']
    """
    for start, end in groups:
        ids[start:end] = sorted(ids[start:end], reverse=True)


def equal_runs(equal: list[int]) -> tuple[tuple[int, int], ...]:
    """The runs of equal scores as ``(start, end)`` positions, from the sorted positions
    ``i`` where ``scores[i] == scores[i + 1]``: consecutive positions are one run.

    >>> equal_runs([1, 2, 4]), equal_runs([])
    (((1, 4), (4, 6)), ())
    """
    if not equal:
        return ()
    groups = []
    first = last = equal[0]
    for i in equal[1:]:
        if i != last + 1:
            groups.append((first, last + 2))
            first = i
        last = i
    groups.append((first, last + 2))
    return tuple(groups)


def doc_id(text: str) -> bytes:
    """Document ids are kept as UTF-8 bytes everywhere (judgements and results alike): the
    fast reader splits bytes, and their order is trec_eval's strcmp order. A lone surrogate
    (possible in a JavaScript string) survives as it came."""
    return text.encode("utf-8", "surrogatepass")


def doc_text(doc: bytes) -> str:
    """A document id as text again (``doc_id``'s inverse), for what people read.

    >>> doc_text(doc_id("d1")), doc_text("d2")
    ('d1', 'd2')
    """
    return doc.decode("utf-8", "surrogatepass") if isinstance(doc, bytes) else doc


def as_dict(record) -> dict:
    """A NamedTuple record as a plain dict, what the JSON outputs hold (``to_dict = as_dict``
    in the records that the reports and comparisons carry).

    >>> as_dict(Notice("c", "info", "m"))["code"]
    'c'
    """
    return dict(record._asdict())
