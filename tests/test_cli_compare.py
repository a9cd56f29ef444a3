"""`python -m retrieval_metrics QRELS RUN --baseline OTHER`: the paired comparison from a terminal.

The two runs are also scored on their own (`-o json`); the comparison's means, deltas, wins /
ties / losses and exact p-values are recomputed here from those two reports' per-query values
(exact p by brute force over every sign pattern, in integers), never copied from the comparison.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import os
import random
import subprocess
import sys
from fractions import Fraction

import pytest

METRICS = "recall,precision,mrr,ndcg,hit_rate,map,rr"
K = "5,10"


def cli(*args):
    return subprocess.run([sys.executable, "-m", "retrieval_metrics", *map(str, args)],
                          capture_output=True, text=True, timeout=120, env=dict(os.environ))


def ok(*args):
    res = cli(*args)
    assert res.returncode == 0, res.stderr
    return res.stdout


def make_collection(n_queries: int, seed: int):
    """Qrels and two runs as TREC text: the candidate moves relevant documents up a little."""
    rng = random.Random(seed)
    qrels, base, cand = [], [], []
    for i in range(n_queries):
        q = f"q{i:02d}"
        docs = [f"d{j}" for j in range(25)]
        relevant = rng.sample(docs, rng.randint(1, 6))
        for d in relevant:
            qrels.append(f"{q} 0 {d} {rng.randint(1, 3)}\n")
        for d in rng.sample([d for d in docs if d not in relevant], 4):
            qrels.append(f"{q} 0 {d} 0\n")
        order = rng.sample(docs, 15)
        base += [f"{q} Q0 {d} {r + 1} {100 - r} base\n" for r, d in enumerate(order)]
        noise = {d: rng.uniform(-5, 5) - (2 if d in relevant else 0) for d in order}
        better = sorted(order, key=lambda d: order.index(d) + noise[d])
        if i % 5 == 0:
            better = order  # some queries tie on every metric
        cand += [f"{q} Q0 {d} {r + 1} {100 - r} cand\n" for r, d in enumerate(better)]
    return "".join(qrels), "".join(base), "".join(cand)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("compare")
    qrels, base, cand = make_collection(20, seed=7)
    paths = {"qrels": folder / "qrels.txt", "base": folder / "base.run", "cand": folder / "cand.run"}
    paths["qrels"].write_text(qrels)
    paths["base"].write_text(base)
    paths["cand"].write_text(cand)
    return paths


@pytest.fixture(scope="module")
def reports(files):
    """Each run scored on its own, the input of the independent computations."""
    base = json.loads(ok(files["qrels"], files["base"], "-k", K, "-m", METRICS, "-o", "json"))
    cand = json.loads(ok(files["qrels"], files["cand"], "-k", K, "-m", METRICS, "-o", "json"))
    return base, cand


def expected_records(base: dict, cand: dict) -> dict:
    """Means, delta and W/T/L per metric from the two reports' per-query values."""
    paired = sorted(set(base["per_query"]) & set(cand["per_query"]))
    out = {}
    for key in cand["keys"]:
        b = [base["per_query"][q][key] for q in paired]
        c = [cand["per_query"][q][key] for q in paired]
        out[key] = {
            "baseline_mean": sum(b) / len(b), "candidate_mean": sum(c) / len(c),
            "delta": sum(c) / len(c) - sum(b) / len(b),
            "wins": sum(y > x for x, y in zip(b, c)), "ties": sum(y == x for x, y in zip(b, c)),
            "losses": sum(y < x for x, y in zip(b, c)), "n": len(paired)}
    return out


@pytest.mark.slow
def test_collection_is_interesting(reports):
    """The generated runs differ on some queries and tie on others, in both directions."""
    expected = expected_records(*reports)
    assert all(r["n"] == 20 for r in expected.values())
    assert any(r["wins"] > 0 and r["losses"] > 0 for r in expected.values())
    assert all(r["ties"] >= 4 for r in expected.values())


