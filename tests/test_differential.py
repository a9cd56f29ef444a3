"""Differential tests: the engine against pytrec_eval (trec_eval 9.0.8's C code) on generated data.

Hypothesis generates qrels and runs with ties in scores, integer and float scores, duplicates,
queries missing on either side, zero-only queries, negative grades and odd (whitespace-free) ids.
Our engine reads them as text (TREC, JSON, CSV, TSV) or dicts; pytrec_eval gets dicts prepared
around its known traps:

- it ranks by float32-cast scores, so it gets a tie-free copy: the docs in trec_eval's order
  computed here in double precision (score descending, then doc id descending), scored n, n-1, ...;
- its run parser refuses a duplicate document, so duplicates are dropped first (the first = best
  occurrence in that order is kept, as docs/formats.md says);
- it crashes (segfault, heap corruption after a few hundred evaluations) when qrels hold
  negative grades, so it gets them as 0: for every measure compared here trec_eval treats a
  grade <= 0 alike (judged, not relevant, no gain), which test_trec_eval_collection checks
  against trec_eval 10's own output on qrels.rel_level (grades -1..4); our engine still gets the
  negative grades;
- it leaves out queries missing from the run and scores judged queries without a relevant
  document (as trec_eval does); we compare per query on the queries both score, and check the
  means against pytrec_eval's per-query values with the counting rules of docs/counting.md.
"""

from __future__ import annotations

import csv
import io
import json
import math

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from retrieval_metrics import evaluate
from support import expected_row

pytrec_eval = pytest.importorskip("pytrec_eval")

PROFILE = settings(max_examples=200, deadline=None, derandomize=True, database=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

HEADER_WORDS = {"query", "query-id", "qid", "topic"}
PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_."
ODD = PLAIN + "#,\"':;/!?$%&*+=<>|~^`()@é文ß\u00a0\u2009\u3000\u0301"


def _ids(alphabet):
    return st.text(alphabet, min_size=1, max_size=6).filter(
        lambda s: s.lower() not in HEADER_WORDS and s[0] not in "#{[\"")


@st.composite
def collections(draw, alphabet=PLAIN):
    ident = _ids(alphabet)
    qids = draw(st.lists(ident, min_size=1, max_size=5, unique=True))
    docs = draw(st.lists(ident, min_size=1, max_size=10, unique=True))
    grade = draw(st.sampled_from([st.integers(-2, 4), st.integers(0, 1), st.integers(-1, 2)]))
    kind = draw(st.sampled_from(["int", "float", "pool"]))
    score = {"int": st.integers(-3, 3).map(float),
             "float": st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False),
             "pool": st.sampled_from([0.5, 0.25, 1.0, -0.0, 0.0, 1e-300, 5e-324, 0.1 + 0.2, 0.3])}[kind]
    qrels, run = {}, {}
    for q in qids:
        in_qrels, in_run = draw(st.sampled_from([(True, True), (True, True), (True, False), (False, True)]))
        if in_qrels:
            zero_only = draw(st.sampled_from([False] * 5 + [True]))
            qrels[q] = draw(st.dictionaries(st.sampled_from(docs), st.just(0) if zero_only else grade,
                                            min_size=1, max_size=8))
        if in_run:
            run[q] = draw(st.lists(st.tuples(st.sampled_from(docs), score), min_size=1, max_size=15))
    if not qrels:
        qrels[qids[0]] = {docs[0]: 1}
    if not run:
        run[qids[-1]] = [(docs[-1], 1.0)]
    ks = sorted(set(draw(st.lists(st.sampled_from([1, 2, 3, 4, 5, 10, 20, 100]), min_size=1, max_size=3))))
    return qrels, run, ks


def trec_order(rows):
    """trec_eval's order in double precision: score descending, then doc id descending (bytes);
    a repeated document keeps its first (best) place."""
    ordered = sorted(rows, key=lambda r: (r[1], r[0].encode("utf-8")), reverse=True)
    seen, out = set(), []
    for doc, _s in ordered:
        if doc not in seen:
            seen.add(doc)
            out.append(doc)
    return out


def pytrec_values(qrels, run, ks):
    tie_free = {}
    for q, rows in run.items():
        order = trec_order(rows)
        tie_free[q] = {d: float(len(order) - i) for i, d in enumerate(order)}
    # negative grades crash pytrec_eval; for these measures trec_eval treats them as 0 (see above)
    qrels = {q: {d: max(g, 0) for d, g in docs.items()} for q, docs in qrels.items()}
    cut = ",".join(map(str, ks))
    measures = {f"P.{cut}", f"recall.{cut}", f"ndcg_cut.{cut}", f"map_cut.{cut}", f"success.{cut}",
                "recip_rank", "map", "Rprec"}
    return pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(tie_free), tie_free


METRICS = ["recall", "precision", "mrr", "ndcg", "hit_rate", "ap", "map", "rprec", "rr"]


# --- ways to hand the same data to our engine -------------------------------------------------

