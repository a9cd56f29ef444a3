"""``ir_measures``' interface, standard library only: ``parse_measure``, ``calc_aggregate``,
``iter_calc``, ``calc`` and ``evaluator`` over ``Qrel`` / ``ScoredDoc`` tuples, giving
ir_measures' numbers and its counting rule, so code written for ir_measures runs unchanged in
CPython without its C and Perl providers, and in the page (Pyodide)::

    from retrieval_metrics.compat import ir_measures
    from retrieval_metrics.compat.ir_measures import nDCG, P, AP
    ir_measures.calc_aggregate([nDCG@10, P(rel=2)@5, AP], qrels, run)
    ir_measures.calc_aggregate(["nDCG@10", "P(rel=2)@5"], qrels, run)  # strings too

What is kept from ir_measures 0.4:

- **Inputs**: judgements as ``{query: {doc: grade}}``, an iterable of namedtuples with
  ``query_id``, ``doc_id``, ``relevance`` (``Qrel``), or a DataFrame with those columns; a
  run as ``{query: {doc: score}}``, namedtuples with ``query_id``, ``doc_id``, ``score``
  (``ScoredDoc``) or such a DataFrame. A pair given twice keeps its last value.
- **Which queries count**: every judged query, in every measure. A judged query the run lacks
  (or where the provider gives no value) scores 0, ir_measures' ``Measure.DEFAULT``; a query
  without a relevant document is scored (0 where the measure divides by R); a query nobody
  judged is not scored. ``NumQ``, ``NumRel`` and ``NumRet`` are summed over those queries (so
  ``NumRel`` counts the relevant documents of the judged queries the run has), every other
  measure is their mean.
- **Each measure as the provider ir_measures picks computes it** (the arithmetic of
  ``measures.dialects.ir_measures_names``, compared with ir_measures in the tests), with that
  provider's order for tied scores: pytrec_eval (trec_eval 9.0.8: scores as 32-bit floats,
  ties by document id descending) for most; msmarco (ties by id ascending) for ``RR@k``; the
  judged provider (the same) for ``Judged``; gdeval (ties by id descending, values printed to
  5 decimals, grades above 4 refused) for ``ERR@k`` and ``nDCG(dcg='exp-log2')@k``; cwl_eval
  (ties in the run's order, the top 1000) for ``RBP(rel=..)``; ranx for the uncut
  ``nDCG(dcg='exp-log2')``. ``IPrec``'s recall level is written with two decimals for
  pytrec_eval, so ``IPrec@0.125`` is trec_eval's level 0.12.

Where this differs from running ir_measures: it runs where ir_measures' gdeval provider fails
(query ids that are not numbers) and where its ranx provider refuses (the run and the
judgements not holding the same queries); each measure is computed on its own, whereas
ir_measures' pytrec_eval provider computes ``nDCG`` without ``gains`` and ``NumRet`` /
``NumQ`` in whichever of its other invocations comes first in a set's order (so, asked for
with ``nDCG(gains=...)`` or a ``judged_only=True`` measure, its numbers can change from one
process to the next); per-query results come back as ``Metric`` (not cwl_eval's
``CwlMetric``), in a fixed order. Refused, naming why: what ir_measures' providers do not
compute (``RBP`` without ``rel``, ``ERR`` without a cutoff, ...), and the diversity, C/W/L,
``Compat`` and ``Accuracy`` measures, which this module does not compute yet.

>>> qrels = [Qrel("1", "a", 2), Qrel("1", "b", 0), Qrel("2", "c", 1)]
>>> run = [ScoredDoc("1", "b", 0.9), ScoredDoc("1", "a", 0.5), ScoredDoc("3", "x", 1.0)]
>>> calc_aggregate([P@1, RR, "P(rel=2)@2", NumQ], qrels, run)
{P@1: 0.0, RR: 0.25, P(rel=2)@2: 0.25, NumQ: 1.0}

(Query 2 is judged and not in the run: 0 in every mean; query 3 is not judged: not scored.)
"""

from __future__ import annotations

import gzip
import io
import math
import operator
from typing import NamedTuple, Union

from ..errors import OptionError
from ..measures.dialects import ir_measures_names as dialect
from ..measures.grades import QueryGrades
from ..measures.registry import MEASURES
from .pytrec_eval import trec_eval_order

