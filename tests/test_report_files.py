"""Report files: Report.write to .json/.jsonl/.csv/.trec and back, and the CLI's --out.

The report under test is the two-query case (docs/measures.md) plus a judged query missing from the run and a
query without a relevant document, so the files carry a missing row, notices and (with
zero_division="nan") undefined values. Its values are worked by hand below; the round trips
check the files against those and against the report they were written from.
"""

from __future__ import annotations

import csv
import json
import math
import os
import subprocess
import sys

import pytest
from retrieval_metrics import evaluate
from retrieval_metrics.report.report import report_from_dict
from support import read_trec_eval_output

LOG3 = math.log2(3)
QRELS = {"q1": {"d1": 2, "d4": 1}, "q2": ["d3"], "q3": {"d8": 1}, "q4": {"d9": 0}}
RUN = {"q1": ["d4", "d2", "d1"], "q2": ["d5", "d3"], "q4": ["d9", "d2"], "q5": ["d1"]}
K = [1, 3]
METRICS = ["recall", "precision", "mrr", "ndcg", "map"]

# hand-worked: q1 ranks d4 (1), d2 (-), d1 (2); q2 ranks d5 (-), d3 (1); q3 is missing (zeros)
HAND = {
    "q1": {"recall@1": 0.5, "recall@3": 1.0, "precision@1": 1.0, "precision@3": 2 / 3,
           "mrr@1": 1.0, "mrr@3": 1.0, "ndcg@1": 1 / 2, "ndcg@3": (1 + 2 / 2) / (2 + 1 / LOG3),
           "map": (1 / 1 + 2 / 3) / 2},
    "q2": {"recall@1": 0.0, "recall@3": 1.0, "precision@1": 0.0, "precision@3": 1 / 3,
           "mrr@1": 0.0, "mrr@3": 0.5, "ndcg@1": 0.0, "ndcg@3": 1 / LOG3, "map": 0.5},
    "q3": dict.fromkeys(["recall@1", "recall@3", "precision@1", "precision@3", "mrr@1",
                         "mrr@3", "ndcg@1", "ndcg@3", "map"], 0.0),
}
# q4 (no relevant document) under zero_division="nan": precision and RR 0, the rest undefined
Q4_NAN = {"recall@1": None, "recall@3": None, "precision@1": 0.0, "precision@3": 0.0,
          "mrr@1": 0.0, "mrr@3": 0.0, "ndcg@1": None, "ndcg@3": None, "map": None}


def no_nan(text):
    """json.loads that refuses NaN / Infinity (strict JSON)."""
    def refuse(name):
        raise AssertionError(f"non-strict JSON constant {name}")
    return json.loads(text, parse_constant=refuse)


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return math.isclose(a, b, rel_tol=0, abs_tol=1e-12)


@pytest.fixture(scope="module")
def report():
    return evaluate(QRELS, RUN, k=K, metrics=METRICS)


@pytest.fixture(scope="module")
def nan_report():
    return evaluate(QRELS, RUN, k=K, metrics=METRICS, zero_division="nan")


def test_the_report_is_the_hand_worked_one(report):
    assert sorted(report.per_query) == ["q1", "q2", "q3"]
    for q, row in HAND.items():
        assert report.per_query[q] == pytest.approx(row, abs=1e-12), q
    assert report.missing_queries == ["q3"]
    assert {"missing_queries", "unjudged_queries", "no_relevant_queries"} <= \
        {n.code for n in report.notices}


# --- JSON ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("which", ["report", "nan_report"])
def test_json_round_trip(which, request, tmp_path):
    original = request.getfixturevalue(which)
    path = tmp_path / "report.json"
    original.write(path)
    text = path.read_text(encoding="utf-8")
    data = no_nan(text)
    back = report_from_dict(data)
    assert list(back.per_query) == list(original.per_query)
    for q, row in original.per_query.items():
        assert list(back.per_query[q]) == list(row)
        assert all(close(back.per_query[q][k], v) for k, v in row.items()), q
    assert set(back.mean) == set(original.mean)
    assert all(close(back.mean[k], v) for k, v in original.mean.items())
    assert back.keys == original.keys
    assert list(back.k) == list(original.k) and list(back.metrics) == list(original.metrics)
    assert back.notices == original.notices
    assert back.scored_queries == original.scored_queries
    assert back.missing_queries == original.missing_queries
    assert back.zero_division == original.zero_division
    assert {n: s.to_dict() for n, s in back.inputs.items()} == \
        {n: s.to_dict() for n, s in original.inputs.items()}
    # and written again, the same file
    again = tmp_path / "again.json"
    back.write(again)
    assert again.read_text(encoding="utf-8") == text


def test_json_values_are_the_hand_worked_ones(report, tmp_path):
    path = tmp_path / "r.json"
    report.write(path)
    data = no_nan(path.read_text(encoding="utf-8"))
    for q, row in HAND.items():
        assert data["per_query"][q] == pytest.approx(row, abs=1e-12)
    for key in HAND["q1"]:
        assert data["mean"][key] == pytest.approx(sum(HAND[q][key] for q in HAND) / 3, abs=1e-12)


