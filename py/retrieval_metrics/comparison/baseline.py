"""The baseline of a comparison: another run scored like the candidate, or a saved report.

A person keeps last week's JSON report and compares today's run with it, so a baseline may be
either; a saved report is recognised by its ``per_query`` object and used as it is.
"""

from __future__ import annotations

import json

from ..errors import InputError
from ..inputs.records import Judgements, Rankings
from ..inputs.runs import parse_run
from ..inputs.source import Text, looks_like_json
from ..report.report import Report, check_report_dict
from ..scoring.evaluate import paused_gc, score
from ..scoring.query import Settings

SOURCE = "baseline"


def saved_report(text: str) -> dict | None:
    """The report dict when the text is a saved JSON report (``report.to_dict()``, or the
    page's download that wraps it), else None."""
    if not looks_like_json(text):
        return None
    try:
        data = json.loads(text, parse_constant=_undefined_or_refused)
    except RecursionError:
        raise InputError(SOURCE, "the JSON is nested too deeply",
                         expected="a saved JSON report or results") from None
    except ValueError:
        return None
    if isinstance(data, dict) and isinstance(data.get("report"), dict):
        data = data["report"]
    if isinstance(data, dict) and isinstance(data.get("per_query"), dict):
        return check_report_dict(data, SOURCE)  # a report's shape, with a wrong value: refused
    return None


def _undefined_or_refused(name: str):
    """A NaN in a saved report (written by hand, or by a tool that writes JSON so) is an
    undefined value, as the report's own null; an infinity stays, for the report's check
    (or, in JSON results, the run reader's) to refuse by name."""
    return None if name == "NaN" else float(name)


def load_baseline(data, judgements: Judgements, settings: Settings, *, run_format="auto",
                  third_column="auto") -> Report | dict:
    """A saved report as its dict, or a run scored with the candidate's judgements and
    settings (so that the two are comparable by construction)."""
    if isinstance(data, Report):
        return data
    read = read_baseline(data, judgements, run_format=run_format, third_column=third_column)
    return read if isinstance(read, dict) else score(judgements, read, settings)


def read_baseline(data, judgements: Judgements, *, run_format="auto",
                  third_column="auto") -> Rankings | dict:
    """A saved report as its dict, or the baseline run parsed (not yet scored): the page
    keeps the parsed run to show its ranking of a query next to the candidate's."""
    if isinstance(data, dict) and isinstance(data.get("per_query"), dict):
        return check_report_dict(data, SOURCE)
    if not isinstance(data, dict):
        text = Text(data, SOURCE)
        if looks_like_json(text.head()):
            saved = saved_report(text.full())
            if saved is not None:
                return saved
    with paused_gc():
        return parse_run(data, run_format, third_column, SOURCE, judgements.summary.format)


__all__ = ["load_baseline", "read_baseline", "saved_report"]
