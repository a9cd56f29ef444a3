"""ir_measures' runtime measures: ``define`` and ``define_byquery`` make a measure of a caller's
own function over pandas DataFrames, which ir_measures' ``RuntimeProvider`` computes (the
provider is ``providers.RuntimeProvider``; this module, its measures and their evaluator).

As in ir_measures 0.4.3: the judgements reach the function as a DataFrame sorted by query (and
document), the run sorted by query and then score, highest first; ``Measure@k`` keeps each
query's first k rows of that order; two runtime measures are equal when their text is (a name
and a cutoff), so two unnamed lambdas defined by ``define_byquery`` are one measure, and of
equal measures in one list only the first is computed, as ir_measures' set of them keeps one;
a judged query the function gives no value for gets 0; the mean of none is NaN. pandas is
imported only when a runtime measure is computed (the caller's function takes DataFrames).
"""

from __future__ import annotations

from . import api
from .evaluators import OwnEvaluator
from .util import QrelsConverter, RunConverter

__all__ = ["RuntimeMeasure", "RuntimeEvaluator", "define", "define_byquery", "RUN_INPUTS",
           "QREL_INPUTS"]

#: the columns ir_measures' built-in measures read (its providers' ``run_inputs`` and
#: ``qrel_inputs`` unless they say otherwise)
RUN_INPUTS = ("query_id", "doc_id", "score")
QREL_INPUTS = ("query_id", "doc_id", "relevance")


class RuntimeMeasure(api.Measure):
    """A measure computed by a caller's function (``define``); ``@k`` keeps each query's
    first k results before the function sees them (when the measure takes a cutoff)."""

    def __init__(self, impl, name=None, support_cutoff=True, run_inputs=None, qrel_inputs=None,
                 pretty_name=None, short_desc=None, **params):
        self.NAME = self.__name__ = name
        self.SUPPORTED_PARAMS = {"cutoff": api._CUTOFF} if support_cutoff else {}
        self.AT_PARAM = "cutoff"
        self.params = params
        self.RUN_INPUTS = list(RUN_INPUTS if run_inputs is None else run_inputs)
        self.QREL_INPUTS = list(QREL_INPUTS if qrel_inputs is None else qrel_inputs)
        self.PRETTY_NAME, self.SHORT_DESC = pretty_name, short_desc
        self._impl, self._support_cutoff = impl, support_cutoff

    def __call__(self, **params) -> RuntimeMeasure:
        return RuntimeMeasure(self._impl, self.NAME, self._support_cutoff, self.RUN_INPUTS,
                              self.QREL_INPUTS, self.PRETTY_NAME, self.SHORT_DESC,
                              **{**self.params, **params})

    def __repr__(self) -> str:
        return object.__repr__(self) if self.NAME is None else super().__repr__()

    __str__ = __repr__

    def __hash__(self) -> int:
        return hash(repr(self))

    def validate_params(self) -> None:
        """ir_measures' check of the parameters (its AssertionError, in its words)."""
        unsupported = [k for k in self.params if k not in self.SUPPORTED_PARAMS]
        assert not unsupported, f"unsupported params found: {unsupported}"
        cutoff = self.params.get("cutoff")
        assert cutoff is None or isinstance(cutoff, int), f"invalid param cutoff={cutoff!r}"

    def runtime_impl(self, qrels, run):
        """The function's values as Metrics; ``run`` sorted by query, then score (highest first)."""
        cutoff = self.params.get("cutoff")
        if cutoff is not None:
            run = run.groupby("query_id").head(cutoff).reset_index(drop=True)
        for query_id, value in self._impl(qrels, run):
            yield api.Metric(query_id, self, value)


def define(impl, name=None, support_cutoff=True, *, run_inputs=None, qrel_inputs=None,
           pretty_name=None, short_desc=None) -> RuntimeMeasure:
    """A measure of ``impl(qrels, run)``, which takes two DataFrames (every query at once) and
    gives ``(query_id, value)`` pairs."""
    return RuntimeMeasure(impl, name, support_cutoff, run_inputs, qrel_inputs, pretty_name,
                          short_desc)


def define_byquery(impl, name=None, support_cutoff=True, *, run_inputs=None, qrel_inputs=None,
                   pretty_name=None, short_desc=None) -> RuntimeMeasure:
    """A measure of ``impl(qrels, run)`` called once a query (its rows of each), giving its
    value; named after the function unless ``name`` is given."""
    if name is None:
        name = getattr(impl, "__name__", None) or repr(impl)

    def every_query(qrels, run):
        for query_id, rows in run.groupby("query_id"):
            yield query_id, impl(qrels[qrels["query_id"] == query_id], rows)
    return define(every_query, name, support_cutoff, run_inputs=run_inputs,
                  qrel_inputs=qrel_inputs, pretty_name=pretty_name, short_desc=short_desc)


class RuntimeEvaluator(OwnEvaluator):
    """ir_measures' runtime evaluator: the judgements as a DataFrame once, each run as one."""

    def __init__(self, measures, qrels):
        self.measures = list(measures)
        for measure in self.measures:
            measure.validate_params()
        frame = QrelsConverter(qrels, strict=False).as_pd_dataframe()
        if "query_id" not in frame.columns:
            raise ValueError("Required column query_id not found in qrels. Found columns was "
                             + str(frame.columns.to_list()))
        by = ["query_id"] + (["doc_id"] if "doc_id" in frame.columns else [])
        self.qrels = frame.sort_values(by=by)
        self.qrel_qids = set(self.qrels["query_id"].unique())

    def _computed(self, run):
        frame = RunConverter(run, strict=False).as_pd_dataframe()
        if "query_id" not in frame.columns:
            raise ValueError("Required column query_id not found in run. Found columns was "
                             + str(frame.columns.to_list()))
        scored = "score" in frame.columns
        frame = frame.sort_values(by=["query_id", "score"] if scored else ["query_id"],
                                  ascending=[True, False] if scored else [True])
        for measure in self.measures:
            yield from measure.runtime_impl(self.qrels, frame)
