"""Corpus scorers, whichever base class is in use: this file runs twice, here (scikit-learn
installed) and in a subprocess where importing scikit-learn fails (see the last test), and must
pass in both. The tests that need scikit-learn itself are in test_scorers_sklearn.py."""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from retrieval_metrics import (
    DegradedSearchError,
    OptionError,
    RetrieverError,
    get_corpus_scorer,
    make_corpus_scorer,
    recall_at_k,
    scorer_backend_info,
)
from retrieval_metrics.scorers.base import BaseScorer
from retrievers import BM25, DOCS, QRELS, QUERIES

WITHOUT_SKLEARN = os.environ.get("RM_TEST_WITHOUT_SKLEARN") == "1"
X = list(QUERIES.values())
Y = list(QRELS.values())


class Predictor:
    """Not a scikit-learn estimator: predict() ranks every query with BM25; counts its calls."""

    def __init__(self):
        self.index = BM25(DOCS)
        self.calls = 0

    def predict(self, queries):
        self.calls += 1
        return [[d for d, _ in self.index.search(q)] for q in queries]


def test_backend_is_what_is_installed():
    info = scorer_backend_info()
    if WITHOUT_SKLEARN:
        assert sys.modules["sklearn"] is None  # the shim below
        assert info == {"backend": "vendored", "sklearn_version": None,
                        "base_class": "retrieval_metrics.scorers.base.BaseScorer",
                        "shared_predict": False, "metadata_routing": False}
        assert isinstance(get_corpus_scorer("mrr"), BaseScorer)
    else:
        import sklearn
        from sklearn.metrics._scorer import _BaseScorer
        assert info["backend"] == "scikit-learn"
        assert info["sklearn_version"] == sklearn.__version__
        assert info["base_class"] == "sklearn.metrics._scorer._BaseScorer"
        assert isinstance(get_corpus_scorer("mrr"), _BaseScorer)


def test_spec_api_recall_scorer_on_the_reference_case():
    # BM25 ranks q1 -> [d1], q2 -> [d3, d1, d2]: recall@1 is 1 for q1 and 0 for q2, mean 0.5
    recall = make_corpus_scorer(recall_at_k, response_method="search", k=1)
    assert recall(BM25(DOCS), list(QUERIES.values()), list(QRELS.values())) == 0.5
    assert get_corpus_scorer("recall@1", response_method="search")(BM25(DOCS), X, Y) == 0.5
    # k=2 finds nothing more (q2's d2 is third); k=3 finds it: 1.0
    assert make_corpus_scorer(recall_at_k, response_method="search", k=3)(BM25(DOCS), X, Y) == 1


@pytest.mark.parametrize("name, expected", [
    ("recall@1", 0.5),
    ("mrr", (1 + 1 / 3) / 2),          # RR 1 and 1/3
    ("ndcg@3", 0.75),                  # 1 and (1/log2 4) / 1 = 0.5
    ("recall@3", 1.0),                 # d2 at rank 3 is inside the cutoff
    ("precision@1", 0.5),
    ("P_1", 0.5),                      # trec_eval's spelling
    ("gm_map", (1 / 3) ** 0.5),        # AP 1 and 1/3, geometric mean as trec_eval
])
def test_every_metric_both_ways(name, expected):
    by_search = get_corpus_scorer(name, response_method="search")(BM25(DOCS), X, Y)
    by_predict = get_corpus_scorer(name)(Predictor(), X, Y)
    assert by_search == pytest.approx(expected, abs=1e-15)
    assert by_predict == pytest.approx(expected, abs=1e-15)


def test_search_on_mappings_by_query_id():
    # the same numbers with X {qid: query} and y_true {qid: judgements}
    assert get_corpus_scorer("mrr", response_method="search")(BM25(DOCS), QUERIES, QRELS) == \
        pytest.approx(2 / 3)


def test_predict_is_called_once_per_scorer_call():
    predictor = Predictor()
    get_corpus_scorer("ndcg@3")(predictor, X, Y)
    assert predictor.calls == 1


