"""compat.ranx against ranx 0.3.21 itself where ranx's own tests found the drop-in short
(issue 38): results accumulated in the Run over several evaluations, the std scores, evaluate
on the arrays ranx's kernels take, set_relevance_level and get_file_kind."""

from __future__ import annotations

import random
import re

import pytest
from retrieval_metrics.compat import ranx as ours
from retrieval_metrics.errors import OptionError

pytestmark = pytest.mark.slow  # ranx's numba kernels load: seconds


@pytest.fixture(scope="module")
def ranx():
    import ranx
    return ranx


def generated(seed: int, queries: int = 8) -> tuple[dict, dict]:
    rng = random.Random(seed)
    qrels, run = {}, {}
    for q in range(queries):
        docs = [f"d{i}" for i in range(12)]
        qrels[f"q{q}"] = {d: rng.choice([0, 1, 1, 2, 3]) for d in rng.sample(docs, 5)}
        run[f"q{q}"] = {d: rng.choice([0.5, 1.0, rng.random()]) for d in rng.sample(docs, 9)}
    return qrels, run


def test_results_accumulate_in_the_run_over_evaluations(ranx):
    qrels, run = generated(1)
    theirs_run, ours_run = ranx.Run(run), ours.Run(run)
    for metrics in ("ndcg@5", ["map@5", "mrr"], ["ndcg@5", "precision@3"]):
        ranx.evaluate(ranx.Qrels(qrels), theirs_run, metrics, return_std=True)
        ours.evaluate(ours.Qrels(qrels), ours_run, metrics, return_std=True)
    assert list(ours_run.mean_scores) == ["ndcg@5", "map@5", "mrr", "precision@3"]
    assert ours_run.mean_scores == {m: float(v) for m, v in theirs_run.mean_scores.items()}
    assert ours_run.std_scores == {m: float(v) for m, v in theirs_run.std_scores.items()}
    assert {m: dict(v) for m, v in ours_run.scores.items()} == \
        {m: {q: float(x) for q, x in v.items()} for m, v in theirs_run.scores.items()}


def arrays(seed: int, np):
    """ranx's array input: per query, [[doc id, grade]] and [[doc id, score]] rows, the run's
    rows in ranked order, a document possibly given twice when nobody judged it."""
    rng = random.Random(seed)
    y_true, y_pred = [], []
    for _ in range(6):
        judged = rng.sample(range(1, 30), 6)
        grades = sorted((rng.choice([1, 2, 3]) for _ in judged), reverse=True)  # best first,
        y_true.append(np.array([[d, g] for d, g in zip(judged, grades)]))  # as ranx sorts them
        ranked = rng.sample(range(1, 30), 10) + [99, 99]
        y_pred.append(np.array([[d, 1.0] for d in ranked]))
    return y_true, y_pred


def test_evaluate_on_ranxs_arrays_gives_ranxs_numbers(ranx):
    np = pytest.importorskip("numpy")
    from numba.typed import List
    metrics = ["hits@5", "hit_rate@5", "precision@5", "recall@10", "map@10", "mrr@10",
               "r-precision", "ndcg@10", "dcg@5", "ndcg_burges@10", "f1@5", "bpref"]
    for seed in range(4):
        y_true, y_pred = arrays(seed, np)
        theirs = ranx.evaluate(List(y_true), List(y_pred), metrics)
        got = ours.evaluate(List(y_true), List(y_pred), metrics)
        assert {m: repr(v) for m, v in got.items()} == \
            {m: repr(float(v)) for m, v in theirs.items()}, seed  # repr: NaN equals NaN


def test_arrays_whose_ideal_ranx_would_read_unsorted_are_refused_for_ndcg():
    np = pytest.importorskip("numpy")
    y_true = [np.array([[1, 1], [2, 3]])]  # grade 3 after grade 1
    y_pred = [np.array([[2, 1.0], [1, 1.0]])]
    with pytest.raises(OptionError, match="not in descending order of grade"):
        ours.evaluate(y_true, y_pred, "ndcg@2")
    assert ours.evaluate(y_true, y_pred, "precision@2") == 1.0  # the order matters to ndcg only


def test_an_array_ranking_a_judged_document_twice_is_refused():
    np = pytest.importorskip("numpy")
    with pytest.raises(OptionError, match="document 3 is ranked 2 times and is judged"):
        ours.evaluate([np.array([[3, 1]])], [np.array([[3, 1.0], [3, 1.0]])], "mrr")


def test_set_relevance_level_lowers_every_grade_as_ranx_does(ranx):
    qrels, _ = generated(2)
    theirs, mine = ranx.Qrels(qrels), ours.Qrels(qrels)
    theirs.set_relevance_level(2)
    mine.set_relevance_level(2)
    assert mine.to_dict() == {q: {d: int(g) for d, g in docs.items()}
                              for q, docs in theirs.to_dict().items()}


def test_get_file_kind_is_ranxs(ranx):
    from ranx.data_structures.run import get_file_kind
    for path, kind in [("r.json", None), ("r.txt", None), ("r.parq", None), ("r.gz", None),
                       ("r.trec", None), ("x", "lz4")]:
        assert ours.get_file_kind(path, kind) == get_file_kind(path, kind)
    for bad in ("r.csv", "r"):
        with pytest.raises(AssertionError) as theirs:
            get_file_kind(bad)
        with pytest.raises(AssertionError) as mine:
            ours.get_file_kind(bad)
        assert str(mine.value) == str(theirs.value)


