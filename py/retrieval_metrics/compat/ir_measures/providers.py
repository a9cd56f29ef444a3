"""ir_measures' providers as objects (``ir_measures.providers``, ``ir_measures.pytrec_eval``,
``ir_measures.gdeval``, ...), each answering ``supports``, ``is_available``, ``evaluator``,
``iter_calc``, ``calc_aggregate`` and ``calc`` as ir_measures' do, computed by this package.

A provider supports a measure when ir_measures' default pipeline sends that measure to it and
this package computes it as that provider does (``api.provider_of``): ``PytrecEvalProvider``
takes ``P@5``, ``nDCG@10``, ``AP``...; ``GdevalProvider`` ``ERR@20`` and
``nDCG(dcg='exp-log2')@20``; ``MsMarcoProvider`` ``RR@10``; and so on. A measure it does not
support is refused by it, as ir_measures' providers refuse one, with ValueError. Every provider
is available (nothing to install: no C, no Perl), which ``is_available`` says.

Where ir_measures offers a measure from a provider the default pipeline does not pick for it
(``P@5`` from its ranx or trectools provider), that provider refuses it here, saying which
provider computes it; ``DefaultPipeline`` computes every measure this package offers.

>>> from retrieval_metrics.compat.ir_measures import P, ERR, Qrel, ScoredDoc
>>> pytrec_eval.supports(P@5), pytrec_eval.supports(ERR@20), gdeval.supports(ERR@20)
(True, False, True)
>>> pytrec_eval.calc_aggregate([P@1], [Qrel("q", "a", 1)], [ScoredDoc("q", "a", 1.0)])
{P@1: 1.0}
"""

from __future__ import annotations

from . import api
from . import runtime_measures as runtime_defined
from .accuracy import AccuracyEvaluator
from .accuracy import check as check_accuracy
from .cwl_measures import CwlEvaluator, CwlMetric
from .cwl_measures import check as check_cwl
from .evaluators import Together, reusable

__all__ = ["Provider", "Evaluator", "registry", "DefaultPipeline", "AccuracyProvider",
           "CompatProvider", "CwlEvalProvider", "GdevalProvider", "JudgedProvider",
           "MsMarcoProvider", "PyNdEvalProvider", "PytrecEvalProvider", "RanxProvider",
           "RuntimeProvider", "FallbackProvider", "CwlMetric", "define", "define_byquery", "evaluator",
           "iter_calc", "calc_aggregate", "calc", "run_inputs", "qrel_inputs"]

Evaluator = api.Evaluator


