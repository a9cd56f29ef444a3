"""Settings as people give them ("1,5,10", "exponential") to a validated ``Settings``."""

from __future__ import annotations

from collections.abc import Iterable

from . import metrics as m
from .errors import OptionError
from .scoring import Settings

MISSING = ("zero", "skip")
MAX_K = 1_000_000


def parse_k(k) -> tuple[int, ...]:
    """Cutoffs from an int, an iterable of ints, or text such as ``"1, 5,10"``.

    >>> parse_k("10,1, 5 5")
    (1, 5, 10)
    """
    if isinstance(k, str):
        parts = [p for p in k.replace(",", " ").split() if p]
        if not parts:
            raise OptionError("k", "k is empty: give one or more whole numbers >= 1, such as 1,5,10")
        values = []
        for part in parts:
            try:
                values.append(int(part))
            except ValueError:
                raise OptionError("k", f"k must be whole numbers >= 1, found {part!r}") from None
    elif isinstance(k, bool):
        raise OptionError("k", f"k must be a whole number >= 1, found {k!r}")
    elif isinstance(k, int):
        values = [k]
    elif isinstance(k, float) and k.is_integer():
        values = [int(k)]
    elif isinstance(k, Iterable):
        values = []
        for item in k:
            values.extend(parse_k(item))
    else:
        raise OptionError("k", f"k must be a whole number >= 1, found {k!r}")
    for value in values:
        if value < 1 or value > MAX_K:
            raise OptionError("k", f"k must be a whole number from 1 to {MAX_K:,}, found {value}")
    if not values:
        raise OptionError("k", "k is empty: give one or more whole numbers >= 1")
    return tuple(sorted(set(values)))


ZERO_DIVISION = ("skip", "warn", 0, 1, "nan")


def settings(k=10, gain="linear", missing="zero", metrics=None, zero_division="skip") -> Settings:
    """Validated settings; every refusal is an OptionError naming the setting."""
    if isinstance(zero_division, str) and zero_division in ("0", "1"):
        zero_division = int(zero_division)
    if isinstance(zero_division, float) and zero_division in (0.0, 1.0):
        zero_division = int(zero_division)
    if isinstance(zero_division, bool) or zero_division not in ZERO_DIVISION:
        raise OptionError("zero_division", "zero_division must be one of skip, warn, 0, 1, nan, "
                          f"found {zero_division!r}")
    if gain not in m.GAINS:
        raise OptionError("gain", f"gain must be one of {', '.join(m.GAINS)}, found {gain!r}")
    if missing not in MISSING:
        raise OptionError("missing", f"missing must be one of {', '.join(MISSING)}, found {missing!r}")
    if metrics is None:
        names = m.DEFAULT_METRICS
    else:
        if isinstance(metrics, str):
            metrics = [p for p in metrics.replace(",", " ").split() if p]
        names = tuple(dict.fromkeys(metrics))
        known = m.CUTOFF_METRICS + m.FULL_METRICS
        for name in names:
            if name not in known:
                raise OptionError("metrics", f"unknown metric {name!r}; known: {', '.join(known)}")
        if not names:
            raise OptionError("metrics", "choose at least one metric")
    return Settings(parse_k(k), names, gain, missing, zero_division)


def choice(field: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise OptionError(field, f"{field} must be one of {', '.join(allowed)}, found {value!r}")
    return value
