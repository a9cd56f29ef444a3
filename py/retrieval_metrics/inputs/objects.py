"""Judgements and rankings from the Python objects people score with, or a clear refusal.

Every shape a user of pytrec_eval, ranx, ir_measures, pandas or scikit-learn passes is read
into the same ``Judgements`` / ``Rankings`` records as text is:

- a mapping keyed by query id (dict, or ranx's ``Qrels`` / ``Run`` through ``.to_dict()``);
- a sequence aligned by position (list, tuple, numpy array, or a whole pandas Series, one
  element per query);
- rows: a pandas DataFrame (``query_id``/``doc_id``/``relevance``/``score`` columns, the
  ir_measures names, or ranx's ``q_id``/``doc_id``/``score``) or an iterable of namedtuples
  (ir_measures' ``Qrel`` / ``ScoredDoc``) or plain ``(query, doc, grade-or-score)`` tuples;
- text: a str (a path if it names a file), bytes, a path, or a file object / ``io.StringIO``.

One query's judgements are ``{doc: grade}`` or a collection of relevant ids; one query's
ranking is a sequence of ids, best first, or ``{doc: score}``. The safety rules (docs/api.md):
ids are ``str`` or ``int`` (numpy integers are ints), one type per evaluation; a ``str`` is
never a collection; a Series as one query's ids is refused (its index or its values could be
the ids); two whole Series must share their index. numpy and pandas are never imported here:
their objects are recognised by their type's module.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterable, Mapping

from ..errors import InputError
from .records import InputSummary, Judgements, Notice, Rankings, doc_id, tie_groups
from .source import InputFile

QUERY_COLUMNS = ("query_id", "qid", "q_id", "query", "topic")
# in order of preference: PyTerrier's frames hold both docno (the collection's id, as in its
# qrels) and docid (its index's internal number), and both qid and query (the query's text)
DOC_COLUMNS = ("doc_id", "docno", "docid", "doc", "document", "did")
GRADE_COLUMNS = ("relevance", "rel", "grade", "label", "judgement", "judgment")
SCORE_COLUMNS = ("score",)
RANK_COLUMNS = ("rank",)
DUPLICATES = ("raise", "first")
FILE_SUFFIXES = {"txt", "trec", "tsv", "csv", "json", "jsonl", "qrels", "qrel", "run", "runs",
                 "res", "gz", "bz2", "xz", "zip", "yaml", "yml", "toml", "parquet", "xml", "tar"}
_SUFFIX = re.compile(r"\.([A-Za-z][A-Za-z0-9]{0,7})$")


class Origin:
    """What a Python object input leaves for the check against the other input: the id types
    it used, and whether its queries were given by position."""

    def __init__(self, kinds, positional: int | None = None, index=None):
        self.kinds = kinds  # Kinds: {"query" | "doc": {"int" | "str": example}}
        self.positional = positional  # number of queries when aligned by position
        self.index = index  # a whole pandas Series' index, to check against the other input's


def _module(value) -> str:
    return type(value).__module__.partition(".")[0]


def is_pandas(value, kind: str) -> bool:
    return _module(value) == "pandas" and type(value).__name__ == kind


def plain(value):
    """A numpy scalar (or 0-d array) as the Python number or str it holds; anything else,
    arrays of any size included, as it is (``.item()`` of an array is its one element, or a
    bare ValueError)."""
    if _module(value) == "numpy" and hasattr(value, "item") and getattr(value, "ndim", 0) == 0:
        return value.item()
    return value


def show(value) -> str:
    """A value for an error message; never fails (a numpy id, an odd object)."""
    value = plain(value)
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a message must not fail because of what it shows
        text = int_text(value) if isinstance(value, int) else object.__repr__(value)
    return text if len(text) <= 60 else text[:59] + "\u2026"


def looks_like_path(text: str) -> bool:
    """One line that names a file rather than holding data: it has a path separator or a
    file suffix, and is not several columns of data (unless it ends with a data file's
    suffix, as ``my runs/bm25.trec`` does).

    >>> looks_like_path("runs/bm25.trec"), looks_like_path("qrels.txt"), looks_like_path("q1 0 d1 1")
    (True, True, False)
    >>> looks_like_path("q1 Q0 a/b 1 2.5 tag"), looks_like_path("my runs/bm25.trec")
    (False, True)
    """
    line = text.strip()
    if not line or "\n" in line or "\t" in line or line[0] in "{[":
        return False
    suffix = _SUFFIX.search(line)
    known_suffix = suffix is not None and suffix.group(1).lower() in FILE_SUFFIXES
    if len(line.split()) > 1:
        return known_suffix and ("/" in line or "\\" in line or len(line.split()) == 2)
    return "/" in line or "\\" in line or os.sep in line or suffix is not None


def file_named(data) -> str | None:
    """The path ``data`` is read from as a file (a path object, or a one-line string under 4,096
    characters naming an existing file), else None: ``text_input``'s rule, and so what a report
    scored from these inputs must never be written onto."""
    if isinstance(data, os.PathLike):
        return os.fspath(data)
    if isinstance(data, str) and "\n" not in data and 0 < len(data) < 4096 and os.path.isfile(data):
        return data
    return None


def text_input(data, source: str):
    """Text-like input as the parsers take it, or None if ``data`` is a Python object: a str
    naming a file becomes that file; a str that looks like a path but names none is refused;
    a file object is read."""
    if isinstance(data, str):
        if "\n" not in data and len(data) < 4096:
            if file_named(data) is not None:
                return InputFile(data)
            if looks_like_path(data):
                raise InputError(source, f"no such file: {data!r} (a one-line string with a "
                                 "path separator or a file suffix is read as a path)",
                                 expected="an existing file, or the text itself (with a newline, "
                                          "or in io.StringIO(text))")
        return data
    if isinstance(data, (bytes, bytearray, memoryview, os.PathLike)):
        if isinstance(data, os.PathLike) and not os.path.isfile(os.fspath(data)):
            raise InputError(source, f"no such file: {os.fspath(data)!r}", expected="an existing file")
        return data
    read = getattr(data, "read", None)
    if callable(read) and not isinstance(data, Mapping):
        content = read()
        if not isinstance(content, (str, bytes)):
            raise InputError(source, f"reading the file object gave {type(content).__name__}, "
                             "not text", expected="a file opened for reading")
        return content
    return None


# --- ids, grades and scores -------------------------------------------------------------------

class Kinds:
    """The id types an input used (``int`` or ``str``) with an example of each, per role."""

    def __init__(self):
        self.seen = {"query": {}, "doc": {}}

    def note(self, role: str, kind: str, value) -> None:
        self.seen[role].setdefault(kind, value)


def _id(value, role: str, source: str, kinds: Kinds, where: str = "") -> str:
    value = plain(value)
    if isinstance(value, str):
        kinds.note(role, "str", value)
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        kinds.note(role, "int", value)
        return int_text(value)
    if is_pandas(value, "Series"):
        raise InputError(source, f"{where}a pandas Series as one query's "
                         f"{'judgements' if source == 'qrels' else 'ranking'}: its index or its "
                         "values could be the ids; pass " + _series_hint(source),
                         expected=_series_hint(source))
    what = "query id" if role == "query" else "document id"
    raise InputError(source, f"{where}a {what} must be a str or an int, found {show(value)} "
                     f"({type(value).__name__})", expected=f"{what}s as str or int")


def _series_hint(source: str) -> str:
    if source == "qrels":
        return "series.to_dict() for {doc_id: grade}, or series.tolist() for the relevant ids"
    return "series.tolist() for the ids best first, or series.to_dict() for {doc_id: score}"


def _grade(value, source: str, where: str) -> int:
    value = plain(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    hint = ("; a number that is not whole is a score: are results in the judgements?"
            if isinstance(value, float) and math.isfinite(value) else "")
    raise InputError(source, f"{where}the grade should be a whole number, found "
                     f"{show(value)}{hint}", expected="a whole-number grade")


def _score(value, source: str, where: str) -> float:
    value = plain(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    raise InputError(source, f"{where}the score should be a finite number, found {show(value)}",
                     expected="a finite number")


def _where(query) -> str:
    return f"query {query!r}: " if query is not None else ""


# --- the outer shape: by query id, by position, or rows -----------------------------------------

def _outer(data, source: str):
    """``("mapping", items)``, ``("positional", items, index)`` or ``("rows", rows)``."""
    if is_pandas(data, "DataFrame"):
        return ("rows", _frame_rows(data, source))
    if is_pandas(data, "Series"):
        return ("positional", list(data.tolist()), data.index)
    if isinstance(data, Mapping):
        return ("mapping", list(data.items()))
    to_dict = getattr(data, "to_dict", None)
    if callable(to_dict) and _module(data) != "numpy":  # ranx Qrels / Run
        converted = to_dict()
        if isinstance(converted, Mapping):
            return ("mapping", list(converted.items()))
    if _module(data) == "numpy" and hasattr(data, "tolist"):
        if getattr(data, "ndim", 1) == 0:
            raise InputError(source, f"expected one element per query, found a numpy scalar "
                             f"{show(data)}", expected=_outer_expected(source))
        items = data.tolist()
        _refuse_one_query(items, data, source)
        return ("positional", items, None)
    if isinstance(data, Iterable) and not isinstance(data, (str, bytes)):
        items = list(data)
        if items and all(_is_row(item) for item in items):
            return ("rows", items)
        _refuse_one_query(items, data, source)
        return ("positional", items, None)
    raise InputError(source, f"cannot read {type(data).__name__} {show(data)}",
                     expected=_outer_expected(source))


def _refuse_one_query(items: list, data, source: str) -> None:
    """A flat sequence of ids (``np.argsort(-scores)``, ``["d3", "d1"]``) is one query's
    ranking or judgements, not one per query: refused with the way to say which query."""
    if not items or not all(isinstance(plain(item), (str, int)) and not isinstance(plain(item), bool)
                            for item in items):
        return
    kind = "numpy array" if _module(data) == "numpy" else type(data).__name__
    what = "ranking (best first)" if source != "qrels" else "relevant documents"
    raise InputError(source, f"a flat {kind} of ids ({show(items[0])}, ...) is one query's "
                     f"{what}, but one element per query is needed; pass "
                     f"{{query_id: ids}} (or [ids] for queries by position)",
                     expected="{query_id: ids}, or a sequence with one element per query")


def _outer_expected(source: str) -> str:
    if source == "qrels":
        return ('{query: {doc: grade}} or {query: [relevant doc, ...]}, a list of those per '
                'query, (query, doc, grade) rows, a DataFrame, text or a path')
    return ('{query: [doc, ...]} (best first) or {query: {doc: score}}, a list of those per '
            'query, (query, doc, score) rows, a DataFrame, text or a path')


def _is_row(item) -> bool:
    fields = getattr(type(item), "_fields", None)
    if isinstance(item, tuple) and fields:
        return "query_id" in fields and "doc_id" in fields
    if type(item) is tuple and len(item) == 3:
        q, d, v = (plain(x) for x in item)
        return (isinstance(q, (str, int)) and isinstance(d, (str, int))
                and isinstance(v, (int, float)) and not isinstance(v, bool))
    return False


def frame_column(frame, names: tuple[str, ...]):
    """The frame's column with the first of ``names`` (case-insensitive), or None."""
    by_name = {}
    for column in frame.columns:
        if isinstance(column, str):
            by_name.setdefault(column.lower(), column)
    return next((by_name[name] for name in names if name in by_name), None)


