"""Judgements (qrels) from JSON, rows or TREC qrels text, or from a Python dict."""

from __future__ import annotations

import json
import math

from ..errors import InputError
from .headers import DOC, GRADE, ITERATION, QUERY
from .jsontext import load_json_object
from .records import InputSummary, Judgements, Notice, SubtopicGrades, doc_id
from .source import Text, looks_like_json
from .textrows import constant_value, find_line, read_table, table_notices

SOURCE = "qrels"
LAYOUTS = {2: "query doc", 3: "query doc grade", 4: "query iteration doc grade"}
EXPECTED = "2, 3 or 4 columns (query doc; query doc grade; or TREC's query iteration doc grade)"
WANTED = {2: (0, 1), 3: (0, 1, 2), 4: (0, 1, 2, 3)}
#: the TREC layout's second column: "0" or "Q0" in most files, the subtopic (intent) id in
#: diversity judgements; read without being stored while it holds one value
SUBTOPIC_COLUMN = frozenset({1})
NUMERIC = {3: {2: ("grade", "(the grade)")}, 4: {3: ("grade", "(the grade)")}}
#: the names a header row may give each column of each layout (``headers``)
HEADER_ROLES = {2: (QUERY, DOC), 3: (QUERY, DOC, GRADE), 4: (QUERY, ITERATION, DOC, GRADE)}


def parse_qrels(data, fmt: str = "auto", progress=None) -> Judgements:
    """Judgements from text, bytes or a dict, in the format given or detected.

    >>> parse_qrels("q1 0 d1 2\\nq1 0 d2 0\\n").grades  # document ids: UTF-8 bytes
    {'q1': {b'd1': 2, b'd2': 0}}
    """
    if isinstance(data, dict):
        return _from_mapping(data, "dict", "Python dict")
    text = Text(data, SOURCE, progress)
    if fmt == "json" or (fmt == "auto" and looks_like_json(text.head())):
        judgements = _from_mapping(load_json_object(text.full(), SOURCE, "judgements"), "json",
                                   "JSON judgements")
        judgements.notices[:0] = text.notices("Judgements")
        return judgements
    if fmt == "trec":
        table = read_table(text, SOURCE, "whitespace", {4: LAYOUTS[4]}, "4 columns (TREC qrels: "
                           "query iteration doc grade)", WANTED, NUMERIC, constant=SUBTOPIC_COLUMN)
    else:
        table = read_table(text, SOURCE, fmt, LAYOUTS, EXPECTED, WANTED, NUMERIC,
                           other_box={5: "results (a TREC run without its tag?)",
                                      6: "results (a TREC run: query Q0 doc rank score tag)"},
                           constant=SUBTOPIC_COLUMN, roles=HEADER_ROLES)
    width = table.width
    if width == 4:
        doc_col, grade_col = 2, 3
        fmt_name, label = ("trec", "TREC qrels") if table.dialect == "whitespace" else (
            table.dialect, f"{table.dialect.upper()} qrels (TREC layout)")
    else:
        doc_col, grade_col = 1, (2 if width == 3 else None)
        fmt_name = table.dialect
        label = {"whitespace": "Whitespace-separated judgements", "tsv": "TSV judgements",
                 "csv": "CSV judgements"}[table.dialect]
    docs = table.columns[doc_col]
    if grade_col is None:
        grades = [1] * table.rows
    else:
        grades = table.columns[grade_col]
    judged: dict[str, dict[str, int]] = {}
    repeats: dict[str, int] = {}
    conflicts = 0
    subtopic_notice = []
    if width == 4 and constant_value(table.columns[1], table.rows) is None:
        judged, repeats, conflicts = _by_subtopic(table.spans, docs, table.columns[1], grades)
        subtopic_notice.append(_subtopic_notice(judged))
    for query, spans in table.spans.items() if not subtopic_notice else ():
        if len(spans) == 1:  # the common case, in C: one block of rows, no document twice
            start, end = spans[0]
            per_query = dict(zip(docs[start:end], grades[start:end]))
            if len(per_query) == end - start:
                judged[query] = per_query
                continue
        per_query = judged[query] = {}
        for start, end in spans:
            for doc, grade in zip(docs[start:end], grades[start:end]):
                if doc in per_query:
                    repeats[query] = repeats.get(query, 0) + 1
                    conflicts += per_query[doc] != grade
                else:
                    per_query[doc] = grade
    notices = text.notices("Judgements") + table_notices(table, "Judgements") + subtopic_notice
    if repeats:
        notices.append(judgement_repeat_notice(repeats, conflicts))
    if grade_col is not None:
        notices += ranks_as_grades(judged)
    summary = InputSummary(fmt_name, label, width, table.rows, len(judged))
    dialect = table.dialect
    return Judgements(judged, summary, notices,
                      lambda query, doc: find_line(text.full(), dialect, query, doc, doc_col))


def ranks_as_grades(judged: dict[str, dict]) -> list[Notice]:
    """A warning when the grades look like a run's ranks: within every query with more than
    one judgement they are all different and run 0 or 1, 2, ... n, and some query reaches 5
    (real grades repeat: few levels, many documents). A run pasted in the judgements box.

    >>> ranks_as_grades({"q1": {b"a": 1, b"b": 2, b"c": 3, b"d": 4, b"e": 5}})[0].code
    'looks_like_results'
    >>> ranks_as_grades({"q1": {b"a": 1, b"b": 1, b"c": 0, b"d": 2, b"e": 5}})
    []
    """
    top = 0
    for grades in judged.values():
        if len(grades) < 2:
            continue
        values = sorted(grades.values())
        if values[0] not in (0, 1) or values != list(range(values[0], values[0] + len(values))):
            return []
        top = max(top, values[-1])
    if top < 5:
        return []
    return [Notice("looks_like_results", "warning",
                   "Judgements: within each query every grade is different and they count 1, 2, "
                   f"3, ... (up to {top:,}), as a run's ranks do; are results in the judgements "
                   "box? If so, swap the boxes; each grade is read as it is.", len(judged))]