def test_make_corpus_scorer_sign_and_kwargs():
    def hits_within(y_true, y_pred, depth):
        # share of queries with a relevant id in the first `depth` results
        return sum(bool(set(r) & set(p[:depth])) for r, p in zip(y_true, y_pred)) / len(y_pred)
    # depth 1: q1 yes, q2 no -> 0.5; depth 3: both -> 1.0
    assert make_corpus_scorer(hits_within, depth=1)(Predictor(), X, Y) == 0.5
    loss = make_corpus_scorer(hits_within, greater_is_better=False, response_method="search",
                              depth=3)
    assert loss(BM25(DOCS), X, Y) == -1.0
    assert repr(loss) == ("make_corpus_scorer(hits_within, greater_is_better=False, "
                          "response_method='search', depth=3)")


def test_metric_options_reach_the_metric():
    # q2 has no relevant document: recall@1 undefined there; zero_division=1.0 scores it 1, so
    # with q1's 1.0 the mean is 1.0 (0.0 would give 0.5)
    y = [["d1"], []]
    assert get_corpus_scorer("recall@1", zero_division=1.0)(Predictor(), X, y) == 1.0
    assert get_corpus_scorer("recall@1", zero_division=0.0)(Predictor(), X, y) == 0.5


def test_search_answers_are_read_like_evaluate_retrieval():
    class Hits:
        def search(self, query):
            ids = [d for d, _ in BM25(DOCS).search(query)]
            return {"status": "success", "hits": [{"doc_id": d} for d in ids]}
    assert get_corpus_scorer("ndcg@3", response_method="search")(Hits(), X, Y) == 0.75


def test_search_text_answers_are_kept():
    class Reader:
        def search(self, query):
            return "oxygen" if "oxygen" in query else "no idea"

    def exact(y_true, y_pred):
        return sum(t == p for t, p in zip(y_true, y_pred)) / len(y_true)
    assert make_corpus_scorer(exact, response_method="search")(Reader(), X, ["oxygen", "clot"]) \
        == 0.5


def test_degraded_search_and_failing_search():
    class Partial:
        def search(self, query):
            return {"status": "partial", "hits": ["d1"]}

    class Broken:
        def search(self, query):
            raise OSError("index closed")
    scorer = get_corpus_scorer("mrr", response_method="search")
    with pytest.raises(DegradedSearchError, match="query 0: .*status 'partial'"):
        scorer(Partial(), X, Y)
    with pytest.raises(RetrieverError, match="query 0: the retriever raised OSError: index closed"):
        scorer(Broken(), X, Y)


def test_wrong_response_method_for_the_estimator():
    with pytest.raises(TypeError, match="no search"):
        get_corpus_scorer("mrr", response_method="search")(Predictor(), X, Y)
    with pytest.raises(TypeError, match="no predict method"):
        get_corpus_scorer("mrr")(BM25(DOCS), X, Y)


@pytest.mark.parametrize("call, field", [
    (lambda: get_corpus_scorer("recall@0"), "metrics"),
    (lambda: get_corpus_scorer("nonsense"), "metrics"),
    (lambda: get_corpus_scorer(3), "metrics"),
    (lambda: get_corpus_scorer("mrr", response_method="predict_proba"), "response_method"),
    (lambda: make_corpus_scorer("mrr"), "score_func"),
])
def test_refused_settings(call, field):
    with pytest.raises(OptionError) as caught:
        call()
    assert caught.value.field == field
    if field == "metrics" and "nonsense" in str(caught.value):
        assert "ndcg[@k]" in str(caught.value) and "exact_match" in str(caught.value)


def test_scorers_copy_and_pickle():
    scorer = get_corpus_scorer("ndcg@3", response_method="search")
    for clone in (copy.deepcopy(scorer), pickle.loads(pickle.dumps(scorer))):
        assert clone(BM25(DOCS), X, Y) == 0.75
        assert repr(clone) == "make_corpus_scorer(ndcg@3, response_method='search')"


