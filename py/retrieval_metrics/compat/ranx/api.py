"""ranx's Python interface, standard library only, so code written for ranx runs unchanged
where ranx cannot (it needs numba: not in the page, not without a compiler):

    from retrieval_metrics.compat import ranx
    qrels = ranx.Qrels({"q1": {"d1": 2, "d2": 1}})
    run = ranx.Run({"q1": {"d1": 0.9, "d3": 0.8}}, name="bm25")
    ranx.evaluate(qrels, run, ["ndcg@10", "mrr", "hits@5"])

``Qrels`` and ``Run`` are read from dicts, TREC and JSON files and pandas DataFrames (pandas is
imported only when handed a DataFrame or asked for one) and give them back (``to_dict``,
``save``, ``to_dataframe``). ``evaluate`` reads every metric name as ranx 0.3 does (the
``ranx`` dialect of docs/names.md: ``hits@k`` a count, ``rbp.95`` a persistence, ``-l2`` a
level), ranks tied scores where ranx's unstable sort puts them (``order``), and returns ranx's
shapes: a float for one metric, a dict for several, per-query lists
with ``return_mean=False``, ``{"mean", "std"}`` with ``return_std``; the means are summed as
numpy sums (``pairwise_sum``), so each is ranx's to the last digit.
"""

from __future__ import annotations

import json
import numbers
from pathlib import Path

from ...errors import OptionError
from ...scoring.functions import ranking_metrics
from ..numpy_order import numpy_mean, numpy_std, numpy_sum
from ..trec_files import qrels_rows, run_rows
from .order import descending, descending_dict_order
from .report import Report, compare_scores

__all__ = ["Qrels", "Run", "evaluate", "get_file_kind"]


