"""Report.write / Report.read for every format, report.compare, Report equality, and the
missing optional dependency path (PyYAML, tomli-w) in a subprocess where their import fails.

The report is test_report_files' hand-checked one (a missing query, a query without a relevant
document, zero_division="nan" so undefined values are NaN / null / absent in TOML)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import textwrap

import pytest
from retrieval_metrics import Report, compare, evaluate
from retrieval_metrics.errors import OptionError
from retrieval_metrics.report.report import report_from_dict

QRELS = {"q1": {"d1": 2, "d4": 1}, "q2": ["d3"], "q3": {"d8": 1}, "q4": {"d9": 0}}
RUN = {"q1": ["d4", "d2", "d1"], "q2": ["d5", "d3"], "q4": ["d9", "d2"], "q5": ["d1"]}


@pytest.fixture(scope="module", params=["skip", "nan"])
def report(request):
    return evaluate(QRELS, RUN, k=[1, 3], metrics=["recall", "precision", "mrr", "ndcg", "map"],
                    zero_division=request.param, relevance_threshold=1)


def same_dict(a, b):
    """Dicts equal with NaN equal to NaN (to_dict has None there already)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@pytest.mark.parametrize("suffix", ["json", "yaml", "yml", "toml"])
def test_full_formats_round_trip_everything(report, suffix, tmp_path):
    path = tmp_path / f"report.{suffix}"
    report.write(path)
    back = Report.read(path)
    assert back == report
    assert same_dict(back.to_dict(), report.to_dict())  # settings, notices, inputs too


@pytest.mark.parametrize("suffix", ["jsonl", "csv"])
def test_row_formats_round_trip_the_numbers(report, suffix, tmp_path):
    path = tmp_path / f"report.{suffix}"
    report.write(path)
    back = type(report).read(str(path))
    assert back == report
    assert back.missing_queries == ["q3"]


def test_toml_leaves_out_none(tmp_path):
    report = evaluate(QRELS, RUN, k=1, metrics=["recall"], zero_division="nan")
    assert math.isnan(report.per_query["q4"]["recall@1"])
    report.write(tmp_path / "r.toml")
    text = (tmp_path / "r.toml").read_text()
    import tomllib
    data = tomllib.loads(text)
    assert "recall@1" not in data["per_query"]["q4"]  # TOML has no null
    assert data["per_query"]["q1"]["recall@1"] == 0.5
    assert math.isnan(Report.read(tmp_path / "r.toml").per_query["q4"]["recall@1"])


def test_yaml_is_yaml(report, tmp_path):
    yaml = pytest.importorskip("yaml")
    report.write(tmp_path / "r.yml")
    data = yaml.safe_load((tmp_path / "r.yml").read_text())
    assert data["per_query"]["q1"]["recall@1"] == 0.5  # q1: d4 of {d1, d4}
    assert data["keys"][0] == "recall@1"


def test_equality_is_about_the_numbers():
    a = report_from_dict({"per_query": {"q": {"m": float("nan"), "n": 1.0}}, "mean": {"m": None, "n": 1.0}})
    b = report_from_dict({"per_query": {"q": {"m": None, "n": 1.0}}, "mean": {"m": float("nan"), "n": 1.0}})
    c = report_from_dict({"per_query": {"q": {"m": 0.0, "n": 1.0}}, "mean": {"m": 0.0, "n": 1.0}})
    assert a == b and a != c and a != "a report"


def test_unknown_and_write_only_formats(report, tmp_path):
    with pytest.raises(OptionError, match="cannot tell the report format"):
        report.write(tmp_path / "report.xlsx")
    report.write(tmp_path / "report.trec")
    with pytest.raises(OptionError, match="cannot be read"):
        Report.read(tmp_path / "report.trec")


def test_compare_method_is_compare():
    # candidate finds q2's d3 first; baseline as the two-query case's run
    base = evaluate({"q1": ["d1"], "q2": ["d3"]}, {"q1": ["d1"], "q2": ["d5", "d3"]}, k=1, metrics=["mrr"])
    cand = evaluate({"q1": ["d1"], "q2": ["d3"]}, {"q1": ["d1"], "q2": ["d3"]}, k=1, metrics=["mrr"])
    record = cand.compare(base).metric("mrr@1")
    assert (record.baseline_mean, record.candidate_mean, record.delta) == (0.5, 1.0, 0.5)
    assert (record.wins, record.ties, record.losses) == (1, 1, 0)
    assert record.p_value == 1.0  # n = 2: deltas 0.5, 0: both sign patterns of 0.5 count
    assert cand.compare(base) == compare(base, cand)


BLOCKED = """
import sys
sys.modules[{module!r}] = None  # importing it now raises ImportError, as if not installed
from retrieval_metrics import evaluate
report = evaluate({{"q": ["d"]}}, {{"q": ["d"]}})
try:
    report.write({path!r})
except ImportError as exc:
    print(type(exc).__name__, exc)
"""


@pytest.mark.slow
@pytest.mark.parametrize("module, suffix, words", [
    ("yaml", "yaml", 'Writing a .yaml report needs PyYAML: pip install "retrieval-metrics[yaml]"'),
    ("tomli_w", "toml", 'Writing a .toml report needs tomli-w: pip install "retrieval-metrics[toml]"'),
])
def test_a_missing_dependency_names_the_extra(module, suffix, words, tmp_path):
    code = BLOCKED.format(module=module, path=str(tmp_path / f"r.{suffix}"))
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"MissingDependency {words}"
    assert not (tmp_path / f"r.{suffix}").exists()


@pytest.mark.slow
def test_reading_yaml_without_pyyaml(tmp_path, report):
    report.write(tmp_path / "r.yaml")
    code = ("import sys; sys.modules['yaml'] = None\n"
            "from retrieval_metrics import Report\n"
            f"try:\n    Report.read({str(tmp_path / 'r.yaml')!r})\n"
            "except ImportError as exc:\n    print(exc)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == 'Reading a .yaml report needs PyYAML: pip install "retrieval-metrics[yaml]"'


def test_table_and_trec_lines_show_names_with_their_own_cutoff():
    from retrieval_metrics.report.render import as_table, as_trec
    # the two-query case: hit_rate@1 q1 1, q2 0; whole-ranking recall 1 and 1; ndcg@3 0.6956
    report = evaluate({"q1": {"d1": 2, "d4": 1}, "q2": ["d3"]},
                      {"q1": ["d4", "d2", "d1"], "q2": ["d5", "d3"]}, k=3,
                      metrics=["ndcg", "hit_rate@1", "R", "rr"])
    table = as_table(report)
    assert "nDCG    0.6956" in table
    assert "hit_rate@1: 0.5000" in table and "recall: 1.0000" in table and "RR: 0.7500" in table  # the registry's one label, as on the page
    trec = as_trec(report)
    assert "set_recall            \tall\t1.0000" in trec
    assert "success_1             \tall\t0.5000" in trec
