"""ir_measures' cwl_eval provider (``ir_measures.cwl_eval``): the measures it computes through
cwl_eval (the C/W/L framework), each query's values as ``CwlMetric`` with cwl_eval's five
numbers, computed by ``measures.cwl`` as cwl_eval computes them.

It takes ``P@k``, ``RR``, ``AP`` (cwl_eval's own: the C/W/L forms of precision, reciprocal
rank and average precision, over the relevant documents retrieved), ``RBP(rel=..)``,
``SDCG(max_rel=..)@k`` (scaled DCG, cwl_eval's NDCG-k), ``BPM``, ``NERR8``-``NERR11``, ``INST``
and ``INSQ``. As ir_measures 0.4.3 runs cwl_eval: negative grades read as 0; ``rel`` makes the
gains binary, ``min_rel``/``max_rel`` scales grades into [0, 1]; each query's ranking by score,
highest first, equal scores in the run's order, read to depth 1000; only judged queries are
scored, and a judged query without results gets the measure's 0 (a plain ``Metric``), after
the rest. The default pipeline sends ``RBP``, ``SDCG`` and the C/W/L measures here (``P@k``,
``RR`` and ``AP`` to pytrec_eval).
"""

from __future__ import annotations

from typing import NamedTuple, Union

from ...measures import cwl
from . import api
from .evaluators import OwnEvaluator
from .util import QrelsConverter

__all__ = ["CwlMetric", "CwlEvaluator", "supports", "check"]


class CwlMetric(NamedTuple):
    """One query's value of a measure cwl_eval computed, with cwl_eval's other four numbers."""

    query_id: str
    measure: "api.Measure"
    value: Union[float, int]  # the expected utility per document
    expected_total_utility: float
    expected_cost: float
    expected_total_cost: float
    expected_items: float


# name -> (the function of measures.cwl given the gains and the measure, how the gains are made:
# "rel" binary at the measure's rel, "scale" min_rel..max_rel)
_COMPUTED = {
    "P": (lambda g, m, q: cwl.cwl_precision(g, m["cutoff"], quantity=q), "rel"),
    "RR": (lambda g, m, q: cwl.cwl_rr(g, quantity=q), "rel"),
    "AP": (lambda g, m, q: cwl.cwl_ap(g, quantity=q), "rel"),
    "RBP": (lambda g, m, q: cwl.cwl_rbp(g, m["p"], quantity=q), "rel"),
    "BPM": (lambda g, m, q: cwl.bpm(g, m["T"], m["cutoff"], quantity=q), "scale"),
    "SDCG": (lambda g, m, q: cwl.sdcg(g, m["cutoff"], quantity=q), "scale"),
    "NERR8": (lambda g, m, q: cwl.nerr8(g, m["cutoff"], quantity=q), "scale"),
    "NERR9": (lambda g, m, q: cwl.nerr9(g, m["cutoff"], quantity=q), "scale"),
    "NERR10": (lambda g, m, q: cwl.nerr10(g, m["p"], quantity=q), "scale"),
    "NERR11": (lambda g, m, q: cwl.nerr11(g, m["T"], quantity=q), "scale"),
    "INST": (lambda g, m, q: cwl.inst(g, m["T"], quantity=q), "scale"),
    "INSQ": (lambda g, m, q: cwl.insq(g, m["T"], quantity=q), "scale"),
}


def check(measure) -> str | None:
    """Why cwl_eval does not compute ``measure`` (ir_measures' SUPPORTED_MEASURES of its
    cwl_eval provider), or None when it does."""
    name = getattr(measure, "NAME", None)
    if name not in _COMPUTED:
        return f"cwl_eval computes {', '.join(_COMPUTED)}, not {name}"
    given = measure.params
    if name in ("P", "RR", "AP") and given.get("judged_only", False):
        return "cwl_eval reads no judged_only"
    if name in ("RR", "AP", "RBP") and "cutoff" in given:
        return f"cwl_eval's {name} takes no cutoff"
    if name == "RBP" and "rel" not in given:
        return "cwl_eval's RBP needs rel (RBP(rel=1))"
    if name == "SDCG" and given.get("dcg", "log2") != "log2":
        return "cwl_eval's SDCG is log2's"
    if _COMPUTED[name][1] == "scale":
        if "max_rel" not in given:
            return f"cwl_eval's {name} needs max_rel ({name}(max_rel=3))"
        if not measure["min_rel"] < measure["max_rel"]:
            return "min_rel must be less than max_rel"
    if name in ("P", "SDCG", "BPM", "NERR8", "NERR9") and given.get("cutoff") is None:
        return f"cwl_eval's {name} needs a cutoff ({name}@10)"
    return None


def supports(measure) -> bool:
    return check(measure) is None


def _gains_key(measure) -> tuple:
    if _COMPUTED[measure.NAME][1] == "rel":
        return (measure["rel"], None, None)
    return (None, measure["min_rel"], measure["max_rel"])


def _gain(grade, measure) -> float:
    """cwl_eval's gain of a grade (negative grades read as 0)."""
    grade = max(grade, 0)
    if _COMPUTED[measure.NAME][1] == "rel":
        return 1.0 if grade >= measure["rel"] else 0.0
    low, high = measure["min_rel"], measure["max_rel"]
    return (min(max(grade, low), high) - low) / (high - low)


class CwlEvaluator(OwnEvaluator):
    """ir_measures' CwlEvaluator: the judgements read once; per judged query of the run, each
    measure's five numbers."""

    def __init__(self, measures, qrels):
        measures = list(measures)
        for measure in measures:
            why = check(measure)
            if why:
                raise ValueError(f"unsupported measure {measure}: {why}")
        # as ir_measures runs cwl_eval: once per way of making the gains (rel, or min_rel and
        # max_rel), in the order those first come, each with its measures in theirs
        keys = list(dict.fromkeys(_gains_key(m) for m in measures))
        self.measures = sorted(measures, key=lambda m: keys.index(_gains_key(m)))
        self.grades: dict = {}
        for row in QrelsConverter(qrels).as_namedtuple_iter():
            self.grades.setdefault(row.query_id, {})[row.doc_id] = row.relevance
        self.qrel_qids = set(self.grades)

    def _computed(self, run):
        for query_id, scores in api._run(run).items():
            judged = self.grades.get(query_id)
            if judged is None:
                continue
            ranked = sorted(scores, key=lambda d: -scores[d])[:cwl.CWL_DEPTH]
            for measure in self.measures:
                gains = [_gain(judged.get(doc, 0), measure) for doc in ranked]
                compute = _COMPUTED[measure.NAME][0]
                yield CwlMetric(query_id, measure,
                                *(compute(gains, measure, q) for q in cwl.QUANTITIES))
