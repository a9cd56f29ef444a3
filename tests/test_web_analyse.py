"""retrieval_metrics.page.web.analyse, the page's one call: each box on its own, errors as data."""

from __future__ import annotations

import json

from retrieval_metrics.page import web

QRELS = "q1 0 d1 2\nq1 0 d4 1\nq2 0 d3 1\n"
RUN = "q1 Q0 d4 1 3 t\nq1 Q0 d2 2 2 t\nq1 Q0 d1 3 1 t\nq2 Q0 d5 1 2 t\nq2 Q0 d3 2 1 t\n"


def test_both_boxes_good():
    out = web.analyse(QRELS, RUN, {"k": "2,3"})
    assert {box: out["errors"][box] for box in ("qrels", "run", "options")} == \
        {"qrels": None, "run": None, "options": None}
    assert not any(out["errors"].values())
    assert out["report"]["mean"]["recall@2"] == 0.75
    assert round(out["report"]["mean"]["ndcg@3"], 4) == 0.6956
    json.dumps(out, allow_nan=False)


def test_detected_format_shows_while_other_box_is_empty():
    out = web.analyse(QRELS, "", {})
    assert out["inputs"]["qrels"]["format"] == "trec" and out["inputs"]["qrels"]["rows"] == 3
    assert out["errors"]["qrels"] is None and out["report"] is None
    out = web.analyse("", RUN, {})
    assert out["inputs"]["run"]["format"] == "trec" and out["inputs"]["run"]["queries"] == 2


def test_detected_format_shows_while_other_box_is_wrong():
    out = web.analyse(QRELS, "q1 Q0 d1 1 2 t\nq1 Q0 d2 2 nan t\n", {})
    assert out["inputs"]["qrels"]["format"] == "trec"
    assert out["errors"]["qrels"] is None
    assert out["errors"]["run"]["source"] == "run" and out["errors"]["run"]["line"] == 2
    assert out["report"] is None


def test_bad_option_is_named():
    out = web.analyse(QRELS, RUN, {"k": "0"})
    assert out["errors"]["options"]["field"] == "k"
    assert out["report"] is None
    assert out["inputs"]["qrels"] is not None and out["inputs"]["run"] is not None


def test_prefixed_names_are_read_as_their_tool_and_listed_in_readings():
    """q1 ranks d4 (grade 1), d2 (unjudged), d1 (grade 2); q2 ranks d5, d3 (grade 1). ranx's
    hits@5 counts the relevant ones: 2 and 1, mean 1.5; ir_measures' P(rel=2)@5: 1/5 and 0."""
    out = web.analyse(QRELS, RUN, {"k": "5", "metrics": ["ndcg"],
                                   "metrics_extra": "ranx:hits@5, ir_measures:P(rel=2)@5"})
    mean = out["report"]["mean"]
    assert mean["ranx:hits@5"] == 1.5 and mean["ir_measures:P(rel=2)@5"] == 0.1
    assert [(r["key"], r["tool"], r["name"]) for r in out["readings"]] == [
        ("ranx:hits@5", "ranx", "hits@5"), ("ir_measures:P(rel=2)@5", "ir_measures", "P(rel=2)@5")]
    assert "a count, not a rate" in out["readings"][0]["definition"]
    assert web.analyse(QRELS, RUN, {"k": "5"})["readings"] == []
    json.dumps(out, allow_nan=False)
