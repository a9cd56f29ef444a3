"""One hand-worked case per registered measure: adding a measure is adding its file in
py/retrieval_metrics/measures/ and one case here (docs/adding-a-measure.md).

tests/cases/measures/<measure>.json:
    {"measure": the registry name,
     "why": the hand computation, in words,
     "qrels": {qid: {doc: grade}} or TREC qrels lines (as one text: subtopics for the
              diversity measures), "run": {qid: [doc, ...]},
     "metrics": [names, each a spelling of that measure],
     "options": {...}                     # optional keyword arguments of ranking_metrics
     "per_query": {qid: {name: value}}}   # numbers, or formulas such as "(1/2 + 2/4) / 3"

A formula is arithmetic with log2, log, range and sum (an exact sum, math.fsum): the C/W/L
measures normalise over cwl_eval's 1000 ranks, so their hand values hold sums such as
"sum(4 / (i + 1)**2 for i in range(1, 1001))".

Every value is worked by hand in the file's "why", never copied from the engine's output. A
measure without a case fails ``test_every_measure_has_a_case``. Other tools' readings
(``ir_measures:P``, ``ranx:hits``: entries named ``tool:name``, docs/names.md) are compared
with that tool itself, run in tests/test_names_ir_measures.py and tests/test_names_ranx.py;
``test_every_reading_is_compared_with_its_tool`` fails while one is in neither.
"""

from __future__ import annotations

import importlib
import json
import math
from pathlib import Path

import pytest
from retrieval_metrics import evaluate, ranking_metrics
from retrieval_metrics.measures.grammar import parse_metric
from retrieval_metrics.measures.registry import BY_NAME, MEASURES, READINGS

CASES = Path(__file__).parent / "cases" / "measures"
NAMES = sorted(p.stem for p in CASES.glob("*.json"))


def _case(name: str) -> dict:
    return json.loads((CASES / f"{name}.json").read_text(encoding="utf-8"))


#: what a formula may call (globals, so that a generator expression inside sum() sees them)
FORMULA = {"__builtins__": {}, "log2": math.log2, "log": math.log, "sum": math.fsum,
           "range": range}


def _value(v) -> float:
    if isinstance(v, str):  # our own hand-worked formulas (see FORMULA)
        return float(eval(v, dict(FORMULA)))
    return float(v)


def test_formulas_read_sums():
    assert _value("sum(1 / 2**i for i in range(1, 4))") == 7 / 8
    assert _value("log2(8) + log(1)") == 3


#: the calculator's own measures; another tool's reading of a measure (``ir_measures:P``,
#: ``ranx:hits``) is in READINGS, checked against that tool itself (tests/test_names_*.py)
OWN = set(MEASURES)


def test_readings_are_kept_apart_from_the_measures():
    assert READINGS and not set(READINGS) & OWN
    assert all(name.startswith(("ir_measures:", "ranx:")) for name in READINGS)
    assert not any(":" in name for name in OWN)
    assert set(BY_NAME) == OWN | set(READINGS)


def test_every_measure_has_a_case():
    assert OWN - set(NAMES) == set(), "measures without a case in tests/cases/measures"
    assert set(NAMES) - OWN == set(), "cases for measures that are not registered"


def test_every_reading_is_compared_with_its_tool():
    ir_measures_names = importlib.import_module("test_names_ir_measures")
    ranx_names = importlib.import_module("test_names_ranx")
    compared = {parse_metric(s, dialect="ir_measures").measure for s in ir_measures_names.STRINGS}
    compared |= {parse_metric(n, dialect="ranx").measure for n in ranx_names.NAMES}
    assert set(READINGS) - compared == set(), "readings no test compares with their tool"


@pytest.mark.parametrize("name", NAMES)
def test_case_names_its_measure(name):
    case = _case(name)
    assert case["measure"] == name and case["why"].strip()
    for metric in case["metrics"]:
        assert parse_metric(metric).measure == name, metric


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_measure_case(name):
    case = _case(name)
    options = case.get("options", {})
    if isinstance(case["qrels"], str):  # text: its queries' order is the file's; check means
        got = ranking_metrics(case["qrels"], case["run"], case["metrics"], **options)
        for metric in case["metrics"]:
            values = [_value(v[metric]) for v in case["per_query"].values()]
            assert got[metric] == pytest.approx(sum(values) / len(values), rel=1e-12, abs=1e-15)
        return
    got = ranking_metrics(case["qrels"], case["run"], case["metrics"], average=None, **options)
    queries = list(case["qrels"])
    for qid, values in case["per_query"].items():
        for metric, expected in values.items():
            value = got[metric][queries.index(qid)]
            assert value == pytest.approx(_value(expected), rel=1e-12, abs=1e-15), (qid, metric)


@pytest.mark.parametrize("name", NAMES)
def test_measure_case_through_evaluate(name):
    """The same numbers through evaluate(), whose keys are the registry's own spellings."""
    case = _case(name)
    report = evaluate(case["qrels"], case["run"], k=None, metrics=case["metrics"],
                      zero_division=0)
    for qid, values in case["per_query"].items():
        for metric, expected in values.items():
            assert report.per_query[qid][metric] == pytest.approx(_value(expected), rel=1e-12,
                                                                   abs=1e-15), (qid, metric)