@pytest.mark.slow
def test_json_comparison_equals_independent_computation(files, reports):
    base, cand = reports
    out = json.loads(ok(files["qrels"], files["cand"], "-k", K, "-m", METRICS, "-o", "json",
                        "--baseline", files["base"], "--samples", "3000", "--seed", "5"))
    assert out["per_query"] == cand["per_query"] and out["mean"] == cand["mean"]
    assert out["baseline"]["per_query"] == base["per_query"]
    comparison = out["comparison"]
    assert comparison["paired_queries"] == 20
    expected = expected_records(base, cand)
    records = {r["metric"]: r for r in comparison["metrics"]}
    assert list(records) == cand["keys"]
    for key, want in expected.items():
        got = records[key]
        for field in ("wins", "ties", "losses", "n"):
            assert got[field] == want[field], (key, field)
        for field in ("baseline_mean", "candidate_mean", "delta"):
            assert got[field] == pytest.approx(want[field], abs=1e-12), (key, field)
        # 20 pairs > 16: sampled, reproducible from what is printed
        assert (got["method"], got["samples"], got["seed"]) == ("sampled", 3000, 5)
        hits = got["p_value"] * 3001 - 1  # p = (hits + 1) / (samples + 1)
        assert abs(hits - round(hits)) < 1e-6 and 0 <= round(hits) <= 3000, (key, got["p_value"])
        if want["wins"] + want["losses"] == 0:
            assert got["p_value"] == 1.0
    # the plot's rows: per query, sorted by delta then query
    for key, rows in comparison["per_query"].items():
        want_rows = sorted(((cand["per_query"][q][key] - base["per_query"][q][key], q)
                            for q in base["per_query"]))
        assert [r["qid"] for r in rows] == [q for _d, q in want_rows], key
        assert all(r["delta"] == pytest.approx(d, abs=1e-12) for r, (d, _q) in zip(rows, want_rows))


@pytest.mark.slow
def test_csv_comparison(files, reports):
    text = ok(files["qrels"], files["cand"], "-k", K, "-m", METRICS, "-o", "csv",
              "--baseline", files["base"], "--samples", "2000", "--seed", "1")
    rows = list(csv.DictReader(io.StringIO(text)))
    expected = expected_records(*reports)
    assert [r["metric"] for r in rows] == reports[1]["keys"]
    for row in rows:
        want = expected[row["metric"]]
        assert (int(row["wins"]), int(row["ties"]), int(row["losses"]), int(row["n"])) == \
            (want["wins"], want["ties"], want["losses"], want["n"])
        for field in ("baseline_mean", "candidate_mean", "delta"):
            assert float(row[field]) == pytest.approx(want[field], abs=1e-12)
        assert row["method"] == "sampled" and row["samples"] == "2000" and row["seed"] == "1"
        assert 0 < float(row["p_value"]) <= 1


@pytest.mark.slow
def test_table_comparison(files, reports):
    text = ok(files["qrels"], files["cand"], "-k", K, "-m", METRICS,
              "--baseline", files["base"], "--samples", "2000", "--seed", "1")
    expected = expected_records(*reports)
    lines = text.splitlines()
    for key, want in expected.items():
        line = next(l for l in lines if l.split() and l.split()[0] == key)
        cells = line.split()
        assert f"{want['baseline_mean']:.4f}" in cells, (key, line)
        assert f"{want['candidate_mean']:.4f}" in cells, (key, line)
        assert f"{want['delta']:+.4f}" in cells, (key, line)
        assert f"{want['wins']}/{want['ties']}/{want['losses']}" in cells, (key, line)
        assert "2,000" in line and "1" in cells  # samples and seed are shown
    # the candidate's own table of means comes first
    assert f"{reports[1]['mean']['ndcg@10']:.4f}" in text


@pytest.mark.slow
def test_saved_report_as_baseline_gives_the_same_numbers(files, tmp_path):
    saved = tmp_path / "last_week.json"
    assert ok(files["qrels"], files["base"], "-k", K, "-m", METRICS, "-o", "json",
              "--out", saved) == ""
    args = [files["qrels"], files["cand"], "-k", K, "-m", METRICS, "--samples", "2500",
            "--seed", "9"]
    from_run = json.loads(ok(*args, "-o", "json", "--baseline", files["base"]))["comparison"]
    from_saved = json.loads(ok(*args, "-o", "json", "--baseline", saved))["comparison"]
    assert from_saved["metrics"] == from_run["metrics"]
    assert from_saved["per_query"] == from_run["per_query"]
    assert from_saved["paired_queries"] == from_run["paired_queries"] == 20
    assert [n["code"] for n in from_saved["notices"]] == [n["code"] for n in from_run["notices"]]
    # the same in the table and CSV outputs
    for output in ("csv", "table"):
        a = ok(*args, "-o", output, "--baseline", saved)
        b = ok(*args, "-o", output, "--baseline", files["base"])
        if output == "csv":
            assert a == b
        else:
            assert a.split("Paired queries")[1] == b.split("Paired queries")[1]


