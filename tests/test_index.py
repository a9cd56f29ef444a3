"""The package's own index end to end on the API's reference case: documents in, BM25 /
strict / hybrid search, evaluate_retrieval, report files, compare, the scorers and
GridSearchCV. Every number is worked out by hand in the test (BM25 with math.log, RRF with
fractions of 1 / (60 + rank)), or by the independent BM25 of tests/retrievers.py."""

from __future__ import annotations

import math
import re
import threading
import warnings

import numpy as np
import pytest
import retrieval_metrics
from hypothesis import given
from hypothesis import strategies as st
from retrieval_metrics import (
    CorpusDocument,
    CustomRetrievalIndex,
    DegradedSearchError,
    DegradedSearchWarning,
    InputError,
    OptionError,
    RetrievalConfig,
    RetrievalEvaluation,
    RetrievalIndex,
    SearchResponse,
    evaluate_retrieval,
    get_corpus_scorer,
    make_corpus_scorer,
    recall_at_k,
)
from retrieval_metrics.retriever.responses import read_response
from retrievers import BM25, DOCS, METRICS, QRELS, QUERIES

DOCUMENTS = [CorpusDocument(doc_id, "reference.txt", i, text)
             for i, (doc_id, text) in enumerate(DOCS.items())]


def keyword_index(**settings) -> RetrievalIndex:
    return RetrievalIndex(RetrievalConfig(**settings)).build(DOCUMENTS)


# ---- BM25 -------------------------------------------------------------------------------

def test_bm25_ranks_and_scores_as_worked_by_hand():
    # d1 7 tokens, d2 4, d3 5: avgdl 16/3; N = 3. Lucene's idf ln(1 + (N - n + .5) / (n + .5)).
    k1, b, avgdl = 1.2, 0.75, 16 / 3

    def term(n, tf, length):
        idf = math.log(1 + (3 - n + 0.5) / (n + 0.5))
        return idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / avgdl))

    index = keyword_index()
    # q1 "what carries oxygen": "carries" and "oxygen" are in d1 only; "what" nowhere
    q1 = index.search(QUERIES["q1"])
    assert [(h.doc.doc_id, h.rank) for h in q1.hits] == [("d1", 1)]
    assert q1.hits[0].score == pytest.approx(2 * term(1, 1, 7), rel=1e-12)
    # q2 "blood clotting cells": "blood" in all three, "cells" in d1 and d3, "clotting" nowhere
    q2 = index.search(QUERIES["q2"])
    expected = {"d3": term(3, 1, 5) + term(2, 1, 5), "d1": term(3, 1, 7) + term(2, 1, 7),
                "d2": term(3, 1, 4)}
    assert [h.doc.doc_id for h in q2.hits] == ["d3", "d1", "d2"]
    assert [h.rank for h in q2.hits] == [1, 2, 3]
    assert [h.score for h in q2.hits] == pytest.approx([expected[d] for d in ("d3", "d1", "d2")],
                                                       rel=1e-12)
    assert q1.status == q2.status == "success" and q2.ok


@pytest.mark.slow
@given(st.lists(st.lists(st.sampled_from("abcdef"), max_size=8), min_size=1, max_size=6),
       st.lists(st.sampled_from("abcdefg"), min_size=1, max_size=4),
       st.sampled_from([(1.2, 0.75), (0.0, 0.0), (2.0, 1.0)]))
def test_bm25_agrees_with_the_tests_own_bm25(texts, query, params):
    k1, b = params
    texts = [" ".join(words) for words in texts]
    if not any(texts):
        return  # nothing to average over: tests/retrievers.py's BM25 divides by it
    docs = [CorpusDocument(f"d{i}", "", 0, text) for i, text in enumerate(texts)]
    ours = RetrievalIndex(RetrievalConfig(top_k=None, bm25_k1=k1, bm25_b=b)).build(docs)
    theirs = BM25({d.doc_id: d.text for d in docs}, k1=k1, b=b)
    got = ours.search(" ".join(query))
    want = theirs.search(" ".join(query))
    assert got.doc_ids == [d for d, _ in want]
    assert [h.score for h in got.hits] == pytest.approx([s for _, s in want], rel=1e-12)


