"""Ranked results (runs) from JSON, rows or TREC run text, or from a Python dict.

Every run ends up as ``{query: [doc, ...]}`` best first, each document once, ordered as
docs/formats.md says: row order, rank ascending, or score descending with equal scores broken by
document id descending (trec_eval's rule; Python's string order is code-point order, which is
UTF-8 byte order, as trec_eval's strcmp).
"""

from __future__ import annotations

import json
import math
from operator import ge, itemgetter

from ..errors import InputError
from .headers import DOC, ITERATION, QUERY, RANK, SCORE, TAG
from .jsontext import load_json_object
from .records import InputSummary, Notice, Rankings, doc_id, equal_score_runs, sort_tied_ids, tie_groups
from .source import Text, looks_like_json
from .textrows import read_table, table_notices

SOURCE = "run"
LAYOUTS = {2: "query doc", 3: "query doc rank-or-score", 6: "query Q0 doc rank score tag"}
EXPECTED = "2, 3 or 6 columns (query doc; query doc rank-or-score; or TREC's query Q0 doc rank score tag)"
WANTED = {2: (0, 1), 3: (0, 1, 2), 6: (0, 2, 4)}
NUMERIC = {3: {2: ("number", "(a rank or a score)")}, 6: {4: ("number", "(the score)")}}
THIRD_COLUMN = ("auto", "rank", "score")
_first = itemgetter(0)
#: what a header may call the third column of a 3-column run, and what that column then holds
HEADER_NAMES = {
    **dict.fromkeys(("rank", "ranks", "ranking", "position", "pos", "place"), "rank"),
    **dict.fromkeys(("score", "scores", "sim", "similarity", "relevance", "rel", "grade",
                     "weight", "prob", "probability", "logit", "value"), "score"),
}
_second = itemgetter(1)
#: the names a header row may give each column of each layout (``headers``)
HEADER_ROLES = {2: (QUERY, DOC), 3: (QUERY, DOC, RANK | SCORE),
                6: (QUERY, ITERATION, DOC, RANK, SCORE, TAG)}


def parse_run(data, fmt: str = "auto", third_column: str = "auto", source: str = SOURCE,
              prefer: str | None = None, progress=None) -> Rankings:
    """A run from text, bytes or a dict, in the format given or detected (``prefer``: the
    judgements' dialect, which decides when commas and whitespace read equally well).

    >>> parse_run("q1 Q0 a 1 0.5 t\\nq1 Q0 b 2 0.5 t\\nq1 Q0 c 3 0.9 t\\n").ranked
    {'q1': [b'c', b'b', b'a']}
    """
    if isinstance(data, dict):
        return _from_mapping(data, "dict", "Python dict", source)
    text = Text(data, source, progress)
    if fmt == "json" or (fmt == "auto" and looks_like_json(text.head())):
        rankings = _from_mapping(load_json_object(text.full(), source, "results"), "json",
                                 "JSON results", source)
        rankings.notices[:0] = text.notices(_noun(source))
        return rankings
    if fmt == "trec":
        table = read_table(text, source, "whitespace", {6: LAYOUTS[6]},
                           "6 columns (TREC run: query Q0 doc rank score tag)", WANTED, NUMERIC)
    else:
        table = read_table(text, source, fmt, LAYOUTS, EXPECTED, WANTED, NUMERIC, prefer,
                           other_box={4: "judgements (TREC qrels: query iteration doc grade)"},
                           roles=HEADER_ROLES)
    width = table.width
    cols = table.columns
    spans = table.spans
    notices = text.notices(_noun(source)) + table_notices(table, _noun(source))
    summary_rows, dialect, table_header = table.rows, table.dialect, table.layout_header()
    del table, text  # no error can come from the text now; free it before the sorting
    dialect_label = {"whitespace": "Whitespace-separated results", "tsv": "TSV results",
                     "csv": "CSV results"}[dialect]
    read_as = None
    if width == 6:
        fmt_name, label = ("trec", "TREC run") if dialect == "whitespace" else (
            dialect, f"{dialect.upper()} results (TREC layout)")
        ranked, repeats, ties = _ordered(spans, [cols[4], cols[2]], best_first)
    elif width == 3:
        fmt_name, label = dialect, dialect_label
        values = cols[2]
        read_as = third_column
        named = third_column_named(table_header)
        if read_as == "auto" and named:
            read_as = named
            notices.append(_header_notice(named, table_header[2], source, len(values)))
        elif read_as == "auto":
            read_as = "rank" if all(map(float.is_integer, values)) else "score"
            notices.append(_third_column_notice(read_as, values, source))
        if third_column == "auto" and read_as == "rank":
            notices += grades_as_ranks(spans, values, source)
        order = best_first if read_as == "score" else by_rank
        ranked, repeats, ties = _ordered(spans, [values, cols[1]], order)
    else:
        fmt_name, label = dialect, dialect_label
        ranked, repeats, ties = _ordered(spans, [cols[1]], in_row_order)
    if repeats:
        notices.append(ranking_repeat_notice(repeats, source))
    summary = InputSummary(fmt_name, label, width, summary_rows, len(ranked), read_as)
    return Rankings(ranked, summary, notices, ties=ties)