__all__ = ["Qrel", "ScoredDoc", "Metric", "CalcResults", "Measure", "parse_measure",
           "calc_aggregate", "iter_calc", "calc", "evaluator", "Evaluator", "read_trec_qrels",
           "read_trec_run", "NOT_PROVIDED"]


class Qrel(NamedTuple):
    query_id: str
    doc_id: str
    relevance: int
    iteration: str = "0"


class ScoredDoc(NamedTuple):
    query_id: str
    doc_id: str
    score: float


class Metric(NamedTuple):
    query_id: str
    measure: "Measure"
    value: Union[float, int]


class CalcResults(NamedTuple):
    aggregated: dict
    per_query: list


NOT_PROVIDED = dialect.NOT_PROVIDED  # a parameter left unset
#: ir_measures' providers, in the order its DefaultPipeline tries them
PIPELINE = ("pytrec_eval", "cwl_eval", "judged", "msmarco", "gdeval", "ranx")
_SUMMED = ("NumQ", "NumRel", "NumRet")
GDEVAL_MAX_GRADE = 4  # gdeval.pl's $MAX_JUDGMENT: it stops on a higher grade


# --- measures ------------------------------------------------------------------------------

class Measure:
    """One of ir_measures' measures with its parameters: ``P``, ``P@5``, ``P(rel=2)@5``.
    ``str()`` is ir_measures' text form (parameters left at their default are not shown), and
    a measure equals (and hashes as) that text and ir_measures' own object of the same form.

    >>> P(rel=2)@5, nDCG(dcg='exp-log2')@10, NumRelRet, IPrec@0.5
    (P(rel=2)@5, nDCG(dcg='exp-log2')@10, NumRet(rel=1), IPrec@0.5)
    >>> {P@5: 1}["P@5"], P(rel=1)@5 == P@5
    (1, True)
    """

    DEFAULT = 0.0  # the value of a judged query the run lacks

    def __init__(self, name: str, **params):
        self.NAME = self.__name__ = name
        self.SUPPORTED_PARAMS, at = dialect.SIGNATURES[name]
        self.AT_PARAM = at
        self.params = params

    def __call__(self, **params) -> "Measure":
        return Measure(self.NAME, **{**self.params, **params})

    def __matmul__(self, at) -> "Measure":
        return self(**{self.AT_PARAM: at})

    def __getitem__(self, key):
        return self.params.get(key, self.SUPPORTED_PARAMS[key].default)

    def __repr__(self) -> str:
        shown = ",".join(f"{k}={_param_repr(v)}" for k, v in self.params.items()
                         if k != self.AT_PARAM and k in self.SUPPORTED_PARAMS
                         and v != self.SUPPORTED_PARAMS[k].default)
        text = self.NAME + (f"({shown})" if shown else "")
        if self.AT_PARAM in self.params:
            text += f"@{self.params[self.AT_PARAM]}"
        return text

    __str__ = __repr__

    def __eq__(self, other) -> bool:
        if isinstance(other, str):
            return repr(self) == other
        if hasattr(other, "NAME") and hasattr(other, "params"):  # ours or ir_measures'
            return repr(self) == repr(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(repr(self))

    def iter_calc(self, qrels, run):
        return iter_calc([self], qrels, run)

    def calc_aggregate(self, qrels, run):
        return calc_aggregate([self], qrels, run)[self]

    def calc(self, qrels, run) -> CalcResults:
        aggregated, per_query = calc([self], qrels, run)
        return CalcResults(aggregated[self], per_query)


def _param_repr(value) -> str:
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{v}" for k, v in sorted(value.items()) if k != v) + "}"
    return repr(value)


#: the measures this module computes, as module attributes (``P``, ``nDCG``, ...), with
#: ir_measures' other names for them (``Precision``, ``MRR``, ``NumRelRet``, ...)
MEASURE_OBJECTS = {name: Measure(name) for name in dialect.SIGNATURES}
MEASURE_OBJECTS.update({alias: MEASURE_OBJECTS[name] for alias, name in dialect.ALIASES.items()})
MEASURE_OBJECTS.update({alias: Measure(name, **preset)
                        for alias, (name, preset) in dialect.PRESETS.items()})
globals().update(MEASURE_OBJECTS)
__all__ += sorted(MEASURE_OBJECTS)


