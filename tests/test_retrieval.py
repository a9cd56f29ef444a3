"""evaluate_retrieval: the retriever and comparison cases of docs/api.md, answer shapes, statuses,
errors, threads, latency, progress and report files, with small retrievers written here."""

from __future__ import annotations

import enum
import io
import math
import random
import threading
import time
import warnings
from types import SimpleNamespace

import numpy as np
import pytest
import retrieval_metrics
from hypothesis import given
from hypothesis import strategies as st
from retrieval_metrics import (
    DegradedSearchError,
    DegradedSearchWarning,
    InputError,
    OptionError,
    RetrievalEvaluation,
    RetrieverError,
    evaluate_retrieval,
)
from retrieval_metrics.retriever.latency import Latency, percentile
from retrievers import BM25, DOCS, METRICS, QRELS, QUERIES, Strict


def test_bm25_ranks_as_spec_api_says():
    # q1: only d1 has "carries"/"oxygen". q2: "blood" is in all three (idf ln(1 + 0.5/3.5)),
    # "cells" in d1 and d3 (idf ln 1.6), "clotting" in none; d3 (5 tokens) beats d1 (7 tokens)
    # on the same two terms, and d1's "cells" beats d2's shorter "blood" alone.
    index = BM25(DOCS)
    assert [d for d, _ in index.search(QUERIES["q1"])] == ["d1"]
    assert [d for d, _ in index.search(QUERIES["q2"])] == ["d3", "d1", "d2"]


def test_reference_case():
    # q1: d1 first: recall@1 1, RR 1, nDCG@3 1. q2: d2 third: recall@1 0, RR 1/3,
    # nDCG@3 = (1/log2 4) / (1/log2 2) = 0.5. Means: 0.5, (1 + 1/3)/2 = 2/3, 0.75.
    report = evaluate_retrieval(BM25(DOCS), QUERIES, QRELS, metrics=METRICS)
    assert list(report.metrics) == METRICS
    assert report.metrics["recall@1"] == 0.5
    assert report.metrics["mrr"] == pytest.approx(2 / 3, abs=1e-15)
    assert report.metrics["ndcg@3"] == 0.75
    assert report.status_counts == {"success": 2}
    assert report.per_query == {"q1": {"recall@1": 1.0, "mrr": 1.0, "ndcg@3": 1.0},
                                "q2": {"recall@1": 0.0, "mrr": pytest.approx(1 / 3), "ndcg@3": 0.5}}
    latency = report.latency
    assert set(latency._fields) >= {"mean", "p50", "p95", "max", "total"}
    assert 0 < latency.max <= latency.total <= latency.wall
    assert latency.total == pytest.approx(sum(report.latencies.values()))


def test_comparison_with_a_strict_retriever():
    # Deltas (strict - keyword) per query: recall@1 [-1, 0], mrr [-1, -1/3], ndcg@3 [-1, -0.5].
    # Two pairs: the 4 sign patterns of [-1, 0] all reach |sum| 1 -> p = 1; for the others only
    # the observed pattern and its mirror reach |sum| -> p = 2/4 = 0.5.
    keyword = evaluate_retrieval(BM25(DOCS), QUERIES, QRELS, metrics=METRICS)
    strict = evaluate_retrieval(Strict(), QUERIES, QRELS, metrics=METRICS)
    assert strict.metrics == {"recall@1": 0.0, "mrr": 0.0, "ndcg@3": 0.0}
    comparison = strict.compare(keyword)
    got = [(r.metric, r.delta, r.p_value) for r in comparison.metrics]
    assert got == [("recall@1", -0.5, 1.0), ("mrr", pytest.approx(-2 / 3), 0.5),
                   ("ndcg@3", -0.75, 0.5)]


# ---- answer shapes -----------------------------------------------------------------------

class Status(enum.Enum):
    OK = "success"
    PARTIAL = "partial"


def as_hits(ids):
    return [SimpleNamespace(doc_id=d, score=1.0 / (i + 1)) for i, d in enumerate(ids)]


