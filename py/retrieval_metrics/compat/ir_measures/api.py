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
  (``ScoredDoc``) or such a DataFrame. A DataFrame may name its columns as PyTerrier does
  (``qid``, ``docno``, ``label``; ``qid``, ``docno``, ``score``). A pair given twice keeps its
  last value. TREC files are read from a path (``str`` or ``Path``, ``.gz`` too), their text
  or an open file.
- **Which queries count**: every judged query, in every measure. A judged query the run lacks
  (or where the provider gives no value) scores 0, ir_measures' ``Measure.DEFAULT``; a query
  without a relevant document is scored (0 where the measure divides by R, and in every
  diversity measure); a query nobody judged is not scored. ``NumQ``, ``NumRel`` and
  ``NumRet`` are summed over those queries (so ``NumRel`` counts the relevant documents of the
  judged queries the run has), every other measure is their mean.
- **Each measure as the provider ir_measures picks computes it** (the arithmetic of
  ``measures.dialects.ir_measures``, compared with ir_measures in the tests), with that
  provider's order for tied scores: pytrec_eval (trec_eval 9.0.8: scores as 32-bit floats,
  ties by document id descending) for most; msmarco (ties by id ascending) for ``RR@k``; the
  judged provider (the same) for ``Judged``; gdeval (ties by id descending, values printed to
  5 decimals, grades above 4 refused) for ``ERR@k`` and ``nDCG(dcg='exp-log2')@k``; cwl_eval
  (ties in the run's order, the top 1000) for ``RBP(rel=..)`` and the C/W/L measures
  (``NERR8``-``NERR11``, ``INST``, ``INSQ``, ``BPM``: ``measures.cwl``, grades scaled from
  ``min_rel``..``max_rel`` to 0..1); pyndeval (ndeval; ties by id ascending) for the diversity
  measures (``alpha_nDCG``, ``alpha_DCG``, ``ERR_IA``, ``nERR_IA``, ``NRBP``, ``nNRBP``, ``AP_IA``,
  ``P_IA``, ``StRecall``: ``measures.diversity``), whose subtopic is each ``Qrel``'s
  ``iteration`` (a DataFrame's ``iteration`` column; ``"0"`` for dicts and rows without one:
  one subtopic per query), a grade at or above ``rel`` being relevant to it; its compat
  provider (ties by id ascending) for ``Compat``, whose ideal ranking puts a relevant document
  the run lacks where a score of 0.0 would; ranx for the uncut ``nDCG(dcg='exp-log2')``.
  ``IPrec``'s recall level is written with two decimals for pytrec_eval, so ``IPrec@0.125`` is
  trec_eval's level 0.12.

Where this differs from running ir_measures: it runs where ir_measures' gdeval provider fails
(query ids that are not numbers) and where its ranx provider refuses (the run and the
judgements not holding the same queries); each measure is computed on its own, whereas
ir_measures' pytrec_eval provider computes ``nDCG`` without ``gains`` and ``NumRet`` /
``NumQ`` in whichever of its other invocations comes first in a set's order (so, asked for
with ``nDCG(gains=...)`` or a ``judged_only=True`` measure, its numbers can change from one
process to the next), and its pyndeval provider hands one generator of the run to its
invocations (one per ``rel``, ``alpha`` and ``beta``), so every invocation after the first
scores 0 for every query. Per-query results come in ir_measures' order (``_order``); the
cwl_eval provider's as ``CwlMetric`` (``cwl_measures.py``: also ``SDCG`` and its own ``P@k``,
``RR``, ``AP``); ``Accuracy`` is ``accuracy.py``'s, ``define``'s ``runtime_measures.py``'s.
Refused, naming why: what ir_measures' providers do not compute or fail on (``RBP`` without
``rel``, ``ERR`` without a cutoff, a diversity measure without a cutoff, above 20 or with
``judged_only=True``, ``min_rel`` not below ``max_rel``, ...), and a subtopic judgement given
twice, for the diversity measures (ndeval counts both rows).

