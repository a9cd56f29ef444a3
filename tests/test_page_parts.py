"""A large run scored in parts by several of the page's workers (page/parts.py, through the
Session's steps as worker.js calls them) gives the very answer of the ordinary ``analyse``:
the same per-query values, means, notices, inputs and unjudged counts, to the last bit. The
ordinary answer is the reference (it shares no code with the parts' reading), and a part that
is not plain falls back to it."""

from __future__ import annotations

import json
import random

import pytest
from retrieval_metrics.page.analysis import analyse
from retrieval_metrics.page.session import Session, StaleRequest

OPTIONS = {"k": "3,10", "metrics": ["recall", "precision", "ndcg", "mrr", "map", "bpref"]}


def generated(seed: int, queries: int = 60):
    """Judgements and a TREC run with ties, a repeated document, queries the run lacks, queries
    nobody judged and queries without a relevant document."""
    rng = random.Random(seed)
    qrels = []
    for q in range(queries):
        for d in rng.sample(range(40), 8):
            qrels.append(f"q{q} 0 d{d} {0 if q % 9 == 0 else rng.choice([0, 1, 2])}\n")
    lines = []
    for q in range(5, queries + 5):  # q0..q4 missing from the run, the last five unjudged
        docs = rng.sample(range(50), rng.randint(1, 30))
        if q % 7 == 0:
            docs.append(docs[0])  # a repeated document
        for i, d in enumerate(docs):
            lines.append(f"q{q} Q0 d{d} {i + 1} {rng.randint(1, 12) / 4} r\n")
    return "".join(qrels).encode(), "".join(lines).encode()


def in_parts(session: Session, qrels: bytes, run: bytes, options: dict, workers: int, request=1):
    """What worker.js does: plan, hand each other part to a helper (here: another Session, its
    answer through JSON as postMessage carries it), score the first, merge."""
    planned = session.plan_parts(request, qrels, run, options, "", workers, min_bytes=0)
    if planned["starts"] is None:
        return None, 0
    starts = planned["starts"] + [len(run)]
    helper = Session()
    others = [json.loads(json.dumps(helper.score_part(None, qrels, run[a:b], options)))
              for a, b in zip(starts[1:], starts[2:])]
    session.score_first_part(request, of=request)
    return session.analyse_parts(request, of=request, parts=others), len(starts) - 1


def same(a: dict, b: dict) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("workers", [2, 3, 4])
def test_parts_give_the_ordinary_answer(seed, workers):
    qrels, run = generated(seed)
    expected, _ = analyse(qrels, run, OPTIONS)
    got, count = in_parts(Session(), qrels, run, OPTIONS, workers)
    assert count == workers  # really cut: the test would pass trivially with one part
    assert same(got, expected)
    assert got["report"]["notices"] and got["unjudged_in_top"]


def test_other_settings_and_tie_policies_too():
    qrels, run = generated(4)
    for options in ({"k": "5", "ties": "pessimistic"}, {"k": "1,5", "missing": "skip", "gain": "exponential"},
                    {"k": "10", "relevance_threshold": "2", "metrics_extra": "P_5 ndcg_cut_10 bpref"}):
        expected, _ = analyse(qrels, run, options)
        got, count = in_parts(Session(), qrels, run, options, 3)
        assert count == 3 and same(got, expected), options


def test_questions_about_a_run_in_parts_are_answered_from_it_read_whole():
    qrels, run = generated(5)
    session, ordinary = Session(), Session()
    in_parts(session, qrels, run, OPTIONS, 3, request=7)
    ordinary.analyse(7, qrels, run, OPTIONS)
    for query in ("q10", "q33"):
        assert same(session.inspect(8, of=7, query=query), ordinary.inspect(8, of=7, query=query))
    assert same(session.precision_recall(9, of=7), ordinary.precision_recall(9, of=7))
    assert session.download(10, of=7, kind="report-csv") == ordinary.download(10, of=7, kind="report-csv")
    session.analyse(11, qrels, b"q5 Q0 d1 1 1 r\n", OPTIONS)
    with pytest.raises(StaleRequest):
        session.inspect(12, of=7, query="q10")


def test_a_part_that_is_not_plain_is_read_the_ordinary_way():
    qrels, run = generated(6, queries=400)  # the comment below lies beyond the probed head
    lines = run.decode().splitlines(keepends=True)
    broken = "".join(lines[:len(lines) * 3 // 4] + ["# a comment in the middle\n"] + lines[len(lines) * 3 // 4:]).encode()
    expected, _ = analyse(qrels, broken, OPTIONS)
    got, count = in_parts(Session(), qrels, broken, OPTIONS, 2)
    assert count == 2 and same(got, expected)
    # a query's lines apart (in both parts): the ordinary reader says how it reads them
    apart = run + lines[0].encode()
    expected, _ = analyse(qrels, apart, OPTIONS)
    got, _ = in_parts(Session(), qrels, apart, OPTIONS, 2)
    assert same(got, expected)
    # the helpers failed: the worker asks to merge nothing, and the run is read whole
    session = Session()
    session.plan_parts(1, qrels, run, OPTIONS, "", 2, min_bytes=0)
    assert same(session.analyse_parts(1, of=1, parts=None), analyse(qrels, run, OPTIONS)[0])


@pytest.mark.parametrize("why, kwargs", [
    ("below the size", {"min_bytes": 10 ** 9}),
    ("a baseline to compare", {"baseline": b"q5 Q0 d1 1 1 r\n"}),
    ("one worker and a small run", {"min_bytes": 10 ** 9, "workers": 1}),
])
def test_runs_not_for_parts_are_refused(why, kwargs):
    qrels, run = generated(7)
    args = {"qrels": qrels, "run": run, "options": OPTIONS, "baseline": "", "workers": 2, "min_bytes": 0, **kwargs}
    assert Session().plan_parts(1, **args) == {"starts": None}, why


def test_other_formats_are_refused():
    qrels, run = generated(8)
    tsv = run.replace(b" ", b"\t")
    csv_options = {**OPTIONS, "run_format": "csv"}
    assert Session().plan_parts(1, qrels, tsv, OPTIONS, "", 2, min_bytes=0) == {"starts": None}
    assert Session().plan_parts(1, qrels, run, csv_options, "", 2, min_bytes=0) == {"starts": None}
    assert Session().plan_parts(1, qrels, run, {"k": "0"}, "", 2, min_bytes=0) == {"starts": None}
