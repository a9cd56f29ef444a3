"""The CLI's --relevance-level (trec_eval -l) and web.analyse's relevance_threshold against
trec_eval's own printed output: out.test.aql is `trec_eval -m all_trec -q -l2 qrels.rel_level
results.test` (grades -1..4)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from retrieval_metrics.page import web
from retrieval_metrics.report.report import report_from_dict
from support import trec_dir
from test_trec_eval_collection import KS, _mismatches, _out

PAIRS = ([(f"P_{k}", f"precision@{k}") for k in KS] + [(f"recall_{k}", f"recall@{k}") for k in KS]
         + [(f"ndcg_cut_{k}", f"ndcg@{k}") for k in KS] + [(f"map_cut_{k}", f"ap@{k}") for k in KS]
         + [(f"success_{k}", f"hit_rate@{k}") for k in (1, 5, 10)]
         + [("recip_rank", "rr"), ("map", "map"), ("Rprec", "rprec"), ("set_recall", "recall"),
            ("ndcg", "ndcg")])
METRICS = "recall,precision,ndcg,ap,rr,map,rprec,hit_rate@1,hit_rate@5,hit_rate@10,R,nDCG"


@pytest.mark.slow
def test_cli_relevance_level_2_matches_trec_eval():
    d = trec_dir()
    done = subprocess.run([sys.executable, "-m", "retrieval_metrics", d / "qrels.rel_level",
                           d / "results.test", "-k", ",".join(map(str, KS)), "-m", METRICS,
                           "--relevance-level", "2", "-o", "json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    report = report_from_dict(json.loads(done.stdout))
    assert report.relevance_threshold == 2
    assert _mismatches(report, _out("out.test.aql"), PAIRS) == []


@pytest.mark.slow
def test_cli_refuses_a_bad_level(tmp_path):
    d = trec_dir()
    done = subprocess.run([sys.executable, "-m", "retrieval_metrics", d / "qrels.test",
                           d / "results.test", "-l", "0"], capture_output=True, text=True)
    assert done.returncode == 2
    assert "relevance_threshold must be a whole number >= 1" in done.stderr


def test_web_analyse_relevance_threshold():
    d = trec_dir()
    out = web.analyse((d / "qrels.rel_level").read_text(), (d / "results.test").read_text(),
                      {"k": ",".join(map(str, KS)), "metrics": METRICS, "relevance_threshold": "2"})
    assert out["errors"] == {"qrels": None, "run": None, "options": None, "baseline": None}
    report = report_from_dict(out["report"])
    assert _mismatches(report, _out("out.test.aql"), PAIRS) == []


@pytest.mark.parametrize("bad", ["0", "x", 1.5])
def test_web_analyse_names_a_bad_threshold(bad):
    out = web.analyse("q 0 d 1", "q Q0 d 1 1 t", {"relevance_threshold": bad})
    assert out["errors"]["options"]["field"] == "relevance_threshold"


def test_compare_names_a_different_threshold():
    from retrieval_metrics import compare, evaluate
    qrels, run = {"q": {"d": 2}, "r": {"e": 1}}, {"q": ["d"], "r": ["e"]}
    one, two = evaluate(qrels, run), evaluate(qrels, run, relevance_threshold=2)
    notice = next(n for n in compare(one, two).notices if n.code == "settings_differ")
    assert "relevance_threshold (1 in the baseline, 2 in the candidate run)" in notice.message