>>> qrels = [Qrel("1", "a", 2), Qrel("1", "b", 0), Qrel("2", "c", 1)]
>>> run = [ScoredDoc("1", "b", 0.9), ScoredDoc("1", "a", 0.5), ScoredDoc("3", "x", 1.0)]
>>> calc_aggregate([P@1, RR, "P(rel=2)@2", NumQ], qrels, run)
{P@1: 0.0, RR: 0.25, P(rel=2)@2: 0.25, NumQ: 1.0}

(Query 2 is judged and not in the run: 0 in every mean; query 3 is not judged: not scored.)
"""

from __future__ import annotations

import math
import operator
from typing import Callable, NamedTuple, Union

from ...errors import OptionError
from ...inputs.records import SubtopicGrades
from ...measures.clarke_compatibility import compatibility_with
from ...measures.dialects import ir_measures as dialect
from ...measures.diversity import no_subtopic
from ...measures.grades import QueryGrades
from ...measures.registry import BY_NAME
from ..pytrec_eval.api import trec_eval_order
from ..trec_files import qrels_rows, run_rows

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
PIPELINE = ("pytrec_eval", "cwl_eval", "compat", "pyndeval", "judged", "msmarco", "gdeval",
            "ranx")
SUMMED = ("NumQ", "NumRel", "NumRet")
GDEVAL_MAX_GRADE = 4  # gdeval.pl's $MAX_JUDGMENT: it stops on a higher grade
NDEVAL_MAX_CUTOFF = 20  # pyndeval: "ndeval only supports cutoffs up to 20"

_Param = dialect._Param
_CUTOFF = _Param(int)
_CUTOFF_REQUIRED = _Param(int, required=True)
_REL = _Param(int, 1)
_JUDGED = _Param(bool, False)
_ALPHA = _Param(float, 0.5)
_MIN_REL = _Param(int, 0)
_MAX_REL = _Param(int, required=True)
_T = _Param(float, 1.0)
#: ir_measures 0.4's measures that its pyndeval, cwl_eval and compat providers compute and this
#: package's own measures compute (measures.diversity, measures.cwl, measures.clarke_compatibility): name ->
#: (its parameters, as ir_measures declares them; the provider; the measure of this package)
PROVIDED = {
    "alpha_nDCG": ({"cutoff": _CUTOFF, "rel": _REL, "alpha": _ALPHA, "judged_only": _JUDGED},
                   "pyndeval", "alpha_ndcg"),
    "alpha_DCG": ({"cutoff": _CUTOFF, "rel": _REL, "alpha": _ALPHA, "judged_only": _JUDGED},
                  "pyndeval", "alpha_dcg"),
    "ERR_IA": ({"cutoff": _CUTOFF, "rel": _REL, "judged_only": _JUDGED}, "pyndeval", "err_ia"),
    "nERR_IA": ({"cutoff": _CUTOFF, "rel": _REL, "judged_only": _JUDGED}, "pyndeval", "nerr_ia"),
    "NRBP": ({"rel": _REL, "alpha": _ALPHA, "beta": _Param(float, 0.5)}, "pyndeval", "nrbp"),
    "nNRBP": ({"rel": _REL, "alpha": _ALPHA, "beta": _Param(float, 0.5)}, "pyndeval", "nnrbp"),
    "AP_IA": ({"rel": _REL, "judged_only": _JUDGED}, "pyndeval", "ap_ia"),
    "P_IA": ({"cutoff": _CUTOFF, "rel": _REL, "judged_only": _JUDGED}, "pyndeval", "p_ia"),
    "StRecall": ({"cutoff": _CUTOFF, "rel": _REL}, "pyndeval", "st_recall"),
    "NERR8": ({"cutoff": _CUTOFF_REQUIRED, "min_rel": _MIN_REL, "max_rel": _MAX_REL},
              "cwl_eval", "nerr8"),
    "NERR9": ({"cutoff": _CUTOFF_REQUIRED, "min_rel": _MIN_REL, "max_rel": _MAX_REL},
              "cwl_eval", "nerr9"),
    "NERR10": ({"p": _Param(float, 0.9), "min_rel": _MIN_REL, "max_rel": _MAX_REL},
               "cwl_eval", "nerr10"),
    "NERR11": ({"T": _T, "min_rel": _MIN_REL, "max_rel": _MAX_REL}, "cwl_eval", "nerr11"),
    "INST": ({"T": _T, "min_rel": _MIN_REL, "max_rel": _MAX_REL}, "cwl_eval", "inst"),
    "INSQ": ({"T": _T, "min_rel": _MIN_REL, "max_rel": _MAX_REL}, "cwl_eval", "insq"),
    "BPM": ({"cutoff": _CUTOFF_REQUIRED, "T": _T, "min_rel": _MIN_REL, "max_rel": _MAX_REL},
            "cwl_eval", "bpm"),
    "Compat": ({"p": _Param(float, 0.95), "normalize": _Param(bool, True)}, "compat", "compat"),
}
#: every measure this module computes: name -> (its parameters, the parameter ``@`` sets)
SIGNATURES = {**dialect.SIGNATURES,
              **{name: (params, "cutoff") for name, (params, _p, _m) in PROVIDED.items()},
              # computed by their own providers (accuracy.py, cwl_measures.py)
              "Accuracy": ({"cutoff": _CUTOFF, "rel": _REL}, "cutoff"),
              "SDCG": ({"cutoff": _CUTOFF_REQUIRED, "dcg": _Param(str, "log2", ("log2",)),
                        "min_rel": _MIN_REL, "max_rel": _MAX_REL}, "cutoff")}
#: ir_measures' other names for them
ALIASES = {**dialect.ALIASES, "α_nDCG": "alpha_nDCG", "α_DCG": "alpha_DCG", "MAP_IA": "AP_IA"}


# --- measures ------------------------------------------------------------------------------

#: the default pipeline's ``evaluator(measures, qrels)``: ``providers.DefaultPipeline``'s, which
#: providers.py puts here as it is made (it imports this module, so this one cannot import it)
PIPELINE_EVALUATOR: list = [None]


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
        self.SUPPORTED_PARAMS, at = SIGNATURES[name]
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

    # as ir_measures' measures do: through the default pipeline (PIPELINE_EVALUATOR), so that a
    # measure computed by a provider of its own (Accuracy, define's) is too
    def iter_calc(self, qrels, run):
        return PIPELINE_EVALUATOR[0]([self], qrels).iter_calc(run)

    def calc_aggregate(self, qrels, run):
        return PIPELINE_EVALUATOR[0]([self], qrels).calc_aggregate(run)[self]

    def calc(self, qrels, run) -> CalcResults:
        aggregated, per_query = PIPELINE_EVALUATOR[0]([self], qrels).calc(run)
        return CalcResults(aggregated[self], per_query)


def _param_repr(value) -> str:
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{v}" for k, v in sorted(value.items()) if k != v) + "}"
    return repr(value)


#: the measure objects (``P``, ``nDCG``, ...), each bound by name so that an editor and a type
#: checker see them, with ir_measures' other names for them (``Precision``, ``MRR``,
#: ``NumRelRet``, ...); tests/test_compat_names_bound.py holds this list equal to SIGNATURES,
#: ALIASES and the dialect's PRESETS.
alpha_DCG = Measure("alpha_DCG")
alpha_nDCG = Measure("alpha_nDCG")
AP = Measure("AP")
AP_IA = Measure("AP_IA")
BPM = Measure("BPM")
Bpref = Measure("Bpref")
Compat = Measure("Compat")
ERR = Measure("ERR")
ERR_IA = Measure("ERR_IA")
infAP = Measure("infAP")
INSQ = Measure("INSQ")
INST = Measure("INST")
IPrec = Measure("IPrec")
Judged = Measure("Judged")
nDCG = Measure("nDCG")
NERR10 = Measure("NERR10")
NERR11 = Measure("NERR11")
NERR8 = Measure("NERR8")
NERR9 = Measure("NERR9")
nERR_IA = Measure("nERR_IA")
Accuracy = Measure("Accuracy")
SDCG = Measure("SDCG")
NRBP = Measure("NRBP")
nNRBP = Measure("nNRBP")
NumQ = Measure("NumQ")
NumRel = Measure("NumRel")
NumRet = Measure("NumRet")
P = Measure("P")
P_IA = Measure("P_IA")
R = Measure("R")
RBP = Measure("RBP")
Rprec = Measure("Rprec")
RR = Measure("RR")
SetAP = Measure("SetAP")
SetF = Measure("SetF")
SetP = Measure("SetP")
SetR = Measure("SetR")
StRecall = Measure("StRecall")
Success = Measure("Success")
BPref = Bpref
MAP = AP
MAP_IA = AP_IA
MRR = RR
NDCG = nDCG
Precision = P
Recall = R
RPrec = Rprec
α_DCG = alpha_DCG
α_nDCG = alpha_nDCG
NumRelRet = Measure("NumRet", rel=1)
SetRelP = Measure("SetP", relative=True)
MEASURE_OBJECTS = {name: value for name, value in globals().items() if isinstance(value, Measure)}
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
    try:
        name, params = dialect.parse(text)
    except OptionError as refused:
        raise ValueError(refused.message) from None
    if name in dialect.PRESETS:
        base, preset = dialect.PRESETS[name]
        return Measure(base, **{**preset, **params})
    name = ALIASES.get(name, name)
    if name in SIGNATURES:
        return Measure(name, **params)
    if name in dialect.NOT_READ:
        raise ValueError(f"{text!r}: ir_measures' {name} is not computed by "
                         f"retrieval_metrics.compat.ir_measures ({dialect.NOT_READ[name]}); "
                         f"it computes {_supported()}")
    if name in dialect.PROVIDED_ELSEWHERE:
        raise ValueError(f"{text!r}: ir_measures' {name} (its "
                         f"{dialect.PROVIDED_ELSEWHERE[name]} provider's) is not computed by "
                         f"retrieval_metrics.compat.ir_measures, nor by this package; it "
                         f"computes {_supported()}")
    raise NameError(f"measure not found: {name}")


def _supported() -> str:
    """The measure names this module computes, for a refusal."""
    return ", ".join(sorted(set(SIGNATURES) | set(ALIASES) | set(dialect.PRESETS),
                            key=str.casefold))


# --- inputs --------------------------------------------------------------------------------

class _Judgements:
    """The qrels as ir_measures' providers see them: each query's grades (a pair given twice:
    its last grade), each row's subtopic for pyndeval, and which queries a provider counts (a
    query given as an empty dict counts for pytrec_eval's, the judged and the compat
    providers, which read the dict's keys, and for no other)."""

    def __init__(self, qrels):
        self.grades: dict = {}
        self.rows: list = []  # (query, subtopic, doc, grade), in the order given
        keys = None
        if isinstance(qrels, dict):
            keys = list(qrels)
            rows = ((q, d, g, "0") for q, docs in qrels.items()
                    for d, g in _items(docs, "qrels", q))
        else:
            rows = _rows(qrels, "qrels", ("query_id", "doc_id", "relevance"), "iteration")
        for query, doc, grade, subtopic in rows:
            grade = _grade(query, doc, grade)
            self.grades.setdefault(query, {})[doc] = grade
            self.rows.append((query, subtopic, doc, grade))
        self.judged = [q for q in (keys if keys is not None else self.grades)
                       if self.grades.get(q)]
        self.keys = keys if keys is not None else self.judged
        self._subtopics = None

    def counted(self, provider: str) -> list:
        return self.keys if provider in ("pytrec_eval", "judged", "compat") else self.judged

    def subtopic_grades(self, query) -> SubtopicGrades:
        """A query's grades with ``subtopics`` as pyndeval hands them to ndeval: ``{doc:
        ((subtopic, grade), ...)}`` for every row, the subtopic being the row's
        ``iteration`` (``"0"`` without one: dicts, namedtuples without the field, DataFrames
        without the column), numbered in the order first met over all the queries, as
        pyndeval numbers them (ndeval sums over the subtopics in that order)."""
        if self._subtopics is None:
            numbers: dict = {}
            per_query: dict = {}
            seen: set = set()
            for q, subtopic, doc, grade in self.rows:
                if (q, subtopic, doc) in seen:
                    raise ValueError(
                        f"qrels: query {q!r}, document {doc!r} is judged twice for subtopic "
                        f"(iteration) {subtopic!r}; ndeval, which ir_measures runs for the "
                        f"diversity measures, counts both rows for the subtopic and keeps the "
                        f"last grade for the document, so give each judgement once")
                seen.add((q, subtopic, doc))
                number = numbers.setdefault(subtopic, len(numbers))
                per_query.setdefault(q, {}).setdefault(doc, []).append((number, grade))
            self._subtopics = {q: SubtopicGrades(self.grades[q], {d: tuple(p) for d, p in
                                                                 docs.items()})
                               for q, docs in per_query.items()}
        return self._subtopics[query]


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


