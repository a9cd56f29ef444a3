"""retrieval_metrics.page.web.analyse with the baseline box: a run, a saved report, or something bad.

The two-query case (docs/measures.md) is the candidate; the baseline run below puts every relevant document
first, so its values are 1 wherever that is possible. Every expected number is worked by hand.
"""

from __future__ import annotations

import json
import math

import pytest
from retrieval_metrics import evaluate
from retrieval_metrics.page import web

LOG3 = math.log2(3)
QRELS = "q1 0 d1 2\nq1 0 d4 1\nq2 0 d3 1\n"
RUN = "q1 Q0 d4 1 3 t\nq1 Q0 d2 2 2 t\nq1 Q0 d1 3 1 t\nq2 Q0 d5 1 2 t\nq2 Q0 d3 2 1 t\n"
BASE = "q1 Q0 d1 1 3 b\nq1 Q0 d4 2 2 b\nq1 Q0 d2 3 1 b\nq2 Q0 d3 1 2 b\nq2 Q0 d5 2 1 b\n"
OPTIONS = {"k": "1,3"}

# candidate (the two-query case): q1 = d4 (1), d2, d1 (2); q2 = d5, d3 (1)
CAND = {"q1": {"recall@1": 0.5, "recall@3": 1.0, "precision@1": 1.0, "precision@3": 2 / 3,
               "mrr@1": 1.0, "mrr@3": 1.0, "ndcg@1": 0.5, "ndcg@3": 2 / (2 + 1 / LOG3)},
        "q2": {"recall@1": 0.0, "recall@3": 1.0, "precision@1": 0.0, "precision@3": 1 / 3,
               "mrr@1": 0.0, "mrr@3": 0.5, "ndcg@1": 0.0, "ndcg@3": 1 / LOG3}}
# baseline: q1 = d1 (2), d4 (1), d2; q2 = d3 (1), d5: the ideal orders
BASEV = {"q1": {"recall@1": 0.5, "recall@3": 1.0, "precision@1": 1.0, "precision@3": 2 / 3,
                "mrr@1": 1.0, "mrr@3": 1.0, "ndcg@1": 1.0, "ndcg@3": 1.0},
         "q2": {"recall@1": 1.0, "recall@3": 1.0, "precision@1": 1.0, "precision@3": 1 / 3,
                "mrr@1": 1.0, "mrr@3": 1.0, "ndcg@1": 1.0, "ndcg@3": 1.0}}


def strict(out):
    """Round-trips through strict JSON (what the worker posts to the page)."""
    return json.loads(json.dumps(out, allow_nan=False))


def exact_p_two(d1, d2):
    """Two pairs: sign patterns give |d1 + d2| and |d1 - d2| (twice each)."""
    observed = abs(d1 + d2)
    return sum(abs(s1 * d1 + s2 * d2) >= observed - 1e-12 for s1 in (1, -1) for s2 in (1, -1)) / 4


def check_comparison(comparison):
    records = {r["metric"]: r for r in comparison["metrics"]}
    assert set(records) == set(CAND["q1"])
    assert comparison["paired_queries"] == 2
    for key, r in records.items():
        b = [BASEV[q][key] for q in ("q1", "q2")]
        c = [CAND[q][key] for q in ("q1", "q2")]
        assert r["baseline_mean"] == pytest.approx(sum(b) / 2, abs=1e-12), key
        assert r["candidate_mean"] == pytest.approx(sum(c) / 2, abs=1e-12), key
        assert r["delta"] == pytest.approx((sum(c) - sum(b)) / 2, abs=1e-12), key
        assert (r["wins"], r["ties"], r["losses"]) == (
            sum(y > x for x, y in zip(b, c)), sum(y == x for x, y in zip(b, c)),
            sum(y < x for x, y in zip(b, c))), key
        assert r["n"] == 2 and r["method"] == "exact"
        assert r["p_value"] == exact_p_two(c[0] - b[0], c[1] - b[1]), key
    # spot checks in plain numbers: nDCG@3 loses on both queries (p = 2/4); recall@3 ties both
    assert (records["ndcg@3"]["losses"], records["ndcg@3"]["p_value"]) == (2, 0.5)
    assert (records["recall@3"]["ties"], records["recall@3"]["p_value"]) == (2, 1.0)
    assert records["recall@1"]["delta"] == pytest.approx(-0.5)
    codes = {n["code"] for n in comparison["notices"]}
    assert "too_few_queries" in codes  # n = 2: the smallest p is 0.5


def test_baseline_run():
    out = strict(web.analyse(QRELS, RUN, OPTIONS, BASE))
    assert not any(out["errors"].values())
    assert out["inputs"]["baseline"]["format"] == "trec"
    assert out["inputs"]["baseline"]["queries"] == 2 and out["inputs"]["baseline"]["rows"] == 5
    assert out["report"]["per_query"]["q1"] == pytest.approx(CAND["q1"], abs=1e-12)
    check_comparison(out["comparison"])


