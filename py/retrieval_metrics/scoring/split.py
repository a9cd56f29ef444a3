"""The calculator on a large, clean TREC run file: read and scored query by query, split by
query across processes (``inputs.split``), so that a run of millions of lines takes more than
one core and never has to be held whole.

The Report is the one ``score(judgements, load_run(...), settings)`` gives, number for number
(each query is scored by the same ``score_query``; the means are summed exactly, so their
order cannot move a digit); only a file the ordinary reader would read without a word is
taken this way: six whitespace-separated fields a line, plain ASCII, no comment, header,
tab, comma or quote, finite scores, each query's lines together. Ties are recorded as the
ordinary reader records them, scored by the tie policy and told in the same notice. For anything else
``score_file`` says None, and the caller reads the file the ordinary way, which then words
every notice and error.

The work on one range (``score_rows``) and the merging of the ranges (``report_of_parts``) are
the page's too: its workers score a large run's parts the same way (``page.parts``).
"""

from __future__ import annotations

from typing import NamedTuple

from ..errors import InputError
from ..inputs import split
from ..inputs.numbers import fast_numbers
from ..inputs.records import InputSummary
from ..inputs.runs import parse_run, ranking_repeat_notice, scored_ranking
from ..inputs.split import NotClean, QueryRows
from .evaluate import check_grades, counted_queries, judged_share_of, paused_gc, report_of
from .query import score_query
from .ties import score_tied, tie_extremes

PROBE_BYTES = 1 << 16
#: bytes that make a whitespace file something else (a comment, a TSV/CSV dialect, quotes,
#: old Mac or Windows line ends)
REFUSE = (b"#", b"\r", b"\t", b",", b'"', b"'", b";", b"|")


def score_file(judgements, path: str, settings, run_format: str = "auto",
               third_column: str = "auto", source: str = "run"):
    """The Report of the run in file ``path`` against ``judgements``, or None when the file
    is not one this path takes (see the module's docstring)."""
    if run_format not in ("auto", "trec") or not plain_trec_head(
            _head(path), run_format, third_column, judgements, source):
        return None
    try:
        check_grades(judgements, settings)
    except InputError:
        return None  # the ordinary way reads the run first, and says its errors first
    try:
        answers = split.in_processes(
            lambda span: score_rows(run_rows(path, span[0], span[1]), judgements, settings),
            split.parts(path))
    except (NotClean, OSError, ValueError):
        return None
    return report_of_parts(judgements, answers, settings, source)


def run_rows(source, start: int, end: int) -> QueryRows:
    """The six-field lines of a run (a path, or the bytes themselves) from ``start`` to
    ``end``, query by query, refusing all that this path does not take."""
    return QueryRows(source, start, end, 6, (2, 4), REFUSE, ascii_only=True)


class PartScores(NamedTuple):
    """What one range of a run gives: each counted query's scores, the judged shares of the
    tops, the queries in file order, the repeated documents dropped, the lines read, each tied
    query's runs of equal scores and their extremes (``ties.tie_extremes``), and each scored
    query's unjudged documents in its top ``depth`` (when asked for)."""

    scores: dict
    shares: list
    queries: list
    repeats: dict
    rows: int
    ties: dict
    extremes: dict
    unjudged: dict


def score_rows(rows: QueryRows, judgements, settings, depth: int = 0) -> PartScores:
    """The scores of every query of ``rows``, each as ``score(...)`` scores it (the same
    ``score_query``, the same tie policy); NotClean for a score this path does not read.
    ``depth`` > 0 also counts each scored query's unjudged documents in its top ``depth``."""
    grades = judgements.grades
    with_relevant, counting = counted_queries(grades, settings)
    scores, shares, queries, repeats, ties, extremes, unjudged = {}, [], [], {}, {}, {}, {}
    with paused_gc():
        for qid, (docs, cells) in rows:
            if b"_" in b"".join(cells):
                raise NotClean("an underscore in a score")
            values = fast_numbers(cells, "number", plain=True)
            if values is None:
                raise NotClean("a score that needs a closer look")
            query = qid.decode("ascii")
            queries.append(query)
            ranked, dropped, groups = scored_ranking(values, docs)  # as the reader does
            if dropped:
                repeats[query] = dropped
            judged = grades.get(query)
            if query in counting:
                if groups and settings.ties != "trec_eval":
                    scores[query] = score_tied(ranked, groups, judged, settings, settings.ties)
                else:
                    scores[query] = score_query(ranked, judged, settings)
                if groups:  # the tie notice's extremes, computed here with the ranking
                    ties[query] = groups
                    extremes[query] = tie_extremes(ranked, groups, judged, settings,
                                                   scores[query])
                if depth:
                    n = unjudged_count(ranked, judged or {}, depth)
                    if n:
                        unjudged[query] = n
            if query in with_relevant:
                share = judged_share_of(ranked, judged, settings)
                if share is not None:
                    shares.append(share)
    return PartScores(scores, shares, queries, repeats, rows.rows, ties, extremes, unjudged)


def unjudged_count(ranked, judged: dict, depth: int) -> int:
    """How many of the top ``depth`` documents of a ranking are not judged."""
    return sum(1 for doc in ranked[:depth] if doc not in judged)


def report_of_parts(judgements, parts, settings, source: str = "run"):
    """The Report of a run read in ranges (``score_rows`` of each, in file order), or None
    when a query's lines fell in two ranges or there were none."""
    scores, shares, queries, repeats, rows, ties, extremes = {}, [], [], {}, 0, {}, {}
    for part in parts:
        scores.update(part.scores)
        shares += part.shares
        queries += part.queries
        repeats.update(part.repeats)
        rows += part.rows
        ties.update(part.ties)
        extremes.update(part.extremes)
    if not queries or len(set(queries)) != len(queries):
        return None  # no lines, or one query's lines in two ranges
    summary = InputSummary("trec", "TREC run", 6, rows, len(queries), None)
    notices = [ranking_repeat_notice(repeats, source)] if repeats else []
    return report_of(judgements, summary, notices, queries, scores, shares, settings,
                     tied=ties, extremes=extremes)


def _head(path: str) -> bytes:
    try:
        with open(path, "rb") as file:
            return file.read(PROBE_BYTES)
    except OSError:
        return b""


def plain_trec_head(head: bytes, run_format: str, third_column: str, judgements,
                    source: str = "run") -> bool:
    """Whether the ordinary reader takes ``head`` (a run's first bytes, up to PROBE_BYTES) for
    a TREC run of six columns and says nothing about it (no header row, no encoding, nothing
    skipped)."""
    head = head[:PROBE_BYTES]
    head = head[:head.rfind(b"\n") + 1]
    if not head or not head.isascii() or any(byte in head for byte in REFUSE):
        return False
    try:
        rankings = parse_run(head, run_format, third_column, source,
                             judgements.summary.format)
    except InputError:
        return False
    summary = rankings.summary
    return (summary.format == "trec" and summary.columns == 6
            and summary.rows == head.count(b"\n")
            and all(n.code == "duplicate_documents" for n in rankings.notices))