class _Judged:
    """What Qrels and Run share: a dict of query id -> {document id: number}, kept as ranx
    keeps it (queries by id, each one's documents by value, highest first, equal values where
    ranx's sort puts them: ``order``), and sorted when ranx sorts (``sorted`` says whether the
    data is in that order now)."""

    def __init__(self, data: dict | None = None, name: str | None = None):
        self.name = name
        self._data: dict[str, dict[str, float]] = {}
        self.sorted = False
        if data is not None:
            self._data = _checked_ids(data, type(self).__name__)
            self.sort()

    # --- built from ----------------------------------------------------------------------
    @classmethod
    def from_dict(cls, d: dict, name: str | None = None):
        return cls(d, name=name)

    @classmethod
    def from_file(cls, path, kind: str | None = None, name: str | None = None):
        """A TREC file (qrels: ``q_id 0 doc_id rel``; run: ``q_id Q0 doc_id rank score tag``)
        or a JSON one (``{"q1": {"d1": 2}}``), by ``kind`` or the file's suffix, as ranx."""
        path = Path(path)
        if path.is_dir():
            raise IsADirectoryError(f"{cls.__name__}.from_file: {path} is a folder; give a "
                                    "TREC or JSON file")
        if not path.exists():
            raise FileNotFoundError(f"{cls.__name__}.from_file: no such file: {path}")
        if _file_kind(path, kind) == "json":
            out = cls(json.loads(path.read_text(encoding="utf-8")))
        else:
            out = cls._from_trec(path)
        if name is not None:
            out.name = name
        return out

    @classmethod
    def from_df(cls, df, q_id_col: str = "q_id", doc_id_col: str = "doc_id",
                score_col: str = "score", name: str | None = None):
        """A pandas DataFrame with one row per (query, document, score); ``name`` names it."""
        data: dict[str, dict[str, float]] = {}
        for q_id, doc_id, value in zip(df[q_id_col], df[doc_id_col], df[score_col]):
            data.setdefault(str(q_id), {})[str(doc_id)] = value.item() if hasattr(
                value, "item") else value
        return cls(data, name=name)

    @classmethod
    def from_parquet(cls, path, q_id_col: str = "q_id", doc_id_col: str = "doc_id",
                     score_col: str = "score", pd_kwargs: dict | None = None,
                     name: str | None = None):
        """A Parquet file read by pandas (which needs pyarrow or fastparquet for it), then
        ``from_df``."""
        import pandas  # only when asked to read Parquet
        frame = pandas.read_parquet(path, **(pd_kwargs or {}))
        return cls.from_df(frame, q_id_col, doc_id_col, score_col, name=name)

    # --- given back ------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {q_id: dict(docs) for q_id, docs in self._data.items()}

    def to_dataframe(self):
        import pandas  # only when asked for a DataFrame
        rows = [(q, d, v) for q, docs in self._data.items() for d, v in docs.items()]
        return pandas.DataFrame(rows, columns=["q_id", "doc_id", "score"])

    def save(self, path, kind: str | None = None) -> None:
        path = Path(path)
        if _file_kind(path, kind) == "json":
            text = json.dumps(self.to_dict(), indent=2)
        else:
            text = "\n".join(self._trec_lines())  # ranx ends the file without a newline
        path.write_text(text, encoding="utf-8")

    # --- changed -------------------------------------------------------------------------
    def add(self, q_id: str, doc_ids, scores) -> None:
        self.add_multi([q_id], [doc_ids], [scores])

    def add_multi(self, q_ids, doc_ids, scores) -> None:
        """Each query's documents replaced, then every query sorted again (as ranx does)."""
        for q_id, docs, values in zip(q_ids, doc_ids, scores):
            self._data[str(q_id)] = dict(zip(map(str, docs), values))
        self.sort()

    def add_score(self, q_id: str, doc_id: str, score) -> None:
        """One document's value set; sorted at the next use, as ranx does."""
        self._data.setdefault(str(q_id), {})[str(doc_id)] = score
        self.sorted = False

    def sort(self) -> None:
        """The queries by id, each one's documents by value, highest first, as ranx sorts them
        (``order.descending``: equal values where numba's quicksort puts them)."""
        self._data = {q: descending(self._data[q]) for q in sorted(self._data)}
        self.sorted = True

    def in_order(self) -> dict[str, dict[str, float]]:
        """The data in the order ranx's metrics read it: sorted first if a change since the last
        sort left it unsorted, as ranx does before evaluating."""
        if not self.sorted:
            self.sort()
        return self._data

    def replace(self, data: dict) -> None:
        """The data replaced as given, in its order and unsorted (ranx's ``run.run = ...``,
        which its fusion and normalisation results are made with)."""
        self._data = _checked_ids(data, type(self).__name__)
        self.sorted = False

    def as_kept(self) -> dict[str, dict[str, float]]:
        """The data in the order it is kept now, sorted or not (what ranx's fusion and
        normalisation read: a run's ``.run``)."""
        return self._data

    def ranked(self) -> dict[str, list[str]]:
        """Each query's documents in the order ranx's metrics read them."""
        return {q_id: list(docs) for q_id, docs in self.in_order().items()}

    # --- read ----------------------------------------------------------------------------
    def keys(self):
        return self._data.keys()

    def get_query_ids(self) -> list[str]:
        return list(self._data)

    @property
    def size(self) -> int:
        return len(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __getitem__(self, q_id: str) -> dict:
        return self._data[q_id]

    def __contains__(self, q_id) -> bool:
        return q_id in self._data

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.to_dict()!r})"


def _checked_ids(data: dict, kind: str) -> dict[str, dict]:
    """The data with str ids, refusing what ranx refuses, with TypeError as ranx raises it
    (numba cannot type the dict): a document id that is not a str, and query ids of more than
    one type (1 and "1" would be one query here, two there). Query ids of one type are kept
    as text (ranx keeps ints as ints; every lookup here is by text)."""
    if not isinstance(data, dict):
        raise TypeError(f"{kind} must be built from a dict of query id -> {{doc id: value}}, "
                        f"found {type(data).__name__}")
    kinds = {type(q_id).__name__ for q_id in data}
    if len(kinds) > 1:
        raise TypeError(f"{kind}: the query ids are of {len(kinds)} types ({', '.join(sorted(kinds))}); "
                        "ranx needs one type (1 and '1' would be two queries there, one here): "
                        "give them all as str")
    out = {}
    for q_id, docs in data.items():
        if not hasattr(docs, "items"):  # AttributeError, as ranx's own (it calls .keys())
            raise AttributeError(f"{kind}: query {q_id!r} maps to {type(docs).__name__}, not to "
                                 "a dict of doc id -> value")
        for doc_id, value in docs.items():
            if not isinstance(doc_id, str):
                raise TypeError(f"{kind}: query {q_id!r}: document id {doc_id!r} is "
                                f"{type(doc_id).__name__}; ranx's document ids are str")
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise TypeError(f"{kind}: query {q_id!r}: document {doc_id!r} has "
                                f"{'score' if kind == 'Run' else 'grade'} {value!r}; it must be "
                                "a number")
        out[str(q_id)] = dict(docs)
    return out


