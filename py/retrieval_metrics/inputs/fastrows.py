"""The fast reader: large, clean whitespace files (TREC runs above all) at C speed.

Anything it does not handle (comments, blank lines, rows of other widths, a number that needs a
closer look) it hands back to the line-by-line reader in ``textrows``, which also words every
error, so this module never has to explain anything.
"""

from __future__ import annotations

from itertools import groupby

from .numbers import fast_numbers

_LINE_END = b"\x00"  # the readers refuse NUL bytes, so it can stand for a line end among the tokens
CHUNK_CHARS = 1 << 14  # small enough that a chunk's tokens stay in the CPU cache (2x faster than 1 MB)


def uniform_columns(blocks, allowed: dict[int, str], wanted: dict[int, tuple[int, ...]],
                    numeric: dict[int, dict[int, tuple[str, str]]], header_cells: frozenset[str],
                    constant: frozenset[int] = frozenset()):
    """``(width, columns, spans, rows, header)`` of a whitespace file whose every line holds
    the same number of cells, read 16 KB at a time with C-level splits of bytes; None when the
    file is not that simple (blank lines, rows of other widths, comments, a number that needs
    a closer look), which the line-by-line reader then handles and explains.

    Each line end becomes a token of its own, so in a file of width w they must stand exactly
    at every (w + 1)-th place, and nowhere else. Only the wanted columns are kept, so the
    cells nobody reads (``Q0``, the rank, the run tag) die with their chunk, and numbers are
    read chunk by chunk, so no column of score strings is ever whole. Document ids stay
    UTF-8 bytes (see ``doc_id``); query ids are decoded once per run of equal ids.

    A column in ``constant`` (the qrels' second column, which only diversity judgements use)
    comes back as ``[value]`` while every cell so far holds that one value: each chunk is
    checked with one C-level ``count`` and nothing is stored, so the common file pays no memory
    for it; the first other value makes it a whole column again.
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
                if tokens[0].decode("utf-8").lower() in header_cells:
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
            before = row
            row += len(ends) + 1
            for c, column in columns.items():
                cells = tokens[c::stride]
                if c in constant and len(column) <= 1:
                    if not column:
                        column.append(cells[0])
                    if cells.count(column[0]) == len(cells):
                        continue
                    column[:] = column * before  # the first other value: the column is whole
                    column += cells
                elif c in kinds:
                    values = fast_numbers(cells, kinds[c], plain)
                    if values is None:
                        return None
                    column += values
                else:
                    column += cells
    if width is None:
        return None
    return width, columns, spans, row, header


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