def test_tokens_are_lower_cased_words_without_stemming():
    docs = [CorpusDocument("a", "", 0, "Blood-Clot, BLOOD!"), CorpusDocument("b", "", 0, "clots")]
    index = RetrievalIndex().build(docs)
    assert index.search("clot").doc_ids == ["a"]      # "clots" is another word
    assert index.search("BLOOD clot").doc_ids == ["a"]
    assert index.search("?!").doc_ids == []           # no word at all: nothing matches


def test_top_k_keeps_the_first_hits():
    assert keyword_index(top_k=2).search(QUERIES["q2"]).doc_ids == ["d3", "d1"]
    assert keyword_index(top_k=None).search(QUERIES["q2"]).doc_ids == ["d3", "d1", "d2"]
    assert RetrievalConfig(top_k=np.int64(2)).top_k == 2 and type(RetrievalConfig(
        top_k=np.int64(2)).top_k) is int


def test_equal_scores_keep_the_documents_order():
    docs = [CorpusDocument(d, "", 0, "same words") for d in ("z", "a", "m")]
    assert RetrievalIndex().build(docs).search("words").doc_ids == ["z", "a", "m"]


# ---- the reference chain ------------------------------------------------------------------

def test_evaluate_retrieval_on_the_index():
    # q1: d1 first: recall@1 1, RR 1, nDCG@3 1. q2: d2 third: recall@1 0, RR 1/3,
    # nDCG@3 = (1 / log2 4) / (1 / log2 2) = 0.5. Means 0.5, 2/3, 0.75.
    report = evaluate_retrieval(keyword_index(), QUERIES, QRELS, metrics=METRICS)
    assert report.metrics["recall@1"] == 0.5
    assert report.metrics["mrr"] == pytest.approx(2 / 3, abs=1e-15)
    assert report.metrics["ndcg@3"] == 0.75
    assert list(report.metrics) == METRICS
    assert report.status_counts == {"success": 2}
    assert report.per_query["q2"] == {"recall@1": 0.0, "mrr": pytest.approx(1 / 3),
                                      "ndcg@3": 0.5}
    latency = report.latency
    assert 0 < latency.p50 <= latency.p95 <= latency.max <= latency.total <= latency.wall
    assert latency.mean == pytest.approx(latency.total / 2)


@pytest.mark.parametrize("suffix", [".json", ".jsonl", ".yaml", ".toml", ".csv"])
def test_report_files_read_back_equal(tmp_path, suffix):
    report = evaluate_retrieval(keyword_index(), QUERIES, QRELS, metrics=METRICS)
    path = tmp_path / f"report{suffix}"
    report.write(path)
    again = RetrievalEvaluation.read(path)
    assert again == report
    assert again.metrics == pytest.approx({"recall@1": 0.5, "mrr": 2 / 3, "ndcg@3": 0.75})
    assert again.status_counts == {"success": 2}


def test_strict_finds_nothing_and_the_comparison():
    # every query term: "what" and "clotting" are in no document
    strict_index = keyword_index(match_mode="strict")
    assert [strict_index.search(q).doc_ids for q in QUERIES.values()] == [[], []]
    keyword = evaluate_retrieval(keyword_index(), QUERIES, QRELS, metrics=METRICS)
    strict = evaluate_retrieval(strict_index, QUERIES, QRELS, metrics=METRICS)
    assert strict.metrics == {"recall@1": 0.0, "mrr": 0.0, "ndcg@3": 0.0}
    # deltas per query: recall@1 [-1, 0] -> every sign pattern reaches |sum| 1, p = 1;
    # mrr [-1, -1/3], ndcg@3 [-1, -1/2]: only the observed pattern and its mirror, p = 2/4
    got = [(r.metric, r.delta, r.p_value) for r in strict.compare(keyword).metrics]
    assert got == [("recall@1", -0.5, 1.0), ("mrr", pytest.approx(-2 / 3), 0.5),
                   ("ndcg@3", -0.75, 0.5)]