def test_bpref_of_a_query_without_a_relevant_document_is_ranxs_0(ranx):
    """ranx's kernel raises on R = 0 and the query keeps 0 (fewer than 10 queries: one thread,
    the other queries scored); with 10 or more ranx's parallel failure zeroes every query,
    which the drop-in does not copy (docs/names.md)."""
    qrels = {"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 0}, "q3": {"d4": 1, "d5": 0}}
    run = {"q1": {"d1": 0.5, "d2": 0.4}, "q2": {"d3": 1.0}, "q3": {"d5": 1.0, "d4": 0.5}}
    theirs = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), "bpref", return_mean=False)
    mine = ours.evaluate(ours.Qrels(qrels), ours.Run(run), "bpref", return_mean=False)
    assert mine == [float(v) for v in theirs] == [1.0, 0.0, 0.0]
    many_q = {f"q{i}": {"d": 0} if i == 0 else {"d": 1, "e": 0} for i in range(12)}
    many_r = {f"q{i}": {"d": 1.0, "e": 0.5} for i in range(12)}
    theirs = ranx.evaluate(ranx.Qrels(many_q), ranx.Run(many_r), "bpref", return_mean=False)
    mine = ours.evaluate(ours.Qrels(many_q), ours.Run(many_r), "bpref", return_mean=False)
    assert mine == [0.0] + [1.0] * 11
    assert set(float(v) for v in theirs) <= {0.0, 1.0}  # ranx: 0 where its threads gave up


@pytest.mark.parametrize("kind, data, error, words", [
    ("Qrels", {"q1": {1: 1, "1": 0}}, TypeError, "document id 1 is int; ranx's document ids are str"),
    ("Run", {"q1": {1: 0.5}}, TypeError, "document id 1 is int"),
    ("Run", {1: {"a": 1.0}, "1": {"b": 1.0}}, TypeError, "query ids are of 2 types (int, str)"),
    ("Qrels", {"q1": ["d1"]}, AttributeError, "query 'q1' maps to list"),
])
def test_ids_ranx_refuses_are_refused_not_merged(ranx, kind, data, error, words):
    """ranx cannot type a dict with int document ids or query ids of two types (1 and "1"):
    it raises, and so does the drop-in, in words, rather than merging them into one."""
    from numba.core.errors import TypingError
    with pytest.raises((TypeError, AttributeError, TypingError)):
        getattr(ranx, kind)(data)
    with pytest.raises(error, match=re.escape(words)):
        getattr(ours, kind)(data)


def test_a_score_that_is_not_a_number_is_one_clear_error():
    with pytest.raises(TypeError, match="document 'd1' has score None; it must be a number"):
        ours.Run({"q1": {"d1": None}})


def test_bad_files_and_metrics_are_refused_with_ranxs_exception_types_in_words(ranx, tmp_path):
    """A folder or a missing path to from_file, a .gz that is not gzip, a broken JSON file and
    metrics=None: the exception type ranx raises (a folder: ranx says its kind is unknown, an
    AssertionError; here the folder is named), with words that say what is wrong."""
    import gzip
    import json
    (tmp_path / "x.gz").write_bytes(b"not gzip")
    (tmp_path / "broken.json").write_text('{"q1": {')
    with pytest.raises(IsADirectoryError, match="is a folder; give a TREC or JSON file"):
        ours.Run.from_file(tmp_path)
    with pytest.raises(FileNotFoundError, match="no such file"):
        ours.Run.from_file(tmp_path / "missing.trec")
    for peer_or_ours in (ranx, ours):
        with pytest.raises(gzip.BadGzipFile):
            peer_or_ours.Run.from_file(str(tmp_path / "x.gz"))
        with pytest.raises(json.JSONDecodeError):
            peer_or_ours.Run.from_file(str(tmp_path / "broken.json"))
        with pytest.raises(TypeError):
            peer_or_ours.evaluate(peer_or_ours.Qrels({"q": {"d": 1}}),
                                  peer_or_ours.Run({"q": {"d": 1.0}}), None)
    with pytest.raises(TypeError, match="metrics must be a metric name or a list"):
        ours.evaluate(ours.Qrels({"q": {"d": 1}}), ours.Run({"q": {"d": 1.0}}), None)


def test_compare_with_two_runs_of_one_name_is_ranxs(ranx):
    """ranx keeps both names (model_names, the LaTeX rows, to_dict) and the last run's scores
    (its results dict, its table): the drop-in kept one name without a word."""
    qrels = {"q1": {"d1": 1, "d2": 1}, "q2": {"d3": 1}}
    runs = [({"q1": {"d1": 0.9, "d2": 0.1, "d9": 0.5}, "q2": {"d3": 0.5, "d8": 0.6}}, "x"),
            ({"q1": {"d9": 0.9, "d1": 0.5}, "q2": {"d3": 0.9}}, "x"),
            ({"q1": {"d2": 0.9}, "q2": {"d8": 0.9}}, "y")]
    reports = [m.compare(m.Qrels(qrels), [m.Run(r, name=n) for r, n in runs], ["ndcg@3", "mrr"])
               for m in (ranx, ours)]
    theirs, mine = reports
    assert mine.model_names == theirs.model_names == ["x", "x", "y"]
    assert str(mine) == str(theirs)
    assert mine.to_latex() == theirs.to_latex()
    assert mine.to_dict() == theirs.to_dict()