class Provider:
    """One of ir_measures' providers: the measures the default pipeline sends to it."""

    NAME = ""

    def __init__(self):
        self._is_available = True

    def is_available(self) -> bool:
        """Always: this package computes the measures itself."""
        return True

    def initialize(self) -> None:
        """Nothing to load."""

    def install_instructions(self):
        return None

    def computed_as(self, measure):
        """The measure this provider computes for ``measure``: itself, unless the provider
        reads it its own way (``GdevalProvider``)."""
        return measure

    def refusal(self, given) -> str | None:
        """Why this provider does not compute ``given`` (a Measure or its text), or None when
        it does: parameters no provider takes, or another provider's measure."""
        own = _own_provider(given)
        if own:
            return None if self.NAME in ("", own) else (
                f"unsupported measure {given!r} for provider {self.NAME}: it is computed by "
                f"ir_measures' {own} provider (ir_measures.{own}, or the default pipeline)")
        try:
            measure = self.computed_as(api.parse_measure(given))
            if measure.NAME == "SDCG":  # cwl_eval's alone (cwl_measures.py)
                why = check_cwl(measure)
                if why:
                    raise ValueError(why)
            else:
                api.plan_of(measure)
        except (ValueError, TypeError) as exc:
            return f"unsupported measure {given!r}: {exc}"
        if self.NAME == "" or api.provider_of(measure) == self.NAME:
            return None
        return (f"unsupported measure {measure} for provider {self.NAME}: here it is computed "
                f"as ir_measures' {api.provider_of(measure)} provider computes it "
                f"(ir_measures.{api.provider_of(measure)}, or the default pipeline)")

    def supports(self, measure) -> bool:
        """Whether this provider computes ``measure`` (a Measure or its text)."""
        return self.refusal(measure) is None

    def evaluator(self, measures, qrels) -> Evaluator:
        """An evaluator of ``measures`` on ``qrels``, refusing a measure this provider does not
        compute (ValueError naming it and the provider that does)."""
        return self._evaluator(self.checked(measures), qrels)

    def checked(self, measures) -> list:
        """``measures`` as a list, each one this provider computes (else ValueError, why)."""
        if isinstance(measures, (str, api.Measure)):
            raise ValueError("measures must be a list of measures, such as [nDCG@10, P@5]")
        measures = list(measures)
        for given in measures:
            why = self.refusal(given)
            if why:
                raise ValueError(why)
        return measures

    def _evaluator(self, measures: list, qrels):
        return _pipeline(measures, qrels, self.computed_as)

    def run_inputs(self, measures) -> list:
        """The run's columns ``measures`` read: ir_measures' query_id, doc_id and score."""
        return list(runtime_defined.RUN_INPUTS)

    def qrel_inputs(self, measures) -> list:
        """The judgements' columns ``measures`` read: query_id, doc_id and relevance."""
        return list(runtime_defined.QREL_INPUTS)

    def iter_calc(self, measures, qrels, run):
        return self.evaluator(measures, qrels).iter_calc(run)

    def calc_aggregate(self, measures, qrels, run) -> dict:
        return self.evaluator(measures, qrels).calc_aggregate(run)

    def calc(self, measures, qrels, run):
        return self.evaluator(measures, qrels).calc(run)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def _provider(class_name: str, name: str) -> type:
    """The class of ir_measures' provider ``name``, named as ir_measures names it."""
    return type(class_name, (Provider,), {"NAME": name, "__module__": __name__, "__doc__":
                f"ir_measures' {name} provider: the measures its pipeline sends to {name}."})


PytrecEvalProvider = _provider("PytrecEvalProvider", "pytrec_eval")
CompatProvider = _provider("CompatProvider", "compat")
PyNdEvalProvider = _provider("PyNdEvalProvider", "pyndeval")
JudgedProvider = _provider("JudgedProvider", "judged")
MsMarcoProvider = _provider("MsMarcoProvider", "msmarco")


class GdevalProvider(Provider):
    """gdeval.pl computes one nDCG, with exp-log2 gains: ``nDCG@k`` asked of it is that."""

    NAME = "gdeval"

    def computed_as(self, measure):
        if measure.NAME == "nDCG" and "dcg" not in measure.params:
            return api.nDCG(dcg="exp-log2", **measure.params)
        return measure


def _own_provider(given) -> str | None:
    """"runtime" or "accuracy" for a measure only that provider computes (checking its
    parameters as it does), else None."""
    if isinstance(given, runtime_defined.RuntimeMeasure):
        given.validate_params()
        return "runtime"
    if isinstance(given, api.Measure) and given.NAME == "Accuracy":
        check_accuracy(given)
        return "accuracy"
    return None


def _pipeline(measures, qrels, computed_as=None):
    """The evaluator of ``measures`` (each refused by no provider), in the order of ir_measures'
    default pipeline: the runtime measures first, then this package's, then Accuracy (equal
    measures computed once, the first kept, as ir_measures' set of them keeps one)."""
    groups: dict = {"runtime": [], "pytrec_eval": [], "cwl_eval": [], "": [], "accuracy": []}
    for given in dict.fromkeys(measures):
        measure = api.parse_measure(given) if isinstance(given, str) else given
        own = _own_provider(measure)
        if not own:
            provider = api.provider_of(computed_as(measure) if computed_as else measure)
            own = provider if provider in ("pytrec_eval", "cwl_eval") else None
        groups[own or ""].append(given if own in (None, "pytrec_eval") else measure)
    if not any(groups[name] for name in ("runtime", "cwl_eval", "accuracy")):
        return Evaluator(measures, qrels, computed_as)
    qrels = reusable(qrels)
    made = {"runtime": runtime_defined.RuntimeEvaluator, "cwl_eval": CwlEvaluator,
            "accuracy": AccuracyEvaluator}
    if not groups["cwl_eval"]:  # pytrec_eval's and the rest in one, ordered as ir_measures' (api)
        groups[""] = groups.pop("pytrec_eval") + groups[""]
    evaluators = []
    for name, group in groups.items():
        if group:
            evaluators.append(made[name](group, qrels) if name in made
                              else Evaluator(group, qrels, computed_as, first=not evaluators))
    if len(evaluators) == 1:
        return evaluators[0]
    return Together([api.parse_measure(m) if isinstance(m, str) else m
                     for m in dict.fromkeys(measures)], evaluators)