def _frame_rows(frame, source: str) -> list[tuple]:
    query, doc = frame_column(frame, QUERY_COLUMNS), frame_column(frame, DOC_COLUMNS)
    if source == "qrels":
        value = frame_column(frame, GRADE_COLUMNS) or frame_column(frame, SCORE_COLUMNS)
    else:
        value = frame_column(frame, SCORE_COLUMNS)
        if value is None and frame_column(frame, RANK_COLUMNS) is not None:
            ranks = frame[frame_column(frame, RANK_COLUMNS)].tolist()
            value = [-_score(r, source, "the rank column: ") for r in ranks]
    if query is None or doc is None:
        raise InputError(source, f"the DataFrame has columns {list(map(str, frame.columns))}; "
                         f"no query column ({', '.join(QUERY_COLUMNS)}) or no document column "
                         f"({', '.join(DOC_COLUMNS)})",
                         expected=f"columns such as query_id, doc_id, "
                                  f"{'relevance' if source == 'qrels' else 'score'}")
    queries, docs = frame[query].tolist(), frame[doc].tolist()
    if value is None:
        if source == "qrels":  # every listed document relevant, as a two-column qrels file
            values = [1] * len(queries)
        else:  # no score or rank: the row order is the ranking
            values = [-float(i) for i in range(len(queries))]
    else:
        values = value if isinstance(value, list) else frame[value].tolist()
    return list(zip(queries, docs, values))


