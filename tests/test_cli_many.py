"""`retrieval-metrics QRELS RUN [RUN ...]`: several runs against a baseline from a terminal.

Each run is also scored on its own by the one-run CLI (`-o json`); the many-run numbers are
recomputed from those reports with scipy / statsmodels, never copied from the output.
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests
from support import make_runs

K = "5,10"


def cli(*args):
    return subprocess.run([sys.executable, "-m", "retrieval_metrics", *map(str, args)],
                          capture_output=True, text=True, timeout=120, env=dict(os.environ))


def ok(*args):
    res = cli(*args)
    assert res.returncode == 0, res.stderr
    return res.stdout


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("many")
    qrels, runs = make_runs(25, 3, seed=5)
    (folder / "qrels.txt").write_text(qrels)
    paths = {"qrels": folder / "qrels.txt"}
    for name, stem in (("run0", "bm25"), ("run1", "dense"), ("run2", "hybrid")):
        paths[stem] = folder / f"{stem}.trec"
        paths[stem].write_text(runs[name])
    (folder / "other").mkdir()
    paths["other_bm25"] = folder / "other" / "bm25.trec"
    paths["other_bm25"].write_text(runs["run2"])
    return paths


@pytest.fixture(scope="module")
def alone(files):
    """Each run scored on its own by the one-run CLI."""
    return {stem: json.loads(ok(files["qrels"], files[stem], "-k", K, "-o", "json"))
            for stem in ("bm25", "dense", "hybrid")}


def per_query(report, key):
    return np.array([report["per_query"][q][key] for q in sorted(report["per_query"])])


@pytest.mark.slow
def test_json_numbers_with_the_t_test_and_bonferroni(files, alone):
    data = json.loads(ok(files["qrels"], files["bm25"], files["dense"], files["hybrid"], "-k", K,
                         "--test", "t", "--correction", "bonferroni", "-o", "json"))
    result = data["comparison"]
    assert result["systems"] == ["bm25", "dense", "hybrid"] and result["baseline"] == "bm25"
    assert (result["test"], result["correction"], result["alpha"]) == ("t", "bonferroni", 0.05)
    for name in ("bm25", "dense", "hybrid"):
        assert data["reports"][name]["per_query"] == alone[name]["per_query"]
    keys = alone["bm25"]["keys"]
    family, ps = [], []
    for name in ("dense", "hybrid"):
        for key in keys:
            b, c = per_query(alone["bm25"], key), per_query(alone[name], key)
            if np.std(c - b) > 0:
                family.append((name, key))
                ps.append(sps.ttest_rel(c, b).pvalue)
            got = result["differences"][name][key]
            assert got["delta"] == pytest.approx((c - b).mean(), abs=1e-14)
    reject, corrected, _, _ = multipletests(ps, 0.05, "bonferroni")
    assert result["family_size"] == len(family)
    for (name, key), p, pc, r in zip(family, ps, corrected, reject):
        got = result["differences"][name][key]
        assert got["p_value"] == pytest.approx(p, rel=1e-9)
        assert got["p_corrected"] == pytest.approx(pc, rel=1e-9)
        assert got["significant"] == bool(r)
    for name in ("bm25", "dense", "hybrid"):
        v = per_query(alone[name], "ndcg@10")
        low, high = sps.t.interval(0.95, len(v) - 1, loc=v.mean(), scale=sps.sem(v))
        mean = result["means"][name]["ndcg@10"]
        assert mean["mean"] == alone[name]["mean"]["ndcg@10"]
        assert (mean["low"], mean["high"]) == (pytest.approx(low, abs=1e-12), pytest.approx(high, abs=1e-12))


@pytest.mark.slow
def test_baseline_by_name_and_by_file(files):
    args = [files["qrels"], files["bm25"], files["dense"], files["hybrid"], "-k", "10", "-o", "json",
            "--samples", "500"]
    by_name = json.loads(ok(*args, "--baseline", "dense"))["comparison"]
    by_file = json.loads(ok(*args, "--baseline", files["dense"]))["comparison"]
    assert by_name["baseline"] == by_file["baseline"] == "dense"
    assert by_name["differences"] == by_file["differences"]
    assert set(by_name["differences"]) == {"bm25", "hybrid"}
    # a file that is not one of the runs is added as the first run
    extra = json.loads(ok(files["qrels"], files["dense"], files["hybrid"], "-k", "10", "-o", "json",
                          "--samples", "500", "--baseline", files["bm25"]))["comparison"]
    assert extra["systems"] == ["bm25", "dense", "hybrid"] and extra["baseline"] == "bm25"
    res = cli(*args, "--baseline", "nope")
    assert res.returncode == 2
    assert "--baseline nope: neither the name of a run (bm25, dense, hybrid) nor a file" in res.stderr


@pytest.mark.slow
def test_duplicate_stems_are_told_apart(files):
    data = json.loads(ok(files["qrels"], files["bm25"], files["other_bm25"], "-k", "10", "-o", "json",
                         "--samples", "200"))
    names = data["comparison"]["systems"]
    assert len(names) == 2 and names[0] != names[1]
    assert names[0].endswith("/bm25") and names[1] == "other/bm25"


@pytest.mark.slow
def test_paper_outputs(files, alone):
    args = [files["qrels"], files["bm25"], files["dense"], files["hybrid"], "-k", K]
    latex = ok(*args, "-o", "latex", "--test", "t")
    assert r"\begin{tabular}{lrrrrrrrr}" in latex and r"\toprule" in latex and r"\bottomrule" in latex
    assert f"{alone['dense']['mean']['ndcg@10']:.4f}" in latex
    markdown = ok(*args, "-o", "markdown", "--test", "t")
    assert markdown.startswith("| System | Recall@5 |")
    assert "| bm25 (baseline) |" in markdown
    rows = list(csv.DictReader(io.StringIO(ok(*args, "-o", "csv", "--test", "t"))))
    assert len(rows) == 3 * 8 and rows[0]["system"] == "bm25"
    table = ok(*args, "--test", "t", "--alpha", "0.1", "--correction", "none")
    assert "Two-sided paired t-test, no correction, alpha = 0.1; baseline: bm25" in table
    assert table.startswith("Judgements: ")


@pytest.mark.slow
def test_one_run_paper_table(files, alone):
    """-o latex with one run: the means table alone (no comparison, no legend)."""
    latex = ok(files["qrels"], files["hybrid"], "-k", K, "-o", "latex")
    assert "hybrid (baseline)" in latex and "multicolumn" not in latex
    assert f"{alone['hybrid']['mean']['recall@5']:.4f}" in latex


@pytest.mark.slow
def test_one_run_with_baseline_keeps_the_old_output(files):
    """The one-run comparison (compare()'s table) is unchanged by the many-run mode."""
    out = ok(files["qrels"], files["dense"], "--baseline", files["bm25"], "-k", "10", "--samples", "500")
    assert "Paired queries: 25; two-sided paired sign-flip randomisation test" in out
    data = json.loads(ok(files["qrels"], files["dense"], "--baseline", files["bm25"], "-k", "10",
                         "-o", "json", "--samples", "500"))
    assert "comparison" in data and "baseline" in data and data["comparison"]["samples"] == 500


@pytest.mark.slow
def test_errors(files):
    res = cli(files["qrels"], files["bm25"], files["dense"], "-o", "trec")
    assert res.returncode == 2 and "--output trec has no form for several runs" in res.stderr
    res = cli(files["qrels"], files["bm25"], files["dense"], "--test", "wilcoxon")
    assert res.returncode == 2 and "invalid choice" in res.stderr
    bad = files["qrels"].parent / "bad.trec"
    bad.write_text("q1 Q0 d1 1 0.5 x\nq1 Q0 d2 2\n")
    res = cli(files["qrels"], files["bm25"], bad)
    assert res.returncode == 2 and "run bad, line 2:" in res.stderr
    res = cli(files["qrels"], files["bm25"], files["qrels"].parent / "missing.trec")
    assert res.returncode == 2 and "no such file" in res.stderr


def test_choices_match_the_engine():
    from retrieval_metrics import cli as cli_module
    from retrieval_metrics.comparison.many import PAIRS, TESTS
    from retrieval_metrics.comparison.stats import CORRECTIONS
    assert cli_module.TESTS == TESTS and cli_module.CORRECTIONS == CORRECTIONS
    assert cli_module.PAIRS == PAIRS


@pytest.mark.slow
def test_all_pairs_from_the_cli(files):
    data = json.loads(ok(files["qrels"], files["bm25"], files["dense"], files["hybrid"], "-k", "10",
                         "--test", "t", "--pairs", "all", "-o", "json"))["comparison"]
    assert data["pairs"] == "all" and data["family_size"] <= 3 * 4
    assert set(data["pairwise"]["dense"]) == {"bm25", "hybrid"}
    latex = ok(files["qrels"], files["bm25"], files["dense"], files["hybrid"], "-k", "10",
               "--test", "t", "--pairs", "all", "-o", "latex")
    assert "bm25 (a) & " in latex and "Superscripts" in latex


@pytest.mark.slow
def test_digits_and_intervals(files, alone):
    args = [files["qrels"], files["bm25"], files["dense"], "-k", "10", "--test", "t"]
    markdown = ok(*args, "-o", "markdown", "--digits", "3", "--intervals")
    v = per_query(alone["dense"], "ndcg@10")
    low, high = sps.t.interval(0.95, len(v) - 1, loc=v.mean(), scale=sps.sem(v))
    assert f"{v.mean():.3f}" in markdown and f"[{low:.3f}, {high:.3f}]" in markdown
    res = cli(*args, "-o", "latex", "--digits", "40")
    assert res.returncode == 2 and "--digits must be from 0 to 15" in res.stderr