def test_strict_ranks_the_documents_holding_every_term_by_bm25():
    # "blood cells": d1 (7 tokens) and d3 (5 tokens) hold both; the shorter scores higher
    assert keyword_index(match_mode="strict").search("Cells blood").doc_ids == ["d3", "d1"]
    assert keyword_index(match_mode="strict").search("blood").doc_ids == \
        keyword_index().search("blood").doc_ids


def test_corpus_scorer_on_the_index():
    recall = make_corpus_scorer(recall_at_k, response_method="search", k=1)
    assert recall(keyword_index(), list(QUERIES.values()), list(QRELS.values())) == 0.5
    # recall@3 finds q2's d2 third
    recall3 = make_corpus_scorer(recall_at_k, response_method="search", k=3)
    assert recall3(keyword_index(), list(QUERIES.values()), list(QRELS.values())) == 1.0


def test_grid_search_over_top_k():
    from sklearn.model_selection import GridSearchCV, KFold
    # KFold(2): each fold tests one query. top_k 1 or 2 give recall@2 1 on q1 and 0 on q2
    # (d2 is third), RR 1 and 0: a tie, which GridSearchCV breaks for the first candidate.
    search = GridSearchCV(RetrievalIndex(RetrievalConfig(), DOCUMENTS), {"top_k": [1, 2]},
                          scoring={"recall@2": get_corpus_scorer("recall@2"),
                                   "mrr": get_corpus_scorer("mrr")},
                          refit="recall@2", cv=KFold(2))
    search.fit(list(QUERIES.values()), list(QRELS.values()))
    assert search.best_params_ == {"top_k": 1}
    assert list(search.cv_results_["mean_test_recall@2"]) == [0.5, 0.5]
    assert list(search.cv_results_["mean_test_mrr"]) == [0.5, 0.5]
    assert search.best_estimator_.config.top_k == 1
    assert search.predict(list(QUERIES.values())) == [["d1"], ["d3"]]


def test_grid_search_over_a_retriever_that_reads_the_search_as_a_list_of_hits():
    # the seed's example: a retriever whose predict iterates the index's answer as hits. The
    # numbers are test_grid_search_over_top_k's (recall@2 1 and 0, RR 1 and 0 per fold).
    from sklearn.base import BaseEstimator
    from sklearn.model_selection import GridSearchCV, KFold

    class Retriever(BaseEstimator):
        def __init__(self, top_k=10):
            self.top_k = top_k

        def fit(self, X, y=None):
            self.index_ = RetrievalIndex(RetrievalConfig(top_k=self.top_k)).build(DOCUMENTS)
            return self

        def predict(self, X):
            return [[hit.doc.doc_id for hit in self.index_.search(query)] for query in X]

    search = GridSearchCV(Retriever(), {"top_k": [1, 2]},
                          scoring={"recall@2": get_corpus_scorer("recall@2"),
                                   "mrr": get_corpus_scorer("mrr")},
                          refit="recall@2", cv=KFold(2), error_score="raise")
    search.fit(list(QUERIES.values()), list(QRELS.values()))
    assert list(search.cv_results_["mean_test_recall@2"]) == [0.5, 0.5]
    assert list(search.cv_results_["mean_test_mrr"]) == [0.5, 0.5]
    assert search.best_params_ == {"top_k": 1}


def test_a_search_answer_is_the_sequence_of_its_hits():
    response = keyword_index().search("blood cells")
    assert list(response) == list(response.hits) and len(response) == len(response.hits)
    assert response[0] is response.hits[0] and response[-1] is response.hits[-1]
    assert response[:1].hits == response.hits[:1] and response[:1].status == response.status
    assert [hit.doc_id for hit in response] == response.doc_ids
    assert not keyword_index(match_mode="strict").search("zebra")


