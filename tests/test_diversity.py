"""The diversity measures against ndeval itself (pyndeval wraps ndeval.c) on generated
subtopic judgements, and the reading of the qrels' second column as the subtopic.

The runs give every document its own score, so that pyndeval's order (score descending,
then id ascending) and trec_eval's (then id descending) are the same ranking. pyndeval numbers
the subtopics in the order it first meets them, ndeval by their number, and sums over them in
that order; the qrels go to pyndeval sorted by subtopic, so that its numbering is ndeval's and
every value agrees to the last bit.
"""

from __future__ import annotations

import math
import random

import pytest
from retrieval_metrics import evaluate
from retrieval_metrics.inputs.qrels import parse_qrels

pyndeval = pytest.importorskip("pyndeval")

CUTOFFS = (1, 2, 5, 10, 20)
#: ours -> pyndeval's name, at each cutoff ({k}) or whole
PAIRS = {"alpha_ndcg@{k}": "alpha-nDCG@{k}", "alpha_dcg@{k}": "alpha-DCG@{k}",
         "err_ia@{k}": "ERR-IA@{k}", "nerr_ia@{k}": "nERR-IA@{k}", "p_ia@{k}": "P-IA@{k}",
         "st_recall@{k}": "strec@{k}", "nrbp": "NRBP", "ap_ia": "MAP-IA"}


def _names(pairs=PAIRS):
    out = {}
    for ours, theirs in pairs.items():
        for k in (CUTOFFS if "{k}" in ours else (None,)):
            out[ours.format(k=k)] = theirs.format(k=k)
    return out


def _judgements(qrels):
    """pyndeval's qrels, met in subtopic order (ndeval's numbering)."""
    return [pyndeval.SubtopicQrel(*row) for row in sorted(qrels, key=lambda r: int(r[1]))]


def _case(seed: int, queries: int = 12):
    """Subtopic qrels (several subtopics per query, documents judged for some of them, some
    grades above 1, some queries without any relevant subtopic) and a run with distinct
    scores, unjudged documents among the judged ones."""
    rng = random.Random(seed)
    qrels, run = [], []
    for q in range(1, queries + 1):
        subtopics = rng.randint(1, 6)
        docs = [f"d{q}-{i:03d}" for i in range(rng.randint(3, 40))]
        nothing = rng.random() < 0.1
        for doc in docs:
            for s in rng.sample(range(1, subtopics + 1), rng.randint(1, subtopics)):
                grade = 0 if nothing else rng.choice((0, 0, 1, 1, 2))
                qrels.append((str(q), str(s), doc, grade))
        pool = docs + [f"u{q}-{i}" for i in range(rng.randint(0, 15))]
        ranked = rng.sample(pool, rng.randint(1, len(pool)))
        for rank, doc in enumerate(ranked):
            run.append((str(q), doc, 1000.0 - rank - rng.random() / 2))
    if rng.random() < 0.5:  # a judged query the run lacks
        qrels.append((str(queries + 1), "1", "dx", 1))
    return qrels, run


def _texts(qrels, run):
    qrels_text = "".join(f"{q} {s} {d} {g}\n" for q, s, d, g in qrels)
    run_text = "".join(f"{q} Q0 {d} {i + 1} {score!r} tag\n" for i, (q, d, score) in enumerate(run))
    return qrels_text, run_text


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("level", (1, 2))
def test_every_measure_equals_pyndeval_per_query(seed, level):
    qrels, run = _case(seed)
    names = _names()
    theirs = pyndeval.RelevanceEvaluator(
        _judgements(qrels), list(names.values()),
        relevance_level=level).evaluate([pyndeval.ScoredDoc(*row) for row in run])
    report = evaluate(*_texts(qrels, run), metrics=list(names), zero_division=0,
                      missing="skip", relevance_threshold=level)
    assert set(report.per_query) == set(theirs)  # ndeval's queries: the run's judged ones
    compared = 0
    for query, values in theirs.items():
        for ours, name in names.items():
            assert report.per_query[query][ours] == values[name], (query, ours)
            compared += 1
    assert compared == len(theirs) * len(names)
    for ours, name in names.items():  # ndeval's amean: over the run's judged queries
        expected = math.fsum(v[name] for v in theirs.values()) / len(theirs)
        assert report.mean[ours] == pytest.approx(expected, rel=1e-13, abs=1e-15)


@pytest.mark.parametrize("alpha,beta", ((0.3, 0.8), (0.9, 0.2)))
def test_alpha_and_beta_as_ndeval_reads_them(alpha, beta):
    qrels, run = _case(11)
    names = {f"alpha_ndcg(alpha={alpha})@{k}": f"alpha-nDCG@{k}" for k in CUTOFFS}
    names[f"nrbp(alpha={alpha},beta={beta})"] = "NRBP"
    theirs = pyndeval.RelevanceEvaluator(
        _judgements(qrels), list(names.values()), alpha=alpha,
        beta=beta).evaluate([pyndeval.ScoredDoc(*row) for row in run])
    report = evaluate(*_texts(qrels, run), metrics=list(names), zero_division=0, missing="skip")
    for query, values in theirs.items():
        for ours, name in names.items():
            assert report.per_query[query][ours] == values[name], (query, ours)