def _by_subtopic(spans, docs, subtopics, grades):
    """Diversity judgements (the second column varies): each query's ``SubtopicGrades``, a
    document's grade being its highest over its subtopics, and its positive subtopic grades
    (the only ones a relevance threshold, at least 1, can count; kept alone to save memory);
    a document judged twice for the same subtopic is a repeat (the first grade kept), as
    elsewhere. Each ``(subtopic, grade)`` pair is made once and shared, so a document costs a
    small tuple of references."""
    judged = {}
    repeats: dict[str, int] = {}
    conflicts = 0
    pairs: dict = {}  # (subtopic, grade) pairs, each made once and shared: a few per file
    for query, query_spans in spans.items():
        first: dict = {}  # (doc, subtopic) -> its first grade, for this query only
        for start, end in query_spans:
            for pair, grade in zip(zip(docs[start:end], subtopics[start:end]), grades[start:end]):
                if pair in first:
                    repeats[query] = repeats.get(query, 0) + 1
                    conflicts += first[pair] != grade
                else:
                    first[pair] = grade
        best: dict = {}
        positive: dict = {}
        for (doc, subtopic), grade in first.items():
            if doc not in best or grade > best[doc]:
                best[doc] = grade
            if grade > 0:
                pair = pairs.get((subtopic, grade))
                if pair is None:
                    name = (subtopic.decode("utf-8", "surrogateescape")
                            if isinstance(subtopic, bytes) else str(subtopic))
                    pair = pairs[subtopic, grade] = (name, grade)
                positive.setdefault(doc, []).append(pair)
        positive = {doc: tuple(found) for doc, found in positive.items()}
        judged[query] = SubtopicGrades(best, positive)
    return judged, repeats, conflicts


def _subtopic_notice(judged) -> Notice:
    subtopics = sum(len({s for per in g.subtopics.values() for s, _g in per})
                    for g in judged.values())
    return Notice("subtopic_judgements", "info",
                  f"Judgements: the second column holds more than one value, so it is read as "
                  f"the subtopic (intent) of each judgement, as ndeval reads TREC diversity "
                  f"qrels ({subtopics:,} subtopics with a relevant document over {len(judged):,} "
                  f"quer{'y' if len(judged) == 1 else 'ies'}); the diversity measures (alpha-nDCG, "
                  f"ERR-IA, NRBP, P-IA, subtopic recall) read each subtopic's judgement, every other "
                  f"measure a document's highest grade over its subtopics.", len(judged))


def judgement_repeat_notice(repeats: dict[str, int], conflicts: int) -> Notice:
    total = sum(repeats.values())
    message = (f"Judgements: {total:,} document{'s were' if total != 1 else ' was'} judged more "
               f"than once for the same query; the first grade is kept")
    message += (f" ({conflicts:,} of the repeats gave a different grade: keep one line per "
                f"document to choose its grade)." if conflicts else ".")
    return Notice("duplicate_judgements", "warning" if conflicts else "info", message, total,
                  tuple(sorted(repeats)))


def _from_mapping(data, fmt: str, label: str) -> Judgements:
    """``{q: {doc: grade}}`` or ``{q: [doc, ...]}`` (every listed doc has grade 1)."""
    if not isinstance(data, dict):
        raise InputError(SOURCE, f"expected an object of queries, found {type(data).__name__}",
                         expected='{"query": {"doc": grade}} or {"query": ["doc", ...]}')
    judged: dict[str, dict[str, int]] = {}
    rows = 0
    repeats: dict[str, int] = {}
    for query, docs in data.items():
        query = str(query)
        if isinstance(docs, dict):
            grades = {}
            for doc, grade in docs.items():
                grades[doc_id(str(doc))] = _grade(grade, query, doc)
        elif isinstance(docs, (list, tuple, set, frozenset)):
            grades = {}
            for doc in docs:
                if not isinstance(doc, (str, int)) or isinstance(doc, bool):
                    raise InputError(SOURCE, f"query {query!r}: document ids must be strings, "
                                     f"found {json.dumps(doc)}", expected="a list of document ids")
                key = doc_id(str(doc))
                if key in grades:
                    repeats[query] = repeats.get(query, 0) + 1
                grades[key] = 1
        else:
            raise InputError(SOURCE, f"query {query!r}: expected an object of document grades "
                             f"or a list of document ids, found {_json_kind(docs)}",
                             expected='{"doc": grade} or ["doc", ...]')
        rows += len(grades)
        judged[query] = grades
    notices = [judgement_repeat_notice(repeats, 0)] if repeats else []
    return Judgements(judged, InputSummary(fmt, label, None, rows, len(judged)), notices)


def _grade(value, query: str, doc) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (
            isinstance(value, float) and not (math.isfinite(value) and value.is_integer())):
        hint = ("; a number that is not whole is a score: are results in the judgements box?"
                if isinstance(value, float) and math.isfinite(value) else "")
        raise InputError(SOURCE, f"query {query!r}, document {str(doc)!r}: the grade should be "
                         f"a whole number, found {_json_value(value)}{hint}",
                         expected="a whole-number grade")
    return int(value)


def _json_value(value) -> str:
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _json_kind(value) -> str:
    return {str: "a string", int: "a number", float: "a number", bool: "true/false",
            type(None): "null"}.get(type(value), type(value).__name__)
