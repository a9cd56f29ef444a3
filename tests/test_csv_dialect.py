"""The one CSV dialect (issue 11) and downloads that never confuse a query named `all` with the
means: spreadsheet formulas neutralised, numbers untouched, JSON exact, meta in JSON only.

Hand-worked values: judgements give each query one relevant document `d`; each query ranks `d`
first except `=1+1`, which ranks `x` then `d`, so at k = 2 its precision is 1/2 and its
reciprocal rank 1/2; every other query has recall 1, precision 1/2, RR 1.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest
from retrieval_metrics import compare, evaluate
from retrieval_metrics.errors import OptionError
from retrieval_metrics.report.render import as_csv, as_jsonl, as_trec, comparison_csv

IDS = ["all", "=1+1", "+1+1", "@SUM(A1)", "-1", "\tq", "q,1", "'quoted", "plain"]
QRELS = {q: {"d": 1} for q in IDS}
RUN = {q: (["x", "d"] if q == "=1+1" else ["d", "x"]) for q in IDS}


@pytest.fixture(scope="module")
def report():
    return evaluate(QRELS, RUN, k=2, metrics=["precision", "mrr"])


def test_csv_cells(report):
    text = as_csv(report)
    assert text.endswith("\r\n") and text.count("\r\n") == text.count("\n") == len(IDS) + 2
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[0] == ["scope", "query", "precision@2", "mrr@2", "missing"]
    by_id = {row[1]: row for row in rows[1:] if row[0] == "query"}
    # formulas neutralised with a leading ', plain ids untouched, a query named all is a query
    assert set(by_id) == {"all", "'=1+1", "'+1+1", "'@SUM(A1)", "'-1", "'\tq", "q,1", "''quoted", "plain"}
    assert by_id["'=1+1"][2:] == ["0.5", "0.5", "false"]
    assert by_id["all"][2:] == ["0.5", "1.0", "false"]
    # the means row: scope mean, no id; MRR = (8 * 1 + 1/2) / 9 = 17/18
    assert rows[-1] == ["mean", "", "0.5", repr(17 / 18), ""]


def test_csv_reads_back_to_the_same_ids(report, tmp_path):
    report.write(tmp_path / "r.csv")
    back = type(report).read(tmp_path / "r.csv")
    assert sorted(back.per_query) == sorted(IDS) and back == report


def test_numbers_stay_numbers_in_the_comparison_csv(report):
    # The baseline ranks d first for every query: the candidate loses on `=1+1` only, so the
    # mean MRR difference is (0.5 - 1) / 9 = -1/18, a number that starts with "-".
    baseline = evaluate(QRELS, {q: ["d", "x"] for q in IDS}, k=2, metrics=["precision", "mrr"])
    rows = list(csv.DictReader(io.StringIO(comparison_csv(compare(baseline, report)), newline="")))
    mrr = next(r for r in rows if r["metric"] == "mrr@2")
    assert float(mrr["delta"]) == pytest.approx(-1 / 18, abs=1e-15) and mrr["delta"].startswith("-0.0555")
    assert (mrr["wins"], mrr["ties"], mrr["losses"]) == ("0", "8", "1")


def test_json_and_jsonl_keep_ids_exact(report):
    lines = [json.loads(line) for line in as_jsonl(report).splitlines()]
    assert sorted(line["query"] for line in lines) == sorted(IDS)  # no means line, no prefix
    assert report.to_dict()["per_query"].keys() == set(IDS)


def test_trec_output_refuses_a_query_named_all(report):
    with pytest.raises(OptionError, match='a query is named "all"'):
        as_trec(report)
    fine = evaluate({"q1": {"d": 1}}, {"q1": ["d"]}, k=1, metrics=["precision"])
    assert as_trec(fine).splitlines()[-1].split("\t")[1] == "all"  # trec_eval's means row


@pytest.mark.slow
def test_cli_json_has_meta_and_csv_has_none(tmp_path):
    qrels, run = tmp_path / "q.txt", tmp_path / "r.txt"
    qrels.write_text("all 0 d 1\n")
    run.write_text("all Q0 d 1 1.0 t\n")

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "retrieval_metrics", qrels, run, "-k", "1", *args],
                              capture_output=True, check=True).stdout

    data = json.loads(cli("-o", "json"))
    meta = data.pop("meta")
    assert meta["files"] == {"qrels": str(qrels), "run": str(run), "baseline": None}
    assert meta["engine"].startswith("retrieval-metrics ")
    assert meta["settings"]["k"] == [1] and meta["settings"]["gain"] == "linear"
    assert meta["created"].endswith("+00:00")
    assert list(data["per_query"]) == ["all"]
    assert cli("-o", "csv").startswith(b"scope,query,")
    done = subprocess.run([sys.executable, "-m", "retrieval_metrics", qrels, run, "-o", "trec"], capture_output=True)
    assert done.returncode == 2 and b'a query is named "all"' in done.stderr