def parse_measure(text) -> Measure:
    """An ir_measures measure string (``"P(rel=2)@5"``, ``"nDCG(dcg='exp-log2')@10"``) to
    its measure, with ir_measures' grammar; a measure object is returned as it is (one of
    ir_measures' own is read through its text). NameError for a name ir_measures does not
    know; ValueError for one this module does not compute, naming why.

    >>> parse_measure("MRR@10"), parse_measure("SetF(beta=0.5)"), parse_measure("NumRelRet")
    (RR@10, SetF(beta=0.5), NumRet(rel=1))
    """
    if isinstance(text, Measure):
        return text
    if not isinstance(text, str) and hasattr(text, "NAME") and hasattr(text, "params"):
        text = repr(text)  # ir_measures' own measure object
    name, params = dialect.parse(text)
    if name in dialect.PRESETS:
        base, preset = dialect.PRESETS[name]
        return Measure(base, **{**preset, **params})
    name = dialect.ALIASES.get(name, name)
    if name in dialect.SIGNATURES:
        return Measure(name, **params)
    if name in dialect.NOT_READ or name in dialect.PROVIDED_ELSEWHERE:
        try:
            dialect.read(text)
        except OptionError as refused:
            raise ValueError(refused.message) from None
        provider = dialect.PROVIDED_ELSEWHERE.get(name)
        runs = f" (ir_measures runs {provider} for it)" if provider else ""
        raise ValueError(f"{text!r}: ir_measures' {name} is not computed by "
                         f"retrieval_metrics.compat.ir_measures yet{runs}; evaluate(..., "
                         f"dialect=\"ir_measures\") reads it as this package's own measure")
    raise NameError(f"measure not found: {name}")


# --- inputs --------------------------------------------------------------------------------

class _Judgements:
    """The qrels as ir_measures' providers see them: each query's grades, and which queries
    a provider counts (a query given as an empty dict counts for pytrec_eval's and the
    judged provider, which read the dict's keys, and for no other)."""

    def __init__(self, qrels):
        self.grades: dict = {}
        keys = None
        if isinstance(qrels, dict):
            keys = list(qrels)
            rows = ((q, d, g) for q, docs in qrels.items() for d, g in _items(docs, "qrels", q))
        else:
            rows = _rows(qrels, "qrels", ("query_id", "doc_id", "relevance"))
        for query, doc, grade in rows:
            self.grades.setdefault(query, {})[doc] = _grade(query, doc, grade)
        self.judged = [q for q in (keys if keys is not None else self.grades)
                       if self.grades.get(q)]
        self.keys = keys if keys is not None else self.judged

    def counted(self, provider: str) -> list:
        return self.keys if provider in ("pytrec_eval", "judged") else self.judged


def _run(run) -> dict:
    scores: dict = {}
    if isinstance(run, dict):
        rows = ((q, d, s) for q, docs in run.items() for d, s in _items(docs, "run", q))
        for query in run:
            scores.setdefault(query, {})
    else:
        rows = _rows(run, "run", ("query_id", "doc_id", "score"))
    for query, doc, score in rows:
        scores.setdefault(query, {})[doc] = _score(query, doc, score)
    return scores


def _items(docs, source, query):
    if not hasattr(docs, "items"):
        raise ValueError(f"{source}: query {query!r} maps to {type(docs).__name__}, not to a "
                         f"dict of {'grades' if source == 'qrels' else 'scores'}")
    return docs.items()


def _rows(rows, source, fields):
    """(query, doc, value) from a DataFrame's columns or an iterable of namedtuples."""
    shape = "Qrel(query_id, doc_id, relevance)" if source == "qrels" else \
        "ScoredDoc(query_id, doc_id, score)"
    if hasattr(rows, "itertuples") and hasattr(rows, "columns"):
        missing = [f for f in fields if f not in list(rows.columns)]
        if missing:
            raise ValueError(f"{source}: DataFrame missing columns: {missing} "
                             f"(found {list(rows.columns)})")
        return ((getattr(r, fields[0]), getattr(r, fields[1]), getattr(r, fields[2]))
                for r in rows.itertuples())
    if isinstance(rows, (str, bytes)) or not hasattr(rows, "__iter__"):
        raise ValueError(f"{source}: unexpected format {type(rows).__name__}; give a dict of "
                         f"dicts, an iterable of {shape} or a DataFrame with columns "
                         f"{', '.join(fields)} (a TREC file: read_trec_{source}(path))")
    out = []
    for n, row in enumerate(rows, 1):
        if not (isinstance(row, tuple) and all(hasattr(row, f) for f in fields)):
            raise ValueError(f"{source}: item {n} is {row!r}, not a namedtuple with fields "
                             f"{', '.join(fields)} (such as {shape})")
        out.append((getattr(row, fields[0]), getattr(row, fields[1]), getattr(row, fields[2])))
    return out