# --- readers ------------------------------------------------------------------------------------

def read_judgements(data, source: str = "qrels") -> Judgements:
    """Judgements from a Python object (not text: see ``text_input``).

    >>> read_judgements([("q1", "d1", 2), ("q1", "d2", 0)]).grades
    {'q1': {b'd1': 2, b'd2': 0}}
    """
    kinds = Kinds()
    shape = _outer(data, source)
    grades: dict[str, dict[bytes, int]] = {}
    repeats: dict[str, int] = {}
    conflicts = 0
    if shape[0] == "rows":
        for row in shape[1]:
            q, d, g = _row(row, source, ("relevance", "grade", "score"))
            query = _id(q, "query", source, kinds)
            where = _where(query) + f"document {show(d)}: "
            doc = doc_id(_id(d, "doc", source, kinds, _where(query)))
            grade = _grade(g, source, where)
            per_query = grades.setdefault(query, {})
            if doc in per_query:
                repeats[query] = repeats.get(query, 0) + 1
                conflicts += per_query[doc] != grade
            else:
                per_query[doc] = grade
        label = "DataFrame judgements" if is_pandas(data, "DataFrame") else "Python judgement rows"
    else:
        for query, item in _queries(shape, source, kinds):
            grades[query], dup = _one_query_grades(item, query, source, kinds)
            if dup:
                repeats[query] = dup
        label = "Python judgements" + (" by position" if shape[0] == "positional" else "")
    notices = []
    if repeats:
        from .qrels import judgement_repeat_notice
        notices.append(judgement_repeat_notice(repeats, conflicts))
    rows = sum(map(len, grades.values()))
    summary = InputSummary("python", label, None, rows, len(grades))
    return Judgements(grades, summary, notices, origin=_origin(kinds, shape, len(grades)))