def test_no_baseline_no_comparison():
    for text in ("", "  \n\t\n"):
        out = web.analyse(QRELS, RUN, OPTIONS, text)
        assert out["comparison"] is None and out["errors"]["baseline"] is None
        assert out["inputs"]["baseline"] is None and out["report"] is not None
    assert web.analyse(QRELS, RUN, OPTIONS)["comparison"] is None


def saved(**kwargs):
    return evaluate(QRELS, BASE, k=[1, 3], **kwargs).to_dict()


@pytest.mark.parametrize("shape", ["report", "wrapped", "indented", "wrapped-indented"])
def test_saved_report_as_baseline(shape):
    data = saved()
    if shape.startswith("wrapped"):
        data = {"report": data, "comparison": None}
    text = json.dumps(data, indent=2 if shape.endswith("indented") else None)
    if shape == "indented":
        text = "\n  " + text + "\n"  # pasted with surrounding whitespace
    out = strict(web.analyse(QRELS, RUN, OPTIONS, text))
    assert not any(out["errors"].values()), out["errors"]
    assert out["inputs"]["baseline"]["format"] == "report"
    assert out["inputs"]["baseline"]["queries"] == 2
    check_comparison(out["comparison"])
    from_run = web.analyse(QRELS, RUN, OPTIONS, BASE)["comparison"]
    assert out["comparison"]["metrics"] == from_run["metrics"]
    assert out["comparison"]["per_query"] == from_run["per_query"]


def test_saved_report_with_other_settings_is_a_notice():
    text = json.dumps(saved(gain="exponential"))
    out = strict(web.analyse(QRELS, RUN, OPTIONS, text))
    assert "settings_differ" in {n["code"] for n in out["comparison"]["notices"]}


def test_saved_report_with_other_cutoffs_is_a_notice():
    """The saved report has @1 and @3; the page now asks for @3 and @5: only @3 is compared."""
    out = strict(web.analyse(QRELS, RUN, {"k": "3,5"}, json.dumps(saved())))
    compared = {r["metric"] for r in out["comparison"]["metrics"]}
    assert compared == {"recall@3", "precision@3", "mrr@3", "ndcg@3"}
    notice = next(n for n in out["comparison"]["notices"] if n["code"] == "metrics_not_compared")
    assert "ndcg@5" in notice["message"]


@pytest.mark.parametrize("text, line", [
    ("q1 Q0 d1 1 3 b\nq1 Q0 d4 2\n", 2),                 # 6 columns, then 4
    ("q1 Q0 d1 1 3 b\n\nq1 Q0 d4 2 inf b\n", 3),          # a score that is not finite
    ('{"q1": ["d1", "d4"],\n "q2": ["d3" "d5"]}', 2),     # JSON syntax: a comma missing
    ('{"q1": ["d1", "d4"], "q1": ["d4"]}', None),          # JSON with a key twice
])
def test_bad_baseline_is_an_error_of_that_box(text, line):
    out = strict(web.analyse(QRELS, RUN, OPTIONS, text))
    error = out["errors"]["baseline"]
    assert error is not None and error["source"] == "baseline"
    assert error["line"] == line
    assert error["message"].startswith("baseline")
    assert out["comparison"] is None
    # the other boxes are untouched: the candidate's report stands
    assert out["errors"]["qrels"] is None and out["errors"]["run"] is None
    assert out["report"]["mean"]["recall@1"] == pytest.approx(0.25)


def test_saved_report_with_a_bad_value_is_an_error_of_that_box():
    data = saved()
    data["per_query"]["q1"]["ndcg@3"] = "high"
    out = strict(web.analyse(QRELS, RUN, OPTIONS, json.dumps(data)))
    assert out["errors"]["baseline"]["source"] == "baseline"
    assert out["comparison"] is None and out["report"] is not None


def test_baseline_is_ignored_while_the_candidate_cannot_be_scored():
    out = strict(web.analyse(QRELS, "", OPTIONS, BASE))
    assert out["report"] is None and out["comparison"] is None
    out = strict(web.analyse(QRELS, RUN, {"k": "0"}, BASE))
    assert out["errors"]["options"]["field"] == "k" and out["comparison"] is None