def qrels_as(fmt, qrels):
    if fmt == "dict":
        return qrels
    if fmt == "json":
        return json.dumps(qrels, ensure_ascii=fmt == "json")
    if fmt == "trec":
        return "".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items())
    if fmt == "trec-bytes":
        return "".join(f"{q}\t0\t{d}\t{g}\r\n" for q, docs in qrels.items() for d, g in docs.items()).encode()
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["query", "doc", "grade"])
        for q, docs in qrels.items():
            for d, g in docs.items():
                w.writerow([q, d, g])
        return buf.getvalue()
    raise AssertionError(fmt)


def run_as(fmt, run):
    """(run input, extra options)."""
    if fmt in ("dict", "json"):
        best = {q: {} for q in run}
        for q, rows in run.items():
            for d, s in rows:
                best[q][d] = max(s, best[q].get(d, -math.inf))
        return (best if fmt == "dict" else json.dumps(best)), {}
    if fmt == "trec":
        # rank column deliberately meaningless (row number), scores in repr (round-trip exact)
        return "".join(f"{q} Q0 {d} {i + 1} {s!r} tag\n"
                       for q, rows in run.items() for i, (d, s) in enumerate(rows)), {}
    if fmt == "list":
        return {q: [d for d, _s in sorted(rows, key=lambda r: (r[1], r[0].encode()), reverse=True)]
                for q, rows in run.items()}, {}
    if fmt == "csv-rows":
        # two columns, rows in rank order (repeats included: the first one counts)
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        for q, rows in run.items():
            for d, _s in sorted(rows, key=lambda r: (r[1], r[0].encode()), reverse=True):
                w.writerow([q, d])
        return buf.getvalue(), {}
    if fmt == "tsv-scores":
        return "".join(f"{q}\t{d}\t{s!r}\n" for q, rows in run.items() for d, s in rows), \
            {"third_column": "score"}
    raise AssertionError(fmt)


def _events(qrels, run, relevant):
    """Labels for --hypothesis-show-statistics: which traps the examples reached."""
    for rows in run.values():
        scores = [s for _d, s in rows]
        if len(set(scores)) < len(scores):
            event("tied scores")
        if len({d for d, _s in rows}) < len(rows):
            event("duplicate documents")
    if set(qrels) - set(run):
        event("judged query missing from run")
    if set(run) - set(qrels):
        event("unjudged run query")
    if set(qrels) - relevant:
        event("judged query without relevant document")
    if any(g < 0 for docs in qrels.values() for g in docs.values()):
        event("negative grade")
    if not relevant:
        event("nothing scored")


def check(qrels, run, ks, qrels_fmt, run_fmt, missing):
    theirs, tie_free = pytrec_values(qrels, run, ks)
    run_input, extra = run_as(run_fmt, run)
    report = evaluate(qrels_as(qrels_fmt, qrels), run_input, k=ks, metrics=METRICS, missing=missing, **extra)

    relevant = {q for q, docs in qrels.items() if any(g > 0 for g in docs.values())}
    _events(qrels, run, relevant)
    problems = []
    # per query, on the queries both score
    both = relevant & set(theirs)
    for q in sorted(both):
        want = expected_row(theirs[q], ks)
        got = report.per_query.get(q)
        if got is None:
            problems.append(f"{q!r} not in per_query")
            continue
        for key, w in want.items():
            if key not in got or not math.isclose(got[key], w, rel_tol=0, abs_tol=1e-9):
                problems.append(f"{q!r} {key}: pytrec_eval {w!r}, ours {got.get(key)!r}")
    # which queries count
    missing_qs = relevant - set(run)
    counted = relevant if missing == "zero" else relevant & set(run)
    if report.scored_queries != len(counted):
        problems.append(f"scored_queries {report.scored_queries}, expected {len(counted)}")
    if sorted(report.missing_queries) != sorted(missing_qs):
        problems.append(f"missing_queries {report.missing_queries!r}, expected {sorted(missing_qs)!r}")
    for q in set(run) - set(qrels):
        if q in report.per_query:
            problems.append(f"unjudged {q!r} in per_query")
    for q in missing_qs:
        if missing == "zero":
            row = report.per_query.get(q)
            if row is None or any(v != 0 for v in row.values()):
                problems.append(f"missing {q!r} should be all zeros, got {row!r}")
        elif q in report.per_query:
            problems.append(f"missing {q!r} in per_query with missing='skip'")
    # means over the counted queries, missing ones as zeros
    if counted:
        for key in expected_row(next(iter(theirs.values())), ks) if theirs else []:
            total = sum(expected_row(theirs[q], ks)[key] for q in counted if q in theirs)
            want = total / len(counted)
            got = report.mean.get(key)
            if got is None or not math.isclose(got, want, rel_tol=0, abs_tol=1e-9):
                problems.append(f"mean {key}: expected {want!r}, ours {got!r}")
    else:
        if report.mean != {}:
            problems.append(f"no scored query, but mean = {report.mean!r}")
    assert problems == [], "\n".join(problems[:20])


@pytest.mark.slow
@PROFILE
@given(collections(), st.sampled_from(["zero", "skip"]))
def test_trec_text_plain_ids(data, missing):
    qrels, run, ks = data
    check(qrels, run, ks, "trec", "trec", missing)


