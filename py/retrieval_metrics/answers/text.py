"""The text of one Answers-mode box to records: which item, its references, its answer.

Formats (``auto`` detects them):

- ``jsonl``: one object per line, ``{"id": ..., "reference": "..."}`` or
  ``{"id": ..., "references": ["...", "..."]}`` and/or ``{"id": ..., "answer": "..."}``; other
  keys (a question, a context) are ignored. One box may hold references and answers together.
- ``json``: ``{id: "text"}`` or ``{id: ["text", ...]}`` (references), or ``{id: {"reference":
  ..., "answer": ...}}``, or an array of JSONL-style objects.
- ``csv`` / ``tsv``: two columns, ``id, text``: the text is a reference in the references box
  and an answer in the answers box; an id repeated gives several references. A header row
  naming the columns (``id, reference, answer``, in any order, other columns ignored) lets one
  file hold both. CSV uses real CSV quoting (text with commas or line breaks is quoted) and keeps
  every cell as written, spaces included (an answer's leading space is part of it, as a
  generated answer's often is); TSV cells are split on tabs as they are, quotes included. Only
  the id is trimmed.

Ids are text (a JSON integer id is read as its digits); a JSON integer answer or reference is
read as its digits too. Every error names the box and, where there is one, the line.
"""

from __future__ import annotations

import csv
import io
from typing import NamedTuple

from ..errors import InputError
from ..inputs.jsontext import load_json_object
from ..inputs.records import Notice
from ..inputs.source import legacy_notices, read_text
from ..report.wording import counted

ANSWER_FORMATS = ("auto", "jsonl", "json", "csv", "tsv")
LABELS = {"jsonl": "JSONL", "json": "JSON", "csv": "CSV", "tsv": "TSV"}
ID_COLUMNS = frozenset({"id", "qid", "query_id", "query-id", "question_id", "item_id"})
REFERENCE_FIELDS = ("reference", "references")
#: what each box's two-column rows and lone JSON strings are
ROLE_FIELD = {"references": "reference", "answers": "answer"}


class AnswerRecord(NamedTuple):
    """One line (or JSON entry) of a box: an item's references and/or its answer."""

    id: str
    references: tuple[str, ...] | None  # None: this record gives no reference
    answer: str | None  # None: this record gives no answer
    line: int | None  # 1-based line where the record starts; None inside a JSON document


class AnswerSummary(NamedTuple):
    """What was read in one box, for the line under it ("JSONL: 2 lines, 2 items, ...")."""

    format: str
    rows: int  # records: lines of JSONL, data rows of CSV/TSV, entries of JSON
    items: int  # distinct ids
    references: int
    answers: int
    columns: tuple[str, ...] | None = None  # CSV/TSV: what each column was read as

    @property
    def label(self) -> str:
        return LABELS[self.format]

    @property
    def description(self) -> str:
        parts = []
        if self.columns:
            parts.append(f"{len(self.columns)} columns ({', '.join(self.columns)})")
        noun = {"jsonl": "line", "json": "entry"}.get(self.format, "row")
        parts.append(counted(self.rows, noun))
        parts.append(counted(self.items, "item"))
        if self.references:
            parts.append(counted(self.references, "reference"))
        if self.answers:
            parts.append(counted(self.answers, "answer"))
        return f"{self.label}: " + ", ".join(parts)

    def to_dict(self) -> dict:
        return {"format": self.format, "label": self.label, "rows": self.rows,
                "items": self.items, "references": self.references, "answers": self.answers,
                "columns": list(self.columns) if self.columns else None,
                "description": self.description}


class AnswerBox(NamedTuple):
    records: list[AnswerRecord]
    summary: AnswerSummary
    notices: list[Notice]