def test_grid_search_picks_the_cutoff_that_wins():
    from sklearn.model_selection import GridSearchCV, KFold
    # top_k 3 keeps q2's d2 (third): recall@3 1 on both folds; top_k 1: 1 and 0
    search = GridSearchCV(RetrievalIndex(documents=DOCUMENTS), {"top_k": [1, 3]},
                          scoring={"recall@3": get_corpus_scorer("recall@3"),
                                   "mrr": get_corpus_scorer("mrr", response_method="search")},
                          refit="recall@3", cv=KFold(2))
    search.fit(list(QUERIES.values()), list(QRELS.values()))
    assert search.best_params_ == {"top_k": 3}
    assert list(search.cv_results_["mean_test_recall@3"]) == [0.5, 1.0]
    assert list(search.cv_results_["mean_test_mrr"]) == pytest.approx([0.5, 2 / 3])


def test_grid_search_over_the_match_mode():
    from sklearn.model_selection import GridSearchCV, KFold
    # strict finds nothing: recall@3 0 on both folds; keyword 1 on both
    search = GridSearchCV(RetrievalIndex(RetrievalConfig(top_k=3), DOCUMENTS),
                          {"match_mode": ["strict", "keyword"]},
                          scoring=get_corpus_scorer("recall@3"), cv=KFold(2))
    search.fit(list(QUERIES.values()), list(QRELS.values()))
    assert search.best_params_ == {"match_mode": "keyword"}
    assert list(search.cv_results_["mean_test_score"]) == [0.0, 1.0]


# ---- hybrid: reciprocal-rank fusion -----------------------------------------------------

VECTORS = {DOCS["d1"]: (1.0, 1.0), DOCS["d2"]: (1.0, 0.0), DOCS["d3"]: (1.0, 0.5),
           QUERIES["q1"]: (0.0, 1.0), QUERIES["q2"]: (1.0, 0.0)}


def test_hybrid_fuses_by_reciprocal_rank_worked_by_hand():
    # q2: keyword ranking d3, d1, d2. Cosine with (1, 0): d2 1, d3 1/sqrt(1.25) = 0.894,
    # d1 1/sqrt(2) = 0.707: embedding ranking d2, d3, d1.
    # RRF (k = 60): d3 1/61 + 1/62 = 0.032522, d2 1/63 + 1/61 = 0.032266,
    # d1 1/62 + 1/63 = 0.032002.
    index = keyword_index(match_mode="hybrid", embedding_function=VECTORS.get)
    response = index.search(QUERIES["q2"])
    assert response.status == "success" and response.message is None
    assert response.doc_ids == ["d3", "d2", "d1"]
    assert [h.score for h in response.hits] == pytest.approx(
        [1 / 61 + 1 / 62, 1 / 63 + 1 / 61, 1 / 62 + 1 / 63], rel=1e-15)
    # q1: keyword d1 only. Cosine with (0, 1): d1 0.707, d3 0.447, d2 0.
    # RRF: d1 1/61 + 1/61, d3 1/62 (embedding only), d2 1/63.
    q1 = index.search(QUERIES["q1"])
    assert q1.doc_ids == ["d1", "d3", "d2"]
    assert [h.score for h in q1.hits] == pytest.approx([2 / 61, 1 / 62, 1 / 63], rel=1e-15)
    # the fused ranking puts d2 second for q2: recall@2 is 1 on both queries
    report = evaluate_retrieval(index, QUERIES, QRELS, metrics=["recall@2", "mrr"])
    assert report.metrics == {"recall@2": 1.0, "mrr": 0.75}