@pytest.mark.slow
@PROFILE
@given(collections(ODD), st.sampled_from(["zero", "skip"]))
def test_trec_text_odd_ids(data, missing):
    qrels, run, ks = data
    check(qrels, run, ks, "trec", "trec", missing)


@pytest.mark.slow
@PROFILE
@given(collections(ODD),
       st.sampled_from(["dict", "json", "csv", "trec-bytes"]),
       st.sampled_from(["dict", "json", "list", "csv-rows", "tsv-scores"]))
def test_other_input_shapes(data, qrels_fmt, run_fmt):
    qrels, run, ks = data
    check(qrels, run, ks, qrels_fmt, run_fmt, "zero")


def test_harness_can_fail(monkeypatch):
    # check() must notice an engine that orders the run differently from trec_eval.
    import test_differential as me
    real = me.evaluate
    monkeypatch.setattr(me, "evaluate", lambda q, r, **kw: real(q, "q Q0 b 1 1 t\nq Q0 a 2 0 t\n", **kw))
    with pytest.raises(AssertionError):
        me.check({"q": {"a": 1, "b": 0}}, {"q": [("a", 2.0), ("b", 1.0)]}, [1], "trec", "trec", "zero")
    monkeypatch.setattr(me, "evaluate", real)
    me.check({"q": {"a": 1, "b": 0}}, {"q": [("a", 2.0), ("b", 1.0)]}, [1], "trec", "trec", "zero")


# --- larger files: the chunked fast reader, the line reader and the Unicode-aware splitter ----

def _big_collection(seed: int):
    """~60 queries x up to 1,000 documents (a TREC run over 1 MB, so a reader working in
    megabyte chunks crosses a chunk boundary), scores rounded to 2 decimals (many ties)."""
    import random
    rnd = random.Random(seed)
    qids = [f"{rnd.randint(100, 999)}-{i}" for i in range(60)]
    qrels, run = {}, {}
    for i, q in enumerate(qids):
        docs = [f"DOC-{rnd.randint(0, 3000):05d}" for _ in range(rnd.choice([5, 300, 1000, 1000]))]
        if i % 9 != 1:
            run[q] = [(d, round(rnd.uniform(-5, 20), 2)) for d in docs]
        if i % 11 != 3:
            judged = rnd.sample(sorted(set(docs)), min(len(set(docs)), 40)) + [f"DOC-X{j}" for j in range(3)]
            qrels[q] = {d: rnd.choice([-1, 0, 0, 0, 1, 1, 2, 3]) for d in judged}
    return qrels, run


@pytest.mark.slow
@pytest.mark.parametrize("how", ["text", "path"])
@pytest.mark.parametrize("variant", ["plain", "comment", "nbsp", "late"])
@pytest.mark.parametrize("seed", [1, 2])
def test_large_trec_files(seed, variant, how, tmp_path):
    qrels, run = _big_collection(seed)
    if variant in ("nbsp", "late"):   # a non-ASCII space inside one id: the splitter that keeps it
        q = next(iter(run)) if variant == "nbsp" else list(run)[-1]   # "late": past the first MB
        run[q] = run[q] + [("DOC\u00a0NBSP", 99.0)]
        qrels.setdefault(q, {})["DOC\u00a0NBSP"] = 1
    ks = [1, 5, 10, 100, 1000]
    run_text = "".join(f"{q}\tQ0\t{d}\t{i + 1}\t{s!r}\tSTANDARD\n"
                       for q, rows in run.items() for i, (d, s) in enumerate(rows))
    qrels_text = "".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items())
    if variant == "comment":  # comment lines: the line-by-line reader
        run_text = "# a comment\n" + run_text
        qrels_text = "# judged\n" + qrels_text
    if variant == "late":     # a comment and a blank line far from the start (past any sample)
        lines = run_text.split("\n")
        middle = len(lines) * 3 // 4
        run_text = "\n".join(lines[:middle] + ["# late comment", "", "  "] + lines[middle:])
    assert len(run_text) > (1 << 20) + 1000
    theirs, tie_free = pytrec_values(qrels, run, ks)
    if how == "path":   # files on disk (a reader may stream them)
        (tmp_path / "qrels").write_bytes(qrels_text.encode())
        (tmp_path / "run").write_bytes(run_text.encode())
        report = evaluate(tmp_path / "qrels", tmp_path / "run", k=ks, metrics=METRICS)
    else:
        report = evaluate(qrels_text, run_text.encode(), k=ks, metrics=METRICS)
    relevant = {q for q, docs in qrels.items() if any(g > 0 for g in docs.values())}
    bad = []
    for q in sorted(relevant & set(theirs)):
        for key, want in expected_row(theirs[q], ks).items():
            got = report.per_query[q][key]
            if not math.isclose(got, want, rel_tol=0, abs_tol=1e-9):
                bad.append((q, key, got, want))
    assert bad == []
    assert report.inputs["run"].rows == sum(len(rows) for rows in run.values())
    assert report.scored_queries == len(relevant)