def read_rankings(data, source: str = "run", duplicates: str = "raise") -> Rankings:
    """Rankings from a Python object (not text: see ``text_input``).

    >>> read_rankings({"q1": {"a": 0.5, "b": 0.5, "c": 0.9}}).ranked
    {'q1': [b'c', b'b', b'a']}
    """
    kinds = Kinds()
    shape = _outer(data, source)
    ranked: dict[str, list[bytes]] = {}
    repeats: dict[str, int] = {}
    ties: dict[str, tuple] = {}
    by_score = False
    if shape[0] == "rows":
        by_score = True
        scored: dict[str, list] = {}
        for row in shape[1]:
            q, d, s = _row(row, source, ("score",))
            query = _id(q, "query", source, kinds)
            doc = doc_id(_id(d, "doc", source, kinds, _where(query)))
            scored.setdefault(query, []).append(
                (_score(s, source, _where(query) + f"document {show(d)}: "), doc))
        for query, pairs in scored.items():
            ranked[query] = _by_score(pairs, query, source, duplicates, repeats)
            groups = tie_groups([s for s, _ in pairs], [d for _, d in pairs])
            if groups:
                ties[query] = groups
        label = "DataFrame results" if is_pandas(data, "DataFrame") else "Python result rows"
    else:
        for query, item in _queries(shape, source, kinds):
            docs, scores = _one_ranking(item, query, source, kinds)
            by_score = by_score or scores is not None
            if scores:
                groups = tie_groups(scores, docs)
                if groups:
                    ties[query] = groups
            ranked[query] = _dedupe(docs, query, source, duplicates, repeats)
        label = "Python results" + (" by position" if shape[0] == "positional" else "")
    notices = [_repeat_notice(repeats, source)] if repeats else []
    summary = InputSummary("python", label, None, sum(map(len, ranked.values())), len(ranked),
                           "score" if by_score else None)
    return Rankings(ranked, summary, notices, origin=_origin(kinds, shape, len(ranked)),
                    ties=ties)