class CwlEvalProvider(Provider):
    """ir_measures' cwl_eval provider: P@k, RR, AP, RBP(rel=..), SDCG and the C/W/L measures as
    cwl_eval computes them, each query's values as ``CwlMetric`` (``cwl_measures.py``)."""

    NAME = "cwl_eval"

    def refusal(self, given) -> str | None:
        if _own_provider(given):
            return super().refusal(given)
        try:
            measure = api.parse_measure(given)
        except (ValueError, TypeError) as exc:
            return f"unsupported measure {given!r}: {exc}"
        why = check_cwl(measure)
        return f"unsupported measure {measure} for provider cwl_eval: {why}" if why else None

    def _evaluator(self, measures: list, qrels):
        return CwlEvaluator(dict.fromkeys(api.parse_measure(m) for m in measures), qrels)


class RuntimeProvider(Provider):
    """ir_measures' runtime provider: the measures made by ``define`` and ``define_byquery``
    (``runtime_measures.py``), and the columns they say they read."""

    NAME = "runtime"

    def supports(self, measure) -> bool:
        if isinstance(measure, runtime_defined.RuntimeMeasure):
            measure.validate_params()
            return True
        return False

    def refusal(self, given) -> str | None:
        return None if self.supports(given) else (
            f"unsupported measure {given!r} for provider runtime: it computes the measures "
            "made by define and define_byquery")

    def run_inputs(self, measures) -> list:
        return list({c for m in measures for c in getattr(m, "RUN_INPUTS", ())})

    def qrel_inputs(self, measures) -> list:
        return list({c for m in measures for c in getattr(m, "QREL_INPUTS", ())})


RanxProvider = _provider("RanxProvider", "ranx")
AccuracyProvider = _provider("AccuracyProvider", "accuracy")


class FallbackProvider(Provider):
    """ir_measures' ``DefaultPipeline``: every measure to the provider that computes it."""

    NAME = ""

    def __init__(self, providers=()):
        super().__init__()
        self.providers = list(providers)

    def run_inputs(self, measures) -> list:
        """The run's columns the measures read, each asked of the provider that computes it."""
        return self._inputs(measures, "run_inputs")

    def qrel_inputs(self, measures) -> list:
        """The judgements' columns the measures read, asked as ``run_inputs``."""
        return self._inputs(measures, "qrel_inputs")

    def _inputs(self, measures, method: str) -> list:
        found: set = set()
        measures = list(measures)
        for provider in self.providers:
            taken = [m for m in measures if provider.supports(m)]
            if taken:
                found.update(getattr(provider, method)(taken))
            measures = [m for m in measures if m not in taken]
        return list(found)


registry = {cls.NAME: cls() for cls in (PytrecEvalProvider, CwlEvalProvider, CompatProvider,
                                        PyNdEvalProvider, JudgedProvider, MsMarcoProvider,
                                        GdevalProvider, RanxProvider, AccuracyProvider,
                                        RuntimeProvider)}
pytrec_eval = registry["pytrec_eval"]
cwl_eval = registry["cwl_eval"]
compat = registry["compat"]
pyndeval = registry["pyndeval"]
judged = registry["judged"]
msmarco = registry["msmarco"]
gdeval = registry["gdeval"]
ranx = registry["ranx"]
accuracy = registry["accuracy"]
runtime = registry["runtime"]
# ir_measures' default pipeline asks the runtime provider first
DefaultPipeline = FallbackProvider([runtime]
                                   + [registry[name] for name in api.PIPELINE if name in registry])
define = runtime_defined.define
define_byquery = runtime_defined.define_byquery
evaluator = DefaultPipeline.evaluator
api.PIPELINE_EVALUATOR[0] = evaluator
iter_calc = DefaultPipeline.iter_calc
calc_aggregate = DefaultPipeline.calc_aggregate
calc = DefaultPipeline.calc
run_inputs = DefaultPipeline.run_inputs
qrel_inputs = DefaultPipeline.qrel_inputs
