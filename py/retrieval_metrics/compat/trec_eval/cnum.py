"""C's number reading and printing, as trec_eval 10 uses them: ``atof`` and ``atol`` read the
longest number at the start of a field (``"12abc"`` is 12, ``"abc"`` is 0), and ``printf``'s
``%6.4f`` prints NaN as ``nan`` or ``-nan`` and infinities as ``inf``.
"""

from __future__ import annotations

import math
import re

_FLOAT = re.compile(rb"[ \t\n\v\f\r]*([+-]?)(?:(0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)"
                    rb"(?:[pP][+-]?[0-9]+)?)|((?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)|"
                    rb"(inf(?:inity)?|nan(?:\([0-9A-Za-z_]*\))?))", re.IGNORECASE)
_INT = re.compile(rb"[ \t\n\v\f\r]*([+-]?[0-9]+)")
LONG_MAX = 2 ** 63 - 1
LONG_MIN = -2 ** 63


def atof(text: bytes) -> float:
    """C's atof (strtod): the number at the start, or 0.0.

    >>> atof(b"2.5e1x"), atof(b".5"), atof(b"abc"), atof(b"-inf"), atof(b"1e")
    (25.0, 0.5, 0.0, -inf, 1.0)
    """
    match = _FLOAT.match(text)
    if not match:
        return 0.0
    sign = -1.0 if match.group(1) == b"-" else 1.0
    if match.group(2):
        body = match.group(2).decode()
        if "p" not in body.lower():
            body += "p0"
        return sign * float.fromhex(body)
    if match.group(3):
        return sign * float(match.group(3))
    word = match.group(4).lower()
    return sign * (math.inf if word.startswith(b"inf") else math.nan)


def atol(text: bytes | str) -> int:
    """C's atol: the whole number at the start, or 0 (clamped to a C long).

    >>> atol(b"12abc"), atol(b" -3"), atol(b"x"), atol("23.4")
    (12, -3, 0, 23)
    """
    if isinstance(text, str):
        text = text.encode("utf-8", "surrogateescape")
    match = _INT.match(text)
    if not match:
        return 0
    return max(LONG_MIN, min(LONG_MAX, int(match.group(1))))


def fixed(value: float) -> str:
    """printf's ``%6.4f``.

    >>> fixed(0.12345), fixed(-450.0), fixed(float("nan")), fixed(-float("nan")), fixed(float("inf"))
    ('0.1235', '-450.0000', '   nan', '  -nan', '   inf')
    """
    if value != value:
        return ("-nan" if math.copysign(1.0, value) < 0 else "nan").rjust(6)
    if value in (math.inf, -math.inf):
        return ("inf" if value > 0 else "-inf").rjust(6)
    return "%6.4f" % value


def whole(value: float) -> str:
    """printf's ``%ld`` of ``(long) value``: truncated toward zero.

    >>> whole(3.0), whole(-2.7)
    ('3', '-2')
    """
    if value != value or value in (math.inf, -math.inf):
        return str(LONG_MIN)  # what x86 makes of a cast it cannot do
    return str(int(value))


def double_name(name: str, value: float) -> str:
    """trec_eval's name for a measure at a real cutoff: ``%s_%3.2f`` in a buffer of
    len(name) + 10 bytes (longer names are cut, as snprintf cuts them).

    >>> double_name("iprec_at_recall", 0.1), double_name("Rprec_mult", 5.0)
    ('iprec_at_recall_0.10', 'Rprec_mult_5.00')
    """
    return (f"{name}_{fixed_width(value)}")[:len(name) + 9]


def fixed_width(value: float) -> str:
    if value != value:
        return "-nan" if math.copysign(1.0, value) < 0 else "nan"
    if value in (math.inf, -math.inf):
        return "inf" if value > 0 else "-inf"
    return "%3.2f" % value