def _origin(kinds: Kinds, shape, count: int) -> Origin:
    if shape[0] == "positional":
        return Origin(kinds, count, shape[2])
    return Origin(kinds)


def _row(row, source: str, value_fields: tuple[str, ...]):
    fields = getattr(type(row), "_fields", None)
    if fields and isinstance(row, tuple):
        value = next((getattr(row, f) for f in value_fields if f in fields), None)
        if value is None:
            if source == "qrels":
                value = 1
            else:
                raise InputError(source, f"the row {show(row)} has no score field",
                                 expected="namedtuples with query_id, doc_id and score")
        return row.query_id, row.doc_id, value
    return row


def _queries(shape, source: str, kinds: Kinds):
    if shape[0] == "mapping":
        for query, item in shape[1]:
            yield _id(query, "query", source, kinds), item
    else:
        for position, item in enumerate(shape[1]):
            yield str(position), item


def _plain_ids(ids: list, kinds: Kinds) -> list[bytes] | None:
    """The common case at C speed: ids all str or all int; None sends the caller the slow way
    (which explains whatever is wrong)."""
    types = set(map(type, ids))
    if types == {str}:
        kinds.note("doc", "str", ids[0])
        return list(map(doc_id, ids))
    if types == {int}:
        kinds.note("doc", "int", ids[0])
        return list(map(doc_id, map(int_text, ids)))
    return None


def int_text(value: int) -> str:
    """An int id in decimal, however long: Python refuses ``str()`` of an int over 4,300
    digits (a guard against slow conversions), so a longer one is written 1,000 digits at a
    time.

    >>> int_text(-1203), int_text(10 ** 5000) == "1" + "0" * 5000
    ('-1203', True)
    """
    try:
        return str(value)
    except ValueError:
        pass
    sign, value = ("-", -value) if value < 0 else ("", value)
    chunks = []
    while value:
        value, chunk = divmod(value, 10 ** 1000)
        chunks.append(chunk)
    chunks.reverse()
    return sign + str(chunks[0]) + "".join(f"{c:01000d}" for c in chunks[1:])


def _plain_numbers(values: list, whole: bool) -> bool:
    types = set(map(type, values))
    if whole:
        return types <= {int}
    if not types <= {int, float}:
        return False
    try:
        return math.isfinite(sum(values)) or all(map(math.isfinite, values))
    except OverflowError:
        return False


