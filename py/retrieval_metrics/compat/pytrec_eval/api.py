"""``pytrec_eval``'s interface, standard library only: ``RelevanceEvaluator(qrel, measures,
relevance_level=1, judged_docs_only_flag=False).evaluate(run)`` gives pytrec_eval's
``{query: {measure: value}}`` with its values (trec_eval 9.0.8's arithmetic), so BEIR- and
MTEB-style code runs unchanged in CPython without a compiler and in Pyodide::

    from retrieval_metrics.compat import pytrec_eval
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "map_cut.10", "P.5"})
    scores = evaluator.evaluate(run)

Its rules, kept here: a measure without parameters takes trec_eval's defaults (``P`` gives
``P_5`` ... ``P_1000``); ``P.3``, ``P_3`` and ``P.3,7`` set them; the nicknames ``official``,
``set`` and ``all_trec`` expand; documents are ranked by their score as a 32-bit float,
ties by document id descending (trec_eval's order); the queries returned are those of the run
that have judgements, a query with an empty ranking included (pytrec_eval scores it: harnesses
that divide a sum by ``len(scores)`` count it); with no measures each maps to ``{}``;
``judged_docs_only_flag`` drops the documents not judged (or graded below 0) from each ranking
first; ``compute_aggregated_measure`` is pytrec_eval's mean. Refused (ValueError naming them):
the ``prefs`` and judgement-group measures, which pytrec_eval does not list either.

>>> qrel = {"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 1}}
>>> run = {"q1": {"d1": 0.2, "d2": 0.9}, "q2": {"d3": 1.0}, "q3": {"d1": 1.0}}
>>> RelevanceEvaluator(qrel, {"P.1", "recip_rank"}).evaluate(run)
{'q1': {'P_1': 0.0, 'recip_rank': 0.5}, 'q2': {'P_1': 1.0, 'recip_rank': 1.0}}
"""

from __future__ import annotations

import collections
import math
import re
import struct

from ...measures import trec_gains as gains
from ...measures import trec_ranked as t
from ...measures.dialects.trec_eval_9 import iprec_at_recall_908
from ...measures.grades import num_rel_ret
from ...measures.trec_eval_rows import NICKNAMES, TREC_CUTOFFS
from ...measures.trec_rel_list import RelList
from ..numpy_order import numpy_mean, numpy_sum

__all__ = ["RelevanceEvaluator", "compute_aggregated_measure", "parse_qrel", "parse_run",
           "supported_measures", "supported_nicknames"]

_CUTOFFS = tuple(str(k) for k in TREC_CUTOFFS)
#: trec_eval's default parameters, as text (pytrec_eval combines them as strings)
DEFAULTS = {
    "P": _CUTOFFS, "recall": _CUTOFFS, "map_cut": _CUTOFFS, "ndcg_cut": _CUTOFFS,
    "relative_P": _CUTOFFS, "success": ("1", "5", "10"),
    "iprec_at_recall": tuple(f"{i / 10:.2f}" for i in range(11)),
    "Rprec_mult": tuple(f"{i / 5:.2f}" for i in range(1, 11)), "set_F": ("1.0",),
}
_PLAIN = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
          "recip_rank", "bpref", "gm_bpref", "infAP", "11pt_avg", "ndcg", "set_P",
          "set_recall", "set_map", "set_relative_P", "num_nonrel_judged_ret", "relstring",
          "utility", "G", "binG", "Rndcg", "ndcg_rel")
supported_measures = frozenset(_PLAIN) | frozenset(DEFAULTS)
#: pytrec_eval's nicknames: trec_eval's (``trec_eval_rows.NICKNAMES``), less what its trec_eval
#: 9.0.8 does not have (unj, rbp and rbp_resid came with trec_eval 10)
_NOT_IN_TREC_EVAL_9 = {"unj", "rbp", "rbp_resid"}
supported_nicknames = {name: set(NICKNAMES[name]) - _NOT_IN_TREC_EVAL_9
                       for name in ("official", "set", "all_trec")}
NOT_COMPUTED = ("gm_bpref_avgjg", "prefs", "map_avgjg")
_RE_BASE = r"{}[\._]([0-9]+(\.[0-9]+)?(,[0-9]+(\.[0-9]+)?)*)"


