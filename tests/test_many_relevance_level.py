"""The relevance level reaches every many-run path (merged from two branches: the API, the CLI
and the page's entry point). Hand-worked: with -l 2 only grade-2 documents are relevant, so
run a (grade-1 documents first) has RR@1 0 on both queries and run b (grade-2 first) has 1."""

from __future__ import annotations

import json

from retrieval_metrics import evaluate_many
from retrieval_metrics.cli import main
from retrieval_metrics.page import web

QRELS = "q1 0 d1 2\nq1 0 d2 1\nq2 0 d3 2\nq2 0 d4 1\n"
RUN_A = "q1 d2\nq1 d1\nq2 d4\nq2 d3\n"
RUN_B = "q1 d1\nq2 d3\n"


def test_evaluate_many_relevance_threshold():
    level1 = evaluate_many(QRELS, {"a": RUN_A, "b": RUN_B}, k=1, metrics=["mrr"])
    level2 = evaluate_many(QRELS, {"a": RUN_A, "b": RUN_B}, k=1, metrics=["mrr"],
                           relevance_threshold=2)
    assert level1["a"].mean["mrr@1"] == 1.0 and level2["a"].mean["mrr@1"] == 0.0
    assert level2["b"].mean["mrr@1"] == 1.0


def test_cli_many_runs_relevance_level(tmp_path, capsys):
    for name, text in (("q.txt", QRELS), ("a.txt", RUN_A), ("b.txt", RUN_B)):
        (tmp_path / name).write_text(text)
    code = main([str(tmp_path / "q.txt"), str(tmp_path / "a.txt"), str(tmp_path / "b.txt"),
                 "-l", "2", "-k", "1", "-m", "mrr", "-o", "json"])
    assert code == 0
    means = json.loads(capsys.readouterr().out)["comparison"]["means"]
    assert means["a"]["mrr@1"]["mean"] == 0.0 and means["b"]["mrr@1"]["mean"] == 1.0


def test_analyse_many_relevance_threshold():
    out = web.analyse_many(QRELS, [["a", RUN_A], ["b", RUN_B]],
                           {"k": "1", "metrics": ["mrr"], "relevance_threshold": 2})
    assert out["reports"]["a"]["mean"]["mrr@1"] == 0.0
    assert out["reports"]["b"]["mean"]["mrr@1"] == 1.0
