"""What ir_measures' evaluators share, for those written here beside ``api.Evaluator`` (the
runtime measures', Accuracy's, and the pipeline's that joins several): the 0 of a judged query
a provider gave no value, the mean as ir_measures' ``MeanAgg`` takes it, and a run or
judgements that can be read more than once."""

from __future__ import annotations

from . import api


def with_defaults(measures, qrel_qids, metrics):
    """ir_measures' Evaluator.iter_calc: ``metrics``, then ``measure.DEFAULT`` for each pair of
    a measure and a judged query not among them (by measure text, then query)."""
    expected = {(m, q) for m in measures for q in qrel_qids}
    for metric in metrics:
        expected.discard((metric.measure, metric.query_id))
        yield metric
    for measure, query_id in sorted(expected, key=lambda pair: (str(pair[0]), pair[1])):
        yield api.Metric(query_id, measure, measure.DEFAULT)


def mean_of(measures, metrics) -> api.CalcResults:
    """Each measure's aggregate as ir_measures' take it (MeanAgg: a running sum over the values
    as they come, over their count, NaN for none; SumAgg for NumQ, NumRel and NumRet), with the
    values themselves."""
    values: dict = {m: [] for m in measures}
    per_query = list(metrics)
    for metric in per_query:
        values[metric.measure].append(metric.value)
    return api.CalcResults({m: api.aggregate(v, getattr(m, "NAME", None) in api.SUMMED)
                            for m, v in values.items()}, per_query)


class OwnEvaluator:
    """An evaluator of ir_measures' written here: ``measures``, ``qrel_qids`` and
    ``_computed(run)`` (the values computed) make ``iter_calc`` (those, then the 0s),
    ``calc_aggregate`` and ``calc``, as ir_measures' Evaluator base class makes them."""

    measures: list
    qrel_qids: set

    def _computed(self, run):
        raise NotImplementedError

    def iter_calc(self, run):
        yield from with_defaults(self.measures, self.qrel_qids, self._computed(run))

    def calc_aggregate(self, run) -> dict:
        return self.calc(run).aggregated

    def calc(self, run) -> api.CalcResults:
        return mean_of(self.measures, self.iter_calc(run))


class Together(OwnEvaluator):
    """ir_measures' FallbackEvaluator: each provider's evaluator in the pipeline's order (the
    runtime measures first), then 0 for a measure and a query of the first's judgements none
    gave."""

    def __init__(self, measures, evaluators):
        self.measures, self.evaluators = measures, evaluators
        self.qrel_qids = evaluators[0].qrel_qids

    def _computed(self, run):
        run = reusable(run)
        return (m for e in self.evaluators for m in e.iter_calc(run))


def reusable(data):
    """Judgements or a run that can be read twice (an iterator is read into a list)."""
    if isinstance(data, dict) or hasattr(data, "itertuples") or isinstance(data, (list, tuple)):
        return data
    return list(data)
