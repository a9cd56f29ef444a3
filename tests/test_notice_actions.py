"""Every warning says what the reader can do about it: each warning the engine gives, made
happen on a small input, names an action (check, judge, remove, swap, lower, score, keep, ...)."""

from __future__ import annotations

import re

import pytest
import retrieval_metrics as rm
from retrieval_metrics.scoring.checks import check_inputs
from retrieval_metrics.scoring.evaluate import load
from retrieval_metrics.scoring.settings import settings

ACTION = re.compile(r"\b(check|judge|remove|swap|lower|score|keep|run it|give|choose|save|add|fix)\b", re.I)

# Judgements and a run that together raise most warnings: q2 is judged but not in the run, the
# run's top 10 of q1 are mostly unjudged, d1 is repeated, b and c tie across the cutoff.
QRELS = "q1 0 a 1\nq1 0 b 0\nq1 0 c 2\nq2 0 z 1\n"
RUN = ("q1 Q0 a 1 9 r\nq1 Q0 a 2 8 r\nq1 Q0 b 3 5 r\nq1 Q0 c 4 5 r\n"
       + "".join(f"q1 Q0 u{i} {i + 5} {1 - i / 100} r\n" for i in range(10)))


def _checked():
    """Judgements of q1-q3 and a run of q1 only: d "a" twice, then ten unjudged documents."""
    judgements, _ = load("q1 0 a 2\nq2 0 b 1\nq3 0 c 1\n", "q1 Q0 a 1 1 t\n")
    _, run = load("q1 0 a 2\n", "q1 Q0 a 1 1.0 t\nq1 Q0 a 2 0.9 t\n"
                  + "".join(f"q1 Q0 u{i} {i + 3} 0.{i} t\n" for i in range(10)))
    return judgements, {"run": run}


def warnings_of(notices) -> list:
    return [n for n in notices if getattr(n, "level", None) == "warning"]


CASES = {
    "evaluate": lambda: rm.evaluate(QRELS, RUN, k=[3]).notices,
    "relevance level above every grade": lambda: rm.evaluate(QRELS, RUN, k=[3], relevance_threshold=5).notices,
    "judgements that look like a run": lambda: rm.evaluate(
        "".join(f"q1 0 d{i} {i}\n" for i in range(1, 7)), "q1 Q0 d1 1 1 r\n").notices,
    "conflicting judgements": lambda: rm.evaluate("q1 0 a 1\nq1 0 a 2\n", "q1 Q0 a 1 1 r\n").notices,
    "a run that looks like judgements": lambda: rm.evaluate(
        "q1 0 a 1\nq2 0 b 1\nq3 0 c 1\n",
        "q1 a 1\nq1 b 1\nq1 c 0\nq2 a 1\nq2 b 1\nq2 c 0\nq3 a 1\nq3 b 0\nq3 c 0\n").notices,
    "checks": lambda: check_inputs(*_checked(), settings(k=10)),
    "checks, level above every grade": lambda: check_inputs(*_checked(), settings(k=10, relevance_threshold=3)),
}


@pytest.mark.parametrize("case", CASES)
def test_each_warning_names_an_action(case):
    found = warnings_of(CASES[case]())
    assert found, f"{case}: no warning raised; the case no longer exercises one"
    for notice in found:
        assert ACTION.search(notice.message), f"{notice.code}: {notice.message}"


def test_the_cases_cover_the_engines_warnings():
    codes = {n.code for case in CASES.values() for n in warnings_of(case())}
    assert {"missing_queries", "low_judged", "duplicate_documents", "score_ties",
            "check_relevance_level", "looks_like_results", "duplicate_judgements",
            "looks_like_judgements", "check_not_retrieved", "check_few_topics",
            "check_low_judged", "check_duplicates"} <= codes, codes