def _noun(source: str) -> str:
    return "Baseline" if source == "baseline" else "Results"


def third_column_named(header: list[str] | None) -> str | None:
    """"rank" or "score" when a header row names the third column of a 3-column run so
    (``query,doc,score``: whole-number scores are still scores), else None.

    >>> third_column_named(["qid", "docno", "Score"]), third_column_named(["query", "doc", "x"])
    ('score', None)
    """
    if not header or len(header) != 3:
        return None
    return HEADER_NAMES.get(header[2].strip().strip("\"'").lower().replace("-", "_"))


def grades_as_ranks(spans: dict[str, list], values: list[float], source: str) -> list[Notice]:
    """A warning when a third column read as ranks looks like judgements' grades: few values
    (at most 0 to 4), repeated within most queries, where a run's ranks differ. Judgements
    pasted in the results box.

    >>> grades_as_ranks({"q1": [[0, 3]], "q2": [[3, 5]]}, [1.0, 0.0, 1.0, 2.0, 2.0], "run")[0].code
    'looks_like_judgements'
    >>> grades_as_ranks({"q1": [[0, 3]]}, [1.0, 2.0, 3.0], "run")
    []
    """
    if not values or min(values) < 0 or max(values) > 4:
        return []
    repeated = 0
    for parts in spans.values():
        seen = [values[i] for start, end in parts for i in range(start, end)]
        repeated += len(set(seen)) < len(seen)
    if repeated * 2 <= len(spans):
        return []
    return [Notice("looks_like_judgements", "warning",
                   f"{_noun(source)}: the third column holds only the whole numbers "
                   f"{', '.join(f'{v:g}' for v in sorted(set(values)))}, repeated within "
                   f"{repeated:,} of {len(spans):,} queries, as judgements' grades are (a run's "
                   "ranks differ); are judgements in the results box? If so, swap the boxes.",
                   repeated)]


def _header_notice(read_as: str, name: str, source: str, count: int) -> Notice:
    how = "scores, highest first" if read_as == "score" else "ranks, lowest first"
    return Notice("scores_detected" if read_as == "score" else "ranks_detected", "info",
                  f"{_noun(source)}: the third column was read as {how}, because the header "
                  f"row names it {name!r}.", count)


def _third_column_notice(read_as: str, values: list[float], source: str) -> Notice:
    if read_as == "score":
        example = next(v for v in values if not v.is_integer())
        return Notice("scores_detected", "info",
                      f"{_noun(source)}: the third column was read as scores, highest first "
                      f"(equal scores by document id, descending), because it holds numbers "
                      f"that are not whole, such as {example:g}.", len(values))
    return Notice("ranks_detected", "info",
                  f"{_noun(source)}: the third column was read as ranks, lowest first, because "
                  "every value in it is a whole number. If these are scores, choose “scores” for "
                  "the third column.", len(values))


def ranking_repeat_notice(repeats: dict[str, int], source: str) -> Notice:
    total = sum(repeats.values())
    return Notice("duplicate_documents", "warning",
                  f"{_noun(source)}: {total:,} repeated document{'s' if total != 1 else ''} "
                  f"in {len(repeats):,} quer{'ies' if len(repeats) != 1 else 'y'} "
                  "counted at the first (best) rank only; remove the repeats to rank each "
                  "document once, as you mean it.",
                  total, tuple(sorted(repeats)))


def _dedupe(docs: list[str]) -> tuple[list[str], int]:
    """Each document at its first (best) rank, and how many repeats were dropped."""
    if len(set(docs)) == len(docs):
        return docs, 0
    unique = list(dict.fromkeys(docs))
    return unique, len(docs) - len(unique)


def _ordered(spans: dict[str, list], columns: list[list], order) -> tuple[dict, dict, dict]:
    """``order(*columns of one query)`` for every query, deduplicated while the query's rows
    are still in the cache; returns the rankings, the repeats per query and, when the order
    is by score, the runs of equal scores (``records.tie_groups``) per query that has any."""
    ranked, repeats, ties = {}, {}, {}
    scored = order is best_first
    for query, parts in spans.items():
        if len(parts) == 1:
            start, end = parts[0]
            pieces = [column[start:end] for column in columns]
        else:
            pieces = [[] for _ in columns]
            for start, end in parts:
                for piece, column in zip(pieces, columns):
                    piece += column[start:end]
        if scored:
            docs, dropped, groups = scored_ranking(*pieces)
            if groups:
                ties[query] = groups
        else:
            docs, dropped = _dedupe(order(*pieces))
        ranked[query] = docs
        if dropped:
            repeats[query] = dropped
    return ranked, repeats, ties