def parse_run(f_run) -> dict:
    """A TREC run's lines to ``{query: {doc: score}}``, as pytrec_eval.parse_run."""
    run = collections.defaultdict(dict)
    for line in f_run:
        query_id, _, object_id, _rank, score, _ = line.strip().split()
        assert object_id not in run[query_id]
        run[query_id][object_id] = float(score)
    return run


def parse_qrel(f_qrel) -> dict:
    """A TREC qrels' lines to ``{query: {doc: grade}}``, as pytrec_eval.parse_qrel."""
    qrel = collections.defaultdict(dict)
    for line in f_qrel:
        query_id, _, object_id, relevance = line.strip().split()
        assert object_id not in qrel[query_id]
        qrel[query_id][object_id] = int(relevance)
    return qrel


def _combine(measures) -> dict:
    """pytrec_eval's _expand_nicknames and _combine_measures: measure -> its parameters."""
    expanded = set()
    for measure in measures:
        expanded |= set(supported_nicknames.get(measure, {measure}))
    combined = collections.defaultdict(set)
    for measure in expanded:
        if measure in supported_measures:
            combined.setdefault(measure, set())
            continue
        base = next((m for m in sorted(supported_measures, key=len, reverse=True)
                     if re.match(_RE_BASE.format(re.escape(m)), measure)), None)
        if base is None:
            word = re.split(r"[._]\d", measure)[0]
            if word in NOT_COMPUTED or measure in NOT_COMPUTED:
                raise ValueError(f"unsupported measure {measure} (retrieval_metrics does not "
                                 f"compute trec_eval's {word})")
            raise ValueError(f"unsupported measure {measure}")
        match = re.match(_RE_BASE.format(re.escape(base)), measure)
        combined[base].update(match.group(1).split(","))
    return combined


def _float32(x: float) -> float:
    return struct.unpack("f", struct.pack("f", x))[0]


def trec_eval_order(scores: dict) -> list:
    """trec_eval's order: score (as a 32-bit float) descending, ties by doc id descending."""
    docs = sorted(scores, reverse=True)
    return sorted(docs, key=lambda d: -_float32(float(scores[d])))


class RelevanceEvaluator:
    """pytrec_eval.RelevanceEvaluator over the standard library (see the module docstring)."""

    def __init__(self, query_relevance, measures, relevance_level=1, judged_docs_only_flag=False):
        # pytrec_eval's C reads its arguments with PyArg_ParseTuple: a relevance level that is
        # not a whole number fails there, with its words (1.5 is not read as 1)
        if not isinstance(query_relevance, dict) or not isinstance(relevance_level, int):
            raise TypeError("Expected object_relevance_per_qid dictionary and measures set.")
        _check(query_relevance, int, "Expected relevance to be integer.")
        self.qrel = {q: dict(docs) for q, docs in query_relevance.items() if len(docs) > 0}
        self.measures = _combine(measures)
        self.level = relevance_level
        self.judged_only = bool(judged_docs_only_flag)

    def evaluate(self, scores) -> dict:
        """``{query: {measure: value}}`` for every query of ``scores`` that has judgements, an
        empty ranking included (scored as trec_eval scores one: 0, or 9.0.8's 0/0 NaN where
        its C divides by the documents retrieved), as pytrec_eval returns them, so code that
        divides a sum by ``len(result)`` gets pytrec_eval's mean."""
        if not isinstance(scores, dict):
            raise TypeError("Expected dictionary as argument.")
        _check(scores, (int, float), "Unable to extract query/object scores.")
        out = {}
        for query, docs in scores.items():
            if query in self.qrel:
                out[query] = self._query(self.qrel[query], trec_eval_order(docs))
        return out

    def _query(self, judged: dict, ranked: list) -> dict:
        level = self.level
        if self.judged_only:
            ranked = [d for d in ranked if judged.get(d, -1) >= 0]
        grades = [judged.get(d) for d in ranked]
        rel = sum(1 for g in judged.values() if g >= level)
        values = {}
        r = RelList.of_grades(grades, judged.values(), level)
        for measure, params in sorted(self.measures.items()):
            chosen = sorted(params or DEFAULTS.get(measure, ()), key=float) or [None]
            for param in chosen:
                name, value = _value(measure, param, grades, rel, level, r)
                values[name] = value
        return values


