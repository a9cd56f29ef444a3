"""Fusion in the page's Many runs box (issue 38): ``analyse_many(..., {"fuse": {...}})`` adds the
fused run, equal to ranx's own fusion of the same TREC files, scored like any run; its TREC
file, read by the command line, gives the page's means to the last bit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from retrieval_metrics.page import web

ROOT = Path(__file__).resolve().parents[1]
QRELS = "q1 0 d1 1\nq1 0 d2 2\nq2 0 d3 1\nq3 0 d5 1\n"
RUNS = [("a", "q1 Q0 d1 1 3.0 a\nq1 Q0 d9 2 2.0 a\nq2 Q0 d3 1 1.0 a\nq3 Q0 d5 1 0.5 a\n"),
        ("b", "q1 Q0 d9 1 3.0 b\nq1 Q0 d2 2 2.0 b\nq2 Q0 d8 1 1.0 b\nq2 Q0 d3 2 0.5 b\n"),
        ("c", "q1 Q0 d2 1 5.0 c\nq1 Q0 d1 2 5.0 c\nq2 Q0 d3 1 1.0 c\nq3 Q0 d4 1 2.0 c\n")]


def fused(method="rrf", norm="min-max", runs=RUNS):
    out = web.analyse_many(QRELS, runs, {"k": "5", "fuse": {"method": method, "norm": norm}})
    return out, (web.download("fused-run")["text"] if out["fused"] else None)


@pytest.mark.slow
@pytest.mark.parametrize("method, norm", [("rrf", "min-max"), ("sum", "min-max"),
                                          ("mnz", "zmuv"), ("condorcet", "none"),
                                          ("bordafuse", "none"), ("med", "rank")])
def test_the_fused_run_is_ranxs_fusion_of_the_same_files(method, norm, tmp_path):
    """ranx itself on the three files (q3 is missing from b: ranx needs every run to hold
    every query, so b is given an empty q3 there, as the page does)."""
    import ranx
    out, text = fused(method, norm)
    assert out["errors"]["options"] is None and out["fused"]["name"] == "fused"
    runs = []
    for name, run_text in RUNS:
        path = tmp_path / f"{name}.trec"
        path.write_text(run_text)
        data = ranx.Run.from_file(str(path), kind="trec").to_dict()
        runs.append(ranx.Run({q: dict(data.get(q, {})) for q in ("q1", "q2", "q3")}))
    theirs = ranx.fuse(runs, norm=None if norm == "none" else norm, method=method)
    lines = [f"{q} Q0 {d} {i} {float(s)!r} fused" for q, docs in theirs.to_dict().items()
             for i, (d, s) in enumerate(docs.items(), 1)]
    assert text.splitlines() == lines


@pytest.mark.slow
def test_the_clis_means_on_the_downloaded_fused_run_are_the_pages(tmp_path):
    out, text = fused("rrf", "min-max")
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "fused.trec").write_text(text)
    done = subprocess.run([sys.executable, "-m", "retrieval_metrics", "qrels", "fused.trec",
                           "-k", "5", "-o", "json"], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "py")}, check=True)
    assert json.loads(done.stdout)["mean"] == out["reports"]["fused"]["mean"]
    assert out["comparison"]["systems"] == ["a", "b", "c", "fused"]


def test_a_score_normalisation_of_a_run_without_scores_is_refused_by_name():
    runs = [RUNS[0], ("b", "q1 d9\nq1 d2\nq2 d8\nq2 d3\n"), RUNS[2]]  # b: ids only
    out, text = fused("sum", "min-max", runs)
    assert text is None and out["fused"] is None
    assert out["errors"]["options"]["field"] == "fuse"
    assert "b has none this page reads" in out["errors"]["options"]["message"]
    out, text = fused("rrf", "rank", runs)  # ranks are enough for rank normalisation
    assert out["errors"]["options"] is None and "fused" in out["reports"]


def test_an_unknown_method_or_normalisation_is_refused_with_the_list():
    out, _ = fused("fancy", "min-max")
    assert "fuse method must be one of rrf, sum, mnz" in out["errors"]["options"]["message"]
    out, _ = fused("rrf", "l2")
    assert "fuse norm must be one of min-max" in out["errors"]["options"]["message"]


def test_a_run_named_fused_keeps_its_name():
    runs = [RUNS[0], ("fused", RUNS[1][1]), RUNS[2]]
    out, _ = fused("rrf", "min-max", runs)
    assert out["fused"]["name"] == "fused (2)"
    assert out["comparison"]["systems"] == ["a", "fused", "c", "fused (2)"]


def test_no_fusion_asked_no_fused_run():
    out = web.analyse_many(QRELS, RUNS, {"k": "5"})
    assert out["fused"] is None and out["comparison"]["systems"] == ["a", "b", "c"]