SHAPES = {
    "ids": lambda ids: list(ids),
    "tuple of ids": lambda ids: tuple(ids),
    "pairs": lambda ids: [(d, -i) for i, d in enumerate(ids)],
    "pairs as lists": lambda ids: [[d, 0.5] for d in ids],
    # ranked by score, not by the mapping's order: scores 1, 2, 3 reversed
    "mapping": lambda ids: {d: float(len(ids) - i) for i, d in reversed(list(enumerate(ids)))},
    "hits with doc_id": as_hits,
    "hits with doc.doc_id": lambda ids: [SimpleNamespace(doc=SimpleNamespace(doc_id=d))
                                         for d in ids],
    "dict hits": lambda ids: [{"doc_id": d, "score": 1} for d in ids],
    "response .status .hits": lambda ids: SimpleNamespace(status="success", hits=as_hits(ids)),
    "response .status .results": lambda ids: SimpleNamespace(status="ok", results=list(ids)),
    "response .documents only": lambda ids: SimpleNamespace(documents=list(ids)),
    "response enum status": lambda ids: SimpleNamespace(status=Status.OK, hits=list(ids)),
    "dict response": lambda ids: {"status": "success", "hits": [(d, 1.0) for d in ids]},
    "dict response results": lambda ids: {"status": "OK", "results": list(ids)},
    "dict without status": lambda ids: {"documents": list(ids)},
    "numpy ids": lambda ids: np.array(ids),
    "generator": lambda ids: (d for d in ids),
    "response with a generator": lambda ids: {"status": "ok", "hits": iter(ids)},
}


@pytest.mark.parametrize("shape", SHAPES)
def test_every_answer_shape_gives_the_reference_numbers(shape):
    ranked = {"what carries oxygen": ["d1"], "blood clotting cells": ["d3", "d1", "d2"]}
    report = evaluate_retrieval(lambda q: SHAPES[shape](ranked[q]), QUERIES, QRELS, METRICS)
    assert report.metrics == {"recall@1": 0.5, "mrr": pytest.approx(2 / 3), "ndcg@3": 0.75}
    assert set(report.status_counts) <= {"success", "ok", "OK"}


def test_doc_id_reads_hits_of_another_shape():
    # LangChain-like documents: the id is in metadata
    ranked = {"what carries oxygen": ["d1"], "blood clotting cells": ["d3", "d1", "d2"]}

    def search(query):
        return SimpleNamespace(status="success", documents=[
            SimpleNamespace(page_content="...", metadata={"source": d}) for d in ranked[query]])
    with pytest.raises(InputError, match="hit 1 is namespace"):
        evaluate_retrieval(search, QUERIES, QRELS, METRICS)
    with pytest.raises(InputError, match=r"query 'q1': doc_id could not read hit 1 .*KeyError"):
        evaluate_retrieval(search, QUERIES, QRELS, METRICS, doc_id=lambda hit: hit.metadata["id"])
    report = evaluate_retrieval(search, QUERIES, QRELS, METRICS,
                                doc_id=lambda hit: hit.metadata["source"])
    assert report.metrics == {"recall@1": 0.5, "mrr": pytest.approx(2 / 3), "ndcg@3": 0.75}


def test_mapping_scores_tie_broken_by_id_descending():
    # d2 and d3 tie at 0.7: trec_eval's order puts d3 first, so d2 (relevant) is second: RR 1/2
    report = evaluate_retrieval(lambda q: {"d1": 0.2, "d2": 0.7, "d3": 0.7}, {"q": "x"},
                                {"q": ["d2"]}, ["mrr"])
    assert report.metrics == {"mrr": 0.5}


def test_int_ids_and_query_lists_aligned_by_position():
    answers = {"a": [3, 1], "b": [np.int64(2)]}
    report = evaluate_retrieval(answers.get, ["a", "b"], [[1], {2: 1, 3: 0}], ["mrr", "recall@1"])
    # query 0: 1 at rank 2 -> RR 1/2, recall@1 0; query 1: 2 at rank 1 -> 1, 1
    assert report.query_ids == [0, 1]
    assert report.per_query == {0: {"mrr": 0.5, "recall@1": 0.0}, 1: {"mrr": 1.0, "recall@1": 1.0}}


def test_k_keeps_the_first_k_ids():
    # k=1 cuts q2's ranking [d3, d1, d2] to [d3]: its RR falls from 1/3 to 0
    report = evaluate_retrieval(BM25(DOCS), QUERIES, QRELS, ["mrr"], k=1)
    assert report.per_query["q2"]["mrr"] == 0.0 and report.metrics["mrr"] == 0.5


