"""Reading grades, ranks and scores from cells, with the line of the first bad one."""

from __future__ import annotations

import math
from .errors import InputError


def whole_number(cell: str) -> int | None:
    """A grade as written: ``2``, ``-1``, ``+3``, ``2.0`` (a whole number); else None.

    >>> whole_number("2"), whole_number("2.0"), whole_number("1.5"), whole_number("1_0")
    (2, 2, None, None)
    """
    if "_" in cell:
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
    if "_" in cell:
        return None
    try:
        value = float(cell)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def parse_column(cells: list[str], source: str, what: str, table, column: int, kind: str) -> list:
    """All cells of one column as numbers, in C speed when they are clean.

    ``kind`` is ``grade`` (whole numbers) or ``number`` (finite numbers). The first bad cell
    raises InputError naming its line.
    """
    if kind == "grade":
        try:
            values = list(map(int, cells))
            if "_" not in "".join(cells):
                return values
        except ValueError:
            pass
        convert, expected = whole_number, f"a whole number {what}"
    else:
        try:
            values = list(map(float, cells))
            if all(map(math.isfinite, values)) and "_" not in "".join(cells):
                return values
        except ValueError:
            pass
        convert, expected = finite_number, f"a finite number {what}"
    values = list(map(convert, cells))
    for value, cell, number in zip(values, cells, table.line_numbers()):
        if value is None:
            raise InputError(source, f"column {column} should be {expected}, found {cell!r}",
                             line=number, text=table.line_text(number), expected=expected)
    return values
