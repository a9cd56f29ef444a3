"""Judgements + results + settings -> Report: which queries count, their scores, the notices."""

from __future__ import annotations

import gc
import warnings

from ..errors import InputError
from ..inputs.objects import DUPLICATES, check_pair, file_named, read_judgements, read_rankings, text_input
from ..inputs.qrels import parse_qrels
from ..inputs.records import Judgements, Notice, Rankings
from ..inputs.runs import THIRD_COLUMN, parse_run
from ..inputs.textrows import FORMATS
from ..measures.aggregation import arithmetic_mean
from ..measures.core import judged_share
from ..measures.grades import MAX_EXPONENTIAL_GRADE
from ..measures.registry import BY_NAME, READINGS
from ..report.report import Report
from ..report.wording import agreeing, counted, listed
from .query import (
    JUDGED_WARNING_BELOW,
    Settings,
    has_relevant,
    mean_of,
    metric_keys,
    metric_specs,
    score_query,
    zero_scores,
)
from .settings import choice
from .settings import settings as make_settings
from .ties import score_tied, tie_extremes, tie_notice_of
from .undefined import UndefinedMetricWarning, warning_class  # noqa: F401 (importable from here)


def load(qrels, run, *, qrels_format="auto", run_format="auto", third_column="auto",
         run_source="run", duplicates="first") -> tuple[Judgements, Rankings]:
    """Both inputs read and checked together (text, paths and files by the text parsers;
    Python objects by ``inputs.objects``), with the cyclic garbage collector paused: parsing builds
    millions of small lists and the collector would walk them all many times over for
    nothing."""
    choice("run_format", run_format, FORMATS)
    choice("third_column", third_column, THIRD_COLUMN)
    choice("duplicates", duplicates, DUPLICATES)
    judgements = load_qrels(qrels, qrels_format=qrels_format)
    rankings = load_run(run, judgements, run_format=run_format, third_column=third_column,
                        run_source=run_source, duplicates=duplicates)
    return judgements, rankings


def load_qrels(qrels, *, qrels_format="auto") -> Judgements:
    """The judgements alone: parse them once and score many runs against them."""
    choice("qrels_format", qrels_format, FORMATS)
    with paused_gc():
        return _read(qrels, "qrels", lambda text: parse_qrels(text, qrels_format),
                     read_judgements)


def load_run(run, judgements: Judgements, *, run_format="auto", third_column="auto",
             run_source="run", duplicates="first") -> Rankings:
    """One run, read in the light of the judgements' format (a JSON qrels box makes a JSON
    run likely) and checked against them (id types, by position or by query id);
    ``run_source`` names it in errors and notices."""
    choice("run_format", run_format, FORMATS)
    choice("third_column", third_column, THIRD_COLUMN)
    choice("duplicates", duplicates, DUPLICATES)
    prefer = judgements.summary.format
    with paused_gc():
        rankings = _read(run, run_source,
                         lambda text: parse_run(text, run_format, third_column, run_source, prefer),
                         lambda data, source: read_rankings(data, source, duplicates))
    check_pair(judgements, rankings, run_source)
    return rankings


def _read(data, source: str, parse_text, read_object):
    if data is None:
        raise InputError(source, "nothing was given", expected="text, a path, a dict or a list")
    text = text_input(data, source)
    if text is not None:
        return parse_text(text)
    return read_object(data, source)


class paused_gc:
    def __enter__(self):
        self.was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc):
        if self.was_enabled:
            gc.enable()