# ---- statuses and failures -------------------------------------------------------------

def partial_on_q2(query):
    if query == QUERIES["q2"]:
        return {"status": "lexical_only", "hits": ["d2"]}
    return {"status": "success", "hits": ["d1"]}


def test_degraded_status_raises_by_default_naming_query_and_status():
    with pytest.raises(DegradedSearchError, match=r"query 'q2'.*'lexical_only'") as caught:
        evaluate_retrieval(partial_on_q2, QUERIES, QRELS, METRICS)
    assert caught.value.query_id == "q2" and caught.value.status == "lexical_only"
    assert caught.value.query == QUERIES["q2"]


def test_degraded_status_with_warn_is_scored_and_kept():
    with pytest.warns(DegradedSearchWarning, match=r"1 query scored on a partial ranking: 'q2' "
                                                    r"\(lexical_only\)"):
        report = evaluate_retrieval(partial_on_q2, QUERIES, QRELS, METRICS, on_degraded="warn")
    # both rankings put the relevant document first: every metric 1
    assert report.metrics == {"recall@1": 1.0, "mrr": 1.0, "ndcg@3": 1.0}
    assert report.status_counts == {"success": 1, "lexical_only": 1}
    assert report.statuses == {"q1": "success", "q2": "lexical_only"}


def test_enum_status_not_success_is_degraded():
    with pytest.raises(DegradedSearchError, match="'partial'"):
        evaluate_retrieval(lambda q: SimpleNamespace(status=Status.PARTIAL, hits=[]), QUERIES,
                           QRELS, METRICS)


def flaky(query):
    if query == QUERIES["q2"]:
        raise ConnectionError("index unreachable")
    return ["d1"]


def test_a_retriever_that_raises_is_an_error_naming_the_query():
    with pytest.raises(RetrieverError, match=r"query 'q2': the retriever raised ConnectionError: "
                                             r"index unreachable") as caught:
        evaluate_retrieval(flaky, QUERIES, QRELS, METRICS)
    assert isinstance(caught.value.__cause__, ConnectionError)
    assert caught.value.query_id == "q2"


def test_on_error_record_keeps_a_failed_status_scored_zero():
    report = evaluate_retrieval(flaky, QUERIES, QRELS, METRICS, on_error="record")
    assert report.status_counts == {"success": 1, "error": 1}
    assert report.errors == {"q2": "ConnectionError: index unreachable"}
    # q1 scores 1 everywhere, q2 (no ranking) 0: means 0.5
    assert report.metrics == {"recall@1": 0.5, "mrr": 0.5, "ndcg@3": 0.5}


@pytest.mark.parametrize("answer, message", [
    (None, "query 'q1': the retriever returned None, not a ranking"),
    ("d1", "query 'q1': the retriever returned 'd1', not a ranking"),
    ([1.5], r"query 'q1': hit 1 is 1.5: no document id found in it"),
    ({"d1", "d2"}, r"query 'q1': the retriever returned a set, which has no order"),
    (42, r"query 'q1': the retriever returned 42, not a ranking"),
    ({"d1": "high"}, r"query 'q1': document 'd1' has the score 'high', not a finite number"),
    ({"d1": float("nan")}, r"query 'q1': document 'd1' has the score nan"),
    ({"status": "success"}, "query 'q1': the response has a status but no hits"),
    ({"status": 3, "hits": []}, r"query 'q1': the response's status is 3, not a status name"),
    ({"status": 3, "d1": "x"}, None),  # numbers under "status": a {doc: score} mapping...
    (SimpleNamespace(status=None, hits=[]), r"query 'q1': the response's status is None"),
])
def test_unreadable_answers_name_the_query(answer, message):
    if message is None:
        # ... whose "d1" score is not a number
        with pytest.raises(InputError, match="document 'd1' has the score 'x'"):
            evaluate_retrieval(lambda q: answer, QUERIES, QRELS, METRICS)
        return
    with pytest.raises(InputError, match=message) as caught:
        evaluate_retrieval(lambda q: answer, QUERIES, QRELS, METRICS)
    assert caught.value.source == "retriever"
    assert str(caught.value).startswith("retriever: ")


