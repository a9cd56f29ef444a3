"""The corpus scorers inside scikit-learn's model selection: docs/api.md's GridSearchCV example,
cross_validate with two scorers (one predict or search shared by both from 1.4), metadata
routing. test_scorers.py holds what works without scikit-learn too."""

from __future__ import annotations

import pytest
import sklearn
from retrieval_metrics import get_corpus_scorer, make_corpus_scorer, recall_at_k, scorer_backend_info
from retrievers import BM25, DOCS, QRELS, QUERIES
from sklearn.base import BaseEstimator
from sklearn.metrics._scorer import _BaseScorer
from sklearn.model_selection import GridSearchCV, KFold, cross_validate

SKLEARN_VERSION = tuple(int(p) for p in sklearn.__version__.split(".")[:2])
X = list(QUERIES.values())
Y = list(QRELS.values())


class KeywordRetriever(BaseEstimator):
    """BM25 over ``docs`` keeping the first ``top_k``; fit(X, y) builds the index (a retriever
    learns nothing from the training queries, but model selection calls fit)."""

    predict_calls = 0
    search_calls = 0

    def __init__(self, docs=None, top_k=10):
        self.docs = docs
        self.top_k = top_k

    def fit(self, X, y=None):
        self.index_ = BM25(self.docs or DOCS)
        return self

    def search(self, query):
        type(self).search_calls += 1
        return self.index_.search(query)[: self.top_k]

    def predict(self, X):
        type(self).predict_calls += 1
        return [[d for d, _ in self.index_.search(q)[: self.top_k]] for q in X]


@pytest.fixture(autouse=True)
def reset_counts():
    KeywordRetriever.predict_calls = KeywordRetriever.search_calls = 0


def test_the_scorers_are_scikit_learns_own():
    assert isinstance(get_corpus_scorer("ndcg@10"), _BaseScorer)
    assert scorer_backend_info()["sklearn_version"] == sklearn.__version__


def test_spec_api_grid_search():
    # KFold(2) on two queries: each fold tests one query. top_k 1: q1 -> [d1], q2 -> [d3];
    # top_k 2: q1 -> [d1], q2 -> [d3, d1]. Either way recall@2 is 1 on q1 and 0 on q2 and RR
    # 1 and 0: both means 0.5, a tie that GridSearchCV breaks for the first candidate.
    search = GridSearchCV(KeywordRetriever(DOCS), {"top_k": [1, 2]},
                          scoring={"recall@2": get_corpus_scorer("recall@2"),
                                   "mrr": get_corpus_scorer("mrr")},
                          refit="recall@2", cv=KFold(2))
    search.fit(X, Y)
    assert search.best_params_ == {"top_k": 1}
    assert list(search.cv_results_["split0_test_recall@2"]) == [1.0, 1.0]
    assert list(search.cv_results_["split1_test_recall@2"]) == [0.0, 0.0]
    assert list(search.cv_results_["mean_test_mrr"]) == [0.5, 0.5]
    # refit on both queries with top_k 1: q2's d2 is cut away
    assert search.predict(X) == [["d1"], ["d3"]]


def test_grid_search_picks_the_deeper_cutoff_when_it_wins():
    # top_k 3 keeps q2's d2 (third): recall@3 = 1 on both folds; top_k 1 gets 1 and 0
    search = GridSearchCV(KeywordRetriever(DOCS), {"top_k": [1, 3]},
                          scoring={"recall@3": get_corpus_scorer("recall@3"),
                                   "mrr": get_corpus_scorer("mrr", response_method="search")},
                          refit="recall@3", cv=KFold(2))
    search.fit(X, Y)
    assert search.best_params_ == {"top_k": 3}
    assert list(search.cv_results_["mean_test_recall@3"]) == [0.5, 1.0]
    # RR: top_k 1 -> 1 and 0; top_k 3 -> 1 and 1/3
    assert list(search.cv_results_["mean_test_mrr"]) == pytest.approx([0.5, 2 / 3])