def best_first(keys: list[float], ids: list[str]) -> list[str]:
    """Ids by score, highest first, equal scores by id descending (trec_eval's order).

    Runs are nearly always written best first already, so that case costs a few C-level
    passes: only the runs of equal scores are sorted, by id.

    >>> best_first([3.0, 2.0, 2.0, 5.0], ["a", "b", "c", "d"])
    ['d', 'a', 'c', 'b']
    >>> best_first([3.0, 2.0, 2.0, 2.0, 1.0], ["a", "b", "d", "c", "e"])
    ['a', 'd', 'c', 'b', 'e']
    """
    return _best_first(keys, ids)[0]


def _best_first(keys: list[float], ids: list[str]) -> tuple[list[str], list[float]]:
    """``best_first``'s ids, and the scores in that order (for the runs of equal scores)."""
    ids, keys, _ = _sorted_by_score(keys, ids)
    return ids, keys


def _sorted_by_score(keys, ids):
    """``_best_first``'s ids and scores, and the runs of equal scores when they were found on
    the way (``records.equal_score_runs``; None when the scores had to be sorted)."""
    if not all(map(ge, keys, keys[1:])):
        pairs = sorted(zip(keys, ids), reverse=True)
        return list(map(_second, pairs)), list(map(_first, pairs)), None
    groups = equal_score_runs(keys)
    sort_tied_ids(ids, groups)
    return ids, keys, groups


def scored_ranking(keys: list[float], ids: list) -> tuple[list, int, tuple]:
    """One query's ranking by score, as the readers record it: the documents best first
    (``best_first``'s order), each once; how many repeats were dropped; and the runs of equal
    scores in that ranking (``records.tie_groups``). The scores are compared once for all
    three, as this runs on every query of a large file."""
    ids, keys, groups = _sorted_by_score(keys, ids)
    docs, dropped = _dedupe(ids)
    if dropped or groups is None:
        return docs, dropped, tie_groups(keys, ids if dropped else None)
    return docs, dropped, groups


def by_rank(ranks: list[float], ids: list[str]) -> list[str]:
    """Ids by rank, lowest first; equal ranks keep their row order (a stable sort).

    >>> by_rank([2, 1, 2], ["a", "b", "c"])
    ['b', 'a', 'c']
    """
    return [ids[i] for i in sorted(range(len(ranks)), key=ranks.__getitem__)]


def in_row_order(ids: list[str]) -> list[str]:
    return ids


def _from_mapping(data, fmt: str, label: str, source: str) -> Rankings:
    """``{q: [doc, ...]}`` best first, or ``{q: {doc: score}}`` highest score first."""
    if not isinstance(data, dict):
        raise InputError(source, f"expected an object of queries, found {type(data).__name__}",
                         expected='{"query": ["doc", ...]} or {"query": {"doc": score}}')
    ranked: dict[str, list[str]] = {}
    ties = {}
    rows = 0
    by_score = False
    for query, docs in data.items():
        query = str(query)
        if isinstance(docs, dict):
            by_score = True
            pairs = []
            for doc, score in docs.items():
                if isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score):
                    raise InputError(source, f"query {query!r}, document {str(doc)!r}: the score "
                                     f"should be a finite number, found {_show(score)}",
                                     expected="a number")
                pairs.append((score, doc_id(str(doc))))
            pairs.sort(reverse=True)
            ranked[query] = [doc for _, doc in pairs]
            groups = tie_groups([score for score, _ in pairs], ranked[query])
            if groups:
                ties[query] = groups
        elif isinstance(docs, (list, tuple)):
            for doc in docs:
                if not isinstance(doc, (str, int)) or isinstance(doc, bool):
                    raise InputError(source, f"query {query!r}: document ids must be strings, "
                                     f"found {_show(doc)}", expected="a list of document ids")
            ranked[query] = [doc_id(str(doc)) for doc in docs]
        else:
            raise InputError(source, f"query {query!r}: expected a list of document ids (best "
                             f"first) or an object of scores, found {_show(docs)}",
                             expected='["doc", ...] or {"doc": score}')
        rows += len(ranked[query])
    repeats = {}
    for query, docs in ranked.items():
        ranked[query], dropped = _dedupe(docs)
        if dropped:
            repeats[query] = dropped
    notices = [ranking_repeat_notice(repeats, source)] if repeats else []
    return Rankings(ranked, InputSummary(fmt, label, None, rows, len(ranked),
                                         "score" if by_score else None), notices, ties=ties)


def _show(value) -> str:
    try:
        return json.dumps(value)[:60]
    except (TypeError, ValueError):
        return repr(value)[:60]