@pytest.mark.parametrize("call, field", [
    (dict(on_degraded="ignore"), "on_degraded"),
    (dict(on_error="skip"), "on_error"),
    (dict(k=0), "k"),
    (dict(max_workers=0), "max_workers"),
    (dict(metrics=[]), "metrics"),
    (dict(metrics=["recall@1", "ndcg@0"]), "metrics"),
    (dict(metrics=["nonsense"]), "metrics"),
    (dict(retriever=42), "retriever"),
    (dict(progress="yes"), "progress"),
    (dict(zero_division="skip"), "zero_division"),
    (dict(relevance_threshold=0), "relevance_threshold"),
    (dict(duplicates="last"), "duplicates"),
    (dict(doc_id="metadata.source"), "doc_id"),
])
def test_bad_options_are_option_errors(call, field):
    calls = []

    def search(query):
        calls.append(query)
        return ["d1"]
    args = dict(retriever=search, queries=QUERIES, qrels=QRELS, metrics=METRICS) | call
    with pytest.raises(OptionError) as caught:
        evaluate_retrieval(**args)
    assert caught.value.field == field
    assert calls == []  # refused before the first query ran


@pytest.mark.parametrize("queries, qrels, message", [
    ("what carries oxygen", QRELS, "queries must be a"),
    (QUERIES, {"q1": ["d1"]}, r"no judgements for query 'q2'"),
    (QUERIES, [["d1"], ["d2"]], "must be one too"),
    (list(QUERIES.values()), QRELS, "aligned with them by position"),
    (list(QUERIES.values()), [["d1"]], "1 judgement entries for 2 queries"),
    ({}, {}, "there are no queries to run"),
    ([], [], "there are no queries to run"),
])
def test_queries_and_judgements_that_do_not_fit(queries, qrels, message):
    with pytest.raises(InputError, match=message):
        evaluate_retrieval(BM25(DOCS), queries, qrels, METRICS)


# ---- threads, latency, progress ------------------------------------------------------------

class SleepyRetriever:
    """Sleeps 0-20 ms at random, then answers from a fixed table; counts concurrent calls."""

    def __init__(self, answers, seed=0):
        self.answers = answers
        self.random = random.Random(seed)
        self.lock = threading.Lock()
        self.running = self.most = 0

    def search(self, query):
        with self.lock:
            delay = self.random.random() * 0.02
            self.running += 1
            self.most = max(self.most, self.running)
        time.sleep(delay)
        with self.lock:
            self.running -= 1
        return self.answers[query]