def test_plain_qrels_are_one_subtopic_per_query():
    """A constant second column: every query has one subtopic, as ndeval reads it."""
    qrels = [("1", "0", "a", 1), ("1", "0", "b", 2), ("1", "0", "c", 0), ("2", "0", "x", 1)]
    run = [("1", "c", 3.0), ("1", "b", 2.0), ("1", "a", 1.0), ("2", "x", 1.0)]
    names = _names({"alpha_ndcg@{k}": "alpha-nDCG@{k}", "nrbp": "NRBP"})
    theirs = pyndeval.RelevanceEvaluator(_judgements(qrels),
                                         list(names.values())).evaluate(
        [pyndeval.ScoredDoc(*r) for r in run])
    report = evaluate(*_texts(qrels, run), metrics=list(names))
    for query, values in theirs.items():
        for ours, name in names.items():
            assert report.per_query[query][ours] == values[name]


def test_hand_worked_alpha_ndcg():
    """Two subtopics; the run gives d2 (a) then d1 (a, b); the ideal d1 then d2. Gains: run
    1, 0.5 + 1; ideal 2, 0.5. alpha-nDCG@2 = (1 + 1.5 / log2 3) / (2 + 0.5 / log2 3)."""
    qrels = "q 1 d1 1\nq 2 d1 1\nq 1 d2 1\n"
    run = "q Q0 d2 1 2 t\nq Q0 d1 2 1 t\n"
    report = evaluate(qrels, run, metrics=["alpha_ndcg@2", "st_recall@1", "p_ia@2"])
    d = 1 / math.log2(3)
    assert report.mean["alpha_ndcg@2"] == pytest.approx((1 + 1.5 * d) / (2 + 0.5 * d), rel=1e-15)
    assert report.mean["st_recall@1"] == 0.5
    assert report.mean["p_ia@2"] == 0.75  # 3 (doc, subtopic) pairs over 2 * 2


@pytest.mark.slow
def test_second_column_read_as_subtopics_only_when_it_varies():
    plain = parse_qrels("q1 0 d1 1\nq1 0 d2 0\n")
    assert type(plain.grades["q1"]) is dict and not plain.notices
    diverse = parse_qrels("q1 1 d1 0\nq1 2 d1 2\nq1 2 d2 1\nq1 2 d2 1\n")
    assert diverse.grades["q1"] == {b"d1": 2, b"d2": 1}  # a document: its highest grade
    assert diverse.grades["q1"].subtopics == {b"d1": (("2", 2),), b"d2": (("2", 1),)}  # > 0 only
    codes = [n.code for n in diverse.notices]
    assert codes == ["subtopic_judgements", "duplicate_judgements"]  # d2 twice for subtopic 2
    # the fast reader (a large clean file) and the line reader (a comment) agree
    rows = "".join(f"q{i % 7} {i % 3} d{i} {i % 2}\n" for i in range(20000))
    fast, slow = parse_qrels(rows), parse_qrels("# comment\n" + rows)
    assert fast.grades == slow.grades
    assert {q: g.subtopics for q, g in fast.grades.items()} == {
        q: g.subtopics for q, g in slow.grades.items()}
    late = parse_qrels("q1 0 d1 1\n" * 1 + "".join(f"q1 0 e{i} 1\n" for i in range(5000))
                       + "q1 7 d1 0\n")
    assert late.grades["q1"].subtopics[b"d1"] == (("0", 1),)
    assert late.grades["q1"][b"d1"] == 1


def test_bundled_example_through_the_pages_entry_point():
    """examples/subtopics-alpha-ndcg through page.web.analyse (what the page's worker calls)
    with its own settings: alpha-nDCG@20's mean is pyndeval's."""
    import json
    from pathlib import Path

    from retrieval_metrics.page import web

    folder = Path(__file__).resolve().parent.parent / "examples" / "subtopics-alpha-ndcg"
    settings = json.loads((folder / "settings.json").read_text())
    qrels_text = (folder / settings["qrels"]).read_text()
    run_text = (folder / settings["run"]).read_text()
    out = web.analyse(qrels_text, run_text, {"k": settings["k"], "metrics": settings["metrics"]})
    assert out["errors"] == {"qrels": None, "run": None, "options": None, "baseline": None}
    qrels = [(q, s, d, int(g)) for q, s, d, g in (line.split() for line in qrels_text.splitlines())]
    run = [(f[0], f[2], float(f[4])) for f in (line.split() for line in run_text.splitlines())]
    theirs = pyndeval.ndeval(_judgements(qrels), [pyndeval.ScoredDoc(*r) for r in run],
                             ["alpha-nDCG@20", "alpha-nDCG@5", "ERR-IA@20", "strec@5"])
    mean = out["report"]["mean"]
    for ours, name in (("alpha_ndcg@20", "alpha-nDCG@20"), ("alpha_ndcg@5", "alpha-nDCG@5"),
                       ("err_ia@20", "ERR-IA@20"), ("st_recall@5", "strec@5")):
        assert mean[ours] == pytest.approx(math.fsum(v[name] for v in theirs.values()) / 3,
                                           rel=1e-15), ours
    assert len(theirs) == 3 and 0.5 < mean["alpha_ndcg@20"] < 0.7
