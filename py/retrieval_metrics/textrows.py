"""Text to rows of cells: decoding, lines, comments, headers, and the column separator.

Every text format (TREC, whitespace, tab and comma separated) goes through here, so the rules
of SPEC.md that hold for all of them live in one place: ASCII-whitespace splitting as trec_eval
does it, ``#`` comment lines, one header row, and one column count per file.
"""

from __future__ import annotations

import csv
import os
import re
from itertools import groupby
from typing import Callable, NamedTuple

from .errors import InputError
from .numbers import fast_numbers, parse_column
from .records import Notice

HEADER_FIRST_CELLS = frozenset({"query", "query-id", "query_id", "qid", "topic"})
ASCII_SPACE = " \t\n\r\v\f"
_ASCII_SPACE_RUN = re.compile(r"[ \t\n\r\v\f]+")
# Characters that str.split() treats as whitespace but trec_eval does not: inside an id they
# are part of the id (a non-breaking space in a title, say).
_NON_ASCII_SPACE = re.compile("[\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
SAMPLE_LINES = 100


class InputFile(os.PathLike):
    """A file to be read by the parser itself (pathlib would cost the CLI 15 ms of imports)."""

    def __init__(self, path):
        self.path = os.fspath(path)

    def __fspath__(self) -> str:
        return self.path

    def __repr__(self) -> str:
        return f"InputFile({self.path!r})"


def decode(data, source: str) -> str:
    """Text from a box, bytes or a file (a Path: read here, so its bytes are freed as soon as
    they are decoded); refuses what is not UTF-8 text, drops a byte-order mark."""
    if isinstance(data, os.PathLike):
        try:
            with open(os.fspath(data), "rb") as file:
                data = file.read()
        except OSError as exc:
            raise InputError(source, f"cannot read {os.fspath(data)!r}: {exc.strerror}",
                             expected="a readable file") from None
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


class NeedsFullText(Exception):
    """The streaming reader met something only the whole-text reader handles or explains."""


READ_BYTES = 1 << 20


class Text:
    """One input's text, from a str, bytes or a file, read no more than the job needs.

    A clean whitespace file streams through ``blocks()``, a megabyte of the file at a time, so
    neither its bytes nor its text is ever whole in memory; everything else (and every error
    message) uses ``full()``, the whole decoded text, read once and kept.
    """

    def __init__(self, data, source: str, progress=None):
        self.data = data
        self.source = source
        self.progress = progress  # progress(source, done, total), called as blocks are read
        self._full = None

    def full(self) -> str:
        if self._full is None:
            self._full = decode(self.data, self.source)
        return self._full

    def head(self, size: int = 1 << 16) -> str:
        """The start of the text, for detection only (a bad byte is reported by full())."""
        if self._full is not None or not isinstance(self.data, (os.PathLike, bytes, bytearray)):
            return self.full()[:size]
        if isinstance(self.data, os.PathLike):
            try:
                with open(os.fspath(self.data), "rb") as file:
                    raw = file.read(size)
            except OSError:
                return self.full()[:size]  # raises the InputError that names the file
        else:
            raw = bytes(self.data[:size])
        return raw.decode("utf-8", "replace").removeprefix("\ufeff")

    def blocks(self):
        """The text as UTF-8 bytes, in pieces of about a megabyte that end at line ends;
        raises NeedsFullText for bytes that are not plain UTF-8 text (the whole-text reader
        then says where). Bytes, because ``bytes.split`` splits on exactly trec_eval's ASCII
        whitespace, and faster than ``str.split``."""
        data = self.data if self._full is None else self._full
        blocks = self._blocks(data)
        if self.progress is None:
            yield from blocks
            return
        total = os.path.getsize(os.fspath(data)) if isinstance(data, os.PathLike) else len(data)
        done = 0
        for block in blocks:
            yield block
            done += len(block)
            self.progress(self.source, min(done, total), total)

    def _blocks(self, data):
        if isinstance(data, str):
            yield from _str_blocks(data)
            return
        if isinstance(data, (bytes, bytearray, memoryview)):
            data = bytes(data)
            start, size = 0, len(data)
            while start < size:
                end = data.find(b"\n", start + READ_BYTES)
                end = size if end < 0 else end + 1
                yield _checked(data[start:end], start == 0)
                start = end
            return
        try:
            file = open(os.fspath(data), "rb")
        except OSError:
            raise NeedsFullText from None
        with file:
            carry = b""
            first = True
            while True:
                raw = file.read(READ_BYTES)
                if not raw:
                    break
                raw = carry + raw
                cut = raw.rfind(b"\n") + 1
                if cut:
                    raw, carry = raw[:cut], raw[cut:]
                else:
                    carry, raw = raw, b""
                    continue
                yield _checked(raw, first)
                first = False
            if carry:
                yield _checked(carry, first)


def _str_blocks(text: str):
    text = text.removeprefix("\ufeff")
    start, size = 0, len(text)
    while start < size:
        end = text.find("\n", start + READ_BYTES)
        end = size if end < 0 else end + 1
        try:
            raw = text[start:end].encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: not text the line reader accepts either
            raise NeedsFullText from None
        if b"\x00" in raw:
            raise NeedsFullText
        yield raw
        start = end


def _checked(raw: bytes, first: bool) -> bytes:
    if first and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if b"\x00" in raw:
        raise NeedsFullText
    if not raw.isascii():
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            raise NeedsFullText from None
    return raw


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


def data_lines(lines: list[str]) -> list[int]:
    """Indexes of the lines that hold data: not blank and not a ``#`` comment."""
    return [i for i, line in enumerate(lines) if line.strip(ASCII_SPACE) and not line.startswith("#")]


def detect_dialect(lines: list[str], allowed: tuple[int, ...], splitter, prefer: str | None = None) -> str:
    """Whitespace, tab or comma separated, from the first data lines.

    Whitespace wins whenever it gives a usable, consistent width (so ids may contain commas:
    "q1 a,b 1"), except where commas give more columns ("q1,doc one,1": CSV whose ids hold
    spaces), where every cell but the last ends in a comma ("q1, d1, 1": CSV with spaces) or
    where tabs give a different usable width (a TSV whose ids contain spaces). When both
    readings fit equally well ("red car,d1"), ``prefer`` (the other box's dialect) decides.
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
               numeric: dict[int, dict[int, tuple[str, str]]], prefer: str | None = None) -> Table:
    """The cells of every data row, of the columns ``wanted[width]`` only, those named in
    ``numeric[width]`` (column: (kind, description)) read as numbers.

    ``allowed`` maps each usable width to its column names. Raises InputError for the first
    row whose width is not that of the first row, or when that width is not allowed. Column 0
    (the query id) comes back with one string object per run of equal ids, which keeps memory
    near the size of the document ids alone.
    """
    head = src.head()
    if dialect == "auto":
        head_lines = head.split("\n", SAMPLE_LINES * 2)[: SAMPLE_LINES * 2]
        dialect = detect_dialect(head_lines, tuple(allowed), whitespace_splitter(head), prefer)
    if dialect == "trec":
        dialect = "whitespace"

    def text_of(number: int) -> str:
        return _line_text(split_lines(src.full()), number)

    if dialect == "whitespace":
        try:
            found = _uniform_columns(src.blocks(), allowed, wanted, numeric)
        except NeedsFullText:
            found = None
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
    if rows and rows[0][0].lower() in HEADER_FIRST_CELLS:
        header = rows[0]
        rows = rows[1:]
        keep = keep[1:]
    if not rows:
        raise InputError(source, "there is no data here", expected=expected_any)

    width = len(rows[0])
    if width not in allowed:
        raise InputError(source, f"expected {expected_any}, found {_columns(width)}",
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
    by_column = list(zip(*rows))
    columns = {c: list(by_column[c]) if c in numeric.get(width, {}) else list(map(doc_id, by_column[c]))
               for c in wanted[width] if c}
    spans = query_spans(by_column[0])
    del rows, by_column

    def line_numbers() -> list[int]:
        return [i + 1 for i in keep]
    for c, (kind, what) in numeric.get(width, {}).items():
        columns[c] = parse_column(columns[c], kind, what, source, c, line_numbers, text_of)
    return Table(columns, spans, len(keep), dialect, width, line_numbers, header, comments,
                 text_of)


def doc_id(text: str) -> bytes:
    """Document ids are kept as UTF-8 bytes everywhere (judgements and results alike): the
    fast reader splits bytes, and their order is trec_eval's strcmp order. A lone surrogate
    (possible in a JavaScript string) survives as it came."""
    return text.encode("utf-8", "surrogatepass")


def query_spans(queries, spans=None, row: int = 0, decode: bool = False) -> dict[str, list[list[int]]]:
    """Where each query's rows are, as ``[start, end)`` spans: files usually hold a query's
    rows together, so this walks runs of equal ids in C rather than every row in Python.
    Extends ``spans`` when given, for rows that start at ``row``.

    >>> query_spans(["q1", "q1", "q2", "q1"])
    {'q1': [[0, 2], [3, 4]], 'q2': [[2, 3]]}
    """
    spans = {} if spans is None else spans
    for query, same in groupby(queries):
        end = row + len(list(same))
        if decode:
            query = query.decode("utf-8")
        previous = spans.get(query)
        if previous is not None and previous[-1][1] == row:
            previous[-1][1] = end  # the same query went on across a chunk boundary
        elif previous is not None:
            previous.append([row, end])
        else:
            spans[query] = [[row, end]]
        row = end
    return spans


_LINE_END = b"\x00"  # decode() refuses NUL, so it can stand for a line end among the tokens
CHUNK_CHARS = 1 << 14  # small enough that a chunk's tokens stay in the CPU cache (2x faster than 1 MB)


def _uniform_columns(blocks, allowed: dict[int, str], wanted: dict[int, tuple[int, ...]],
                     numeric: dict[int, dict[int, tuple[str, str]]]):
    """``(width, columns, spans, rows, header)`` of a whitespace file whose every line holds
    the same number of cells, read 16 KB at a time with C-level splits of bytes; None when the
    file is not that simple (blank lines, rows of other widths, comments, a number that needs
    a closer look), which the line-by-line reader then handles and explains.

    Each line end becomes a token of its own, so in a file of width w they must stand exactly
    at every (w + 1)-th place, and nowhere else. Only the wanted columns are kept, so the
    cells nobody reads (``Q0``, the rank, the run tag) die with their chunk, and numbers are
    read chunk by chunk, so no column of score strings is ever whole. Document ids stay
    UTF-8 bytes (see ``doc_id``); query ids are decoded once per run of equal ids.
    """
    width = None
    columns: dict[int, list] = {}
    kinds: dict[int, str] = {}
    header = None
    at_start = True
    spans: dict[str, list[list[int]]] = {}
    row = 0
    for text in blocks:
        if (text.startswith(b"#") and at_start) or b"\n#" in text or b"\r#" in text or (
                b"\n" not in text and b"\r" in text):
            return None  # comments, or old Mac line ends: the line reader's job
        at_start = False
        start, size = 0, len(text)
        while start < size:
            end = text.find(b"\n", start + CHUNK_CHARS)
            end = size if end < 0 else end + 1
            chunk = text[start:end]
            line_ends = chunk.count(b"\n")
            plain = b"_" not in chunk
            tokens = chunk.replace(b"\n", b" \x00 ").split()
            del chunk
            start = end
            if tokens and tokens[-1] == _LINE_END:
                tokens.pop()
                line_ends -= 1
            if not tokens or tokens[0] == _LINE_END:
                return None  # a blank line
            if width is None:
                try:
                    width = tokens.index(_LINE_END)
                except ValueError:
                    width = len(tokens)
                if width not in allowed:
                    return None
                columns = {c: [] for c in wanted[width] if c}
                kinds = {c: kind for c, (kind, _) in numeric.get(width, {}).items()}
                if tokens[0].decode("utf-8").lower() in HEADER_FIRST_CELLS:
                    header = [token.decode("utf-8") for token in tokens[:width]]
                    del tokens[: width + 1]
                    line_ends -= 1
                    if not tokens:
                        continue
            stride = width + 1
            if (len(tokens) + 1) % stride:
                return None
            ends = tokens[width::stride]
            # every line end is one token; all of them must stand at the ends of rows
            if len(ends) != line_ends or ends.count(_LINE_END) != line_ends:
                return None
            query_spans(tokens[0::stride], spans, row, decode=True)
            row += len(ends) + 1
            for c, column in columns.items():
                cells = tokens[c::stride]
                if c in kinds:
                    values = fast_numbers(cells, kinds[c], plain)
                    if values is None:
                        return None
                    column += values
                else:
                    column += cells
    if width is None:
        return None
    return width, columns, spans, row, header


def _columns(n: int) -> str:
    return f"{n} column" if n == 1 else f"{n} columns"


def _line_text(lines: list[str], number: int) -> str:
    return lines[number - 1].rstrip("\r")


def line_text(text: str, number: int) -> str:
    """The text of line ``number`` (1-based), for error messages found after parsing."""
    return _line_text(split_lines(text), number)


def looks_like_json(text: str) -> bool:
    """An object or an array after any leading whitespace: no row format starts that way, and
    an array gets the JSON reader's clear refusal rather than a reading as one odd CSV cell."""
    return _JSON_START.match(text) is not None


_JSON_START = re.compile(r"[ \t\n\r\v\f]*[{\[]")


def find_line(text: str, dialect: str, query: str, doc: str, doc_column: int):
    """``(number, text)`` of the first line holding ``query`` and ``doc``, or None: for
    errors found after parsing."""
    doc = doc.decode("utf-8", "surrogatepass")
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
    if table.header is not None:
        notices.append(Notice("header_skipped", "info",
                              f"{noun}: the first row ({' '.join(table.header)}) was read as a "
                              "header and skipped.", 1))
    if table.comments:
        notices.append(Notice("comments_skipped", "info",
                              f"{noun}: {table.comments:,} comment line"
                              f"{'s' if table.comments != 1 else ''} (starting with #) skipped.",
                              table.comments))
    return notices
