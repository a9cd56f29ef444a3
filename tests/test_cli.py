"""The command line, `python -m retrieval_metrics QRELS RUN`, run as a separate process."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support import agrees_with_printed, read_trec_eval_output, trec_dir

QRELS = "q1 0 d1 2\nq1 0 d4 1\nq2 0 d3 1\n"          # the two-query case
RUN = "q1 Q0 d4 1 3 t\nq1 Q0 d2 2 2 t\nq1 Q0 d1 3 1 t\nq2 Q0 d5 1 2 t\nq2 Q0 d3 2 1 t\n"
LOG3 = math.log2(3)
# hand-worked: q1 ranks d4 (1), d2 (0), d1 (2); q2 ranks d5 (0), d3 (1)
HAND = {
    "q1": {"recall@1": 0.5, "recall@3": 1.0, "precision@1": 1.0, "precision@3": 2 / 3,
           "mrr@1": 1.0, "mrr@3": 1.0, "ndcg@1": 1 / 2, "ndcg@3": 2 / (2 + 1 / LOG3)},
    "q2": {"recall@1": 0.0, "recall@3": 1.0, "precision@1": 0.0, "precision@3": 1 / 3,
           "mrr@1": 0.0, "mrr@3": 0.5, "ndcg@1": 0.0, "ndcg@3": 1 / LOG3},
}


def cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "retrieval_metrics", *map(str, args)],
                          input=stdin, capture_output=True, timeout=120, env=dict(os.environ))


@pytest.fixture()
def files(tmp_path):
    q, r = tmp_path / "qrels.txt", tmp_path / "run.txt"
    q.write_text(QRELS)
    r.write_text(RUN)
    return q, r


@pytest.mark.slow
def test_json_output_shape_and_values(files):
    res = cli(*files, "-k", "1,3", "--output", "json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert {"per_query", "mean", "notices", "inputs"} <= set(out)
    assert set(out["per_query"]) == {"q1", "q2"}
    for q, row in HAND.items():
        assert set(out["per_query"][q]) == set(row)
        for key, want in row.items():
            assert out["per_query"][q][key] == pytest.approx(want, abs=1e-12), (q, key)
    for key in HAND["q1"]:
        assert out["mean"][key] == pytest.approx((HAND["q1"][key] + HAND["q2"][key]) / 2, abs=1e-12)
    assert round(out["mean"]["ndcg@3"], 4) == 0.6956
    assert out["inputs"]["qrels"]["format"] == "trec" and out["inputs"]["run"]["format"] == "trec"
    assert out["notices"] == []


@pytest.mark.slow
def test_json_notices_are_data(tmp_path):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text(QRELS + "q9 0 x 1\n")
    r.write_text(RUN + "q7 Q0 d1 1 1 t\n")
    out = json.loads(cli(q, r, "--output", "json").stdout)
    codes = {n["code"]: n for n in out["notices"]}
    assert codes["missing_queries"]["count"] == 1 and codes["missing_queries"]["queries"] == ["q9"]
    assert codes["unjudged_queries"]["count"] == 1
    assert out["per_query"]["q9"] == {"recall@10": 0, "precision@10": 0, "mrr@10": 0, "ndcg@10": 0}


@pytest.mark.slow
def test_default_k_is_10(files):
    out = json.loads(cli(*files, "-o", "json").stdout)
    assert set(out["per_query"]["q1"]) == {"recall@10", "precision@10", "mrr@10", "ndcg@10"}
    assert out["per_query"]["q1"]["precision@10"] == pytest.approx(0.2, abs=1e-12)


@pytest.mark.slow
def test_gain_exponential(tmp_path):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text('{"q": {"D1": 3, "D2": 2, "D3": 3, "D4": 0, "D5": 1, "D6": 2, "D7": 3, "D8": 2}}')
    r.write_text('{"q": ["D1", "D2", "D3", "D4", "D5", "D6"]}')
    lin = json.loads(cli(q, r, "-k", "6", "-o", "json").stdout)["per_query"]["q"]["ndcg@6"]
    exp = json.loads(cli(q, r, "-k", "6", "--gain", "exponential", "-o", "json").stdout)["per_query"]["q"]["ndcg@6"]
    assert round(lin, 3) == 0.785 and round(exp, 3) == 0.751


def _trec_lines(stdout: bytes):
    rows = {}
    for line in stdout.decode().splitlines():
        if not line.strip():
            continue
        measure, qid, value = line.split("\t")
        assert re.fullmatch(r"-?\d+\.\d{4}", value.strip()), f"value not printed as trec_eval does: {line!r}"
        rows[(measure.strip(), qid.strip())] = value.strip()
    return rows


TREC_MEASURES = ["P_5", "P_10", "recall_5", "recall_10", "ndcg_cut_5", "ndcg_cut_10", "recip_rank"]


@pytest.mark.slow
def test_output_trec_matches_trec_eval_aqc():
    d = trec_dir()
    res = cli(d / "qrels.test", d / "results.trunc", "-k", "5,10", "--output", "trec")
    assert res.returncode == 0, res.stderr
    ours = _trec_lines(res.stdout)
    printed = read_trec_eval_output(d / "out.test.aqc")
    expected = {(m, q): v for m in TREC_MEASURES for q, v in printed[m].items()}
    assert set(ours) == set(expected)   # every query (302 too, as -c -q prints it) and `all`
    bad = [(key, ours[key], want) for key, want in expected.items() if not agrees_with_printed(float(ours[key]), want)]
    assert bad == []


@pytest.mark.slow
def test_output_trec_missing_skip():
    d = trec_dir()
    res = cli(d / "qrels.test", d / "results.trunc", "-k", "5,10", "--output", "trec", "--missing", "skip")
    assert res.returncode == 0, res.stderr
    ours = _trec_lines(res.stdout)
    printed = read_trec_eval_output(d / "out.test.aqc")
    assert {q for _m, q in ours} == {"301", "303", "all"}
    for m in TREC_MEASURES:
        for q in ("301", "303"):
            assert agrees_with_printed(float(ours[(m, q)]), printed[m][q]), (m, q)
        # mean over the two present queries: trec_eval -c's mean over 3 (302 = 0) times 3/2
        assert abs(float(ours[(m, "all")]) - float(printed[m]["all"]) * 1.5) <= 1e-4, m


@pytest.mark.slow
def test_output_csv(files):
    res = cli(*files, "-k", "1,3", "--output", "csv")
    assert res.returncode == 0, res.stderr
    rows = list(csv.reader(io.StringIO(res.stdout.decode())))
    header = rows[0]
    assert all(len(r) == len(header) for r in rows)
    assert header[:2] == ["scope", "query"] and res.stdout.endswith(b"\r\n")
    by_query = {r[1]: dict(zip(header, r)) for r in rows[1:] if r[0] == "query"}
    for q, row in HAND.items():
        for key, want in row.items():
            assert float(by_query[q][key]) == pytest.approx(want, abs=1e-9), (q, key)


@pytest.mark.slow
def test_output_table(files):
    res = cli(*files, "-k", "1,3")
    assert res.returncode == 0, res.stderr
    text = res.stdout.decode()
    assert "0.6956" in text and "0.7500" in text    # nDCG@3 and MRR@3 means, 4 decimals


@pytest.mark.slow
def test_format_overrides(tmp_path):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("q1,x A 1\nq1,x B 1\n")            # whitespace rows whose query id has a comma
    r.write_text("q1,x X\nq1,x A\nq1,x B\n")
    res = cli(q, r, "-k", "2", "--qrels-format", "whitespace", "--run-format", "whitespace", "-o", "json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["per_query"]["q1,x"]["recall@2"] == 0.5
    assert out["inputs"]["run"]["format"] == "whitespace"
    # forcing JSON on a TREC file is an error in that box
    d = tmp_path / "t"
    d.write_text(RUN)
    res = cli(q, d, "--qrels-format", "whitespace", "--run-format", "json")
    assert res.returncode == 2 and b"results" in res.stderr and res.stdout == b""


@pytest.mark.slow
def test_stdin_dash(files):
    q, r = files
    res = cli(q, "-", "-k", "3", "-o", "json", stdin=r.read_bytes())
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["per_query"]["q2"]["mrr@3"] == 0.5


@pytest.mark.slow
@pytest.mark.parametrize("case", ["bad_row", "missing_file", "bad_k", "bad_gain", "binary", "bad_grade"])
def test_errors_exit_2_on_stderr_without_traceback(tmp_path, files, case):
    q, r = files
    if case == "bad_row":
        r.write_text("q1 Q0 d1 1 2.5 t\nq1 Q0 d2 2 1.5\n")
        res = cli(q, r)
        assert b"results, line 2: expected 6 columns (query Q0 doc rank score tag) as in line 1, found 5" in res.stderr
    elif case == "missing_file":
        res = cli(tmp_path / "nope.txt", r)
        assert b"nope.txt" in res.stderr
    elif case == "bad_k":
        res = cli(q, r, "-k", "0")
    elif case == "bad_gain":
        res = cli(q, r, "--gain", "cubic")
    elif case == "binary":
        r.write_bytes(bytes(range(256)))
        res = cli(q, r)
        assert b"results" in res.stderr
    else:
        q.write_text("q1 0 d1 1\nq1 0 d2 1.5\n")
        res = cli(q, r)
        assert b"judgements, line 2" in res.stderr
    assert res.returncode == 2
    assert res.stderr.strip() and b"Traceback" not in res.stderr
    assert res.stdout == b""


@pytest.mark.slow
def test_console_script_installed(files):
    script = Path(sys.executable).parent / ("retrieval-metrics.exe" if os.name == "nt" else "retrieval-metrics")
    assert script.exists(), "pip install -e . should install the retrieval-metrics command"
    res = subprocess.run([str(script), *map(str, files), "-k", "3", "-o", "json"], capture_output=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["mean"]["mrr@3"] == pytest.approx(0.75, abs=1e-12)