def evaluate(qrels, run, k=10, gain="linear", missing="zero", *, qrels_format="auto",
             run_format="auto", third_column="auto", metrics=None, zero_division="skip",
             relevance_threshold=1, duplicates="first", ties="trec_eval", dialect=None) -> Report:
    """Scores a run against judgements; see docs/api.md. ``ties``: how documents the
    run gives equal scores are ordered ("trec_eval", "optimistic", "pessimistic" or
    "average", see ``scoring.ties``); ``dialect``: read every metric name as another tool
    does ("ir_measures", "ranx"; docs/names.md). The two-query case of
    docs/measures.md:

    >>> r = evaluate({"q1": {"d1": 2, "d4": 1}, "q2": ["d3"]},
    ...              {"q1": ["d4", "d2", "d1"], "q2": ["d5", "d3"]}, k=[2, 3])
    >>> r.mean["recall@2"], round(r.mean["ndcg@3"], 4), r.mean["mrr@3"]
    (0.75, 0.6956, 0.75)
    """
    settings = make_settings(k, gain, missing, metrics, zero_division, relevance_threshold,
                             ties=ties, dialect=dialect)
    judgements, rankings = load(qrels, run, qrels_format=qrels_format, run_format=run_format,
                                third_column=third_column, duplicates=duplicates)
    report = score(judgements, rankings, settings)
    report.read_from = paths_of(qrels, run)
    return report


def paths_of(*inputs) -> tuple[str, ...]:
    """The inputs read as files (``inputs.objects.file_named``): what a report's ``write`` must
    never replace."""
    return tuple(path for path in map(file_named, inputs) if path is not None)


def check_grades(judgements: Judgements, settings: Settings) -> None:
    _check_grade_limits(judgements, settings)
    if settings.gain != "exponential":
        return
    for query, grades in judgements.grades.items():
        for doc, grade in grades.items():
            if grade > MAX_EXPONENTIAL_GRADE:
                line, text = judgements.line_of(query, doc) or (None, None)
                shown = doc.decode("utf-8", "replace")
                raise InputError("qrels", f"query {query!r}, document {shown!r} has grade {grade:,}; "
                                 f"the 2^grade - 1 gain accepts grades up to "
                                 f"{MAX_EXPONENTIAL_GRADE:,}",
                                 line=line, text=text,
                                 expected=f"grades up to {MAX_EXPONENTIAL_GRADE:,}, or the linear gain")


def _check_grade_limits(judgements: Judgements, settings: Settings) -> None:
    """A measure that reads grades up to a parameter (``Param.limits_grades``: ERR's stop
    probability (2^grade - 1) / 2^max_grade is above 1 past max_grade, and gdeval.pl refuses
    such qrels too) refuses judgements with a higher grade, naming the line."""
    limits = []
    for spec in metric_specs(settings):
        measure = BY_NAME[spec.measure]
        for key, param in measure.params.items():
            if param.limits_grades:
                limits.append((dict(spec.params).get(key, param.default), key, measure))
    if not limits:
        return
    limit, param, measure = min(limits, key=lambda found: found[0])
    for query, grades in judgements.grades.items():
        for doc, grade in grades.items():
            if grade > limit:
                line, text = judgements.line_of(query, doc) or (None, None)
                shown = doc.decode("utf-8", "replace") if isinstance(doc, bytes) else doc
                raise InputError("qrels", f"query {query!r}, document {shown!r} has grade "
                                 f"{grade:,}; {measure.names.label or measure.name} reads "
                                 f"grades up to {limit} (its {param})",
                                 line=line, text=text,
                                 expected=f"grades up to {limit}, or a metric such as "
                                          f"{measure.name}({param}={grade})@10")


def score(judgements: Judgements, rankings: Rankings, settings: Settings) -> Report:
    """Applies the counting rules of docs/counting.md and scores every query that counts."""
    check_grades(judgements, settings)
    grades, ranked = judgements.grades, rankings.ranked
    with_relevant, counting = counted_queries(grades, settings)
    tied = rankings.ties or {}
    policy = settings.ties
    scores = {}
    with paused_gc():
        for query in counting:
            if query in ranked:
                if policy != "trec_eval" and query in tied:
                    scores[query] = score_tied(ranked[query], tied[query], grades[query],
                                               settings, policy)
                else:
                    scores[query] = score_query(ranked[query], grades[query], settings)
    shares = [share for query in with_relevant
              if (share := judged_share_of(ranked.get(query, ()), grades[query], settings)) is not None]
    return report_of(judgements, rankings.summary, rankings.notices, ranked.keys(), scores,
                     shares, settings, ranked, tied)


