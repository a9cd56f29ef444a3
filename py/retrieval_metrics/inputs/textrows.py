"""Text to rows of cells: lines, comments, headers, the column separator, one width per file.

Every text format (TREC, whitespace, tab and comma separated) goes through here, so the rules
of docs/formats.md that hold for all of them live in one place: ASCII-whitespace splitting as trec_eval
does it, ``#`` comment lines, one header row, and one column count per file.
"""

from __future__ import annotations

import csv
import re
from typing import Callable, NamedTuple

from ..errors import InputError
from .fastrows import query_spans, uniform_columns
from .headers import names_columns, reordering
from .numbers import finite_number, parse_column, whole_number
from .records import Notice, doc_id, doc_text
from .source import NeedsFullText, Text

#: what a person may choose for any box (the same for judgements and results)
FORMATS = ("auto", "json", "trec", "csv", "tsv", "whitespace")
HEADER_FIRST_CELLS = frozenset({"query", "query-id", "query_id", "qid", "topic"})
ASCII_SPACE = " \t\n\r\v\f"
_ASCII_SPACE_RUN = re.compile(r"[ \t\n\r\v\f]+")
# Characters that str.split() treats as whitespace but trec_eval does not: inside an id they
# are part of the id (a non-breaking space in a title, say).
_NON_ASCII_SPACE = re.compile("[\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
SAMPLE_LINES = 100


def split_lines(text: str) -> list[str]:
    """Lines as trec_eval reads them: ``\\n`` ends a line (``\\r`` is whitespace), but a file
    saved with old Mac line ends (``\\r`` only) is still read line by line."""
    if "\n" not in text and "\r" in text:
        text = text.replace("\r", "\n")
    return text.split("\n")


def whitespace_splitter(text: str) -> Callable[[str], list[str]]:
    """A splitter on ASCII whitespace only; ``str.split`` when the text has no other space."""
    if text.isascii():
        safe = not any(c in text for c in "\x1c\x1d\x1e\x1f")
    else:
        safe = not _NON_ASCII_SPACE.search(text)
    if safe:
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
    """The data of one text box, column by column, all rows of one width, with the way back to
    line numbers (computed only when an error needs one)."""

    columns: dict[int, list[str]]  # columns[c][r]: the cell of row r in column c (wanted ones)
    spans: dict[str, list[list[int]]]  # the query column: where each query's rows are
    rows: int
    dialect: str  # whitespace | tsv | csv
    width: int
    line_numbers: Callable[[], list[int]]  # 1-based line of each row
    header: list[str] | None
    comments: int
    line_text: Callable[[int], str]  # the text of a 1-based line, for error messages
    order: tuple[int, ...] | None = None  # the header's column of each layout column, if moved
    layout: str = ""  # the layout's column names ("query doc rank-or-score")

    def layout_header(self) -> list[str] | None:
        """The header's names in the layout's order (the file's own where nothing moved)."""
        if self.header is None or self.order is None:
            return self.header
        return [self.header[i] for i in self.order]


def data_lines(lines: list[str]) -> list[int]:
    """Indexes of the lines that hold data: not blank and not a ``#`` comment."""
    return [i for i, line in enumerate(lines) if line.strip(ASCII_SPACE) and not line.startswith("#")]


# The second column of TREC's layouts as people write it (trec_eval ignores it).
TREC_ITERATION = frozenset({"0", "Q0", "q0"})


def detect_dialect(lines: list[str], allowed: tuple[int, ...], splitter, prefer: str | None = None,
                   numeric: dict[int, dict[int, tuple[str, str]]] | None = None) -> str:
    """Whitespace, tab or comma separated, from the first data lines.

    Whitespace wins whenever it gives a usable, consistent width (so ids may contain commas:
    "q1 a,b 1"), except where commas give more columns ("q1,doc one,1": CSV whose ids hold
    spaces), where every cell but the last ends in a comma ("q1, d1, 1": CSV with spaces) or
    where tabs give a different usable width (a TSV whose ids contain spaces). When both
    readings fit equally well ("red car,d1"), ``prefer`` (the other box's dialect) decides.

    A tab is TSV's separator only when the tab reading makes sense: a file in TREC's layout
    (the widest width, its numbers where they belong) whose lines hold a tab somewhere
    (``q1 Q0 d1 1 1.0<TAB>run``, ``q1 0 d1<TAB>2``) is read as trec_eval reads it, on any run
    of whitespace, unless the tab reading has number columns that read as numbers and TREC's
    second column is not the usual ``0``/``Q0`` (``q1<TAB>doc A<TAB>1``: a TSV of spaced ids).

    >>> detect_dialect(["q1 Q0 d1 1 1.0\\trun"], (2, 3, 6), str.split, None, {6: {4: ("number", "")}, 3: {2: ("number", "")}})
    'whitespace'
    >>> detect_dialect(["q1\\tdoc A\\t1"], (2, 3, 4), str.split, None, {4: {3: ("grade", "")}, 3: {2: ("grade", "")}})
    'tsv'
    """
    numeric = numeric or {}
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

    def fits(split, width: int) -> bool:
        """Every sampled row's number columns read as numbers (the width being usable)."""
        for line in sample:
            cells = split(line)
            for column, (kind, _) in numeric.get(width, {}).items():
                read = whole_number if kind == "grade" else finite_number
                if read(cells[column]) is None:
                    return False
        return True

    ws = widths(splitter)
    if all("\t" in line for line in sample):
        tabs = widths(_tab_split)
        if usable(tabs) and tabs != ws:
            trec = max(allowed)
            tab_width = next(iter(tabs))
            if usable(ws) and ws == {trec} and fits(splitter, trec):
                iteration = all(splitter(line)[1] in TREC_ITERATION for line in sample)
                if iteration or not numeric.get(tab_width) or not fits(_tab_split, tab_width):
                    return "whitespace"
            return "tsv"
    if all("," in line for line in sample):
        commas = widths(_csv_split)
        if usable(commas):
            trailing = all(all(cell.endswith(",") for cell in splitter(line)[:-1]) for line in sample)
            if not usable(ws) or trailing or next(iter(commas)) > next(iter(ws)):
                return "csv"
            if prefer == "csv" and commas == ws:
                return "csv"
    if usable(ws):
        return "whitespace"
    first = sample[0]
    if "\t" in first and usable(widths(_tab_split)):
        return "tsv"
    if "," in first and usable(widths(_csv_split)):
        return "csv"
    return "whitespace"


def read_table(src: Text, source: str, dialect: str, allowed: dict[int, str],
               expected_any: str, wanted: dict[int, tuple[int, ...]],
               numeric: dict[int, dict[int, tuple[str, str]]], prefer: str | None = None,
               other_box: dict[int, str] | None = None,
               constant: frozenset[int] = frozenset(),
               roles: dict[int, tuple] | None = None) -> Table:
    """The cells of every data row, of the columns ``wanted[width]`` only, those named in
    ``numeric[width]`` (column: (kind, description)) read as numbers.

    ``allowed`` maps each usable width to its column names. Raises InputError for the first
    row whose width is not that of the first row, or when that width is not allowed (naming
    the other box when the width is its layout: ``other_box[width]``, a TREC run's six columns
    in the judgements box, say). The query
    column comes back as ``spans`` (where each query's rows are), which keeps memory near the
    size of the document ids alone; document ids come back as UTF-8 bytes (``doc_id``). A
    column in ``constant`` may come back as ``[value]`` when every row holds that one value
    (see ``fastrows.uniform_columns``); read it with ``constant_value``.

    ``roles`` gives, for each width, the names each column may have in a header row
    (``headers``): a first row of such names is a header even when its first cell is not a
    query's name, and a header naming the columns in another order moves them into the
    layout's (``Table.order`` says how).
    """
    roles = roles or {}
    head = src.head()
    if dialect == "auto":
        head_lines = head.split("\n", SAMPLE_LINES * 2)[: SAMPLE_LINES * 2]
        dialect = detect_dialect(head_lines, tuple(allowed), whitespace_splitter(head), prefer,
                                 numeric)
    if dialect == "trec":
        dialect = "whitespace"

    def text_of(number: int) -> str:
        return _line_text(split_lines(src.full()), number)

    if dialect == "whitespace":
        try:
            found = uniform_columns(src.blocks(), allowed, wanted, numeric, HEADER_FIRST_CELLS,
                                    constant)
        except NeedsFullText:
            found = None
        if found is not None and found[4] is not None and reordering(found[4], roles.get(found[0])):
            found = None  # a header naming the columns in another order: the line reader moves them
        if found is not None:
            width, columns, spans, rows, header = found
            if rows:
                def line_numbers() -> list[int]:
                    numbers = [i + 1 for i, line in enumerate(split_lines(src.full()))
                               if line.split()]
                    return numbers[1:] if header is not None else numbers
                return Table(columns, spans, rows, dialect, width, line_numbers, header, 0,
                             text_of)

    text = src.full()
    splitter = whitespace_splitter(text)
    has_comments = text.startswith("#") or "\n#" in text or "\r#" in text
    split = {"whitespace": splitter, "tsv": _tab_split, "csv": _csv_split}[dialect]
    lines = split_lines(text)
    keep = data_lines(lines)
    comments = sum(1 for line in lines if line.startswith("#")) if has_comments else 0
    rows = []
    for i in keep:
        try:
            rows.append(split(lines[i]))
        except csv.Error as exc:
            raise InputError(source, f"this line is not valid CSV ({exc})", line=i + 1,
                             text=lines[i], expected="comma-separated cells") from None

    header = None
    if rows and (rows[0][0].lower() in HEADER_FIRST_CELLS or names_columns(rows[0], roles)):
        header = rows[0]
        rows = rows[1:]
        keep = keep[1:]
    if not rows:
        raise InputError(source, "there is no data here", expected=expected_any)

    width = len(rows[0])
    if width not in allowed:
        hint = (other_box or {}).get(width)
        hint = f"; this looks like {hint}: are the two boxes swapped?" if hint else ""
        raise InputError(source, f"expected {expected_any}, found {_columns(width)}{hint}",
                         line=keep[0] + 1, text=lines[keep[0]].rstrip("\r"), expected=expected_any)
    for row, i in zip(rows, keep):
        if len(row) != width:
            raise InputError(
                source, f"expected {_columns(width)} ({allowed[width]}) as in line "
                f"{keep[0] + 1}, found {len(row)}", line=i + 1, text=lines[i].rstrip("\r"),
                expected=f"{_columns(width)} ({allowed[width]})")
    for row, i in zip(rows, keep):
        for column, cell in enumerate(row):
            if not cell:  # only tab and comma separated cells can be empty
                raise InputError(source, f"column {column + 1} is empty", line=i + 1,
                                 text=lines[i].rstrip("\r"), expected=allowed[width])
    order = reordering(header, roles.get(width))
    if order is not None:
        rows = [[row[i] for i in order] for row in rows]
    by_column = list(zip(*rows))
    columns = {c: list(by_column[c]) if c in numeric.get(width, {}) else list(map(doc_id, by_column[c]))
               for c in wanted[width] if c}
    spans = query_spans(by_column[0])
    del rows, by_column

    def line_numbers() -> list[int]:
        return [i + 1 for i in keep]
    for c, (kind, what) in numeric.get(width, {}).items():
        columns[c] = parse_column(columns[c], kind, what, source, order[c] if order else c,
                                  line_numbers, text_of)
    return Table(columns, spans, len(keep), dialect, width, line_numbers, header, comments,
                 text_of, order, allowed[width])


def constant_value(column: list, rows: int):
    """The one value of a column whose every row holds it (a ``constant`` column of
    ``read_table``, or any column), else None.

    >>> constant_value([b"0"], 5), constant_value([b"0", b"0"], 2), constant_value([b"0", b"1"], 2)
    (b'0', b'0', None)
    """
    if not column:
        return None
    if len(column) < rows or column.count(column[0]) == len(column):
        return column[0]
    return None


def _columns(n: int) -> str:
    return f"{n} column" if n == 1 else f"{n} columns"


def _line_text(lines: list[str], number: int) -> str:
    return lines[number - 1].rstrip("\r")


def line_text(text: str, number: int) -> str:
    """The text of line ``number`` (1-based), for error messages found after parsing."""
    return _line_text(split_lines(text), number)


def find_line(text: str, dialect: str, query: str, doc: str, doc_column: int):
    """``(number, text)`` of the first line holding ``query`` and ``doc``, or None: for
    errors found after parsing."""
    doc = doc_text(doc)
    split = {"tsv": _tab_split, "csv": _csv_split}.get(dialect) or whitespace_splitter(text)
    for number, line in enumerate(split_lines(text), 1):
        if line.startswith("#"):
            continue
        try:
            cells = split(line)
        except csv.Error:
            continue
        if len(cells) > doc_column and cells[0] == query and cells[doc_column] == doc:
            return number, line.rstrip("\r")
    return None


def table_notices(table: Table, noun: str) -> list[Notice]:
    """What reading the rows skipped (a header, comment lines), worded for the box ``noun``."""
    notices = []
    if table.header is not None and table.order is None:
        notices.append(Notice("header_skipped", "info",
                              f"{noun}: the first row ({' '.join(table.header)}) was read as a "
                              "header and skipped.", 1))
    if table.order is not None:
        moved = ", ".join(f"{name!r} as {role}" for name, role in
                          zip(table.layout_header(), table.layout.split()))
        notices.append(Notice("header_columns", "info",
                              f"{noun}: the first row ({' '.join(table.header)}) was read as a header "
                              f"naming the columns in another order than {table.layout!r}, so "
                              f"they were read by their names: {moved}.", 1))
    if table.comments:
        notices.append(Notice("comments_skipped", "info",
                              f"{noun}: {table.comments:,} comment line"
                              f"{'s' if table.comments != 1 else ''} (starting with #) skipped.",
                              table.comments))
    return notices