def _one_query_grades(item, query: str, source: str, kinds: Kinds):
    where = _where(query)
    item = _one_query(item, query, source)
    grades: dict[bytes, int] = {}
    repeats = 0
    if isinstance(item, dict) and item:
        ids = _plain_ids(list(item), kinds)
        values = list(item.values())
        if ids is not None and _plain_numbers(values, True):
            return dict(zip(ids, values)), 0
    if isinstance(item, Mapping):
        for doc, grade in item.items():
            key = doc_id(_id(doc, "doc", source, kinds, where))
            grades[key] = _grade(grade, source, where + f"document {show(doc)}: ")
        return grades, 0
    for doc in item:
        key = doc_id(_id(doc, "doc", source, kinds, where))
        if key in grades:
            repeats += 1
        grades[key] = 1
    return grades, repeats


def _one_ranking(item, query: str, source: str, kinds: Kinds):
    where = _where(query)
    item = _one_query(item, query, source)
    if isinstance(item, dict) and item:
        ids = _plain_ids(list(item), kinds)
        values = list(item.values())
        if ids is not None and _plain_numbers(values, False):
            pairs = sorted(zip(values, ids), reverse=True)  # score, then id, descending
            return [doc for _, doc in pairs], [score for score, _ in pairs]
    elif isinstance(item, list) and item:
        ids = _plain_ids(item, kinds)
        if ids is not None:
            return ids, None
    if isinstance(item, Mapping):
        pairs = [(_score(s, source, where + f"document {show(d)}: "),
                  doc_id(_id(d, "doc", source, kinds, where))) for d, s in item.items()]
        pairs.sort(reverse=True)  # score descending, equal scores by id descending (trec_eval)
        return [doc for _, doc in pairs], [score for score, _ in pairs]
    if isinstance(item, (set, frozenset)) or type(item).__name__ in ("dict_keys", "KeysView"):
        raise InputError(source, f"{where}a set has no order, so it cannot be a ranking",
                         expected="a list of ids, best first")
    item = list(item)
    pair = next((d for d in item if isinstance(d, (list, tuple)) and len(d) == 2), None)
    if pair is not None:
        raise InputError(source, f"{where}the ranking holds pairs such as {show(pair)}; a ranking "
                         "is a list of ids, best first: pass {doc_id: score} for scored pairs",
                         expected="a list of ids, best first, or {doc_id: score}")
    return [doc_id(_id(d, "doc", source, kinds, where)) for d in item], None


def _one_query(item, query: str, source: str):
    """One query's element, with the shapes that must be refused refused."""
    where = _where(query)
    item = plain(item)
    if isinstance(item, str):
        raise InputError(source, f"{where}a str is not a collection of ids: {show(item)}; "
                         f"write [{item!r}] for a single id", expected=f"[{item!r}] for a single id")
    if is_pandas(item, "Series"):
        raise InputError(source, f"{where}a pandas Series as one query's "
                         f"{'judgements' if source == 'qrels' else 'ranking'}: its index or its "
                         "values could be the ids; pass " + _series_hint(source),
                         expected=_series_hint(source))
    if _module(item) == "numpy" and hasattr(item, "tolist"):
        item = item.tolist()
    if isinstance(item, Mapping):
        return item
    to_dict = getattr(item, "to_dict", None)
    if callable(to_dict) and not isinstance(item, Iterable):
        return to_dict()
    if isinstance(item, Iterable) and not isinstance(item, (bytes, bytearray)):
        return item
    if source == "qrels":
        expected = "{doc: grade} or a collection of relevant ids"
    else:
        expected = "a list of ids (best first) or {doc: score}"
    raise InputError(source, f"{where}expected {expected}, found {show(item)} "
                     f"({type(item).__name__})", expected=expected)


def _by_score(pairs, query, source, duplicates, repeats) -> list[bytes]:
    pairs.sort(reverse=True)
    return _dedupe([doc for _, doc in pairs], query, source, duplicates, repeats)


