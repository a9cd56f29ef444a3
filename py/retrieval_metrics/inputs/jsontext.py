"""JSON text to a Python object, with errors that name the box and the line."""

from __future__ import annotations

import json

from ..errors import InputError


class _DuplicateKey(Exception):
    def __init__(self, key: str):
        self.key = key


def _no_duplicates(pairs: list) -> dict:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return result


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number that can be scored")


def load_json_object(text: str, source: str, noun: str):
    """Strict JSON: no NaN or Infinity, no key given twice in one object (which JSON would
    silently resolve to the last one)."""
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        line_text = text.split("\n")[exc.lineno - 1] if exc.lineno else None
        raise InputError(source, f"this is not valid JSON: {exc.msg} (column {exc.colno})",
                         line=exc.lineno, text=line_text, expected=f"JSON {noun}") from None
    except _DuplicateKey as exc:
        raise InputError(source, f"the key {exc.key!r} appears twice in one JSON object",
                         expected="each query once, and each document once per query") from None
    except ValueError as exc:  # NaN / Infinity
        raise InputError(source, str(exc), expected="finite numbers") from None
    except RecursionError:
        raise InputError(source, "the JSON is nested too deeply", expected=f"JSON {noun}") from None