def parse_answer_box(data, source: str, fmt: str = "auto") -> AnswerBox:
    """Records of one box; ``source`` is ``"references"`` or ``"answers"`` (the box's role).

    >>> box = parse_answer_box('{"id": "q1", "references": ["Paris", "City of Paris"]}\\n'
    ...                        '{"id": "q2", "reference": "Lyon", "answer": "lyon"}', "references")
    >>> box.summary.description
    'JSONL: 2 lines, 2 items, 3 references, 1 answer'
    >>> parse_answer_box("q1,Paris\\nq1,City of Paris\\n", "references").records[1]
    AnswerRecord(id='q1', references=('City of Paris',), answer=None, line=2)
    """
    text, legacy = read_text(data, source)
    if fmt == "auto":
        fmt = detect_answer_format(text)
    notices: list[Notice] = legacy_notices(legacy, source)
    if fmt == "jsonl":
        records = _jsonl(text, source)
    elif fmt == "json":
        records = _json(text, source)
    else:
        records, columns, header = _rows(text, source, fmt)
        if header:
            notices.append(Notice("header_skipped", "info",
                                  f"{source}: the first row ({', '.join(header)}) was read as "
                                  "a header naming the columns.", 1))
    if not records:
        raise InputError(source, "there is no data here", expected=_expected(source, fmt))
    summary = AnswerSummary(
        fmt, len(records), len({r.id for r in records}),
        sum(len(r.references) for r in records if r.references is not None),
        sum(1 for r in records if r.answer is not None),
        columns if fmt in ("csv", "tsv") else None)
    return AnswerBox(records, summary, notices)


def detect_answer_format(text: str) -> str:
    """JSON (an array, or one object over several lines), JSONL (an object per line), TSV
    (tabs on the first line) or CSV.

    >>> detect_answer_format('{"q1": "Paris"}'), detect_answer_format('{"id": "q1", "answer": "x"}')
    ('json', 'jsonl')
    >>> detect_answer_format("q1\\tParis"), detect_answer_format("q1,Paris")
    ('tsv', 'csv')
    """
    stripped = text.lstrip(" \t\r\n\ufeff")
    if stripped.startswith("["):
        return "json"
    first = next((line for line in stripped.split("\n") if line.strip()), "")
    if stripped.startswith("{"):
        try:
            obj = load_json_object(first, "detect", "object")
        except InputError:
            return "json"  # an object over several lines
        if isinstance(obj, dict) and "id" in obj and any(
                key in obj for key in (*REFERENCE_FIELDS, "answer")):
            return "jsonl"
        rest = stripped[len(first):].strip()
        return "jsonl" if rest else "json"
    return "tsv" if "\t" in first else "csv"


def _expected(source: str, fmt: str) -> str:
    field = ROLE_FIELD[source]
    if fmt == "jsonl":
        return f'one JSON object per line: {{"id": ..., "{field}": "..."}}'
    if fmt == "json":
        return f'a JSON object {{id: "{field}"}}'
    sep = ", " if fmt == "csv" else " <tab> "
    return f"two columns: id{sep}{field}"


# ---------------------------------------------------------------- JSON lines and JSON

def _jsonl(text: str, source: str) -> list[AnswerRecord]:
    records = []
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            obj = load_json_object(line, source, "object")
        except InputError as exc:
            raise InputError(source, exc.problem, line=number,
                             text=line, expected=_expected(source, "jsonl")) from None
        records.append(_record(obj, source, number, line, None))
    return records


def _json(text: str, source: str) -> list[AnswerRecord]:
    data = load_json_object(text, source, _expected(source, "json"))
    records = []
    if isinstance(data, list):
        for number, obj in enumerate(data, 1):
            records.append(_record(obj, source, None, None, f"entry {number}"))
        return records
    if not isinstance(data, dict):
        raise InputError(source, f"expected a JSON object or array, found {_kind(data)}",
                         expected=_expected(source, "json"))
    field = ROLE_FIELD[source]
    for key, value in data.items():
        where = f"item {key!r}"
        if isinstance(value, dict):
            records.append(_record({"id": key, **value}, source, None, None, where))
        elif field == "reference":
            records.append(AnswerRecord(key, _references(value, source, None, None, where),
                                        None, None))
        else:
            records.append(AnswerRecord(key, None, _text(value, source, None, None, where,
                                                         "answer"), None))
    return records


def _record(obj, source: str, line: int | None, text: str | None, where: str | None):
    """One JSON object with an id and a reference, references and/or an answer."""
    if not isinstance(obj, dict):
        raise _bad(source, line, text, where, f"expected a JSON object, found {_kind(obj)}",
                   _expected(source, "jsonl"))
    if "id" not in obj:
        raise _bad(source, line, text, where, 'this object has no "id"',
                   _expected(source, "jsonl"))
    item = _id(obj["id"], source, line, text, where)
    where = where or f"item {item!r}"
    if "reference" in obj and "references" in obj:
        raise _bad(source, line, text, where, 'give "reference" or "references", not both',
                   _expected(source, "jsonl"))
    refs = None
    for field in REFERENCE_FIELDS:
        if field in obj:
            refs = _references(obj[field], source, line, text, where)
    answer = obj.get("answer")
    if answer is not None:
        answer = _text(answer, source, line, text, where, "answer")
    if refs is None and answer is None:
        raise _bad(source, line, text, where,
                   'this object has no "reference", "references" or "answer"',
                   _expected(source, "jsonl"))
    return AnswerRecord(item, refs, answer, line)


