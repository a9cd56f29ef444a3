"""The shape of a saved report (``Report.to_dict()``'s data): what every reader checks before
it trusts a file, so a truncated or hand-edited report is refused with its name and the field,
never half-read."""

from __future__ import annotations

import math

from ..errors import InputError

EXPECTED_REPORT = 'a report as Report.to_dict() gives it: {"per_query": {query: {metric: number}}, ...}'


def check_report_dict(data, source: str = "report") -> dict:
    """``data`` when it has the shape of ``Report.to_dict()`` (every field optional but
    ``per_query``), else InputError naming ``source`` (the file), the field and what it
    should hold: a saved report read back must never be half-trusted.

    >>> check_report_dict({"per_query": {"q1": {"ndcg@10": "high"}}}, "old.json")
    Traceback (most recent call last):
    ...
    retrieval_metrics.errors.InputError: old.json: per_query, query 'q1', ndcg@10: expected a number or null, found 'high'
    """
    def fail(where: str, what: str, found) -> None:
        shown = repr(found) if isinstance(found, (str, int, float, bool)) or found is None \
            else f"a {type(found).__name__}"
        raise InputError(source, f"{where}: expected {what}, found {shown[:80]}",
                         expected=EXPECTED_REPORT)

    if not isinstance(data, dict):
        fail("the report", "an object (a mapping of fields)", data)
    if "per_query" not in data:
        raise InputError(source, "not a report: there is no per_query field",
                         expected=EXPECTED_REPORT)

    def scores(where: str, values) -> None:
        if not isinstance(values, dict):
            fail(where, "an object of metric values", values)
        for key, value in values.items():
            if not isinstance(key, str):
                fail(where, "metric names", key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
                fail(f"{where}, {key}", "a number or null", value)
            if isinstance(value, float) and math.isinf(value):  # no measure's value
                fail(f"{where}, {key}", "a finite number or null", value)

    per_query = data["per_query"]
    if not isinstance(per_query, dict):
        fail("per_query", "an object of queries", per_query)
    for query, values in per_query.items():
        scores(f"per_query, query {str(query)!r}", values)
    if data.get("mean") is not None:
        scores("mean", data["mean"])
    for field, kind, what in (("keys", str, "a list of metric names"),
                              ("metrics", str, "a list of metric names"),
                              ("k", int, "a list of whole numbers"),
                              ("missing_queries", (str, int), "a list of query ids")):
        value = data.get(field)
        if value is None:
            continue
        if not isinstance(value, (list, tuple)) or not all(
                isinstance(v, kind) and not isinstance(v, bool) for v in value):
            fail(field, what, value)
    for field in ("gain", "missing"):
        if data.get(field) is not None and not isinstance(data[field], str):
            fail(field, "a string", data[field])
    policy = data.get("zero_division")  # "skip", "warn", or the value given: 0, 1, nan
    if policy is not None and (isinstance(policy, bool) or not isinstance(policy, (str, int, float))):
        fail("zero_division", "skip, warn or a number", policy)
    for field in ("scored_queries", "relevance_threshold"):
        value = data.get(field)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            fail(field, "a whole number", value)
    notices = data.get("notices")
    if notices is not None:
        if not isinstance(notices, list):
            fail("notices", "a list", notices)
        for i, notice in enumerate(notices, 1):
            if not isinstance(notice, dict) or not all(
                    isinstance(notice.get(f), str) for f in ("code", "level", "message")):
                fail(f"notice {i}", "an object with code, level and message strings", notice)
            if not isinstance(notice.get("count", 0), int) or not isinstance(
                    notice.get("queries", []), (list, tuple)):
                fail(f"notice {i}", "a whole-number count and a list of queries", notice)
    inputs = data.get("inputs")
    if inputs is not None:
        if not isinstance(inputs, dict):
            fail("inputs", "an object", inputs)
        for name, summary in inputs.items():
            if summary and not isinstance(summary, dict):
                fail(f"inputs, {name}", "an object", summary)
            for field in ("rows", "queries"):
                value = (summary or {}).get(field)
                if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                    fail(f"inputs, {name}, {field}", "a whole number", value)
    return data