def test_hybrid_rrf_constant_and_ties():
    # rrf_k 0: q2's d3 1/1 + 1/2 = 1.5, d2 1/3 + 1/1, d1 1/2 + 1/3
    index = keyword_index(match_mode="hybrid", embedding_function=VECTORS.get, rrf_k=0)
    assert [h.score for h in index.search(QUERIES["q2"]).hits] == pytest.approx(
        [1.5, 4 / 3, 5 / 6], rel=1e-15)
    # an embedding ranking d2, d1, d3 mirrors the keyword one for d2 and d3: both
    # 1/61 + 1/63; equal scores keep the documents' order (d2 before d3); d1 2/62 is below
    mirror = {**VECTORS, DOCS["d1"]: (1.0, 0.6), DOCS["d3"]: (0.0, 1.0)}
    tied = keyword_index(match_mode="hybrid", embedding_function=mirror.get).search(
        QUERIES["q2"])
    assert tied.doc_ids == ["d2", "d3", "d1"]
    assert tied.hits[0].score == tied.hits[1].score == pytest.approx(1 / 61 + 1 / 63)


def test_hybrid_accepts_numpy_vectors_and_top_k():
    index = keyword_index(match_mode="hybrid", top_k=1,
                          embedding_function=lambda text: np.array(VECTORS[text]))
    assert index.search(QUERIES["q2"]).doc_ids == ["d3"]


@pytest.mark.parametrize("embedding_function", [None, lambda text: None],
                         ids=["no embedding function", "the query's embedding is None"])
def test_hybrid_without_a_query_embedding_is_degraded(embedding_function):
    def embed(text):  # documents are embedded; the query may not be
        return (1.0, 0.0) if text in DOCS.values() else embedding_function(text)
    index = keyword_index(match_mode="hybrid",
                          embedding_function=None if embedding_function is None else embed)
    response = index.search(QUERIES["q2"])
    assert response.status == "degraded" and not response.ok
    assert "keyword only" in response.message
    # the keyword ranking, with its BM25 scores
    assert response.doc_ids == ["d3", "d1", "d2"]
    assert [h.score for h in response.hits] == [h.score for h in
                                               keyword_index().search(QUERIES["q2"]).hits]
    with pytest.raises(DegradedSearchError) as raised:
        evaluate_retrieval(index, QUERIES, QRELS, metrics=METRICS)
    assert raised.value.status == "degraded" and raised.value.query_id == "q1"
    with pytest.warns(DegradedSearchWarning, match="2 queries scored on a partial ranking"):
        report = evaluate_retrieval(index, QUERIES, QRELS, metrics=METRICS, on_degraded="warn")
    assert report.status_counts == {"degraded": 2}
    assert report.metrics == pytest.approx({"recall@1": 0.5, "mrr": 2 / 3, "ndcg@3": 0.75})
    # the scorers and predict refuse the partial rankings too
    with pytest.raises(DegradedSearchError, match="degraded"):
        index.predict(list(QUERIES.values()))
    with pytest.raises(DegradedSearchError, match="degraded"):
        get_corpus_scorer("mrr", response_method="search")(index, list(QUERIES.values()),
                                                           list(QRELS.values()))


def test_a_zero_query_vector_is_degraded():
    embed = {**VECTORS, QUERIES["q2"]: (0.0, 0.0)}.get
    response = keyword_index(match_mode="hybrid", embedding_function=embed).search(QUERIES["q2"])
    assert response.status == "degraded" and "all zeros" in response.message


@pytest.mark.parametrize("vectors, source, message", [
    ({DOCS["d2"]: None}, "documents", "document 'd2' (chunk 1): the embedding function "
     "returned None"),
    ({DOCS["d3"]: (1.0, 0.0, 0.0)}, "documents", "3 numbers, the first document's 2"),
    ({DOCS["d1"]: (0.0, 0.0)}, "documents", "all zeros"),
    ({DOCS["d1"]: (1.0, math.nan)}, "documents", "nan, not a finite number"),
    ({DOCS["d1"]: "1 0"}, "documents", "not a vector"),
    ({DOCS["d1"]: ()}, "documents", "empty"),
    ({QUERIES["q2"]: (1.0, 0.0, 2.0)}, "query", "the query's embedding has 3 numbers"),
])
def test_unusable_vectors_are_named(vectors, source, message):
    index = RetrievalIndex(RetrievalConfig(match_mode="hybrid",
                                           embedding_function={**VECTORS, **vectors}.get))
    with pytest.raises(InputError, match=re.escape(message)) as raised:
        index.build(DOCUMENTS).search(QUERIES["q2"])
    assert raised.value.source == source


