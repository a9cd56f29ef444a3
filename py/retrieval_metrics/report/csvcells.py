"""The one CSV dialect of every CSV the package writes, the page's downloads included (the page asks the engine for them).

- Python's ``csv`` module defaults (RFC 4180): comma, ``"`` quoting when a cell needs it, CRLF
  line ends.
- Numbers: Python's ``repr`` of the float (``1.0``, ``0.25``, ``2e-05``), which reads back to
  the same float; an undefined value is an empty cell. Counts are integers (``3``).
- Booleans: ``true`` / ``false``.
- Text cells (ids, names) that a spreadsheet would run as a formula, those starting with ``=``,
  ``+``, ``-``, ``@``, a tab or a carriage return, get a leading ``'`` (OWASP's advice for CSV
  injection); numbers are never changed. So an id ``-1`` is written ``'-1``: ids are text, and
  a spreadsheet would otherwise read ``-1+1`` as a formula. A text starting with ``'`` gets one
  more, so reading drops exactly one (``read_text_cell``) and every id comes back as it was.
  JSON and JSONL keep every id exact.
"""

from __future__ import annotations

import csv
import io

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
QUOTED_START = (*FORMULA_START, "'")  # a leading ' is doubled, so reading can drop exactly one


def text_cell(value: str) -> str:
    """A text cell, neutralised if a spreadsheet would run it as a formula.

    >>> text_cell("=HYPERLINK(\\"http://x\\")"), text_cell("-1"), text_cell("q1")
    ('\\'=HYPERLINK("http://x")', "'-1", 'q1')
    """
    return "'" + value if value.startswith(QUOTED_START) else value


def read_text_cell(cell: str) -> str:
    """The text a ``text_cell`` was made from.

    >>> [read_text_cell(text_cell(v)) for v in ("=1+1", "'q", "''", "q")]
    ['=1+1', "'q", "''", 'q']
    """
    return cell[1:] if cell.startswith("'") else cell


def number_cell(value) -> str:
    """A float as ``repr`` writes it; NaN or None (undefined) as an empty cell.

    >>> number_cell(1.0), number_cell(2e-05), number_cell(float("nan")), number_cell(None)
    ('1.0', '2e-05', '', '')
    """
    if value is None or value != value:
        return ""
    return repr(float(value))


def bool_cell(value: bool) -> str:
    return "true" if value else "false"


def write_rows(rows) -> str:
    """Rows of already formatted cells (the functions above) as CSV text."""
    out = io.StringIO()
    csv.writer(out).writerows(rows)  # the default dialect: "excel", CRLF line ends
    return out.getvalue()