def counted_queries(grades: dict, settings: Settings) -> tuple[set, set]:
    """(the judged queries with a relevant document, the queries that count in the means)."""
    with_relevant = {q for q, g in grades.items() if has_relevant(g, settings.relevance_threshold)}
    return with_relevant, (with_relevant if settings.zero_division == "skip" else set(grades))


def judged_share_of(ranking, judged: dict, settings: Settings) -> float | None:
    """The share of the top k that is judged (None for an empty ranking), for the low-judged
    notice."""
    top = ranking[:max(settings.k)]
    return judged_share(list(map(judged.get, top)), max(settings.k)) if top else None


def report_of(judgements: Judgements, run_summary, run_notices, ranked_queries, scores: dict,
              shares: list, settings: Settings, ranked: dict | None = None,
              tied: dict | None = None, extremes: dict | None = None) -> Report:
    """The Report of the scores of the ranked queries that count (``scores``), the queries the
    run has (``ranked_queries``) and the judged shares of the top k (``shares``): the missing
    queries scored or left out, the means, the notices. ``tied`` (each ranking's runs of equal
    scores) and ``ranked`` (the rankings) feed the tie notice, or ``extremes`` (each tied
    query's ``ties.tie_extremes``, from the split reader, which holds no ranking here)."""
    grades = judgements.grades
    with_relevant, counting = counted_queries(grades, settings)
    ranked_queries = set(ranked_queries)
    no_relevant = sorted(q for q in grades if q not in with_relevant)
    missing = sorted(q for q in counting if q not in ranked_queries)
    unjudged = sorted(q for q in ranked_queries if q not in grades)
    per_query = {}
    with paused_gc():
        for query in sorted(counting):
            if query in ranked_queries:
                per_query[query] = scores[query]
            elif settings.missing == "zero":
                per_query[query] = zero_scores(settings, grades[query])
    if settings.zero_division == "warn" and no_relevant:
        warnings.warn(f"{counted(len(no_relevant), 'query')} without a relevant document: recall, nDCG "
                      "and AP are undefined there and were set to 0", warning_class(),
                      stacklevel=4)
    keys = list(metric_keys(settings))
    means = ({key: mean_of(key, [v[key] for v in per_query.values()], settings) for key in keys}
             if per_query else {})
    notices = judgements.notices + run_notices
    notices += _counting_notices(missing, unjudged, no_relevant, settings, len(per_query))
    notices += _judged_notice(shares, settings)
    tied = tied or {}
    if extremes is None:
        extremes = {q: tie_extremes(ranked[q], tied[q], grades[q], settings, per_query[q])
                    for q in per_query if q in tied and ranked and q in ranked}
    tie_notices, tie_ranges = tie_notice_of(per_query, tied, extremes, settings, means)
    notices += tie_notices
    notices += readings_notice(settings)
    return Report(settings.k, settings.metrics, settings.gain, settings.missing, keys, per_query,
                  means, len(per_query), missing, notices,
                  {"qrels": judgements.summary, "run": run_summary}, settings.zero_division,
                  settings.relevance_threshold, ties=settings.ties, tie_ranges=tie_ranges)


def readings_notice(settings: Settings) -> list[Notice]:
    """Which tool's reading each metric name was read in, when any was another tool's
    (``ir_measures:P(rel=2)@5``, ``ranx:hits@5``): so a number is never taken for another
    tool's measure of the same name (docs/names.md)."""
    readings = readings_of(metric_specs(settings))
    if not readings:
        return []
    listed_ = "; ".join(f"{r['key']} as {r['tool']} reads it ({r['definition']})" for r in readings)
    return [Notice("metric_readings", "info", f"Metric names read as another tool reads them: "
                   f"{listed_}.", len(readings))]


