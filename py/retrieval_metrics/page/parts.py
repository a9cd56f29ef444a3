"""A large run scored in parts by several of the page's workers, as the command line splits it
across processes (``scoring.split``): the worker that was asked cuts the run at query
boundaries (``plan``), other workers score whole queries of their parts (``score_part``), it
scores the first part itself and merges them all (``merge``) into the very report ``analyse``
gives, number for number (each query is scored by the same ``score_query``; the means are
summed exactly, so no order can move a digit). The run's rankings are read only when a question
needs them (one query up close, the curve, a file). One part is allowed, but the page's worker
asks for parts only when it has helpers: in Pyodide, one part read this way measured slower
than the ordinary reading (1.68 s against 1.37 s on a million lines), unlike CPython.

Only a plain TREC run of six columns without a baseline, large enough to be worth it, is taken
this way (``plan`` says None otherwise); a part that turns out not to be plain (a comment in
the middle, a query's lines apart) makes ``merge`` say None, and the page's worker reads the
run the ordinary way, which also words every notice and error.
"""

from __future__ import annotations

from typing import NamedTuple

from ..errors import InputError, OptionError
from ..inputs.qrels import parse_qrels
from ..inputs.runs import THIRD_COLUMN
from ..inputs.split import NotClean, query_starts
from ..inputs.textrows import FORMATS
from ..scoring.evaluate import check_grades, paused_gc, readings_of
from ..scoring.query import metric_specs
from ..scoring.settings import ANALYSE_OPTIONS, choice, request_options
from ..scoring.split import PROBE_BYTES, PartScores, plain_trec_head, report_of_parts, run_rows, score_rows
from .analysis import Kept, page_settings

#: runs below this many bytes are read by one worker (starting others costs more than it saves)
SPLIT_MIN_BYTES = 16 << 20


class Plan(NamedTuple):
    """A run cut for several workers: where each part starts (the first at 0), and what every
    part is read with."""

    starts: list[int]
    judgements: object
    settings: object
    depth: int  # the largest k: the unjudged documents are counted in each top this deep


def plan(qrels, run: bytes, options: dict, baseline, workers: int,
         min_bytes: int = SPLIT_MIN_BYTES) -> Plan | None:
    """How to cut ``run`` for ``workers`` workers, or None when it is not for this path (below
    ``min_bytes``, not a plain TREC run, a baseline to compare, settings or judgements with a
    problem: the ordinary ``analyse`` then says what it has to)."""
    if workers < 1 or not isinstance(run, (bytes, bytearray)) or len(run) < min_bytes:
        return None
    if baseline:
        return None
    try:
        options = request_options(options, ANALYSE_OPTIONS, "analyse")
        run_format = choice("run_format", options.get("run_format", "auto"), FORMATS)
        third = choice("third_column", options.get("third_column", "auto"), THIRD_COLUMN)
        if run_format not in ("auto", "trec"):
            return None
        settings = page_settings(options)
        judgements = parse_qrels(qrels, choice("qrels_format", options.get("qrels_format", "auto"),
                                               FORMATS))
        check_grades(judgements, settings)
    except (InputError, OptionError):
        return None
    if not plain_trec_head(run[:PROBE_BYTES], run_format, third, judgements):
        return None
    return Plan(query_starts(run, workers), judgements, settings, max(settings.k))


def score_part(qrels, part: bytes, options: dict) -> dict:
    """One part (whole queries) scored by a worker that was handed it: ``PartScores`` as plain
    data, or ``{"clean": False}`` when the part is not one this path reads."""
    judgements = parse_qrels(qrels, options.get("qrels_format", "auto"))
    settings = page_settings(options)
    try:
        scored = score_rows(run_rows(part, 0, len(part)), judgements, settings, max(settings.k))
    except (NotClean, ValueError):
        return {"clean": False}
    return {"clean": True, **scored._asdict(), "ties": {q: [list(g) for g in groups]
                                                        for q, groups in scored.ties.items()}}


def score_first(plan: Plan, run: bytes) -> PartScores | None:
    """The first part, scored by the worker that cut the run (None: not clean)."""
    try:
        end = plan.starts[1] if len(plan.starts) > 1 else len(run)
        return score_rows(run_rows(run, 0, end), plan.judgements, plan.settings, plan.depth)
    except (NotClean, ValueError):
        return None


def merge(plan: Plan, run: bytes, others: list[dict], first: PartScores | None = None):
    """The first part (``score_first``'s, scored now when not given) and the other workers'
    parts (``score_part``'s answers, in file order) merged: ``(answer, kept)`` as
    ``analysis.analyse`` gives them, the kept inputs without the run's rankings (the session
    reads them when a question needs them); None when a part was not clean or a query's lines
    fell in two parts."""
    if any(not part.get("clean") for part in others):
        return None
    first = first if first is not None else score_first(plan, run)
    if first is None:
        return None
    parts = [first] + [PartScores(**{field: part[field] for field in PartScores._fields})
                       for part in others]
    with paused_gc():
        report = report_of_parts(plan.judgements, parts, plan.settings)
    if report is None:
        return None
    unjudged = {}
    for part in parts:
        unjudged.update(part.unjudged)
    inputs = {"qrels": plan.judgements.summary.to_dict(),
              "run": report.inputs["run"].to_dict(), "baseline": None}
    errors = {"qrels": None, "run": None, "options": None, "baseline": None}
    out = {"inputs": inputs, "errors": errors, "report": report.to_dict(), "comparison": None,
           "unjudged_in_top": {q: unjudged[q] for q in report.per_query if q in unjudged},
           "readings": readings_of(metric_specs(plan.settings))}
    kept = Kept(plan.judgements, None, None, plan.settings, tuple(report.per_query), report, None)
    return out, kept


__all__ = ["SPLIT_MIN_BYTES", "Plan", "merge", "plan", "score_first", "score_part"]