@pytest.mark.slow
def test_threads_give_identical_results_in_query_order():
    rng = random.Random(7)
    docs = [f"d{i}" for i in range(12)]
    queries = {f"q{i:02d}": f"query {i}" for i in range(40)}
    answers = {text: rng.sample(docs, 6) for text in queries.values()}
    qrels = {qid: {d: rng.randint(0, 2) for d in rng.sample(docs, 4)} for qid in queries}
    metrics = ["recall@3", "mrr", "ndcg@5", "precision@2"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # queries whose sampled grades are all 0
        serial = evaluate_retrieval(SleepyRetriever(answers), queries, qrels, metrics)
        sleepy = SleepyRetriever(answers, seed=1)
        threaded = evaluate_retrieval(sleepy, queries, qrels, metrics, max_workers=8)
    assert sleepy.most > 1  # the calls did overlap
    assert threaded.query_ids == list(queries)
    assert list(threaded.per_query) == list(queries)
    assert threaded.per_query == serial.per_query
    assert threaded.metrics == serial.metrics
    assert threaded.statuses == serial.statuses
    # and the threaded wall time is below the sum of the calls' times
    assert threaded.latency.wall < threaded.latency.total


def test_no_threads_in_pyodide(monkeypatch):
    monkeypatch.setattr(retrieval_metrics.retriever.evaluate.sys, "platform", "emscripten")
    with pytest.raises(OptionError, match="Pyodide"):
        evaluate_retrieval(BM25(DOCS), QUERIES, QRELS, METRICS, max_workers=2)
    assert evaluate_retrieval(BM25(DOCS), QUERIES, QRELS, METRICS).metrics["ndcg@3"] == 0.75


def test_threads_raise_the_failing_query():
    def search(query):
        time.sleep(0.001)
        if query == "q 5":
            raise TimeoutError("slow")
        return ["d1"]
    queries = {f"q{i}": f"q {i}" for i in range(10)}
    with pytest.raises(RetrieverError, match="query 'q5': the retriever raised TimeoutError: slow"):
        evaluate_retrieval(search, queries, {q: ["d1"] for q in queries}, ["mrr"], max_workers=3)


class FakeClock:
    """Stands in for time.perf_counter: the retriever moves it on by a set number of seconds."""

    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_latency_is_perf_counter_around_each_call(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(retrieval_metrics.retriever.evaluate.time, "perf_counter", clock)
    seconds = {"a": 0.25, "b": 1.0, "c": 0.5, "d": 0.75}

    def search(query):
        clock.now += seconds[query]
        return ["x"]
    report = evaluate_retrieval(search, {q: q for q in seconds}, {q: ["x"] for q in seconds},
                                ["mrr"], progress=False)
    assert report.latencies == seconds
    # sorted 0.25 0.5 0.75 1.0: mean 2.5/4; p50 at h = 1.5 -> 0.625; p95 at h = 2.85 ->
    # 0.75 + 0.85 * 0.25 = 0.9625; max 1.0; total 2.5; nothing else ran, so wall = total
    assert report.latency == Latency(0.625, 0.625, pytest.approx(0.9625), 1.0, 2.5, 2.5)


def test_a_generator_is_timed_while_it_is_read(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(retrieval_metrics.retriever.evaluate.time, "perf_counter", clock)

    def search(query):  # the work happens as the hits are read
        clock.now += 0.5
        yield "x"
        clock.now += 0.25
        yield "y"
    report = evaluate_retrieval(search, {"a": "a"}, {"a": ["y"]}, ["mrr"])
    assert report.latencies == {"a": 0.75} and report.metrics == {"mrr": 0.5}


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 10, 19, 20, 21, 100, 101])
def test_percentile_is_numpys_linear_method(n):
    rng = np.random.default_rng(n)
    values = list(rng.exponential(0.1, size=n))
    for q in (0, 5, 50, 90, 95, 99, 100):
        expected = float(np.percentile(values, q, method="linear"))
        assert percentile(values, q) == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_latency_of_nothing_is_none():
    assert Latency.of([]) == Latency(None, None, None, None, None, None)


def test_progress_callback_hears_every_query():
    seen = []
    queries = {f"q{i}": f"q {i}" for i in range(5)}
    evaluate_retrieval(lambda q: ["d1"], queries, {q: ["d1"] for q in queries}, ["mrr"],
                       progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 5), (2, 5), (3, 5), (4, 5), (5, 5)]