def test_changing_the_embedding_function_re_embeds_the_documents():
    index = keyword_index(match_mode="hybrid", embedding_function=VECTORS.get)
    # now q2 (1, 0) is nearest d1 (1, 0), then d2 (1, 1), then d3 (0, 1): embedding ranking
    # d1, d2, d3 against keyword d3, d1, d2. RRF: d1 1/62 + 1/61, d3 1/61 + 1/63,
    # d2 1/63 + 1/62.
    other = {DOCS["d1"]: (1.0, 0.0), DOCS["d2"]: (1.0, 1.0), DOCS["d3"]: (0.0, 1.0),
             QUERIES["q2"]: (1.0, 0.0)}
    index.set_params(embedding_function=other.get)
    assert index.search(QUERIES["q2"]).doc_ids == ["d1", "d3", "d2"]
    # a keyword index switched to hybrid embeds then
    switched = keyword_index(embedding_function=VECTORS.get).set_params(match_mode="hybrid")
    assert switched.search(QUERIES["q2"]).doc_ids == ["d3", "d2", "d1"]


# ---- CustomRetrievalIndex ---------------------------------------------------------------

def test_custom_index_wraps_a_search_function():
    bm25 = BM25(DOCS)
    index = CustomRetrievalIndex(bm25.search)
    response = index.search(QUERIES["q2"])
    assert isinstance(response, SearchResponse) and response.status == "success"
    assert [(h.doc_id, h.rank) for h in response.hits] == [("d3", 1), ("d1", 2), ("d2", 3)]
    assert [h.score for h in response.hits] == [s for _, s in bm25.search(QUERIES["q2"])]
    assert all(h.doc is None for h in response.hits)  # no documents given: ids only
    report = evaluate_retrieval(index, QUERIES, QRELS, metrics=METRICS)
    assert report.metrics == pytest.approx({"recall@1": 0.5, "mrr": 2 / 3, "ndcg@3": 0.75})
    # with documents, hits carry them
    hits = index.build(DOCUMENTS).search(QUERIES["q2"]).hits
    assert [h.doc for h in hits] == [DOCUMENTS[2], DOCUMENTS[0], DOCUMENTS[1]]
    assert CustomRetrievalIndex(bm25.search, top_k=1).search(QUERIES["q2"]).doc_ids == ["d3"]


@pytest.mark.parametrize("answer, ids, scores", [
    (["d2", "d1"], ["d2", "d1"], [None, None]),
    ({"d1": 0.5, "d2": 2}, ["d2", "d1"], [2.0, 0.5]),
    ({"status": "ok", "hits": [{"doc_id": "d1", "score": 3}]}, ["d1"], [3.0]),
    ((d for d in ["d3"]), ["d3"], [None]),
])
def test_custom_index_reads_every_answer_shape(answer, ids, scores):
    response = CustomRetrievalIndex(lambda query: answer).search("q")
    assert response.doc_ids == ids
    assert [h.score for h in response.hits] == scores


def test_custom_index_keeps_a_partial_status():
    index = CustomRetrievalIndex(lambda q: {"status": "partial", "hits": ["d1", "d2"]})
    assert index.search("q").status == "partial"
    with pytest.raises(DegradedSearchError, match="'partial'"):
        evaluate_retrieval(index, QUERIES, QRELS, metrics=METRICS)
    # wrapping our own index keeps its hits, documents, scores and statuses
    inner = keyword_index(match_mode="hybrid")
    outer = CustomRetrievalIndex(inner.search).search(QUERIES["q2"])
    assert outer.hits == inner.search(QUERIES["q2"]).hits
    assert outer.status == "degraded" and "keyword only" in outer.message