def readings_of(specs) -> list[dict]:
    """Per metric read in another tool's dialect: its key, the tool, the definition used."""
    out = []
    for spec in specs:
        measure = BY_NAME[spec.measure]
        if spec.measure in READINGS:
            out.append({"key": spec.key, "tool": measure.name.split(":", 1)[0],
                        "name": spec.key.split(":", 1)[1], "definition": measure.about.description})
    return out


def _counting_notices(missing, unjudged, no_relevant, settings: Settings, scored: int):
    notices = []
    if missing:
        verb = agreeing(len(missing), "has")
        if settings.missing == "zero":
            tail = ("score 0 on every metric and count in the means (as trec_eval -c does)"
                    if len(missing) > 1 else
                    "scores 0 on every metric and counts in the means (as trec_eval -c does)")
        else:
            tail = "left out of the means (as trec_eval does without -c)"
            tail = ("are " if len(missing) > 1 else "is ") + tail
        notices.append(Notice(
            "missing_queries", "warning",
            f"{counted(len(missing), 'query')} with judgements {verb} no results: {listed(missing)}. "
            f"{'They' if len(missing) > 1 else 'It'} {tail}; if the run should answer "
            f"{'them' if len(missing) > 1 else 'it'}, check that its query ids are the "
            "judgements' ones.", len(missing), tuple(missing)))
    if unjudged:
        n = len(unjudged)
        notices.append(Notice.about(
            "unjudged_queries", "info", f"{counted(n, 'query')} in the results {agreeing(n, 'has')} "
            f"no judgements and {agreeing(n, 'is')} not scored: {listed(unjudged)}.", unjudged))
    if no_relevant:
        n = len(no_relevant)
        has = agreeing(n, "has")
        if settings.zero_division == "skip":
            tail = (f"{agreeing(n, 'is')} not scored: {listed(no_relevant)}. trec_eval "
                    "counts such queries as zeros in its means, so its 'all' line can be lower "
                    "than these means; every per-query value agrees.")
        else:
            policy = {"warn": "0", 0: "0", 1: "1", "nan": "undefined (left out of those means)"}
            tail = (f"{agreeing(n, 'is')} scored: {listed(no_relevant)}. Recall, nDCG and "
                    f"AP, undefined there, are set to {policy[settings.zero_division]} "
                    f"(zero_division={settings.zero_division}).")
        notices.append(Notice(
            "no_relevant_queries", "info",
            f"{counted(n, 'query')} with judgements {has} no relevant document (no grade above 0) and "
            + tail, n, tuple(no_relevant)))
    if not scored:
        notices.append(Notice(
            "no_scored_queries", "warning",
            "No query could be scored: no query has both a relevant judgement and results"
            + (" (judged queries missing from the results are left out)" if missing else "")
            + ". Check that the query ids of the two inputs match.", 0))
    return notices


def _judged_notice(shares: list[float], settings: Settings) -> list[Notice]:
    """Unjudged documents in the top k count as not relevant, so every other number is then
    an underestimate: say so when fewer than half of the top k were judged (``shares``: the
    judged share of each ranked query with a relevant document)."""
    k = max(settings.k)
    if not shares:
        return []
    share = arithmetic_mean(shares)
    if share >= JUDGED_WARNING_BELOW:
        return []
    return [Notice("low_judged", "warning",
                   f"Only {share:.0%} of the top {k} results (mean over scored queries) have a "
                   f"judgement; unjudged documents count as not relevant, so every number here "
                   f"is likely an underestimate: judge more of the top documents, or add "
                   f"bpref or a judged-only measure (ndcg_judged), which leave unjudged "
                   f"documents out.", len(shares))]