def test_progress_callback_with_threads_ends_at_the_total():
    seen = []
    queries = {f"q{i}": f"q {i}" for i in range(20)}
    evaluate_retrieval(lambda q: ["d1"], queries, {q: ["d1"] for q in queries}, ["mrr"],
                       max_workers=4, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (20, 20)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


class Terminal(io.StringIO):
    def __init__(self, tty: bool):
        super().__init__()
        self.tty = tty

    def isatty(self):
        return self.tty


@pytest.mark.parametrize("tty", [True, False])
def test_text_bar_only_on_a_terminal(monkeypatch, tty):
    stream = Terminal(tty)
    monkeypatch.setattr("sys.stderr", stream)
    evaluate_retrieval(BM25(DOCS), QUERIES, QRELS, METRICS)
    if tty:
        # the last step is always drawn, then a new line
        assert stream.getvalue().endswith("\rqueries 2/2 [" + "#" * 30 + "]\n")
    else:
        assert stream.getvalue() == ""


# ---- files ---------------------------------------------------------------------------------

def evaluation_with_everything():
    """Int query ids, a recorded failure, a degraded status and an undefined (NaN) value."""
    answers = {"a": ["d1", "d2"], "b": {"status": "partial", "hits": ["d9"]}, "c": ["d2"]}

    def search(query):
        if query == "d":
            raise ValueError("bad query")
        return answers[query]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return evaluate_retrieval(search, ["a", "b", "c", "d"],
                                  [["d2"], ["d1"], [], ["d1"]], ["recall@1", "mrr"],
                                  on_degraded="warn", on_error="record",
                                  zero_division=float("nan"))


@pytest.mark.slow
@pytest.mark.parametrize("suffix", ["json", "jsonl", "csv", "yaml", "yml", "toml"])
def test_files_read_back_equal(tmp_path, suffix):
    report = evaluation_with_everything()
    # query 2 has no relevant document: recall undefined (NaN, out of the mean); its RR is 0
    assert math.isnan(report.per_query[2]["recall@1"])
    assert report.metrics["recall@1"] == 0.0  # queries 0, 1, 3: 0, 0, 0
    assert report.metrics["mrr"] == pytest.approx((0.5 + 0 + 0 + 0) / 4)
    assert report.status_counts == {"success": 2, "partial": 1, "error": 1}
    path = tmp_path / f"evaluation.{suffix}"
    report.write(path)
    again = RetrievalEvaluation.read(path)
    if suffix == "jsonl":
        assert again == report and again.query_ids == [0, 1, 2, 3]
        assert again.to_dict() != report.to_dict()  # rows hold no settings and no wall time
    if suffix in ("jsonl", "csv"):
        # JSON keeps the int query ids; CSV has no types, so they come back as str
        qids = [0, 1, 2, 3] if suffix == "jsonl" else ["0", "1", "2", "3"]
        assert again.query_ids == qids
        retyped = dict(zip(report.query_ids, qids))
        assert again.statuses == {retyped[q]: v for q, v in report.statuses.items()}
        assert again.latencies == {retyped[q]: v for q, v in report.latencies.items()}
        assert again.errors == {retyped[q]: v for q, v in report.errors.items()}
        assert again.to_dict()["metrics"] == report.to_dict()["metrics"]
        assert again.to_dict()["per_query"] == report.to_dict()["per_query"]
    else:
        assert again == report and again.to_dict() == report.to_dict()
        assert again.query_ids == [0, 1, 2, 3]


def test_comparing_evaluations_scored_differently_says_so():
    # grades 2 and 1: with relevance_threshold 2 only d1 counts for q1. The numbers are not
    # comparable, and the comparison's notice names the setting.
    qrels = {"q1": {"d1": 2}, "q2": {"d2": 1, "d1": 2}}
    one = evaluate_retrieval(BM25(DOCS), QUERIES, qrels, METRICS)
    two = evaluate_retrieval(BM25(DOCS), QUERIES, qrels, METRICS, relevance_threshold=2)
    notices = {n.code: n.message for n in two.compare(one).notices}
    assert "relevance_threshold (1 in the baseline, 2 in the candidate run)" in \
        notices["settings_differ"]


def test_a_saved_evaluation_is_a_baseline(tmp_path):
    # the JSON file, loaded as a dict, is what compare() takes for last week's numbers
    import json
    keyword = evaluate_retrieval(BM25(DOCS), QUERIES, QRELS, metrics=METRICS)
    keyword.write(tmp_path / "keyword.json")
    saved = json.loads((tmp_path / "keyword.json").read_text())
    strict = evaluate_retrieval(Strict(), QUERIES, QRELS, metrics=METRICS)
    assert [(r.metric, r.delta) for r in strict.compare(saved).metrics] == [
        ("recall@1", -0.5), ("mrr", pytest.approx(-2 / 3)), ("ndcg@3", -0.75)]


def test_reading_an_engine_report_as_an_evaluation_is_refused(tmp_path):
    from retrieval_metrics import evaluate
    evaluate({"q1": ["d1"]}, {"q1": ["d1"]}, k=1).write(tmp_path / "report.json")
    with pytest.raises(InputError, match="not a retrieval evaluation"):
        RetrievalEvaluation.read(tmp_path / "report.json")


def test_equality_is_on_the_measurements():
    one = evaluate_retrieval(BM25(DOCS), QUERIES, QRELS, METRICS)
    same = RetrievalEvaluation.from_dict(one.to_dict() | {"settings": {}})
    assert same == one
    other = one.to_dict()
    other["latencies"] = {**other["latencies"], "q1": other["latencies"]["q1"] + 1}
    assert RetrievalEvaluation.from_dict(other) != one


def test_numeric_looking_query_ids_stay_str_in_csv(tmp_path):
    report = evaluate_retrieval(lambda q: ["d1"], {"301": "a", "302": "b"},
                                {"301": ["d1"], "302": ["d2"]}, ["mrr"])
    report.write(tmp_path / "trec.csv")
    assert RetrievalEvaluation.read(tmp_path / "trec.csv") == report


def test_json_is_strict_with_null_for_undefined(tmp_path):
    report = evaluation_with_everything()
    path = tmp_path / "e.json"
    report.write(path)
    text = path.read_text()
    assert "NaN" not in text and '"recall@1": null' in text


@pytest.mark.parametrize("name", ["e.xlsx", "e"])
def test_unknown_suffix(tmp_path, name):
    with pytest.raises(OptionError) as caught:
        evaluation_with_everything().write(tmp_path / name)
    assert caught.value.field == "format"


@pytest.mark.slow
def test_trec_and_table_are_written_not_read(tmp_path):
    report = evaluate_retrieval(BM25(DOCS), QUERIES, QRELS, metrics=METRICS)
    report.write(tmp_path / "e.trec")
    report.write(tmp_path / "e.txt")
    # ndcg_cut_3: q1 1, q2 0.5, all 0.75 (as trec_eval -q prints them)
    assert [line.split() for line in (tmp_path / "e.trec").read_text().splitlines()
            if line.startswith("ndcg_cut_3")] == [["ndcg_cut_3", "q1", "1.0000"],
                                                  ["ndcg_cut_3", "q2", "0.5000"],
                                                  ["ndcg_cut_3", "all", "0.7500"]]
    assert "0.7500" in (tmp_path / "e.txt").read_text()
    with pytest.raises(OptionError, match="cannot be read"):
        RetrievalEvaluation.read(tmp_path / "e.trec")


def test_missing_yaml_names_the_extra(tmp_path, monkeypatch):
    import builtins
    real_import = builtins.__import__

    def no_yaml(name, *args, **kwargs):
        if name == "yaml":
            raise ImportError("no yaml here")
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", no_yaml)
    with pytest.raises(ImportError, match=r'pip install "retrieval-metrics\[yaml\]"'):
        evaluation_with_everything().write(tmp_path / "e.yaml")


def test_as_an_engine_report_for_its_renderers(tmp_path):
    report = evaluate_retrieval(BM25(DOCS), QUERIES, QRELS, metrics=METRICS).to_report()
    assert report.keys == ["recall@1", "rr", "ndcg@3"]
    assert report.mean == {"recall@1": 0.5, "rr": pytest.approx(2 / 3), "ndcg@3": 0.75}
    report.write(tmp_path / "bm25.trec")
    lines = (tmp_path / "bm25.trec").read_text().splitlines()
    # trec_eval -q's lines: q2's RR is 1/3, the mean 2/3
    assert [line.split() for line in lines if line.startswith("recip_rank")] == [
        ["recip_rank", "q1", "1.0000"], ["recip_rank", "q2", "0.3333"],
        ["recip_rank", "all", "0.6667"]]


def test_repeated_ids_are_refused_or_kept_first():
    # chunks of one document: q2 answers d3, d3, d2. Refused by default, naming the query;
    # duplicates="first" keeps d3 at rank 1, so d2 is second: RR 1/2
    def chunks(query):
        return ["d1"] if "oxygen" in query else ["d3", "d3", "d2"]
    with pytest.raises(InputError, match=r"query 'q2': document 'd3' is ranked twice"):
        evaluate_retrieval(chunks, QUERIES, QRELS, ["mrr"])
    report = evaluate_retrieval(chunks, QUERIES, QRELS, ["mrr"], duplicates="first")
    assert report.per_query["q2"] == {"mrr": 0.5}


def test_threads_cancel_the_queries_not_started_after_a_failure():
    started = []

    def search(query):
        started.append(query)
        if query == 0:
            raise RuntimeError("down")
        time.sleep(0.01)
        return ["d1"]
    with pytest.raises(RetrieverError, match="query 0"):
        evaluate_retrieval(search, list(range(200)), [["d1"]] * 200, ["mrr"], max_workers=2)
    assert len(started) < 200


# ---- generated cases: every answer shape, and pytrec_eval's values -----------------------------

ID_LISTS = st.one_of(
    st.lists(st.text(min_size=1, max_size=4), unique=True, max_size=8),
    st.lists(st.integers(-5, 50), unique=True, max_size=8))


@pytest.mark.slow
@given(ID_LISTS)
def test_every_shape_reads_back_the_same_ids(ids):
    from retrieval_metrics.retriever.responses import read_response
    for name, shape in SHAPES.items():
        if name == "mapping" or (name == "numpy ids" and not ids):
            continue  # scores decide a mapping's order; an empty array has no id type
        got = read_response(shape(ids)).ids
        assert [x.item() if hasattr(x, "item") else x for x in got] == ids, name


@pytest.mark.slow
@given(st.data())
def test_per_query_values_match_pytrec_eval(data):
    # a retriever looking rankings up in a table; pytrec_eval (trec_eval 9.0.8) scores the same
    # rankings given as scores -rank, so its float32 sort cannot reorder them
    import pytrec_eval
    docs = [f"d{i}" for i in range(10)]
    n = data.draw(st.integers(1, 6))
    qrels, runs = {}, {}
    for q in range(n):
        judged = data.draw(st.lists(st.sampled_from(docs), unique=True, min_size=1, max_size=6))
        qrels[f"q{q}"] = {d: data.draw(st.integers(1, 3)) for d in judged}
        runs[f"q{q}"] = data.draw(st.lists(st.sampled_from(docs), unique=True, max_size=10))
    k = data.draw(st.sampled_from([None, 3]))
    report = evaluate_retrieval(lambda text: runs[text], {q: q for q in runs}, qrels,
                                ["recall@5", "precision@5", "ndcg@5", "mrr"], k=k,
                                max_workers=data.draw(st.sampled_from([1, 3])), progress=False)
    cut = {q: ranked[:k] if k else ranked for q, ranked in runs.items()}
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {"recall.5", "P.5", "ndcg_cut.5",
                                                    "recip_rank"}).evaluate(
        {q: {d: -float(rank) for rank, d in enumerate(ranked, 1)} for q, ranked in cut.items()
         if ranked})
    for q in runs:
        t = theirs.get(q, {"recall_5": 0, "P_5": 0, "ndcg_cut_5": 0, "recip_rank": 0})
        ours = report.per_query[q]
        assert ours["recall@5"] == pytest.approx(t["recall_5"], abs=1e-12)
        assert ours["precision@5"] == pytest.approx(t["P_5"], abs=1e-12)
        assert ours["ndcg@5"] == pytest.approx(t["ndcg_cut_5"], abs=1e-12)
        assert ours["mrr"] == pytest.approx(t["recip_rank"], abs=1e-12)