def test_baseline_format_options():
    """A 3-column whitespace baseline read as ranks or as scores gives different orders:
    ranks: q1 = d1, d4, d2 and q2 = d5, d3; scores (highest first): q1 = d2, d4, d1, q2 = d3, d5.
    recall@1: ranks (0.5 + 0) / 2 = 0.25; scores (0 + 1) / 2 = 0.5."""
    text = "q1 d1 1\nq1 d4 2\nq1 d2 3\nq2 d5 1\nq2 d3 2\n"
    as_rank = web.analyse(QRELS, RUN, {**OPTIONS, "baseline_third_column": "rank"}, text)
    as_score = web.analyse(QRELS, RUN, {**OPTIONS, "baseline_third_column": "score"}, text)
    rank_r1 = next(r for r in as_rank["comparison"]["metrics"] if r["metric"] == "recall@1")
    score_r1 = next(r for r in as_score["comparison"]["metrics"] if r["metric"] == "recall@1")
    assert rank_r1["baseline_mean"] == 0.25 and score_r1["baseline_mean"] == 0.5
    assert as_score["inputs"]["baseline"]["third_column"] == "score"
    csv_text = "q1,d1\nq1,d4\nq1,d2\nq2,d3\nq2,d5\n"
    as_csv = web.analyse(QRELS, RUN, {**OPTIONS, "baseline_format": "csv"}, csv_text)
    assert as_csv["inputs"]["baseline"]["format"] == "csv"
    check_comparison(as_csv["comparison"])


def test_samples_and_seed_options():
    """20 queries: sampled, with the samples and the seed the options gave."""
    qrels = "".join(f"q{i} 0 d{i} 1\nq{i} 0 e{i} 1\n" for i in range(20))
    run = "".join(f"q{i} Q0 d{i} 1 2 t\nq{i} Q0 x{i} 2 1 t\n" for i in range(20))
    base = "".join(f"q{i} Q0 x{i} 1 2 t\nq{i} Q0 {'d' if i % 3 else 'y'}{i} 2 1 t\n"
                   for i in range(20))
    out = strict(web.analyse(qrels, run, {"k": 1, "samples": 999, "seed": 4}, base))
    record = next(r for r in out["comparison"]["metrics"] if r["metric"] == "precision@1")
    assert (record["method"], record["samples"], record["seed"], record["n"]) == \
        ("sampled", 999, 4, 20)
    assert (record["wins"], record["ties"], record["losses"]) == (20, 0, 0)
    # all 20 differences +1: only the all-plus and all-minus patterns reach, so almost surely
    # no sampled pattern hits and p = 1 / (999 + 1)
    assert record["p_value"] == 1 / 1000
    again = strict(web.analyse(qrels, run, {"k": 1, "samples": "999", "seed": "4"}, base))
    assert again["comparison"] == out["comparison"]


def test_undefined_values_are_strict_json():
    """zero_division='nan': q3 has no relevant document, so its recall is NaN in both runs:
    left out of that metric (n = 2), null nowhere as NaN."""
    qrels = QRELS + "q3 0 d7 0\n"
    run, base = RUN + "q3 Q0 d7 1 1 t\n", BASE + "q3 Q0 d8 1 1 b\n"
    out = web.analyse(qrels, run, {**OPTIONS, "zero_division": "nan"}, base)
    text = json.dumps(out, allow_nan=False)
    assert "NaN" not in text
    data = json.loads(text)
    assert data["report"]["per_query"]["q3"]["recall@1"] is None
    records = {r["metric"]: r for r in data["comparison"]["metrics"]}
    assert records["recall@1"]["n"] == 2 and records["precision@1"]["n"] == 3
    assert records["recall@1"]["baseline_mean"] == pytest.approx(0.75)
    assert "undefined_values" in {n["code"] for n in data["comparison"]["notices"]}
    # the same through a saved report whose undefined values are null
    saved_text = json.dumps(evaluate(qrels, base, k=[1, 3], zero_division="nan").to_dict(),
                            allow_nan=False)
    via_saved = web.analyse(qrels, run, {**OPTIONS, "zero_division": "nan"}, saved_text)
    json.dumps(via_saved, allow_nan=False)
    assert via_saved["comparison"]["metrics"] == data["comparison"]["metrics"]


def test_saved_report_with_another_zero_division_is_a_notice():
    """The same run saved with zero_division=1 and compared under zero_division=0: q2 (no
    relevant document) has recall 1 in the baseline and 0 now, a 'loss' made by the setting
    alone. Issue 4: both runs are scored under the same counting rules; to_dict() records
    zero_division so that a saved report can be checked, as gain and missing are."""
    qrels, run = "q1 0 d1 1\nq2 0 d2 0\n", "q1 Q0 d1 1 1 t\nq2 Q0 d2 1 1 t\n"
    text = json.dumps(evaluate(qrels, run, k=1, zero_division=1).to_dict())
    out = strict(web.analyse(qrels, run, {"k": 1, "zero_division": 0}, text))
    recall = next(r for r in out["comparison"]["metrics"] if r["metric"] == "recall@1")
    assert recall["losses"] == 1  # identical runs, different policy
    notice = next((n for n in out["comparison"]["notices"] if n["code"] == "settings_differ"), None)
    assert notice is not None and "zero_division" in notice["message"]