@pytest.mark.slow
def test_page_download_wrapper_as_baseline(files, tmp_path):
    saved = json.loads(ok(files["qrels"], files["base"], "-k", K, "-m", METRICS, "-o", "json"))
    wrapped = tmp_path / "download.json"
    wrapped.write_text(json.dumps({"report": saved, "comparison": None}))
    args = [files["qrels"], files["cand"], "-k", K, "-m", METRICS, "-o", "csv"]
    assert ok(*args, "--baseline", wrapped) == ok(*args, "--baseline", files["base"])


def p_values(files, *extra):
    out = json.loads(ok(files["qrels"], files["cand"], "-k", K, "-m", METRICS, "-o", "json",
                        "--baseline", files["base"], *extra))
    return {r["metric"]: (r["p_value"], r["method"], r["samples"], r["seed"])
            for r in out["comparison"]["metrics"]}


@pytest.mark.slow
def test_samples_and_seed(files, reports):
    first = p_values(files, "--samples", "1500", "--seed", "11")
    again = p_values(files, "--samples", "1500", "--seed", "11")
    assert first == again
    other_seed = p_values(files, "--samples", "1500", "--seed", "12")
    other_samples = p_values(files, "--samples", "1501", "--seed", "11")
    assert all(v[1:] == ("sampled", 1500, 12) for v in other_seed.values())
    assert all(v[1:] == ("sampled", 1501, 11) for v in other_samples.values())
    varies = [k for k, r in expected_records(*reports).items() if r["wins"] + r["losses"] > 3]
    assert varies
    assert any(first[k][0] != other_seed[k][0] for k in varies)
    assert any(first[k][0] != other_samples[k][0] for k in varies)
    # defaults: 100,000 samples, seed 0
    default = p_values(files)
    assert all(v[1:] == ("sampled", 100_000, 0) for v in default.values())


def brute_force_p(deltas: list[int]) -> Fraction:
    observed = abs(sum(deltas))
    patterns = list(itertools.product((1, -1), repeat=len(deltas)))
    return Fraction(sum(abs(sum(s * d for s, d in zip(signs, deltas))) >= observed
                        for signs in patterns), len(patterns))


@pytest.mark.slow
def test_sixteen_or_fewer_queries_are_exact(tmp_path):
    """12 queries: every p-value exact; for precision@10 (tenths) and hit rate (0 or 1) the
    differences are integers after scaling, so brute force in integers gives the exact p."""
    qrels, base, cand = make_collection(12, seed=3)
    for name, text in (("q", qrels), ("b", base), ("c", cand)):
        (tmp_path / name).write_text(text)
    args = [tmp_path / "q", "-k", "10", "-m", "precision,hit_rate,ndcg", "-o", "json"]
    b = json.loads(ok(args[0], tmp_path / "b", *args[1:]))
    c = json.loads(ok(args[0], tmp_path / "c", *args[1:]))
    out = json.loads(ok(args[0], tmp_path / "c", *args[1:], "--baseline", tmp_path / "b"))
    records = {r["metric"]: r for r in out["comparison"]["metrics"]}
    assert all(r["method"] == "exact" and r["samples"] is None and r["n"] == 12
               for r in records.values())
    for key, scale in (("precision@10", 10), ("hit_rate@10", 1)):
        deltas = [round((c["per_query"][q][key] - b["per_query"][q][key]) * scale)
                  for q in sorted(c["per_query"])]
        assert all(abs(d - (c["per_query"][q][key] - b["per_query"][q][key]) * scale) < 1e-9
                   for d, q in zip(deltas, sorted(c["per_query"])))
        assert records[key]["p_value"] == brute_force_p(deltas), key
    assert any(d != 0 for d in [c["per_query"][q]["precision@10"] - b["per_query"][q]["precision@10"]
                                for q in c["per_query"]])


