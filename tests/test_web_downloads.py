"""retrieval_metrics.page.web.download: the page's files, written by the engine.

The formats the CLI writes too are the CLI's bytes (run here in a subprocess); the page-only
ones are checked against hand-worked tables. Also the page's other calls of this issue:
``measures`` (the chooser) and ``metrics_extra`` (more names in the -m syntax).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from retrieval_metrics.errors import OptionError
from retrieval_metrics.page import web

QRELS = "q1 0 d1 2\nq1 0 d4 1\nq2 0 d3 1\n=x 0 d9 1\n"
RUN = "q1 Q0 d4 1 3 t\nq1 Q0 d2 2 2 t\nq1 Q0 d1 3 1 t\nq2 Q0 d5 1 2 t\nq2 Q0 d3 2 1 t\n=x Q0 d9 1 1 t\n"
BASE = "q1 Q0 d1 1 3 b\nq2 Q0 d3 1 2 b\n=x Q0 d8 1 1 b\n"


def cli(tmp_path, *args) -> str:
    for name, text in (("qrels", QRELS), ("run", RUN), ("base", BASE)):
        (tmp_path / name).write_text(text)
    out = subprocess.run([sys.executable, "-m", "retrieval_metrics", *map(str, args)],
                         capture_output=True, check=True, cwd=tmp_path).stdout
    return out.decode("utf-8")


def per_query_rows(report_csv: str) -> str:
    """The CLI's CSV report's query rows, without its scope column and its means row."""
    lines = report_csv.split("\r\n")
    kept = [lines[0].removeprefix("scope,")] + [line.removeprefix("query,") for line in lines[1:]
                                                 if line.startswith("query,")]
    return "\r\n".join(kept) + "\r\n"


@pytest.mark.slow
@pytest.mark.parametrize("kind, output", [("report-csv", "csv"), ("per-query-csv", "csv"),
                                          ("report-jsonl", "jsonl")])
def test_report_files_are_the_clis(tmp_path, kind, output):
    web.analyse(QRELS, RUN, {"k": "1,3", "metrics": ["recall", "ndcg", "map"]})
    text = web.download(kind)["text"]
    expected = cli(tmp_path, "qrels", "run", "-k", "1,3", "-m", "recall,ndcg,map", "-o", output)
    if kind == "per-query-csv":  # the query rows alone: no scope column, no means row
        expected = per_query_rows(expected)
        assert "mean" not in text.split("\r\n")[-2] and text.startswith("query,recall@1,")
    assert text == expected
    if output == "csv":
        assert "\r\n'=x," in text or "\r\nquery,'=x," in text   # the one CSV dialect: a formula-like id neutralised


@pytest.mark.slow
def test_report_json_is_the_clis_but_its_meta(tmp_path):
    web.analyse(QRELS, RUN, {"k": "1,3"})
    meta = {"engine": "retrieval-metrics test", "files": {"qrels": "qrels"}}
    page = json.loads(web.download("report-json", meta)["text"])
    command = json.loads(cli(tmp_path, "qrels", "run", "-k", "1,3", "-o", "json"))
    shown = page.pop("meta")
    settings = shown.pop("settings")
    assert shown == meta  # the page's own words (files, engine) pass through
    cli_meta = command.pop("meta")
    # the settings are the engine's, in the CLI's keys, from the same function
    assert settings == {key: value for key, value in cli_meta["settings"].items()
                        if key not in ("qrels_format", "run_format", "third_column")}
    assert page == command


@pytest.mark.slow
def test_comparison_csv_is_the_clis(tmp_path):
    web.analyse(QRELS, RUN, {"k": "1,3"}, BASE)
    assert web.download("comparison-csv")["text"] == cli(tmp_path, "qrels", "run", "-k", "1,3",
                                                         "--baseline", "base", "-o", "csv")
    data = json.loads(web.download("comparison-json", {"engine": "x"})["text"])
    assert list(data)[0] == "meta" and [m["metric"] for m in data["metrics"]][:2] == ["recall@1", "recall@3"]


def test_means_csv_hand_worked():
    # q1: d4 (grade 1) first, d1 (grade 2) third, 2 relevant: recall@1 = 1/2, recall@3 = 1;
    # q2: d3 second: recall@1 = 0, recall@3 = 1; =x: d9 first: 1 and 1. Means 1/2 and 1.
    web.analyse(QRELS, RUN, {"k": "1,3", "metrics": ["recall", "bpref"]})
    rows = web.download("means-csv")["text"].splitlines()
    assert rows[:3] == ["metric,k,value,scored_queries", "recall,1,0.5,3", "recall,3,1.0,3"]
    assert rows[3].startswith("bpref,,") and rows[3].endswith(",3")   # no cutoff: an empty k


def test_no_comparison_and_unknown_kind_are_refused():
    web.analyse(QRELS, RUN, {"k": "1"})
    with pytest.raises(OptionError, match="no comparison"):
        web.download("comparison-csv")
    with pytest.raises(OptionError, match="unknown download"):
        web.download("report-xml")


@pytest.mark.slow
def test_many_run_files_are_the_clis(tmp_path):
    web.analyse_many(QRELS, [("base", BASE), ("run", RUN)], {"k": "1,3", "baseline": "base"})
    for kind, output in (("many-csv", "csv"), ("many-latex", "latex"), ("many-markdown", "markdown")):
        assert web.download(kind)["text"] == cli(tmp_path, "qrels", "base", "run", "-k", "1,3",
                                                 "-o", output), kind


def test_answers_files_hand_worked():
    web.analyse_answers('{"id": "q1", "reference": "Paris"}\n{"id": "=q2", "reference": "Lyon"}',
                        "q1,paris")
    rows = web.download("answers-csv")["text"].splitlines()
    # paris vs Paris: exact match and F1 after lower-casing, edit similarity 1 - 1/5
    assert rows == ["id,answer,references,exact_match,token_f1,anls,edit_similarity,answered",
                    'q1,paris,"[""Paris""]",1.0,1.0,1.0,0.8,true',
                    "'=q2,,\"[\"\"Lyon\"\"]\",0.0,0.0,0.0,0.0,false"]
    lines = [json.loads(line) for line in web.download("answers-jsonl")["text"].splitlines()]
    assert lines[1] == {"id": "=q2", "answer": None, "references": ["Lyon"], "exact_match": 0.0,
                        "token_f1": 0.0, "anls": 0.0, "edit_similarity": 0.0}
    means = web.download("answers-means-csv")["text"].splitlines()
    assert means[1] == "exact_match,0.5,2,squad"
    data = json.loads(web.download("answers-json")["text"])
    assert data["settings"] == {"missing": "zero", "normalize": {
        "exact_match": "squad", "token_f1": "squad", "anls": "basic", "edit_similarity": None}}


def test_metrics_extra_takes_the_cli_syntax():
    out = web.analyse(QRELS, RUN, {"k": "3", "metrics": ["recall"],
                                   "metrics_extra": "P_1, utility(a=2,b=-1) bpref"})
    assert out["errors"]["options"] is None
    # P_1: q1's first (d4) is relevant, q2's (d5) is not, =x's (d9) is: 2/3
    assert out["report"]["mean"]["precision@1"] == pytest.approx(2 / 3)
    assert out["report"]["keys"][:2] == ["recall@3", "precision@1"]
    out = web.analyse(QRELS, RUN, {"metrics": ["recall"], "metrics_extra": "nope_5"})
    assert out["errors"]["options"]["field"] == "metrics"
    assert "nope_5" in out["errors"]["options"]["message"]


@pytest.mark.slow
def test_measures_is_the_registry_catalogue():
    from retrieval_metrics.measures.catalogue import catalogue
    from retrieval_metrics.measures.grammar import parse_metric
    entries = web.measures()
    assert entries == catalogue() and entries
    for entry in entries:
        assert set(entry) >= {"value", "label", "group", "description", "trec_eval", "default"}
        assert entry["group"] in ("cutoff", "whole", "trec")
        web.analyse(QRELS, RUN, {"k": "1", "metrics": [entry["value"]]})   # every value is a name the engine takes
    assert [e["value"] for e in entries if e["default"]] == ["recall", "precision", "mrr", "ndcg"]
    assert parse_metric("P_5").key == "precision@5"


# --- "Save report": the self-contained HTML report of the shown result ------------------------

def _html_means(text):
    import re
    return re.findall(r"<td>([0-9.]+) \[", text)


def test_many_html_names_every_run_with_its_means_and_refers_to_nothing_outside():
    import re

    import retrieval_metrics as rm
    from retrieval_metrics.page import web
    qrels = "q1 0 a 1\nq1 0 b 1\nq2 0 c 1\nq3 0 d 1\n"
    runs = [("bm25", "q1 Q0 a 1 3 x\nq2 Q0 c 1 1 x\nq3 Q0 z 1 1 x\n"),
            ("dense", "q1 Q0 b 1 3 y\nq1 Q0 a 2 2 y\nq2 Q0 z 1 1 y\nq3 Q0 d 1 1 y\n")]
    out = web.analyse_many(qrels, runs, {"k": "10", "metrics": ["ndcg"]})
    assert out["comparison"]["power"] == {}  # not computed unless asked for
    file = web.download("many-html")
    assert file["name"].endswith(".html") and file["type"] == "text/html"
    text = file["text"]
    assert not re.search(r"https?:|<link\b|<script\b[^>]*\bsrc=|<img\b|url\(", text, re.I)
    for name, run in runs:
        mean = rm.evaluate(qrels, run, k=10, metrics=["ndcg"]).mean["ndcg@10"]
        assert f">{name}<" in text or f">{name} " in text
        assert f"{mean:.4f}" in text
    assert "Topic-set analysis" in text  # added for the report


def test_report_html_of_one_run_and_its_baseline():
    from retrieval_metrics.page import web
    web.analyse("q1 0 a 1\nq2 0 b 1", "q1 Q0 a 1 2 r\nq2 Q0 c 1 1 r", {"k": "1", "metrics": ["recall"]},
                "q1 Q0 c 1 2 r\nq2 Q0 b 1 1 r")
    text = web.download("report-html")["text"]
    assert text.startswith("<!DOCTYPE html>")
    assert ">baseline<" in text and ">run<" in text and "0.5000" in text


def test_ties_option_reaches_the_engine():
    from retrieval_metrics.page import web
    qrels, run = "q1 0 b 1", "q1 Q0 a 1 1 r\nq1 Q0 b 2 1 r"  # a tie: trec_eval puts b first
    means = {policy: web.analyse(qrels, run, {"k": "1", "metrics": ["precision"], "ties": policy})
             ["report"]["mean"]["precision@1"] for policy in ("trec_eval", "optimistic", "pessimistic")}
    assert means == {"trec_eval": 1.0, "optimistic": 1.0, "pessimistic": 0.0}
    out = web.analyse(qrels, run, {"k": "1", "metrics": ["precision"], "ties": "pessimistic"})
    assert any(n["code"] == "score_ties" for n in out["report"]["notices"])