def _dedupe(docs: list[bytes], query: str, source: str, duplicates: str, repeats) -> list[bytes]:
    if len(set(docs)) == len(docs):
        return docs
    if duplicates == "raise":
        seen = {}
        for rank, doc in enumerate(docs, 1):
            if doc in seen:
                shown = doc.decode("utf-8", "replace")
                raise InputError(source, f"query {query!r}: document {shown!r} is ranked twice "
                                 f"(ranks {seen[doc]} and {rank}); pass duplicates=\"first\" to keep "
                                 "its first (best) rank",
                                 expected='each id once, or duplicates="first" to keep its best '
                                          '(first) rank')
            seen[doc] = rank
    unique = list(dict.fromkeys(docs))
    repeats[query] = len(docs) - len(unique)
    return unique


def _repeat_notice(repeats: dict[str, int], source: str) -> Notice:
    from .runs import ranking_repeat_notice as notice
    return notice(repeats, source)


# --- the two inputs together ------------------------------------------------------------------

def check_pair(judgements: Judgements, rankings: Rankings, source: str = "run") -> None:
    """The rules that need both inputs: one id type, positions against positions, Series
    against a Series with the same index."""
    judged, ranked = judgements.origin, rankings.origin
    positional = (judged is not None and judged.positional is not None,
                  ranked is not None and ranked.positional is not None)
    if positional[0] != positional[1]:
        by_position, other = ("judgements", "results") if positional[0] else ("results", "judgements")
        indexed = (judged if positional[0] else ranked).index is not None
        hint = ("; a Series indexed by query ids: series.to_dict() keys it by them"
                if indexed else "")
        raise InputError(source, f"the {by_position} are aligned by position (a sequence) but "
                         f"the {other} are keyed by query id{hint}", expected="both by "
                         "position, or both mappings keyed by query id")
    if judged is None or ranked is None:
        for origin, name in ((judged, "qrels"), (ranked, source)):
            if origin is not None:
                _one_kind([(origin.kinds, name)], "doc")
                _one_kind([(origin.kinds, name)], "query")
        return
    if positional[0] and judged.positional != ranked.positional:
        raise InputError(source, f"{ranked.positional:,} rankings for {judged.positional:,} "
                         "queries (by position, they must be as many)",
                         expected=f"{judged.positional:,} rankings, one per query")
    if judged.index is not None and ranked.index is not None and not judged.index.equals(ranked.index):
        raise InputError(source, "the two Series have different indexes; they are aligned by "
                         "position, which would pair different queries; use "
                         "y_pred.reindex(y_true.index), or reset_index(drop=True) on both",
                         expected="y_pred.reindex(y_true.index), or both reset_index(drop=True)")
    both = [(judged.kinds, "qrels"), (ranked.kinds, source)]
    _one_kind(both, "doc")
    if not positional[0]:
        _one_kind(both, "query")


def _one_kind(reads, role: str) -> None:
    """One id type per role over the inputs: an input that mixes int and str ids is named as
    the one at fault; where each is of one type and they differ, the later (the results,
    which disagree with the judgements)."""
    from ..errors import SOURCE_NAMES
    what = "query ids" if role == "query" else "document ids"
    for kinds, source in reads:
        if len(kinds.seen[role]) > 1:
            i, s = kinds.seen[role]["int"], kinds.seen[role]["str"]
            raise InputError(source, f"{what} mix int and str within the "
                             f"{SOURCE_NAMES.get(source, source)}: {show(i)} (int) and "
                             f"{show(s)} (str); 1 and '1' would never match, or silently match",
                             expected=f"{what} of one type, e.g. all str")
    seen = {}
    for kinds, source in reads:
        for kind, example in kinds.seen[role].items():
            seen.setdefault(kind, (example, source))
    if len(seen) > 1:
        (i, i_source), (s, s_source) = seen["int"], seen["str"]
        raise InputError(reads[-1][1],  # the results, which disagree with the judgements
                         f"{what} mix int and str: {show(i)} (int, in the "
                         f"{SOURCE_NAMES.get(i_source, i_source)}) and {show(s)} (str, in the "
                         f"{SOURCE_NAMES.get(s_source, s_source)}); 1 and '1' would "
                         "never match, or silently match",
                         expected=f"{what} of one type, e.g. all str")