# PyTerrier's names for ir_measures' columns (its topics, results and qrels frames), so a
# PyTerrier frame is read as it is; ir_measures itself needs them renamed.
PYTERRIER_COLUMNS = {"query_id": "qid", "doc_id": "docno", "score": "score", "relevance": "label"}


def _rows(rows, source, fields, optional=None):
    """(query, doc, value) from a DataFrame's columns or an iterable of namedtuples, and with
    ``optional`` that field's value too (``"0"`` where it is missing)."""
    shape = "Qrel(query_id, doc_id, relevance)" if source == "qrels" else \
        "ScoredDoc(query_id, doc_id, score)"
    if hasattr(rows, "itertuples") and hasattr(rows, "columns"):
        columns = list(rows.columns)
        if not all(f in columns for f in fields) and all(
                PYTERRIER_COLUMNS[f] in columns for f in fields):  # PyTerrier's frames
            rows = rows.rename(columns={PYTERRIER_COLUMNS[f]: f for f in fields})
        missing = [f for f in fields if f not in list(rows.columns)]
        if missing:
            pyterrier = [PYTERRIER_COLUMNS[f] for f in fields]
            raise ValueError(f"{source}: DataFrame missing columns: {missing} "
                             f"(found {columns}; PyTerrier's {', '.join(pyterrier)} are read too)")
        has = optional is not None and optional in list(rows.columns)
        return ((getattr(r, fields[0]), getattr(r, fields[1]), getattr(r, fields[2]))
                + ((getattr(r, optional) if has else "0",) if optional else ())
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
        out.append((getattr(row, fields[0]), getattr(row, fields[1]), getattr(row, fields[2]))
                   + ((getattr(row, optional, "0"),) if optional else ()))
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
    if name in PROVIDED:
        return PROVIDED[name][1]
    cut = measure["cutoff"] is not NOT_PROVIDED if "cutoff" in measure.SUPPORTED_PARAMS else False
    if name == "RR" and cut:
        return "msmarco"
    if name == "nDCG" and measure["dcg"] == "exp-log2":
        return "gdeval" if cut else "ranx"
    return {"ERR": "gdeval", "Judged": "judged", "RBP": "cwl_eval",
            "SDCG": "cwl_eval"}.get(name, "pytrec_eval")


def _ranking(provider: str, scores: dict) -> list:
    """The documents best first, ties broken as that provider breaks them."""
    if provider == "pytrec_eval":
        return trec_eval_order(scores)
    if provider in ("msmarco", "judged", "pyndeval", "compat"):
        return sorted(scores, key=lambda d: (-scores[d], d))
    if provider == "gdeval":
        return sorted(sorted(scores, reverse=True), key=lambda d: -scores[d])
    return sorted(scores, key=lambda d: -scores[d])  # cwl_eval: a stable sort (ranx too)


# --- evaluating ------------------------------------------------------------------------------

class Evaluator:
    """ir_measures' ``evaluator(measures, qrels)``: the measures checked and the judgements
    read once, for one run or many (``iter_calc``, ``calc_aggregate``, ``calc``)."""

    def __init__(self, measures, qrels, computed_as=None, first=True):
        """``computed_as(measure)``: the measure computed for one asked for (a provider's
        reading: gdeval's nDCG@k is its exp-log2 nDCG); the results keep the name asked.
        ``first``: this evaluator is the pipeline's first, whose queries get every measure's
        0 (ir_measures' FallbackEvaluator); False when another evaluator comes before it."""
        self.first = first
        if isinstance(measures, (str, Measure)):
            raise ValueError("measures must be a list of measures, such as [nDCG@10, P@5]")
        parsed = {}
        for given in measures:  # keyed as given, a string by its measure (equal to it)
            measure = parse_measure(given)
            parsed.setdefault(measure, (measure if isinstance(given, str) else given,
                                        computed_as(measure) if computed_as else measure))
        self.given = [given for given, _ in parsed.values()]
        self.measures = [measure for _, measure in parsed.values()]
        self.plans = [plan_of(m) for m in self.measures]
        self.qrels = _Judgements(qrels)
        self.providers = [provider_of(m) for m in self.measures]
        # the queries ir_measures' evaluator of the first provider counts (FallbackEvaluator's)
        self.qrel_qids = set(self.qrels.counted(min(self.providers, key=PIPELINE.index,
                                                     default="")))
        if "pytrec_eval" in self.providers:
            _str_ids(self.qrels.grades)
        if "gdeval" in self.providers:
            _check_gdeval_grades(self.qrels.grades)
        if "pyndeval" in self.providers and self.qrels.judged:
            self.qrels.subtopic_grades(self.qrels.judged[0])  # repeated judgements refused now

    def iter_calc(self, run):
        """Per query and measure, ``Metric(query_id, measure, value)``: the values computed,
        then the 0 of each judged query without one."""
        run = _run(run)
        if "pytrec_eval" in self.providers:
            _str_ids(run)
        used = sorted(set(self.providers), key=PIPELINE.index)
        first = self.qrels.counted(used[0]) if len(used) > 1 and self.first else []
        rankings: dict = {}
        defaults = []
        computed = []  # (order, Metric): pytrec_eval's first, query by query (see _order)
        order = _order(self.measures, self.providers, list(run))
        for given, measure, plan, provider in zip(self.given, self.measures, self.plans,
                                                  self.providers):
            done = set()
            for query, scores in run.items():
                judged = self.qrels.grades.get(query)
                # pytrec_eval scores a judged query whose ranking is empty (num_q 1, num_rel
                # R, the rest 0); the other providers skip it, and it gets the default
                if not judged or (not scores and provider != "pytrec_eval"):
                    continue
                key = (provider, plan.threshold, query)
                if key not in rankings:
                    if provider == "pyndeval":
                        judged = self.qrels.subtopic_grades(query)
                    rankings[key] = QueryGrades(_ranking(provider, scores), judged,
                                                plan.threshold)
                value = float(plan.value(rankings[key], scores))
                done.add(query)
                computed.append((order(measure, query), Metric(query, given, value)))
            for query in list(self.qrels.counted(provider)) + list(first):
                if query not in done:
                    done.add(query)
                    defaults.append(Metric(query, given, measure.DEFAULT))
        yield from (metric for _key, metric in sorted(computed, key=lambda pair: pair[0]))
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
            aggregated[given] = aggregate(values[given], measure.NAME in SUMMED)
        return CalcResults(aggregated, per_query)


#: the trec_eval measure ir_measures hands each measure to pytrec_eval as (its _build_invokers)
_TREC_NAMES = {"P": "P", "RR": "recip_rank", "Rprec": "Rprec", "AP": "map", "infAP": "infAP",
               "nDCG": "ndcg", "R": "recall", "Bpref": "bpref", "NumRet": "num_ret",
               "NumQ": "num_q", "NumRel": "num_rel", "SetAP": "set_map", "SetF": "set_F",
               "SetP": "set_P", "SetR": "set_recall", "IPrec": "iprec_at_recall",
               "Success": "success"}


def _order(measures, providers, queries):
    """The order ir_measures yields results in: its pytrec_eval provider first, one pytrec_eval
    run per relevance level (in the order the levels first come), each query in the run's
    order, its measures in trec_eval's order (that of pytrec_eval's results); then the other
    providers, in the pipeline's order, measure by measure (gdeval topic by topic, in numeric
    order, each topic's nDCG before its ERR). (Which run a measure without a
    level joins, ir_measures decides in a set's order, which changes with the process's
    string hashes: here the first.)"""
    from ...measures.trec_eval_rows import TREC_EVAL_ORDER
    levels: list = []
    for measure, provider in zip(measures, providers):
        if provider == "pytrec_eval" and "rel" in measure.params and measure["rel"] not in levels:
            levels.append(measure["rel"])
    place = {q: i for i, q in enumerate(queries)}
    # gdeval.pl prints its topics in numeric order (ir_measures runs it for its query ids that
    # are numbers only)
    numeric = {q: i for i, q in enumerate(sorted(queries, key=lambda q: (
        not str(q).lstrip("-").isdigit(), int(q) if str(q).lstrip("-").isdigit() else 0, str(q))))}
    index = {id(m): i for i, m in enumerate(measures)}
    provider_of_measure = {id(m): p for m, p in zip(measures, providers)}

    def key(measure, query):
        provider = provider_of_measure[id(measure)]
        if provider == "gdeval":  # one line per topic: its nDCG, then its ERR
            return (1 + PIPELINE.index(provider), numeric[query], measure.NAME != "nDCG",
                    index[id(measure)])
        if provider != "pytrec_eval":
            return (1 + PIPELINE.index(provider), index[id(measure)], place[query])
        level = measure["rel"] if "rel" in measure.params else (levels[0] if levels else 1)
        name = _TREC_NAMES.get(measure.NAME, "")
        if name == "map" and measure["cutoff"] is not NOT_PROVIDED:
            name = "map_cut"
        if name == "ndcg" and measure["cutoff"] is not NOT_PROVIDED:
            name = "ndcg_cut"
        if name == "num_ret" and measure["rel"] is not NOT_PROVIDED:
            name = "num_rel_ret"
        rank = TREC_EVAL_ORDER.index(name) if name in TREC_EVAL_ORDER else len(TREC_EVAL_ORDER)
        param = next((measure[p] for p in ("cutoff", "recall", "beta")
                      if p in measure.SUPPORTED_PARAMS and measure[p] is not NOT_PROVIDED), 0)
        group = levels.index(level) if level in levels else 0
        return (0, group, place[query], rank, float(param), index[id(measure)])
    return key


def _str_ids(data: dict) -> None:
    """pytrec_eval's refusal, which ir_measures passes on for the measures it sends there: a
    query or document id that is not a str (an int query id would otherwise be a query of its
    own, never matching the str one in the run)."""
    for query, docs in data.items():
        if not isinstance(query, str) or not all(isinstance(doc, str) for doc in docs):
            raise TypeError("Expected string as key.")


def aggregate(values: list[float], summed: bool):
    """ir_measures' aggregators: a running sum from 0 in the order the values come
    (``iter_calc``'s), divided by their count for a mean (NaN for none); a count's sum."""
    total = 0 if summed else 0.0
    for value in values:
        total += value
    if summed:
        return total
    return total / len(values) if values else math.nan


class _Plan(NamedTuple):
    """How one measure is computed: ``value(q, scores)`` for a query's ``QueryGrades`` (built
    with ``threshold``, the relevance level) and its run scores."""

    value: Callable
    threshold: int = 1


def _text(measure: Measure) -> str:
    """The measure written with every parameter given (quoted in refusals)."""
    params = [f"{k}={v!r}" for k, v in measure.params.items() if k != measure.AT_PARAM]
    text = measure.NAME + (f"({','.join(params)})" if params else "")
    if measure.AT_PARAM in measure.params:
        text += f"@{measure.params[measure.AT_PARAM]!r}"
    return text


def plan_of(measure: Measure) -> _Plan:
    """How ``measure`` is computed (the dialect's reading, or one of ``PROVIDED``), refused
    with ValueError naming why when no provider of ir_measures computes it."""
    if measure.NAME in PROVIDED:
        return _provided(measure)
    try:
        spec = dialect.read(_text(measure))
    except OptionError as refused:
        raise ValueError(refused.message) from None  # quoting every parameter given
    if measure.NAME == "IPrec":  # pytrec_eval is handed iprec_at_recall_{level:.2f}
        spec = spec._replace(params=tuple((k, float(f"{v:.2f}") if k == "recall" else v)
                                          for k, v in spec.params))
    compute, cutoff, params = BY_NAME[spec.measure].compute, spec.cutoff, dict(spec.params)
    return _Plan(lambda q, scores: compute(q, cutoff, **params))


def _provided(measure: Measure) -> _Plan:
    """A diversity (pyndeval), C/W/L (cwl_eval) or Compat measure, with ir_measures'
    parameters, refused where its provider fails."""
    text, name = _text(measure), measure.NAME
    signature, provider, own = PROVIDED[name]
    try:
        dialect._validate(text, name, dict(measure.params), signature)
    except OptionError as refused:
        raise ValueError(refused.message) from None

    def refuse(why):
        raise ValueError(f"{text!r}: ir_measures computes no such measure ({why})")
    params = {k: measure[k] for k in signature if k != "cutoff"}
    cutoff = measure["cutoff"] if "cutoff" in signature else None
    cutoff = None if cutoff is NOT_PROVIDED else cutoff
    compute = BY_NAME[own].compute
    if provider == "pyndeval":
        if "cutoff" in signature and cutoff is None:
            refuse(f"its pyndeval provider needs a cutoff, 1 to {NDEVAL_MAX_CUTOFF}: {name}@20")
        if cutoff is not None and cutoff > NDEVAL_MAX_CUTOFF:
            refuse(f"ndeval, which ir_measures runs for {name}, computes cutoffs up to "
                   f"{NDEVAL_MAX_CUTOFF}")
        if params.pop("judged_only", False):
            refuse("its pyndeval provider fails with judged_only=True, indexing a generator")
        rel = params.pop("rel")
        return _Plan(lambda q, scores: 0.0 if no_subtopic(q) else compute(q, cutoff, **params),
                     rel)
    if provider == "cwl_eval":
        if params["min_rel"] >= params["max_rel"]:
            refuse("its cwl_eval provider needs min_rel below max_rel, scaling the grades "
                   "from min_rel..max_rel to 0..1")
        return _Plan(lambda q, scores: compute(q, cutoff, **params))
    return _Plan(lambda q, scores: compatibility(q.ranked, q.judged, scores, **params))


def compatibility(ranked, judged: dict, scores: dict, p: float = 0.95,
                  normalize: bool = True) -> float:
    """ir_measures' Compat: rank-biased overlap (``measures.clarke_compatibility.rbo``) of the ranking with
    an ideal ranking to depth max(|ranking|, |ideal|), over the ideal's with itself. Its ideal
    holds the documents graded above 0, higher grades first, equal grades by the run's score
    (a document the run lacks scoring 0.0, so it comes before those the run scored below 0),
    then in the judgements' order; ``measures.clarke_compatibility.compatibility`` puts every retrieved
    document first, which is the same ranking when the run's scores are positive.

    The run scores b -1.0 and lacks a: the ideal is a (0.0), then b; p = 0.5, to depth 2:
    (0 + 0.5 * 1 / 2) / 1.5 over the ideal's 1 (b first, as measures' order gives: 5/6):

    >>> compatibility(["b"], {"a": 1, "b": 1}, {"b": -1.0}, p=0.5)
    0.16666666666666666
    """
    ideal = [doc for doc in judged if judged[doc] > 0]
    ideal.sort(key=lambda doc: scores.get(doc, 0.0), reverse=True)
    ideal.sort(key=lambda doc: judged[doc], reverse=True)
    return compatibility_with(ranked, ideal, p, normalize)


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
    for query, iteration, doc, relevance in qrels_rows(file):
        yield Qrel(query, doc, relevance, iteration)


def read_trec_run(file):
    """``ScoredDoc`` per line of a TREC run file, as ir_measures.read_trec_run."""
    for query, doc, score, _tag in run_rows(file):
        yield ScoredDoc(query, doc, score)