class Qrels(_Judged):
    """ranx's ``Qrels``: the relevance grades of each query's judged documents."""

    def set_relevance_level(self, rel_lvl: int = 1) -> None:
        """ranx's ``set_relevance_level``: every grade lowered by ``rel_lvl - 1`` (so grade
        ``rel_lvl`` becomes 1, the level ranx's metrics count as relevant), in place."""
        self._data = {q: {d: g - (rel_lvl - 1) for d, g in docs.items()}
                      for q, docs in self._data.items()}

    #: ranx's ``Qrels.qrels``: the grades, {query: {document: grade}}, as kept; set: replaced
    qrels = property(lambda self: self.as_kept(), lambda self, data: self.replace(data))

    @classmethod
    def _from_trec(cls, path: Path) -> Qrels:
        data: dict[str, dict[str, int]] = {}
        for q_id, _iteration, doc_id, grade in qrels_rows(path, str(path)):
            data.setdefault(q_id, {})[doc_id] = grade
        return cls(data)

    def _trec_lines(self):
        for q_id, docs in self._data.items():
            for doc_id, rel in docs.items():
                yield f"{q_id} 0 {doc_id} {rel}"


class Run(_Judged):
    """ranx's ``Run``: each query's retrieved documents with their scores, and its ``name``
    (the TREC file's tag). ``evaluate`` keeps its results in ``mean_scores`` and ``scores``."""

    def __init__(self, run: dict | None = None, name: str | None = None):
        super().__init__(run, name)
        self.mean_scores: dict[str, float] = {}
        self.std_scores: dict[str, float] = {}
        self.scores: dict[str, dict[str, float]] = {}

    #: ranx's ``Run.run``: the scores, {query: {document: score}}, in the order kept; set:
    #: replaced as given, unsorted (how ranx's fusion builds its results)
    run = property(lambda self: self.as_kept(), lambda self, data: self.replace(data))

    @classmethod
    def _from_trec(cls, path: Path) -> Run:
        data: dict[str, dict[str, float]] = {}
        name = None
        for q_id, doc_id, score, tag in run_rows(path, str(path)):
            data.setdefault(q_id, {})[doc_id] = score
            name = tag  # the last line's tag names the run, as ranx reads it
        return cls(data, name=name)

    def _trec_lines(self):
        for q_id, docs in self._data.items():
            for rank, (doc_id, score) in enumerate(docs.items(), 1):
                yield f"{q_id} Q0 {doc_id} {rank} {score} {self.name}"

    def make_comparable(self, qrels: Qrels) -> Run:
        """The queries of ``qrels``, an empty ranking for each the run lacks, the others
        dropped, then sorted again (ranx's, which changes the run itself)."""
        for q_id in qrels.keys():
            self._data.setdefault(q_id, {})
        for q_id in [q for q in self._data if q not in qrels]:
            del self._data[q_id]
        self.sort()
        return self


def get_file_kind(path: str = "run.json", kind: str | None = None) -> str:
    """ranx's ``get_file_kind``: ``kind``, or the path's extension (``.txt`` is ``trec``,
    ``.parq`` ``parquet``), one of json, trec, lz4, gz, parquet; ranx's AssertionError (and
    its words) for any other.

    >>> get_file_kind("runs/bm25.txt"), get_file_kind("qrels.parq"), get_file_kind("x", "gz")
    ('trec', 'parquet', 'gz')
    """
    if kind is None:
        import os
        kind = os.path.splitext(str(path))[1][1:]
        kind = {"txt": "trec", "parq": "parquet"}.get(kind, kind)
    if kind not in ("json", "trec", "lz4", "gz", "parquet"):
        raise AssertionError("Error `kind` must be 'json', 'trec', 'lz4', 'gz', or 'parquet'")
    return kind


