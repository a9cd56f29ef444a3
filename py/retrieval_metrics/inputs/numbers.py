"""Reading grades, ranks and scores from cells, with the line of the first bad one."""

from __future__ import annotations

import math
from typing import Callable

from ..errors import InputError


def whole_number(cell: str) -> int | None:
    """A grade as written: ``2``, ``-1``, ``+3``, ``2.0`` (a whole number); else None.

    Python's ``int`` also reads ``1_0`` and other scripts' digits (``\u0663``); trec_eval
    does not, so neither do we.

    >>> whole_number("2"), whole_number("2.0"), whole_number("1.5"), whole_number("1_0")
    (2, 2, None, None)
    >>> whole_number("\u0663")
    """
    if "_" in cell or not cell.isascii():
        return None
    try:
        return int(cell)
    except ValueError:
        pass
    try:
        value = float(cell)
    except ValueError:
        return None
    return int(value) if math.isfinite(value) and value.is_integer() else None


def finite_number(cell: str) -> float | None:
    """A score or rank: any finite decimal number; NaN, infinities and ``1_0`` are refused.

    >>> finite_number("12.5"), finite_number("1e-3"), finite_number("nan"), finite_number("x")
    (12.5, 0.001, None, None)
    """
    if "_" in cell or not cell.isascii():
        return None
    try:
        value = float(cell)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def fast_numbers(cells: list[str], kind: str, plain: bool = False) -> list | None:
    """The cells as numbers at C speed, or None if any of them needs a closer look.

    ``kind`` is ``grade`` (whole numbers) or ``number`` (finite numbers). ``int`` and
    ``float`` accept ``1_0`` and non-ASCII digits, so the cells are checked for both unless
    the caller knows its text is ``plain`` (ASCII without underscores).
    """
    try:
        if kind == "grade":
            values = list(map(int, cells))
        else:
            values = list(map(float, cells))
            # one C-level sum tells that all are finite, unless it overflows or one is not
            if not math.isfinite(sum(values)) and not all(map(math.isfinite, values)):
                return None
    except ValueError:
        return None
    if not plain and cells:
        if isinstance(cells[0], bytes):  # int() and float() read only ASCII digits from bytes
            if b"_" in b"".join(cells):
                return None
        else:
            joined = "".join(cells)
            if "_" in joined or not joined.isascii():
                return None
    return values


def parse_column(cells: list[str], kind: str, what: str, source: str, column: int,
                 line_numbers: Callable[[], list[int]], line_text: Callable[[int], str]) -> list:
    """All cells of one column as numbers; the first bad cell raises InputError naming its
    line. Grades written as whole floats (``2.0``) are accepted here."""
    values = fast_numbers(cells, kind)
    if values is not None:
        return values
    convert = whole_number if kind == "grade" else finite_number
    expected = f"a whole number {what}" if kind == "grade" else f"a finite number {what}"
    values = list(map(convert, cells))
    for value, cell, number in zip(values, cells, line_numbers()):
        if value is None:
            hint = ""
            if kind == "grade" and finite_number(cell) is not None:
                hint = ("; a number that is not whole is a score: are results in the "
                        "judgements box?")
            raise InputError(source, f"column {column + 1} should be {expected}, found "
                             f"{cell!r}{hint}",
                             line=number, text=line_text(number), expected=expected)
    return values