def _id(value, source, line, text, where) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise _bad(source, line, text, where, f'"id" must be a string or a whole number, found '
               f"{_kind(value)}", "an id for each item")


def _text(value, source, line, text, where, field) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise _bad(source, line, text, where, f'"{field}" must be a string, found {_kind(value)}',
               f"the {field} as text")


def _references(value, source, line, text, where) -> tuple[str, ...]:
    if isinstance(value, list):
        if not value:
            raise _bad(source, line, text, where, "the list of references is empty",
                       "at least one reference per item")
        return tuple(_text(v, source, line, text, where, "references") for v in value)
    return (_text(value, source, line, text, where, "reference"),)


def _bad(source, line, text, where, problem, expected) -> InputError:
    if line is None and where:
        problem = f"{where}: {problem}"
    return InputError(source, problem, line=line, text=text, expected=expected)


def _kind(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"{value!r}"


# ---------------------------------------------------------------- CSV and TSV

def _rows(text: str, source: str, fmt: str):
    """(records, column roles, header or None) of a CSV or TSV box."""
    rows = list(_split_rows(text, source, fmt))
    if not rows:
        return [], (), None
    header = None
    first_line, first = rows[0]
    names = [cell.strip().lower() for cell in first]
    if names[0] in ID_COLUMNS and any(n in (*REFERENCE_FIELDS, "answer") for n in names[1:]):
        header = first
        rows = rows[1:]
        roles = tuple("id" if i == 0 else ("reference" if n in REFERENCE_FIELDS else
                                           "answer" if n == "answer" else "ignored")
                      for i, n in enumerate(names))
        for role in ("reference", "answer"):
            if roles.count(role) > 1:
                raise InputError(source, f"the header names more than one {role} column",
                                 line=first_line, text=_line(text, first_line),
                                 expected="one id column, at most one reference column and "
                                          "one answer column")
    else:
        roles = ("id", ROLE_FIELD[source])
    width = len(roles)
    sep = ", " if fmt == "csv" else " <tab> "
    expected = sep.join(roles) if header else f"id{sep}{ROLE_FIELD[source]}"
    records = []
    for line, cells in rows:
        if len(cells) != width:
            hint = ""
            if fmt == "csv" and len(cells) > width:
                hint = ('; put text that holds commas in double quotes ("Paris, France"), or '
                        "use TSV")
            raise InputError(source, f"expected {width} columns ({expected}), found "
                             f"{len(cells)}{hint}", line=line, text=_line(text, line),
                             expected=expected)
        item = cells[0].strip()
        if not item:
            raise InputError(source, "the id (column 1) is empty", line=line,
                             text=_line(text, line), expected=expected)
        refs = answer = None
        for role, cell in zip(roles, cells):
            if role == "reference":
                refs = (cell,)
            elif role == "answer":
                answer = cell
        records.append(AnswerRecord(item, refs, answer, line))
    return records, roles, header


def _split_rows(text: str, source: str, fmt: str):
    """(line number where the row starts, cells) of each non-blank row."""
    if fmt == "tsv":
        for number, line in enumerate(text.split("\n"), 1):
            line = line.rstrip("\r")
            if line.strip():
                yield number, line.split("\t")
        return
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    start = 1
    try:
        for cells in reader:
            if any(cell.strip() for cell in cells):
                yield start, cells
            start = reader.line_num + 1
    except csv.Error as exc:
        raise InputError(source, f"this is not valid CSV ({exc})", line=start,
                         text=_line(text, start), expected="comma-separated cells, text "
                         "with commas or quotes in double quotes") from None


def _line(text: str, number: int) -> str:
    lines = text.split("\n")
    return lines[number - 1].rstrip("\r") if 0 < number <= len(lines) else ""


__all__ = ["parse_answer_box", "detect_answer_format", "AnswerRecord", "AnswerSummary",
           "AnswerBox", "ANSWER_FORMATS"]