def _grade(query, doc, grade) -> int:
    try:
        if isinstance(grade, bool) or isinstance(grade, float):
            raise TypeError
        return operator.index(grade)
    except TypeError:
        raise ValueError(f"qrels: query {query!r}, document {doc!r}: the relevance must be a "
                         f"whole number, found {grade!r}") from None


def _score(query, doc, score) -> float:
    try:
        if isinstance(score, (str, bytes, bool)):
            raise TypeError
        value = float(score)
    except (TypeError, ValueError):
        raise ValueError(f"run: query {query!r}, document {doc!r}: the score must be a "
                         f"number, found {score!r}") from None
    if value != value:
        raise ValueError(f"run: query {query!r}, document {doc!r}: a score of NaN cannot be "
                         "ranked")
    return value


# --- which provider, which order ------------------------------------------------------------

def provider_of(measure: Measure) -> str:
    """The provider ir_measures' DefaultPipeline runs for a measure (of those computed here)."""
    name = measure.NAME
    cut = measure["cutoff"] is not NOT_PROVIDED if "cutoff" in measure.SUPPORTED_PARAMS else False
    if name == "RR" and cut:
        return "msmarco"
    if name == "nDCG" and measure["dcg"] == "exp-log2":
        return "gdeval" if cut else "ranx"
    return {"ERR": "gdeval", "Judged": "judged", "RBP": "cwl_eval"}.get(name, "pytrec_eval")


def _ranking(provider: str, scores: dict) -> list:
    """The documents best first, ties broken as that provider breaks them."""
    if provider == "pytrec_eval":
        return trec_eval_order(scores)
    if provider in ("msmarco", "judged"):
        return sorted(scores, key=lambda d: (-scores[d], d))
    if provider == "gdeval":
        return sorted(sorted(scores, reverse=True), key=lambda d: -scores[d])
    return sorted(scores, key=lambda d: -scores[d])  # cwl_eval: a stable sort (ranx too)


# --- evaluating ------------------------------------------------------------------------------

class Evaluator:
    """ir_measures' ``evaluator(measures, qrels)``: the measures checked and the judgements
    read once, for one run or many (``iter_calc``, ``calc_aggregate``, ``calc``)."""

    def __init__(self, measures, qrels):
        if isinstance(measures, (str, Measure)):
            raise ValueError("measures must be a list of measures, such as [nDCG@10, P@5]")
        parsed = {}
        for given in measures:  # keyed as given, a string by its measure (equal to it)
            measure = parse_measure(given)
            parsed.setdefault(measure, (measure if isinstance(given, str) else given, measure))
        self.given = [given for given, _ in parsed.values()]
        self.measures = [measure for _, measure in parsed.values()]
        self.specs = [_spec(m) for m in self.measures]
        self.qrels = _Judgements(qrels)
        self.providers = [provider_of(m) for m in self.measures]
        if "gdeval" in self.providers:
            _check_gdeval_grades(self.qrels.grades)

    def iter_calc(self, run):
        """Per query and measure, ``Metric(query_id, measure, value)``: the values computed,
        then the 0 of each judged query without one."""
        run = _run(run)
        used = sorted(set(self.providers), key=PIPELINE.index)
        first = self.qrels.counted(used[0]) if len(used) > 1 else []
        rankings: dict = {}
        defaults = []
        for given, measure, spec, provider in zip(self.given, self.measures, self.specs,
                                                  self.providers):
            compute = MEASURES[spec.measure].compute
            params = dict(spec.params)
            done = set()
            for query, scores in run.items():
                judged = self.qrels.grades.get(query)
                if not judged or not scores:
                    continue
                key = (provider, query)
                if key not in rankings:
                    rankings[key] = QueryGrades(_ranking(provider, scores), judged)
                value = float(compute(rankings[key], spec.cutoff, **params))
                done.add(query)
                yield Metric(query, given, value)
            for query in list(self.qrels.counted(provider)) + list(first):
                if query not in done:
                    done.add(query)
                    defaults.append(Metric(query, given, measure.DEFAULT))
        yield from sorted(defaults, key=lambda m: (str(m.measure), str(m.query_id)))

    def calc_aggregate(self, run) -> dict:
        """``{measure: value}``: each measure's mean over the judged queries (``NumQ``,
        ``NumRel``, ``NumRet``: their sum)."""
        return self.calc(run).aggregated

    def calc(self, run) -> CalcResults:
        per_query = list(self.iter_calc(run))
        values: dict = {m: [] for m in self.given}
        for metric in per_query:
            values[metric.measure].append(metric.value)
        aggregated = {}
        for given, measure in zip(self.given, self.measures):
            got = values[given]
            if measure.NAME in _SUMMED:
                aggregated[given] = math.fsum(got) if got else 0
            else:
                aggregated[given] = math.fsum(got) / len(got) if got else math.nan
        return CalcResults(aggregated, per_query)