def test_custom_index_errors_name_the_query():
    index = CustomRetrievalIndex(lambda q: {"d1"})
    with pytest.raises(InputError, match="a set, which has no order"):
        index.search("q")


def test_search_hits_read_as_responses():
    status, ids = read_response(keyword_index().search(QUERIES["q2"]))
    assert (status, ids) == ("success", ["d3", "d1", "d2"])


# ---- chunks -----------------------------------------------------------------------------

def test_chunks_of_one_document_share_its_id():
    # two chunks of d1: both match "oxygen"; scored with duplicates="first"
    docs = [*DOCUMENTS, CorpusDocument("d1", "reference.txt", 3, "oxygen oxygen")]
    index = RetrievalIndex().build(docs)
    assert index.search("oxygen").doc_ids == ["d1", "d1"]
    with pytest.raises(InputError, match="d1"):
        evaluate_retrieval(index, QUERIES, QRELS, metrics=METRICS)
    report = evaluate_retrieval(index, QUERIES, QRELS, metrics=METRICS, duplicates="first")
    assert report.metrics["recall@1"] == 0.5
    # CustomRetrievalIndex cannot say which chunk an id alone means
    hits = CustomRetrievalIndex(lambda q: ["d1", "d2"], documents=docs).search("q").hits
    assert [h.doc for h in hits] == [None, DOCUMENTS[1]]


# ---- bad settings and inputs --------------------------------------------------------------

@pytest.mark.parametrize("settings, field", [
    ({"match_mode": "fuzzy"}, "match_mode"), ({"match_mode": None}, "match_mode"),
    ({"top_k": 0}, "top_k"), ({"top_k": 2.0}, "top_k"), ({"top_k": True}, "top_k"),
    ({"top_k": "3"}, "top_k"),
    ({"embedding_function": [1.0, 0.0]}, "embedding_function"),
    ({"rrf_k": -1}, "rrf_k"), ({"rrf_k": math.inf}, "rrf_k"), ({"rrf_k": "60"}, "rrf_k"),
    ({"bm25_k1": -0.1}, "bm25_k1"), ({"bm25_k1": math.nan}, "bm25_k1"),
    ({"bm25_b": 1.5}, "bm25_b"), ({"bm25_b": False}, "bm25_b"),
])
def test_bad_settings_are_option_errors_naming_the_field(settings, field):
    with pytest.raises(OptionError) as raised:
        RetrievalConfig(**settings)
    assert raised.value.field == field and field in str(raised.value)
    with pytest.raises(OptionError) as raised:  # set_params checks the same way
        keyword_index().set_params(**settings)
    assert raised.value.field == field


def test_bad_index_calls():
    with pytest.raises(OptionError, match="config must be a RetrievalConfig"):
        RetrievalIndex({"top_k": 3})
    with pytest.raises(OptionError, match="no parameter 'topk'"):
        keyword_index().set_params(topk=3)
    with pytest.raises(OptionError, match="not built"):
        RetrievalIndex().search("q")
    with pytest.raises(OptionError, match="no documents to build from"):
        RetrievalIndex().fit(["q"])
    with pytest.raises(InputError, match="a query is a str, found list"):
        keyword_index().search(["blood"])
    with pytest.raises(InputError, match="a list of queries, found str"):
        keyword_index().predict("blood")
    with pytest.raises(OptionError, match="search_function must be a function"):
        CustomRetrievalIndex("bm25")
    with pytest.raises(OptionError, match="top_k"):
        CustomRetrievalIndex(print, top_k=0)