def _check(data: dict, values, wrong_value: str) -> None:
    """pytrec_eval's checks of a dict of query -> {document: value}, with its TypeErrors: ids
    that are not str (an int document id would never match the str one in the judgements),
    values that are not ``values`` (a float or str grade)."""
    for query, docs in data.items():
        if not isinstance(query, str):
            raise TypeError("Expected string as key.")
        if not isinstance(docs, dict):
            raise TypeError(wrong_value)
        for doc, value in docs.items():
            if not isinstance(doc, str):
                raise TypeError("Expected mapping of document id to query relevance or matching "
                                "score." if values is int else wrong_value)
            if isinstance(value, str) or not isinstance(value, values):
                raise TypeError(wrong_value)


def _value(measure, param, grades, rel, level, r):
    """One of pytrec_eval's values: trec_eval 9.0.8's arithmetic, which is trec_eval 10's
    (``r``, the query's RelList, for the measures the trec_eval mode computes) except for
    iprec_at_recall and 11pt_avg (``iprec_at_recall_908``)."""
    if measure in ("P", "recall", "map_cut", "ndcg_cut", "relative_P", "success"):
        k = int(float(param))
        name = f"{measure}_{k}"
        return name, _AT[measure](r, (k,))[0]
    if measure == "iprec_at_recall":
        point = float(param)
        return f"iprec_at_recall_{point:.2f}", iprec_at_recall_908(grades, rel, point, level)
    if measure == "Rprec_mult":
        multiple = float(param)
        return f"Rprec_mult_{multiple:.2f}", t.rprec_mult(r, (multiple,))[0]
    if measure == "set_F":
        return "set_F", t.set_f(r, float(param)) if rel else 0.0
    plain = {
        "runid": lambda: 0.0, "relstring": lambda: 0.0, "num_q": lambda: 1.0,
        "num_ret": lambda: float(len(grades)), "num_rel": lambda: float(rel),
        "num_rel_ret": lambda: float(num_rel_ret(grades, level)), "map": lambda: t.average_precision(r),
        "gm_map": lambda: t.log_average_precision(r),
        "Rprec": lambda: t.r_precision(r),
        "recip_rank": lambda: t.reciprocal_rank(r),
        "bpref": lambda: t.bpref(r),
        "gm_bpref": lambda: t.log_bpref(r),
        "infAP": lambda: t.inferred_ap(r),
        "11pt_avg": lambda: _eleven_point(grades, rel, level),
        "ndcg": lambda: gains.ndcg(r),
        "set_P": lambda: t.set_precision(r),
        "set_recall": lambda: t.set_recall(r),
        "set_map": lambda: t.set_map(r),
        "set_relative_P": lambda: t.set_relative_precision(r),
        "num_nonrel_judged_ret": lambda: t.num_nonrel_judged_ret(r),
        "utility": lambda: t.utility(r, t.UTILITY_WEIGHTS),
        "G": lambda: gains.g_measure(r), "binG": lambda: t.binary_g(r),
        "Rndcg": lambda: gains.r_ndcg(r), "ndcg_rel": lambda: gains.ndcg_rel(r),
    }
    return measure, plain[measure]()


#: the measures at cutoffs: trec_eval's functions of the query's RelList
_AT = {"P": t.precision_at, "recall": t.recall_at, "map_cut": t.map_at, "ndcg_cut": t.ndcg_at,
       "relative_P": t.relative_precision_at, "success": t.success_at}


def compute_aggregated_measure(measure: str, values) -> float:
    """pytrec_eval's mean of one measure over queries, as it computes it: numpy's sum for
    ``num_*`` counts, exp(sum / n) for ``gm_*`` (whose per-query values are already logs), else
    numpy's mean, each summed in numpy's order (``numpy_order``), so equal to pytrec_eval's to
    the last bit (the exp is the C library's, as numpy's is on CPUs without AVX-512).

    >>> compute_aggregated_measure("num_rel", [2, 3]), compute_aggregated_measure("map", [0.5, 0.25])
    (5.0, 0.375)
    >>> round(compute_aggregated_measure("gm_map", [math.log(0.5), math.log(0.125)]), 6)
    0.25
    """
    values = [float(v) for v in values]
    if measure.startswith("num_"):
        return numpy_sum(values)
    if measure.startswith("gm_"):
        return math.exp(numpy_sum(values) / len(values))
    return numpy_mean(values)


def _eleven_point(grades, rel, level) -> float:
    total = 0.0
    for i in range(10, -1, -1):
        total += iprec_at_recall_908(grades, rel, i / 10, level)
    return total / 11