def test_metadata_at_call_time_needs_routing():
    scorer = get_corpus_scorer("recall@1")
    if WITHOUT_SKLEARN:
        with pytest.raises(TypeError, match="needs? .*scikit-learn|scikit-learn is not installed"):
            scorer(Predictor(), X, Y, zero_division=1.0)
        with pytest.raises(RuntimeError, match="needs scikit-learn"):
            scorer.set_score_request(zero_division=True)
    else:  # scikit-learn refuses metadata unless routing is enabled
        with pytest.raises((ValueError, TypeError)):
            scorer(Predictor(), X, Y, zero_division=1.0)


@pytest.mark.slow
def test_the_package_does_not_import_sklearn_until_a_scorer_is_asked_for():
    code = ("import sys\n"
            + ("sys.modules['sklearn'] = None\n" if WITHOUT_SKLEARN else "")
            + "import retrieval_metrics as rm\n"
            "rm.evaluate_retrieval(lambda q: ['d1'], {'q': 'x'}, {'q': ['d1']}, ['mrr'])\n"
            "assert sys.modules.get('sklearn') is None, 'imported'\n"
            "rm.get_corpus_scorer('mrr')\n"
            "print(sys.modules.get('sklearn') is not None)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=Path(__file__).parent.parent, check=True)
    assert out.stdout.strip() == str(not WITHOUT_SKLEARN)


BLOCK_SKLEARN = """
import sys
sys.modules["sklearn"] = None  # `import sklearn` now raises ImportError
import pytest
sys.exit(pytest.main(sys.argv[1:]))
"""


@pytest.mark.slow
def test_this_file_passes_without_sklearn():
    assert not WITHOUT_SKLEARN  # the run without scikit-learn deselects this test
    root = Path(__file__).parent.parent
    env = dict(os.environ, RM_TEST_WITHOUT_SKLEARN="1", RM_NO_SKIP="0")
    result = subprocess.run(
        [sys.executable, "-c", BLOCK_SKLEARN, "-q", "-p", "no:cacheprovider", "-o",
         "addopts=--import-mode=importlib", "-k", "not test_this_file_passes_without_sklearn",
         str(Path(__file__))],
        capture_output=True, text=True, cwd=root, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    summary = result.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "skipped" not in summary and "failed" not in summary, summary


# ---- answer metrics (the two answers of docs/measures.md) -------------------------------------

REFERENCES = ["The Eiffel Tower", ["Paris", "City of Paris"]]
ANSWERS = {"which tower": "eiffel tower.", "which city": "Paris, France"}


class Reader:
    """Answers questions from a table, by predict(X) or by search(question)."""

    def predict(self, questions):
        return [ANSWERS[q] for q in questions]

    def search(self, question):
        return ANSWERS[question]


@pytest.mark.parametrize("name, expected", [
    ("exact_match", 0.5),             # 1 (SQuAD normalisation) and 0
    ("em", 0.5),
    ("exact_match_score", 0.5),
    ("token_f1", 5 / 6),               # 1.0 and max(2/3, 0.4): (1 + 2/3) / 2
    ("f1", 5 / 6),
    ("anls", 0.6875 / 2),              # 1 - 5/16 and 5/13 < 0.5 -> 0
    ("edit_similarity", (10 / 16 + 5 / 13) / 2),
])
@pytest.mark.parametrize("method", ["predict", "search"])
def test_answer_metric_scorers(name, expected, method):
    scorer = get_corpus_scorer(name, response_method=method)
    assert scorer(Reader(), list(ANSWERS), REFERENCES) == pytest.approx(expected, abs=1e-15)


def test_answer_metric_options_reach_the_metric():
    # no normalisation: "eiffel tower." differs from "The Eiffel Tower", so exact match is 0
    assert get_corpus_scorer("exact_match", normalize=None)(Reader(), list(ANSWERS),
                                                           REFERENCES) == 0.0
