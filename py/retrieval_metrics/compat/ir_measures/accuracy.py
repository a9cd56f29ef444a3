"""ir_measures' ``Accuracy`` as its accuracy provider computes it (ir_measures 0.4.3): per
query, the chance that a relevant document in the ranking comes before a non-relevant one,
among the documents retrieved (to the cutoff, if any). A diagnostic, not a ranking measure: a
query is reported only when it is judged and one of its retrieved documents is relevant (no 0
for the others), and the ranking is the run's by score, highest first, equal scores in the
run's order.

Where ir_measures divides by zero (every document read is relevant: none non-relevant for a
relevant one to come before), so does this, with ZeroDivisionError, saying which query.

>>> from .api import Qrel, ScoredDoc
>>> qrels = [Qrel("q", "a", 1), Qrel("q", "b", 0)]
>>> run = [ScoredDoc("q", "b", 2.0), ScoredDoc("q", "a", 1.0), ScoredDoc("q", "c", 0.5)]
>>> [round(m.value, 4) for m in AccuracyEvaluator([api.Accuracy], qrels).iter_calc(run)]
[0.5]
"""

from __future__ import annotations

from . import api
from .evaluators import OwnEvaluator
from .util import QrelsConverter, RunConverter

__all__ = ["AccuracyEvaluator", "check"]


def check(measure) -> None:
    """ir_measures' check of Accuracy's parameters (its AssertionError, in its words)."""
    unsupported = [k for k in measure.params if k not in measure.SUPPORTED_PARAMS]
    assert not unsupported, f"unsupported params found: {unsupported}"
    for name in ("cutoff", "rel"):
        value = measure.params.get(name, api.NOT_PROVIDED)
        assert value is api.NOT_PROVIDED or isinstance(value, int), \
            f"invalid param {name}={value!r}"


class AccuracyEvaluator(OwnEvaluator):
    """ir_measures' AccuracyEvaluator: the judgements as a dict once, each run ranked once."""

    def __init__(self, measures, qrels):
        self.measures = list(measures)
        for measure in self.measures:
            check(measure)
        self.qrels = QrelsConverter(qrels).as_dict_of_dict()
        self.qrel_qids = set(self.qrels)

    def iter_calc(self, run):
        """Per measure, per query of the run with a relevant document retrieved: its value."""
        ranked = RunConverter(run).as_sorteddict()
        for measure in self.measures:
            cutoff = measure["cutoff"]
            cutoff = 0 if cutoff is api.NOT_PROVIDED else cutoff
            rel = measure["rel"]
            for query_id, documents in ranked.items():
                judged = self.qrels.get(query_id, {})
                if not judged:
                    continue
                # the non-relevant documents above each relevant one, and (last) in all
                nonrels = [0]
                for document in documents[:cutoff or len(documents)]:
                    if judged.get(document.doc_id, 0) >= rel:
                        nonrels.append(nonrels[-1])
                    else:
                        nonrels[-1] += 1
                if len(nonrels) < 2:
                    continue
                if nonrels[-1] == 0:
                    raise ZeroDivisionError(
                        f"{measure}: query {query_id!r} has no non-relevant document in the "
                        "ranking read, so no relevant one can come before one (ir_measures' "
                        "accuracy provider divides by zero here too)")
                yield api.Metric(query_id, measure, 1.0 - sum(nonrels[:-1])
                                 / (float(nonrels[-1]) * (len(nonrels) - 1)))