@pytest.mark.parametrize("method", ["predict", "search"])
def test_cross_validate_with_two_scorers(method):
    # top_k 3, fold 0 tests q1 ([d1]): recall@2 1, RR 1; fold 1 tests q2 ([d3, d1, d2]):
    # recall@2 0 (d2 is third), RR 1/3
    scoring = {"recall@2": get_corpus_scorer("recall@2", response_method=method),
               "mrr": get_corpus_scorer("mrr", response_method=method)}
    result = cross_validate(KeywordRetriever(DOCS, top_k=3), X, Y, scoring=scoring, cv=KFold(2))
    assert list(result["test_recall@2"]) == [1.0, 0.0]
    assert list(result["test_mrr"]) == pytest.approx([1.0, 1 / 3])
    # two folds, one test query each: from 1.4 both scorers share one predict (or one search
    # per query) per fold; 1.3 calls it once per scorer
    shared = scorer_backend_info()["shared_predict"]
    calls = KeywordRetriever.predict_calls if method == "predict" else KeywordRetriever.search_calls
    assert calls == (2 if shared else 4)


def test_cross_validate_mixes_our_scorer_with_a_custom_one():
    scoring = {"recall": make_corpus_scorer(recall_at_k, k=1),
               "first": lambda estimator, X, y: float(estimator.predict(X)[0][0] == "d1")}
    result = cross_validate(KeywordRetriever(DOCS), X, Y, scoring=scoring, cv=KFold(2))
    assert list(result["test_recall"]) == [1.0, 0.0]
    assert list(result["test_first"]) == [1.0, 0.0]


def test_metadata_routing():
    # q2 has no relevant document, so its recall@1 is undefined: zero_division decides it.
    # Routed as metadata: 1.0 -> mean (1 + 1) / 2 = 1.0; without it ("warn"): (1 + 0) / 2.
    y = [["d1"], []]
    estimator = KeywordRetriever(DOCS).fit(X, y)
    with sklearn.config_context(enable_metadata_routing=True):
        scorer = get_corpus_scorer("recall@1").set_score_request(zero_division=True)
        assert scorer(estimator, X, y, zero_division=1.0) == 1.0
        if SKLEARN_VERSION < (1, 4):  # cross_validate routes metadata (params=) from 1.4 on
            return
        result = cross_validate(KeywordRetriever(DOCS), X * 2, y * 2, cv=KFold(2),
                                scoring={"recall@1": scorer}, params={"zero_division": 1.0})
        assert list(result["test_recall@1"]) == [1.0, 1.0]
        # a scorer that did not request it: scikit-learn's router refuses the metadata
        with pytest.raises(Exception, match="zero_division"):
            cross_validate(KeywordRetriever(DOCS), X * 2, y * 2, cv=KFold(2),
                           scoring={"recall@1": get_corpus_scorer("recall@1")},
                           params={"zero_division": 1.0})
    with pytest.warns(Warning, match="undefined|no relevant"):
        assert get_corpus_scorer("recall@1")(estimator, X, y) == 0.5


def test_make_scorer_cannot_score_a_plain_index_but_ours_can():
    # scikit-learn's own scorer needs estimator tags (is_regressor); ours calls search(query)
    from sklearn.metrics import make_scorer

    class Index:
        def __init__(self):
            self.bm25 = BM25(DOCS)

        def search(self, query):
            return self.bm25.search(query)

        def predict(self, X):
            return [[d for d, _ in self.bm25.search(q)] for q in X]
    theirs = make_scorer(lambda y_true, y_pred: 0.0)
    if SKLEARN_VERSION >= (1, 6):  # is_regressor reads estimator tags from 1.6 on
        with pytest.raises(AttributeError, match="__sklearn_tags__"):
            theirs(Index(), X, Y)
    assert get_corpus_scorer("mrr", response_method="search")(Index(), X, Y) == \
        pytest.approx(2 / 3)
    assert get_corpus_scorer("mrr")(Index(), X, Y) == pytest.approx(2 / 3)
