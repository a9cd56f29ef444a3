"""The small records that flow between the parsing, scoring and reporting steps."""

from __future__ import annotations

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
        noun = "rows" if self.columns else "entries"
        parts.append(f"{self.rows:,} {noun if self.rows != 1 else noun[:-1]}")
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


class Rankings(NamedTuple):
    """Parsed run: ``ranked[query]`` lists document ids best first, each document once."""

    ranked: dict[str, list[str]]
    summary: InputSummary
    notices: list[Notice]
    origin: object = None  # inputs.objects.Origin for a Python object (id types, by position), else None


def doc_id(text: str) -> bytes:
    """Document ids are kept as UTF-8 bytes everywhere (judgements and results alike): the
    fast reader splits bytes, and their order is trec_eval's strcmp order. A lone surrogate
    (possible in a JavaScript string) survives as it came."""
    return text.encode("utf-8", "surrogatepass")