def test_json_nan_is_null(nan_report, tmp_path):
    path = tmp_path / "r.json"
    nan_report.write(path)
    data = no_nan(path.read_text(encoding="utf-8"))
    assert data["per_query"]["q4"] == Q4_NAN
    assert data["zero_division"] == "nan"
    # recall@3 mean over q1, q2, q3 (q4 undefined): (1 + 1 + 0) / 3; precision@1 over four
    assert data["mean"]["recall@3"] == pytest.approx(2 / 3, abs=1e-12)
    assert data["mean"]["precision@1"] == pytest.approx(1 / 4, abs=1e-12)
    back = report_from_dict(data)
    assert math.isnan(back.per_query["q4"]["recall@1"])


def test_json_all_undefined_mean_is_null(tmp_path):
    report = evaluate("q1 0 d1 0\n", "q1 Q0 d1 1 1 t\n", k=1, zero_division="nan")
    report.write(tmp_path / "r.json")
    data = no_nan((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert data["mean"]["recall@1"] is None and data["mean"]["precision@1"] == 0.0
    assert math.isnan(report_from_dict(data).mean["recall@1"])


# --- JSONL --------------------------------------------------------------------------------------

@pytest.mark.parametrize("which", ["report", "nan_report"])
def test_jsonl_one_object_per_scored_query(which, request, tmp_path):
    original = request.getfixturevalue(which)
    path = tmp_path / "report.jsonl"
    original.write(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == original.scored_queries == len(original.per_query)
    rows = [no_nan(line) for line in lines]
    assert [r["query"] for r in rows] == list(original.per_query)
    for row in rows:
        q = row["query"]
        assert row["missing"] is (q == "q3")
        assert set(row) == {"query", "missing", *original.keys}
        for key in original.keys:
            want = original.per_query[q][key]
            if isinstance(want, float) and math.isnan(want):
                assert row[key] is None, (q, key)
            else:
                assert close(row[key], want), (q, key)
        if q in HAND:
            assert {k: row[k] for k in HAND[q]} == pytest.approx(HAND[q], abs=1e-12)
    if which == "nan_report":
        assert {k: rows[-1][k] for k in Q4_NAN} == Q4_NAN


# --- CSV ----------------------------------------------------------------------------------------

def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def number(cell):
    return None if cell == "" else float(cell)


@pytest.mark.parametrize("which", ["report", "nan_report"])
def test_csv_rows_and_all_row(which, request, tmp_path):
    original = request.getfixturevalue(which)
    path = tmp_path / "report.csv"
    original.write(path)
    rows = read_csv(path)
    assert [(r["scope"], r["query"]) for r in rows] == [*(("query", q) for q in original.per_query), ("mean", "")]
    for row in rows[:-1]:
        q = row["query"]
        for key in original.keys:
            want = original.per_query[q][key]
            got = number(row[key])
            if math.isnan(want):
                assert got is None, (q, key)
            else:
                assert got == want, (q, key)  # repr() round-trips a float exactly
        if q in HAND:
            assert {k: number(row[k]) for k in HAND[q]} == pytest.approx(HAND[q], abs=1e-12)
        assert row["missing"] == ("true" if q == "q3" else "false")
    last = rows[-1]
    for key in original.keys:
        assert number(last[key]) == original.mean[key], key
    if which == "report":
        for key in HAND["q1"]:
            assert number(last[key]) == pytest.approx(sum(HAND[q][key] for q in HAND) / 3, abs=1e-12)
    else:
        q4 = next(r for r in rows if r["query"] == "q4")
        assert {k: number(q4[k]) for k in Q4_NAN} == Q4_NAN
        assert "nan" not in path.read_text().lower()


def test_csv_all_row_with_an_undefined_mean_is_empty(tmp_path):
    report = evaluate("q1 0 d1 0\n", "q1 Q0 d1 1 1 t\n", k=1, zero_division="nan")
    report.write(tmp_path / "r.csv")
    rows = read_csv(tmp_path / "r.csv")
    assert [(r["scope"], r["query"]) for r in rows] == [("query", "q1"), ("mean", "")]
    assert rows[1]["recall@1"] == "" and number(rows[1]["precision@1"]) == 0.0


def test_csv_quotes_odd_query_ids(tmp_path):
    qrels = {'a,"b"': {"d1": 1}, "c\u00a0d": {"d2": 1}}
    run = {'a,"b"': ["d1"], "c\u00a0d": ["d9", "d2"]}
    evaluate(qrels, run, k=2).write(tmp_path / "r.csv")
    rows = read_csv(tmp_path / "r.csv")
    assert [r["query"] for r in rows] == ['a,"b"', "c\u00a0d", ""]
    assert number(rows[0]["precision@2"]) == 0.5 and number(rows[1]["mrr@2"]) == 0.5


# --- trec ---------------------------------------------------------------------------------------

def test_trec_file(tmp_path):
    report = evaluate(QRELS, RUN, k=K, metrics=["recall", "precision", "ndcg", "rr", "map"])
    path = tmp_path / "report.trec"
    report.write(path)
    printed = read_trec_eval_output(path)
    names = {"recall_1": "recall@1", "recall_3": "recall@3", "P_1": "precision@1",
             "P_3": "precision@3", "ndcg_cut_1": "ndcg@1", "ndcg_cut_3": "ndcg@3", "map": "map"}
    assert set(printed) == {*names, "recip_rank"}
    for name, key in names.items():
        assert set(printed[name]) == {"q1", "q2", "q3", "all"}
        for q in HAND:
            assert printed[name][q] == f"{HAND[q][key]:.4f}", (name, q)
        assert printed[name]["all"] == f"{sum(HAND[q][key] for q in HAND) / 3:.4f}", name
    assert printed["recip_rank"] == {"q1": "1.0000", "q2": "0.5000", "q3": "0.0000", "all": "0.5000"}


# --- formats from the name, and refusals --------------------------------------------------------

def test_format_argument_overrides_extension(report, tmp_path):
    report.write(tmp_path / "a.out", format="csv")
    report.write(tmp_path / "b.csv")
    assert (tmp_path / "a.out").read_bytes() == (tmp_path / "b.csv").read_bytes()


def test_extension_is_case_insensitive(report, tmp_path):
    report.write(tmp_path / "A.JSON")
    report.write(tmp_path / "b.json")
    assert (tmp_path / "A.JSON").read_bytes() == (tmp_path / "b.json").read_bytes()


def test_unknown_extension_is_refused_and_writes_nothing(report, tmp_path):
    with pytest.raises(ValueError):
        report.write(tmp_path / "report.xlsx")
    assert not (tmp_path / "report.xlsx").exists()


def test_files_are_utf8_without_bom(tmp_path):
    report = evaluate({"q\u00e9\u6587": {"d": 1}}, {"q\u00e9\u6587": ["d"]}, k=1)
    for ext in ("json", "jsonl", "csv", "trec"):
        report.write(tmp_path / f"r.{ext}")
        raw = (tmp_path / f"r.{ext}").read_bytes()
        assert not raw.startswith(b"\xef\xbb\xbf") and "q\u00e9\u6587".encode() in raw, ext
        if ext == "csv":  # CSV's one dialect (csvcells): RFC 4180's CRLF line ends
            assert raw.count(b"\r\n") == raw.count(b"\n") == 3, raw
        else:
            assert b"\r\n" not in raw, ext


# --- the CLI's --out ----------------------------------------------------------------------------

def cli(*args):
    return subprocess.run([sys.executable, "-m", "retrieval_metrics", *map(str, args)],
                          capture_output=True, timeout=120, env=dict(os.environ))


@pytest.fixture(scope="module")
def cli_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cli")
    q, r = folder / "qrels.txt", folder / "run.txt"
    q.write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in
                         {"q1": {"d1": 2, "d4": 1}, "q2": {"d3": 1}, "q3": {"d8": 1},
                          "q4": {"d9": 0}}.items() for d, g in docs.items()))
    r.write_text("q1 Q0 d4 1 3 t\nq1 Q0 d2 2 2 t\nq1 Q0 d1 3 1 t\n"
                 "q2 Q0 d5 1 2 t\nq2 Q0 d3 2 1 t\nq4 Q0 d9 1 1 t\n")
    return q, r


@pytest.mark.slow
@pytest.mark.parametrize("output", ["jsonl", "json", "csv", "trec", "table"])
def test_cli_out_file_equals_stdout(cli_files, tmp_path, output):
    q, r = cli_files
    args = [q, r, "-k", "1,3", "-m", "recall,precision,mrr,ndcg,map", "--zero-division", "nan",
            "-o", output]
    shown = cli(*args)
    assert shown.returncode == 0, shown.stderr
    out = tmp_path / f"report.{output}"
    written = cli(*args, "--out", out)
    assert written.returncode == 0, written.stderr
    assert written.stdout == b""
    if output == "json":  # the same but for meta's date, which may tick between the two runs
        saved, printed = json.loads(out.read_bytes()), json.loads(shown.stdout)
        assert saved["meta"].pop("created")[:10] == printed["meta"].pop("created")[:10]
        assert saved == printed
    else:
        assert out.read_bytes() == shown.stdout
    if output == "jsonl":
        rows = [no_nan(line) for line in out.read_text(encoding="utf-8").splitlines()]
        assert [row["query"] for row in rows] == ["q1", "q2", "q3", "q4"]
        assert [row["missing"] for row in rows] == [False, False, True, False]
        assert {k: rows[3][k] for k in Q4_NAN} == Q4_NAN
        for row in rows[:3]:
            assert {k: row[k] for k in HAND[row["query"]]} == \
                pytest.approx(HAND[row["query"]], abs=1e-12)
    if output == "json":
        assert no_nan(out.read_text(encoding="utf-8"))["per_query"]["q4"] == Q4_NAN


@pytest.mark.slow
def test_cli_out_to_an_unwritable_place(cli_files, tmp_path):
    q, r = cli_files
    res = cli(q, r, "-o", "json", "--out", tmp_path / "no" / "such" / "dir" / "r.json")
    assert res.returncode == 2
    assert b"Traceback" not in res.stderr and res.stderr.strip()
    assert res.stdout == b""