@pytest.mark.parametrize("documents, message", [
    ([], "no documents"),
    (DOCS, "wrap each text as CorpusDocument"),
    ("d1 d2", "found str"),
    ([DOCUMENTS[0], ("d2", "text")], "document 2 is a tuple"),
    ([DOCUMENTS[0], DOCUMENTS[0]], "'d1' chunk 0 is given twice \\(documents 1 and 2\\)"),
    ([DOCUMENTS[0], CorpusDocument(2, "", 0, "x")], "mix str and int"),
])
def test_bad_documents_are_input_errors(documents, message):
    with pytest.raises(InputError, match=message) as raised:
        RetrievalIndex().build(documents)
    assert raised.value.source == "documents"


@pytest.mark.parametrize("fields, message", [
    ((None, "", 0, "x"), "a str or an int, found None"),
    ((True, "", 0, "x"), "found True"),
    (("d", None, 0, "x"), "input_path must be a str or a path"),
    (("d", "", 0.0, "x"), "chunk_index must be a whole number"),
    (("d", "", 0, b"x"), "text must be a str, found bytes"),
    (("d", "", 0, "x", ["a"]), "metadata must be a mapping"),
])
def test_bad_corpus_documents_are_input_errors(fields, message):
    with pytest.raises(InputError, match=message):
        CorpusDocument(*fields)


def test_corpus_document_fields():
    from pathlib import Path
    doc = CorpusDocument(np.int64(7), Path("a/b.txt"), np.int32(2), "text", {"page": 3})
    assert (doc.doc_id, type(doc.doc_id), doc.chunk_index, doc.metadata) == (7, int, 2,
                                                                              {"page": 3})
    with pytest.raises(AttributeError):
        doc.text = "other"  # frozen


# ---- as a scikit-learn estimator ----------------------------------------------------------

def test_get_params_set_params_and_clone():
    from sklearn.base import clone
    index = keyword_index(top_k=3)
    params = index.get_params()
    assert params["config"] is index.config and params["documents"] == tuple(DOCUMENTS)
    assert params["top_k"] == 3 and params["match_mode"] == "keyword"
    assert set(index.get_params(deep=False)) == {"config", "documents"}
    copy = clone(index)
    assert copy is not index and copy.config == index.config and copy.documents == index.documents
    with pytest.raises(OptionError, match="not built"):
        copy.search("blood")  # a clone is not built: fit builds it
    assert copy.fit(["q"]).search("blood").doc_ids == index.search("blood").doc_ids
    assert index.set_params(top_k=1) is index and index.search("blood").doc_ids == ["d2"]
    assert copy.config.top_k == 3


def test_clone_shares_the_embedding_function_rather_than_copying_it():
    from sklearn.base import clone

    class Model:  # holds a lock, as a real model's client might: deepcopy would fail
        def __init__(self):
            self.lock = threading.Lock()

        def embed(self, text):
            return VECTORS[text]
    model = Model()
    index = keyword_index(match_mode="hybrid", embedding_function=model.embed)
    copy = clone(index)
    assert copy.config.embedding_function == model.embed
    assert copy.fit().search(QUERIES["q2"]).doc_ids == ["d3", "d2", "d1"]


def test_custom_index_as_an_estimator():
    from sklearn.model_selection import GridSearchCV, KFold
    bm25 = BM25(DOCS)
    search = GridSearchCV(CustomRetrievalIndex(bm25.search), {"top_k": [1, 3]},
                          scoring=get_corpus_scorer("recall@3"), cv=KFold(2))
    search.fit(list(QUERIES.values()), list(QRELS.values()))
    assert search.best_params_ == {"top_k": 3}
    assert CustomRetrievalIndex(bm25.search).predict({"a": QUERIES["q1"]}) == {"a": ["d1"]}


def test_public_names():
    names = {"CorpusDocument", "RetrievalConfig", "RetrievalIndex", "CustomRetrievalIndex",
             "SearchHit", "SearchResponse"}
    assert names <= set(retrieval_metrics.__all__)
    scope: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        exec("from retrieval_metrics import *", scope)
    assert names <= set(scope)