def _spec(measure: Measure):
    """The registry entry and parameters computing ``measure`` (the dialect's reading),
    refused with ValueError naming why when no provider of ir_measures computes it."""
    params = [f"{k}={v!r}" for k, v in measure.params.items() if k != measure.AT_PARAM]
    text = measure.NAME + (f"({','.join(params)})" if params else "")
    if measure.AT_PARAM in measure.params:
        text += f"@{measure.params[measure.AT_PARAM]!r}"
    try:
        spec = dialect.read(text)
    except OptionError as refused:
        raise ValueError(refused.message) from None  # quoting every parameter given
    if measure.NAME == "IPrec":  # pytrec_eval is handed iprec_at_recall_{level:.2f}
        spec = spec._replace(params=tuple((k, float(f"{v:.2f}") if k == "recall" else v)
                                          for k, v in spec.params))
    return spec


def _check_gdeval_grades(grades: dict) -> None:
    for query, docs in grades.items():
        for doc, grade in docs.items():
            if grade > GDEVAL_MAX_GRADE:
                raise ValueError(f"qrels: query {query!r}, document {doc!r} has grade {grade}; "
                                 f"gdeval, which ir_measures runs for ERR@k and "
                                 f"nDCG(dcg='exp-log2')@k, refuses grades above "
                                 f"{GDEVAL_MAX_GRADE}")


def evaluator(measures, qrels) -> Evaluator:
    return Evaluator(measures, qrels)


def iter_calc(measures, qrels, run):
    """ir_measures.iter_calc: ``Metric(query_id, measure, value)`` per judged query and
    measure (see the module docstring for which queries and how)."""
    return Evaluator(measures, qrels).iter_calc(run)


def calc_aggregate(measures, qrels, run) -> dict:
    """ir_measures.calc_aggregate: ``{measure: value}``, keyed by the measures as given."""
    return Evaluator(measures, qrels).calc_aggregate(run)


def calc(measures, qrels, run) -> CalcResults:
    """ir_measures.calc: ``CalcResults(aggregated, per_query)``."""
    return Evaluator(measures, qrels).calc(run)


# --- TREC files ------------------------------------------------------------------------------

def read_trec_qrels(file):
    """``Qrel`` per line of a TREC qrels file (a path, a ``.gz`` path, the text itself, or an
    open file), as ir_measures.read_trec_qrels."""
    for n, line in enumerate(_lines(file), 1):
        if line.strip():
            parts = line.split()
            if len(parts) != 4:
                raise ValueError(f"qrels, line {n}: expected 4 columns (query, iteration, "
                                 f"document, relevance), found {len(parts)}")
            query, iteration, doc, relevance = parts
            yield Qrel(query, doc, _whole(relevance, n), iteration)


def read_trec_run(file):
    """``ScoredDoc`` per line of a TREC run file, as ir_measures.read_trec_run."""
    for n, line in enumerate(_lines(file), 1):
        if line.strip():
            parts = line.split()
            if len(parts) != 6:
                raise ValueError(f"run, line {n}: expected 6 columns (query, Q0, document, "
                                 f"rank, score, tag), found {len(parts)}")
            try:
                score = float(parts[4])
            except ValueError:
                raise ValueError(f"run, line {n}: the score {parts[4]!r} is not a number") from None
            yield ScoredDoc(parts[0], parts[2], score)


def _whole(text, n) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"qrels, line {n}: the relevance {text!r} is not a whole number") from None


def _lines(file):
    if hasattr(file, "read"):
        yield from file
    elif isinstance(file, str) and "\n" in file:
        yield from io.StringIO(file)
    else:
        opener = gzip.open if str(file).endswith(".gz") else open
        with opener(file, "rt", encoding="utf-8") as handle:
            yield from handle