def _file_kind(path: Path, kind: str | None) -> str:
    """``"json"`` or ``"trec"``: ``kind`` when given, else by the suffix (``.json``), as ranx."""
    kind = (kind or ("json" if path.suffix.lower() == ".json" else "trec")).lower()
    if kind not in ("json", "trec"):
        raise OptionError("kind", f"kind must be 'trec' or 'json', found {kind!r}")
    return kind


def _as(kind, value):
    if isinstance(value, kind):
        return value
    if isinstance(value, dict):
        return kind(value)
    raise _not_a(kind, value)


def _not_a(kind, value) -> OptionError:
    return OptionError(kind.__name__.lower(), f"{kind.__name__.lower()} must be a "
                       f"{kind.__name__} or a dict of query id -> {{doc id: number}}, "
                       f"found {type(value).__name__}")


def _judgements(qrels) -> dict[str, dict[str, float]]:
    """The grades in ranx's order of queries: a Qrels' (sorted by id), a dict's own, or the
    arrays' (``read_arrays``)."""
    if isinstance(qrels, Qrels):
        return {q_id: dict(docs) for q_id, docs in qrels.in_order().items()}
    if isinstance(qrels, dict):
        return {str(q): {str(d): v for d, v in docs.items()} for q, docs in qrels.items()}
    arrays = read_arrays(qrels, "qrels")
    return {q: {doc: value for doc, value in rows} for q, rows in arrays.items()}


def _rankings(run) -> dict[str, list[str]]:
    """Each query's documents in the order ranx ranks them: a Run's sort, or, for a plain
    dict, the order ranx's ``evaluate`` gives one (``order.descending_dict_order``), or the
    arrays' rows as given (ranx's kernels take arrays as ranked)."""
    if isinstance(run, Run):
        return run.ranked()
    if isinstance(run, dict):
        return {str(q): [str(d) for d in descending_dict_order(docs)] for q, docs in run.items()}
    return {q: [doc for doc, _score in rows] for q, rows in read_arrays(run, "run").items()}


def read_arrays(data, kind: str) -> dict[str, list[tuple[str, float]]]:
    """What ranx's kernels take directly: one array per query (a numpy array of them, a numba
    ``List``, a list) of ``[doc id, grade or score]`` rows, the doc ids numbers. Queries are
    named by position ("0", "1", ...); a doc id by its number, whole numbers without a point,
    so 4 and 4.0 are one document, as ranx compares them."""
    shape = (f"{kind} must be a {'Qrels' if kind == 'qrels' else 'Run'}, a dict of query id -> "
             f"{{doc id: number}}, or ranx's arrays (one [[doc id, value], ...] per query)")
    if isinstance(data, (str, bytes)) or not hasattr(data, "__len__"):
        raise OptionError(kind, f"{shape}, found {type(data).__name__}")
    out = {}
    for i, rows in enumerate(data):
        try:
            pairs = [(_array_id(row[0]), float(row[1])) for row in rows]
        except (TypeError, ValueError, IndexError):
            raise OptionError(kind, f"{shape}; query {i} is {type(rows).__name__}") from None
        out[str(i)] = pairs
    return out


def _repeats_apart(q_id: str, docs: list[str], grades: dict) -> list[str]:
    """An array's ranking with a document given again renamed (``"7#2"``), so each row keeps
    its rank as ranx's kernels read it; a judged document given twice is refused, since ranx
    counts it at each of its ranks (a relevant one twice), which no ranking of documents does."""
    seen: dict[str, int] = {}
    out = []
    for doc in docs:
        seen[doc] = seen.get(doc, 0) + 1
        if seen[doc] > 1:
            if doc in grades:
                raise OptionError("run", f"run: query {q_id}: document {doc} is ranked "
                                  f"{seen[doc]} times and is judged; ranx's kernels count it "
                                  "at each rank, so give each judged document once")
            doc = f"{doc}#{seen[doc]}"
        out.append(doc)
    return out


def _refuse_unsorted_ideal(judged: dict, names: list) -> None:
    """ranx's ndcg takes its ideal ranking from the judgements' rows as they come (its own
    Qrels hand them over sorted, best first): for arrays in another order its number is not
    nDCG, and this drop-in, which sorts, would differ without a word. So it refuses them."""
    if not any(str(name).strip().startswith("ndcg") for name in names):
        return
    for q_id, grades in judged.items():
        values = list(grades.values())
        if any(a < b for a, b in zip(values, values[1:])):
            raise OptionError("qrels", f"qrels: query {q_id}'s rows are not in descending "
                              "order of grade; ranx's ndcg reads its ideal ranking from the "
                              "rows as given, so sort each query's rows by grade, best first")


