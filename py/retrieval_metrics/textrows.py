"""Text to rows of cells: decoding, lines, comments, headers, and the column separator.

Every text format (TREC, whitespace, tab and comma separated) goes through here, so the rules
of SPEC.md that hold for all of them live in one place: ASCII-whitespace splitting as trec_eval
does it, ``#`` comment lines, one header row, and one column count per file.
"""

from __future__ import annotations

import csv
import re
from typing import Callable, NamedTuple

from .errors import InputError

HEADER_FIRST_CELLS = frozenset({"query", "query-id", "query_id", "qid", "topic"})
ASCII_SPACE = " \t\n\r\v\f"
_ASCII_SPACE_RUN = re.compile(r"[ \t\n\r\v\f]+")
# Characters that str.split() treats as whitespace but trec_eval does not: inside an id they
# are part of the id (a non-breaking space in a title, say).
_NON_ASCII_SPACE = re.compile("[\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
SAMPLE_LINES = 100


def decode(data: str | bytes, source: str) -> str:
    """Text from a box or a file; refuses what is not UTF-8 text, drops a byte-order mark."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        data = bytes(data)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            raise InputError(source, f"this is not UTF-8 text (byte 0x{data[exc.start]:02x} "
                             f"at offset {exc.start:,})", line=line,
                             expected="UTF-8 text") from None
    else:
        text = data
    if text.startswith("\ufeff"):
        text = text[1:]
    nul = text.find("\x00")
    if nul >= 0:
        raise InputError(source, "this looks like a binary file (it contains NUL bytes)",
                         line=text.count("\n", 0, nul) + 1, expected="text")
    return text


def split_lines(text: str) -> list[str]:
    """Lines as trec_eval reads them: ``\\n`` ends a line (``\\r`` is whitespace), but a file
    saved with old Mac line ends (``\\r`` only) is still read line by line."""
    if "\n" not in text and "\r" in text:
        text = text.replace("\r", "\n")
    return text.split("\n")


def whitespace_splitter(text: str) -> Callable[[str], list[str]]:
    """A splitter on ASCII whitespace only; ``str.split`` when the text has no other space."""
    if (text.isascii() and not re.search("[\x1c-\x1f]", text)) or not _NON_ASCII_SPACE.search(text):
        return str.split

    def split(line: str) -> list[str]:
        line = line.strip(ASCII_SPACE)
        return _ASCII_SPACE_RUN.split(line) if line else []

    return split


def _tab_split(line: str) -> list[str]:
    if not line.strip(ASCII_SPACE):
        return []
    return [cell.strip(ASCII_SPACE) for cell in line.split("\t")]


def _csv_split(line: str) -> list[str]:
    if not line.strip(ASCII_SPACE):
        return []
    return [cell.strip(ASCII_SPACE) for cell in next(csv.reader([line], strict=True))]


class Table(NamedTuple):
    """The data rows of one text box, all of one width, with the way back to line numbers."""

    rows: list[list[str]]
    dialect: str  # whitespace | tsv | csv
    columns: int
    line_numbers: Callable[[], list[int]]  # 1-based line of each row, computed only on demand
    header: list[str] | None
    comments: int
    line_text: Callable[[int], str]  # the text of a 1-based line, for error messages


def data_lines(lines: list[str]) -> list[int]:
    """Indexes of the lines that hold data: not blank and not a ``#`` comment."""
    return [i for i, line in enumerate(lines) if line.strip(ASCII_SPACE) and not line.startswith("#")]


def detect_dialect(lines: list[str], allowed: tuple[int, ...], splitter) -> str:
    """Whitespace, tab or comma separated, from the first data lines.

    Whitespace wins whenever it gives a usable, consistent width (so ids may contain commas),
    except where every cell but the last ends in a comma ("q1, d1, 1": CSV with spaces) or
    where tabs give a different usable width (a TSV whose ids contain spaces).
    """
    sample = []
    for line in lines:
        if line.strip(ASCII_SPACE) and not line.startswith("#"):
            sample.append(line)
            if len(sample) >= SAMPLE_LINES:
                break
    if not sample:
        return "whitespace"

    def widths(split) -> set[int] | None:
        try:
            return {len(split(line)) for line in sample}
        except csv.Error:
            return None

    def usable(ws: set[int] | None) -> bool:
        return ws is not None and len(ws) == 1 and next(iter(ws)) in allowed

    ws = widths(splitter)
    if all("\t" in line for line in sample):
        tabs = widths(_tab_split)
        if usable(tabs) and tabs != ws:
            return "tsv"
    if all("," in line for line in sample):
        commas = widths(_csv_split)
        if usable(commas):
            trailing = all(all(cell.endswith(",") for cell in splitter(line)[:-1]) for line in sample)
            if not usable(ws) or trailing:
                return "csv"
    if usable(ws):
        return "whitespace"
    first = sample[0]
    if "\t" in first and usable(widths(_tab_split)):
        return "tsv"
    if "," in first and usable(widths(_csv_split)):
        return "csv"
    return "whitespace"


def read_table(text: str, source: str, dialect: str, allowed: dict[int, str],
               expected_any: str) -> Table:
    """Rows of cells from text; ``allowed`` maps each usable width to its column names.

    Raises InputError for the first row whose width is not that of the first row, or when the
    first row's width is not allowed.
    """
    lines = split_lines(text)
    splitter = whitespace_splitter(text)
    if dialect == "auto":
        dialect = detect_dialect(lines, tuple(allowed), splitter)
    split = {"whitespace": splitter, "trec": splitter, "tsv": _tab_split, "csv": _csv_split}[dialect]
    if dialect == "trec":
        dialect = "whitespace"
    has_comments = lines and (lines[0].startswith("#") or "\n#" in text or "\r#" in text)

    if dialect == "whitespace" and not has_comments:
        rows = list(map(split, lines))
        kept = [row for row in rows if row]
        del rows

        def line_numbers() -> list[int]:
            return [i + 1 for i, line in enumerate(lines) if split(line)]
        comments = 0
    else:
        keep = data_lines(lines)
        comments = sum(1 for line in lines if line.startswith("#"))
        kept = []
        for i in keep:
            try:
                kept.append(split(lines[i]))
            except csv.Error as exc:
                raise InputError(source, f"this line is not valid CSV ({exc})", line=i + 1,
                                 text=lines[i], expected="comma-separated cells") from None

        def line_numbers() -> list[int]:
            return [i + 1 for i in keep]

    header = None
    if kept and kept[0][0].lower() in HEADER_FIRST_CELLS:
        header = kept[0]
    if not kept or (header is not None and len(kept) == 1):
        raise InputError(source, "there is no data here", expected=expected_any)

    first = len(kept[0])
    if first not in allowed:
        raise InputError(source, f"expected {expected_any}, found {_columns(first)}",
                         line=line_numbers()[0], text=_line_text(lines, line_numbers()[0]),
                         expected=expected_any)
    if len(set(map(len, kept))) > 1:
        numbers = line_numbers()
        for row, number in zip(kept, numbers):
            if len(row) != first:
                raise InputError(
                    source, f"expected {_columns(first)} ({allowed[first]}) as in line "
                    f"{numbers[0]}, found {len(row)}", line=number,
                    text=_line_text(lines, number), expected=f"{_columns(first)} ({allowed[first]})")
    if header is not None:
        kept = kept[1:]
        first_line_numbers = line_numbers

        def line_numbers() -> list[int]:  # noqa: F811 - rows now start after the header
            return first_line_numbers()[1:]
    if dialect != "whitespace":  # whitespace splitting never yields an empty cell
        for column in range(first):
            if not all(row[column] for row in kept):
                numbers = line_numbers()
                for row, number in zip(kept, numbers):
                    if not row[column]:
                        raise InputError(source, f"column {column + 1} is empty", line=number,
                                         text=_line_text(lines, number), expected=allowed[first])
    return Table(kept, dialect, first, line_numbers, header, comments,
                 lambda number: _line_text(lines, number))


def _columns(n: int) -> str:
    return f"{n} column" if n == 1 else f"{n} columns"


def _line_text(lines: list[str], number: int) -> str:
    return lines[number - 1].rstrip("\r")


def line_text(text: str, number: int) -> str:
    """The text of line ``number`` (1-based), for error messages found after parsing."""
    return _line_text(split_lines(text), number)