@pytest.mark.slow
def test_query_in_one_run_only_is_a_notice(tmp_path):
    """With --missing skip a judged query the run lacks is not scored, so each report has a
    query the other lacks: q03 only in the candidate, q07 only in the baseline."""
    qrels, base, cand = make_collection(20, seed=7)
    base = "".join(l for l in base.splitlines(keepends=True) if not l.startswith("q03 "))
    cand = "".join(l for l in cand.splitlines(keepends=True) if not l.startswith("q07 "))
    for name, text in (("q", qrels), ("b", base), ("c", cand)):
        (tmp_path / name).write_text(text)
    out = json.loads(ok(tmp_path / "q", tmp_path / "c", "-o", "json", "--missing", "skip",
                        "--baseline", tmp_path / "b", "--samples", "500"))
    notices = {n["code"]: n for n in out["comparison"]["notices"]}
    assert notices["only_in_baseline"]["queries"] == ["q07"]
    assert notices["only_in_run"]["queries"] == ["q03"]
    assert notices["only_in_baseline"]["level"] == "warning"
    assert out["comparison"]["paired_queries"] == 18
    assert all(r["n"] == 18 for r in out["comparison"]["metrics"])
    # the table says so too, naming the count
    table = ok(tmp_path / "q", tmp_path / "c", "--missing", "skip", "--baseline", tmp_path / "b",
               "--samples", "500")
    assert "18" in table and table.count("left out of the comparison") == 2
    # with missing="zero" both score every judged query (the absent one as zeros): no notice
    zero = json.loads(ok(tmp_path / "q", tmp_path / "c", "-o", "json", "--baseline", tmp_path / "b",
                         "--samples", "500"))
    assert zero["comparison"]["paired_queries"] == 20
    assert not {"only_in_baseline", "only_in_run"} & {n["code"] for n in zero["comparison"]["notices"]}


@pytest.mark.slow
def test_few_queries_are_said_plainly(tmp_path):
    qrels, base, cand = make_collection(3, seed=1)
    for name, text in (("q", qrels), ("b", base), ("c", cand)):
        (tmp_path / name).write_text(text)
    out = json.loads(ok(tmp_path / "q", tmp_path / "c", "-o", "json", "--baseline", tmp_path / "b"))
    notice = next(n for n in out["comparison"]["notices"] if n["code"] == "too_few_queries")
    assert notice["count"] == 3 and "0.25" in notice["message"]  # 2 / 2^3
    table = ok(tmp_path / "q", tmp_path / "c", "--baseline", tmp_path / "b")
    assert "0.25" in table and "significant" in table


@pytest.mark.slow
@pytest.mark.parametrize("content, line", [
    ("q00 Q0 d1 1 2 t\nq00 Q0 d2 2 t\n", 2),        # 6 columns, then 5
    ("q00 Q0 d1 1 2 t\nq00 Q0 d2 2 nan t\n", 2),    # a score that is not a number
    ('{"per_query": {"q00": {"ndcg@10": "high"}}}', None),  # a saved report with a bad value
])
def test_bad_baseline_is_named_exit_2(files, tmp_path, content, line):
    bad = tmp_path / "bad.run"
    bad.write_text(content)
    res = cli(files["qrels"], files["cand"], "--baseline", bad)
    assert res.returncode == 2
    assert res.stdout == ""
    assert "Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    assert "baseline" in res.stderr
    if line is not None:
        assert f"line {line}" in res.stderr


@pytest.mark.slow
def test_missing_baseline_file(files, tmp_path):
    res = cli(files["qrels"], files["cand"], "--baseline", tmp_path / "nope.run")
    assert res.returncode == 2 and "baseline" in res.stderr and "Traceback" not in res.stderr


@pytest.mark.slow
def test_output_without_a_comparison_form_is_refused(files):
    res = cli(files["qrels"], files["cand"], "-o", "jsonl", "--baseline", files["base"])
    assert res.returncode == 2 and res.stdout == "" and "Traceback" not in res.stderr


@pytest.mark.slow
@pytest.mark.parametrize("code", [
    "from retrieval_metrics import compare",
    "from retrieval_metrics import evaluate, compare",
    "import retrieval_metrics; retrieval_metrics.compare; compare = retrieval_metrics.compare",
])
def test_public_compare_is_the_function(code):
    """README and docs/api.md: `from retrieval_metrics import compare` then
    `compare(baseline_report, candidate_report)`. Run in a fresh interpreter, since whether the
    submodule was imported before changes what the package attribute is."""
    script = (f"{code}\n"
              "from retrieval_metrics import evaluate\n"
              "r = evaluate('q1 0 d1 1', 'q1 Q0 d1 1 1 t')\n"
              "print(type(compare).__name__, compare(r, r).metric('ndcg@10').ties)\n")
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=60, env=dict(os.environ))
    assert res.returncode == 0, res.stderr.strip().splitlines()[-1]
    assert res.stdout.split() == ["function", "1"]