def _array_id(value) -> str:
    number = float(value)
    return str(int(number)) if number.is_integer() else repr(number)


def evaluate(qrels, run, metrics, return_mean: bool = True, return_std: bool = False,
             threads: int = 0, save_results_in_run: bool = True, make_comparable: bool = False):
    """ranx's ``evaluate``: each metric over the queries, with ranx's names, counting, order of
    tied documents and shapes. With ``make_comparable`` a Run is changed in place, as ranx
    changes it. ``threads`` is accepted and unused (one pass computes every metric)."""
    if make_comparable and isinstance(qrels, Qrels) and isinstance(run, Run):
        run.make_comparable(qrels)
    judged, ranked = _judgements(qrels), _rankings(run)
    if not isinstance(run, (Run, dict)):
        ranked = {q: _repeats_apart(q, docs, judged.get(q, {})) for q, docs in ranked.items()}
    if not isinstance(metrics, str) and not hasattr(metrics, "__iter__"):
        raise TypeError(f"metrics must be a metric name or a list of them, such as "
                        f"['ndcg@10', 'map'], found {metrics!r}")  # ranx's TypeError, in words
    names = [metrics] if isinstance(metrics, str) else list(metrics)
    if not isinstance(qrels, (Qrels, dict)):
        _refuse_unsorted_ideal(judged, names)
    if set(judged) != set(ranked):
        raise AssertionError("Qrels and Run query ids do not match. Pass `make_comparable=True` "
                             "to add empty results for queries missing from the run and remove "
                             "those not appearing in qrels.")
    q_ids = list(judged)  # the order ranx scores queries in, and sums their mean
    values = ranking_metrics(judged, {q: ranked[q] for q in q_ids}, names, dialect="ranx",
                             average=None)
    means = {name: numpy_mean(values[name]) for name in names}
    if save_results_in_run and isinstance(run, Run):  # in the Run handed in, as ranx keeps them:
        for name in names:  # added to what earlier evaluations kept
            run.scores.setdefault(name, {}).update(zip(q_ids, values[name]))
            run.mean_scores[name] = means[name]
            if return_std and return_mean:
                run.std_scores[name] = numpy_std(values[name])
    if return_mean:
        shaped = {name: ({"mean": means[name], "std": numpy_std(values[name])}
                         if return_std else means[name]) for name in names}
    else:
        shaped = {name: list(values[name]) for name in names}
    return shaped[names[0]] if len(names) == 1 else shaped


def compare(qrels, runs, metrics, stat_test: str = "student", n_permutations: int = 1000,
            max_p: float = 0.01, random_seed: int = 42, threads: int = 0,
            rounding_digits: int = 3, show_percentages: bool = False,
            make_comparable: bool = False) -> Report:
    """ranx's ``compare``: every run evaluated (``evaluate``, its scores kept in the run as
    ranx keeps them; a run without a name is ``run_1``, ``run_2``, ...), then every pair tested
    and counted (``report.compare_scores``). ``threads`` is accepted and unused."""
    names = [metrics] if isinstance(metrics, str) else list(metrics)
    if not names or not all(isinstance(m, str) for m in names):
        raise AssertionError("Metrics error")
    qrels = _as(Qrels, qrels)
    scores, given = {}, []
    for i, run in enumerate(runs):
        run = _as(Run, run)
        values = evaluate(qrels, run, names, return_mean=False, make_comparable=make_comparable)
        given.append(run.name if run.name is not None else f"run_{i + 1}")
        scores[given[-1]] = {names[0]: values} if len(names) == 1 else values
    # two runs of one name: ranx keeps both names (model_names, the LaTeX rows, to_dict) and
    # the last one's scores (its results dict), and so does this
    return compare_scores(scores, names, stat_test, n_permutations, max_p, random_seed,
                          rounding_digits, show_percentages, model_names=given)


__all__ += ["Report", "compare", "numpy_mean", "numpy_std", "numpy_sum"]
