"""The page's numeric options, checked as the command line checks its flags.

The page (and anyone calling ``page.web`` from JavaScript or Python) passes options as numbers
or as the text of a field: ``"5"``, ``5`` and ``5.0`` are one whole number, while ``"abc"``,
``"1.5"`` or a number out of range get one OptionError in the CLI's words, naming the field,
never a TypeError or ValueError from ``int()``.
"""

from __future__ import annotations

import math

from ..errors import OptionError


def whole_option(options: dict, name: str, default, low: int, high: int | None = None):
    """``options[name]`` as an int from ``low`` to ``high`` (``default`` when absent or empty).

    >>> whole_option({"digits": "3"}, "digits", 4, 0, 15), whole_option({}, "seed", 0, 0)
    (3, 0)
    >>> whole_option({"digits": 99}, "digits", 4, 0, 15)
    Traceback (most recent call last):
    ...
    retrieval_metrics.errors.OptionError: digits must be a whole number from 0 to 15, found 99
    """
    value = options.get(name)
    if value is None or value == "":
        return default
    number = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, (str, float)) and not isinstance(value, bool):
        try:
            as_float = float(value)
        except (ValueError, OverflowError):
            as_float = math.nan
        if math.isfinite(as_float) and as_float.is_integer():
            number = int(as_float)
    if number is None or number < low or (high is not None and number > high):
        bounds = f"from {low:,} to {high:,}" if high is not None else f">= {low:,}"
        raise OptionError(name, f"{name} must be a whole number {bounds}, found {value!r}")
    return number


def fraction_option(options: dict, name: str, default: float) -> float:
    """``options[name]`` as a number strictly between 0 and 1 (alpha, a confidence level).

    >>> fraction_option({"alpha": "0.01"}, "alpha", 0.05)
    0.01
    >>> fraction_option({"alpha": "abc"}, "alpha", 0.05)
    Traceback (most recent call last):
    ...
    retrieval_metrics.errors.OptionError: alpha must be a number between 0 and 1, found 'abc'
    """
    value = options.get(name)
    if value is None or value == "":
        return default
    number = math.nan
    if not isinstance(value, bool):
        try:
            number = float(value)
        except (TypeError, ValueError, OverflowError):
            pass
    if not 0.0 < number < 1.0:
        raise OptionError(name, f"{name} must be a number between 0 and 1, found {value!r}")
    return number
