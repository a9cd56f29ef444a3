"""TREC qrels and run files as other tools' Python readers take them (ir_measures'
``read_trec_qrels`` / ``read_trec_run``, ranx's ``Qrels.from_file`` / ``Run.from_file``): a path,
a ``.gz`` path, the text itself or an open file; blank lines skipped; a line with another
number of columns, or a grade or score that is not a number, refused with one ValueError naming
the file and the line.

>>> list(qrels_rows("q1 0 d1 2\\n\\nq1 0 d2 0\\n"))
[('q1', '0', 'd1', 2), ('q1', '0', 'd2', 0)]
>>> list(run_rows("q1 Q0 d1 1 0.5 bm25\\n", "r.trec"))
[('q1', 'd1', 0.5, 'bm25')]
>>> list(run_rows("q1 Q0 d1 1 high bm25\\n", "r.trec"))
Traceback (most recent call last):
...
ValueError: r.trec, line 1: the score 'high' is not a number
"""

from __future__ import annotations

import gzip
import io


def qrels_rows(file, source: str = "qrels"):
    """``(query, iteration, document, grade)`` per judgement line, the grade a whole number."""
    for n, parts in _rows(file, source, "query, iteration, document, relevance", 4):
        yield parts[0], parts[1], parts[2], _number(int, parts[3], f"{source}, line {n}: the "
                                                    "relevance {!r} is not a whole number")


def run_rows(file, source: str = "run"):
    """``(query, document, score, tag)`` per result line, the score a float."""
    for n, parts in _rows(file, source, "query, Q0, document, rank, score, tag", 6):
        yield parts[0], parts[2], _number(float, parts[4], f"{source}, line {n}: the score "
                                          "{!r} is not a number"), parts[5]


def _rows(file, source: str, columns: str, count: int):
    for n, line in enumerate(lines(file), 1):
        if line.strip():
            parts = line.split()
            if len(parts) != count:
                raise ValueError(f"{source}, line {n}: expected {count} columns ({columns}), "
                                 f"found {len(parts)}")
            yield n, parts


def _number(kind, text: str, refusal: str):
    try:
        return kind(text)
    except ValueError:
        raise ValueError(refusal.format(text)) from None


def lines(file):
    """The lines of a path, a ``.gz`` path, the text itself (any str holding a newline) or an
    open file."""
    if hasattr(file, "read"):
        yield from file
    elif isinstance(file, str) and "\n" in file:
        yield from io.StringIO(file)
    else:
        opener = gzip.open if str(file).endswith(".gz") else open
        with opener(file, "rt", encoding="utf-8") as handle:
            yield from handle