def test_zero_division_as_ranking_metrics():
    # q2 has no relevant document: its recall@1 is undefined. "warn" scores it 0 and warns
    # (mean (1 + 0) / 2); 1.0 scores it 1 (mean 1); nan leaves it out (mean of q1 alone: 1)
    from retrieval_metrics import UndefinedMetricWarning
    qrels = {"q1": ["d1"], "q2": []}
    with pytest.warns(UndefinedMetricWarning):
        warned = evaluate_retrieval(BM25(DOCS), QUERIES, qrels, ["recall@1"])
    assert warned.metrics == {"recall@1": 0.5}
    assert evaluate_retrieval(BM25(DOCS), QUERIES, qrels, ["recall@1"],
                              zero_division=1.0).metrics == {"recall@1": 1.0}
    left_out = evaluate_retrieval(BM25(DOCS), QUERIES, qrels, ["recall@1"],
                                  zero_division=float("nan"))
    assert left_out.metrics == {"recall@1": 1.0} and math.isnan(left_out.per_query["q2"]["recall@1"])


def test_gm_map_is_a_geometric_mean():
    # AP: q1 1 (d1 first), q2 1/3 (d2 third); gm_map = exp((ln 1 + ln 1/3) / 2) = sqrt(1/3),
    # map the arithmetic (1 + 1/3) / 2
    from retrieval_metrics import ranking_metrics
    report = evaluate_retrieval(BM25(DOCS), QUERIES, QRELS, ["gm_map", "map"])
    assert report.metrics["gm_map"] == pytest.approx(math.sqrt(1 / 3), rel=1e-15)
    assert report.metrics["map"] == pytest.approx(2 / 3, rel=1e-15)
    runs = {"q1": ["d1"], "q2": ["d3", "d1", "d2"]}
    assert report.metrics == ranking_metrics(QRELS, runs, ["gm_map", "map"])
