"""``compat.ranx`` against ranx 0.3 itself: the same code, run with ``ranx`` bound to either,
gives the same numbers (per query and means, to the last bit: the means are summed in numpy's
order) and the same files. ranx compiles its metrics with numba on first use (cached after)."""

import random

import pytest
from retrieval_metrics.compat import ranx as ours
from retrieval_metrics.compat.ranx.api import numpy_mean, numpy_std, numpy_sum

NAMES = [
    "hits@1", "hits@5", "hits", "hit_rate@5", "precision@5", "recall@5", "recall@100", "f1@5",
    "r-precision", "mrr", "mrr@10", "map", "map@5", "ndcg", "ndcg@10", "ndcg_burges@10",
    "dcg@5", "dcg_burges", "bpref", "rbp.95", "rbp.5", "hits@5-l2", "ndcg@10-l2", "map@10-l2",
]


def generated(seed, queries=40, docs=30):
    rng = random.Random(seed)
    qrels, run = {}, {}
    for q in rng.sample(range(1000), queries):  # ids not in order: ranx sorts them
        qid = f"q{q}"
        judged = rng.sample(range(docs), rng.randint(3, 15))
        grades = {f"d{d}": rng.choice((0, 1, 1, 2, 3)) for d in judged}
        grades[f"d{judged[0]}"], grades[f"d{judged[1]}"] = 3, 0
        qrels[qid] = grades
        ranked = rng.sample(range(docs + 10), rng.randint(1, 35))
        scores = rng.sample(range(1, 10_000), len(ranked))
        run[qid] = {f"d{d}": s / 100 for d, s in zip(ranked, scores)}
    return qrels, run


def test_sums_in_numpys_order():
    np = pytest.importorskip("numpy")
    rng = random.Random(1)
    for n in [*range(1, 300), 1000, 1031, 5000]:
        values = [rng.random() * 10 ** rng.randint(-8, 8) for _ in range(n)]
        array = np.array(values, dtype=np.float64)
        assert (numpy_sum(values), numpy_mean(values), numpy_std(values)) == (
            float(array.sum()), float(array.mean()), float(array.std())), n


@pytest.mark.slow
@pytest.mark.parametrize("seed", [11, 12])
def test_evaluate_equals_ranx_per_query_and_mean(seed):
    ranx = pytest.importorskip("ranx")
    qrels, run = generated(seed)
    theirs = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), NAMES, return_mean=False)
    mine = ours.evaluate(ours.Qrels(qrels), ours.Run(run), NAMES, return_mean=False)
    for name in NAMES:
        assert mine[name] == [float(v) for v in theirs[name]], name
    theirs = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), NAMES)
    assert ours.evaluate(ours.Qrels(qrels), ours.Run(run), NAMES) == {
        k: float(v) for k, v in theirs.items()}
    # plain dicts: ranx takes their queries in the dicts' own order (not sorted)
    theirs = ranx.evaluate(qrels, run, NAMES)
    assert ours.evaluate(qrels, run, NAMES) == {k: float(v) for k, v in theirs.items()}
    theirs = ranx.evaluate(qrels, run, "ndcg@10", return_std=True)
    assert ours.evaluate(qrels, run, "ndcg@10", return_std=True) == {
        k: float(v) for k, v in theirs.items()}
    assert ours.evaluate(qrels, run, ["mrr"]) == float(ranx.evaluate(qrels, run, ["mrr"]))


@pytest.mark.slow
def test_results_kept_in_the_run_and_queries_made_comparable_as_ranx():
    ranx = pytest.importorskip("ranx")
    qrels, run = generated(13, queries=6)
    short = {q: run[q] for q in list(run)[:4]}
    short["extra"] = {"d1": 1.0}
    with pytest.raises(AssertionError, match="make_comparable=True"):
        ours.evaluate(qrels, short, "mrr")
    theirs_run, mine_run = ranx.Run(short), ours.Run(short)
    theirs = ranx.evaluate(ranx.Qrels(qrels), theirs_run, ["mrr", "ndcg@5"], make_comparable=True)
    assert ours.evaluate(ours.Qrels(qrels), mine_run, ["mrr", "ndcg@5"],
                         make_comparable=True) == {k: float(v) for k, v in theirs.items()}
    assert mine_run.mean_scores == {k: float(v) for k, v in theirs_run.mean_scores.items()}
    assert mine_run.scores == {m: {q: float(v) for q, v in s.items()}
                               for m, s in theirs_run.scores.items()}


@pytest.mark.slow
@pytest.mark.parametrize("suffix", [".trec", ".json"])
def test_files_and_dicts_round_trip_as_ranx(tmp_path, suffix):
    ranx = pytest.importorskip("ranx")
    qrels, run = generated(14, queries=5)
    for theirs, mine, data in ((ranx.Qrels(qrels), ours.Qrels(qrels), qrels),
                               (ranx.Run(run, name="bm25"), ours.Run(run, name="bm25"), run)):
        theirs.save(tmp_path / f"theirs{suffix}")
        mine.save(tmp_path / f"mine{suffix}")
        assert (tmp_path / f"mine{suffix}").read_text() == (tmp_path / f"theirs{suffix}").read_text()
        back = type(mine).from_file(tmp_path / f"theirs{suffix}")
        read = type(theirs).from_file(str(tmp_path / f"theirs{suffix}"))
        assert back.to_dict() == data
        assert [list(d) for d in back.to_dict().values()] == [list(d) for d in
                                                             read.to_dict().values()]
        assert list(back.keys()) == list(read.keys())
    if suffix == ".trec":  # a TREC run's last column names it
        assert ours.Run.from_file(tmp_path / "theirs.trec").name == "bm25"


def test_from_a_dataframe_and_back():
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame({"q_id": ["q1", "q1", "q2"], "doc_id": ["a", "b", "c"],
                              "score": [1, 2, 1]})
    qrels = ours.Qrels.from_df(frame)
    assert qrels.to_dict() == {"q1": {"b": 2, "a": 1}, "q2": {"c": 1}}
    assert qrels.to_dataframe().values.tolist() == [["q1", "b", 2], ["q1", "a", 1], ["q2", "c", 1]]
    # hand-worked: q1 finds b (grade 2) first: RR 1; q2 finds nothing relevant: 0
    run = ours.Run.from_df(pandas.DataFrame({"q_id": ["q1", "q2"], "doc_id": ["b", "x"],
                                             "score": [0.5, 0.4]}))
    assert ours.evaluate(qrels, run, "mrr") == 0.5


def test_a_bad_trec_line_is_one_error_naming_the_file_and_line(tmp_path):
    (tmp_path / "q.trec").write_text("q1 0 d1 1\nq1 0 d2 high\n")
    (tmp_path / "r.trec").write_text("q1 Q0 d1 1 0.5\n")
    with pytest.raises(ValueError) as caught:
        ours.Qrels.from_file(tmp_path / "q.trec")
    assert str(caught.value) == f"{tmp_path / 'q.trec'}, line 2: the relevance 'high' is not a whole number"
    with pytest.raises(ValueError) as caught:
        ours.Run.from_file(tmp_path / "r.trec")
    assert str(caught.value) == (f"{tmp_path / 'r.trec'}, line 1: expected 6 columns (query, Q0, "
                                 "document, rank, score, tag), found 5")
    with pytest.raises(ValueError, match="kind must be 'trec' or 'json', found 'parquet'"):
        ours.Run({"q1": {"d1": 1.0}}).save(tmp_path / "r.out", kind="parquet")
    assert not (tmp_path / "r.out").exists()
