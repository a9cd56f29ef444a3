"""compat.pytrec_eval gives pytrec_eval's dicts and values: pytrec_eval (pytrec-eval-terrier)
runs here on generated judgements and tie-free runs, per query, at relevance levels 1 and 2,
with and without judged_docs_only_flag."""

import multiprocessing
import random

import pytest

pytrec_eval = pytest.importorskip("pytrec_eval")

from retrieval_metrics.compat import pytrec_eval as compat  # noqa: E402

MEASURE_SETS = [
    {"P", "recall", "map", "map_cut", "ndcg", "ndcg_cut", "recip_rank", "Rprec"},
    {"bpref", "infAP", "num_q", "num_ret", "num_rel", "num_rel_ret", "gm_map", "gm_bpref",
     "success", "iprec_at_recall", "11pt_avg", "Rprec_mult"},
    {"set_P", "set_recall", "set_F", "set_map", "set_relative_P", "relative_P", "utility",
     "num_nonrel_judged_ret"},
    {"P.3,7", "P_2", "ndcg_cut.3", "ndcg_cut_1,25", "recall_25", "map_cut.1,3,5,10",
     "set_F.0.5", "iprec_at_recall.0.15,0.35", "Rprec_mult.0.5", "success_3"},
    {"official"}, {"set"},
    {"map_cut.1,3,5,10", "ndcg_cut.1,3,5,10", "recall.1,3,5,10", "P.1,3,5,10"},  # BEIR's
    {"all_trec"}, {"G", "binG", "Rndcg", "ndcg_rel"}, set(),
]


def generated(seed, queries=15, docs=30):
    rng = random.Random(seed)
    qrels, run = {}, {}
    for q in range(queries):
        qid = f"q{q}"
        judged = rng.sample(range(docs), rng.randint(1, 20))
        qrels[qid] = {f"d{d}": rng.choice((-1, 0, 0, 1, 1, 2, 3)) for d in judged}
        if q % 5 != 4:  # some queries of the judgements have no results
            ranked = rng.sample(range(docs + 10), rng.randint(1, 35))
            scores = rng.sample(range(1, 10_000), len(ranked))  # distinct as 32-bit floats
            run[qid] = {f"d{d}": s / 64 for d, s in zip(ranked, scores)}
        elif q % 10 == 9:  # an empty ranking: pytrec_eval scores it
            run[qid] = {}
    run["q_unjudged"] = {"d1": 1.0}
    qrels["q_no_judgements"] = {}
    run["q_no_judgements"] = {"d1": 1.0}
    return qrels, run


CASES = [generated(seed) for seed in (7, 8, 9)]


def same(a, b) -> bool:
    """Equal to the last bit, or both NaN."""
    return a == b or (a != a and b != b)


@pytest.mark.slow
@pytest.mark.parametrize("measures", MEASURE_SETS, ids=lambda m: ",".join(sorted(m))[:40])
@pytest.mark.parametrize("level", [1, 2])
@pytest.mark.parametrize("judged_only", [False, True])
def test_per_query_equals_pytrec_eval(measures, level, judged_only):
    for qrels, run in CASES:
        peer = pytrec_eval.RelevanceEvaluator(qrels, measures, relevance_level=level,
                                              judged_docs_only_flag=judged_only).evaluate(run)
        ours = compat.RelevanceEvaluator(qrels, measures, relevance_level=level,
                                         judged_docs_only_flag=judged_only).evaluate(run)
        assert sorted(ours) == sorted(peer)
        for query in peer:
            assert sorted(ours[query]) == sorted(peer[query]), query
            for name, value in peer[query].items():
                assert same(ours[query][name], value), (query, name)


def test_parsers_and_refusals():
    assert compat.parse_qrel(["q1 0 d1 2", "q1 0 d2 0"]) == {"q1": {"d1": 2, "d2": 0}}
    assert compat.parse_run(["q1 Q0 d1 1 0.5 r"]) == {"q1": {"d1": 0.5}}
    with pytest.raises(ValueError, match="does not compute trec_eval's map_avgjg"):
        compat.RelevanceEvaluator({"q": {"d": 1}}, {"map_avgjg"})
    with pytest.raises(ValueError, match="unsupported measure foo"):
        compat.RelevanceEvaluator({"q": {"d": 1}}, {"foo"})


def test_the_names_and_nicknames_are_pytrec_evals():
    assert set(compat.supported_measures) == set(pytrec_eval.supported_measures)
    for name in ("official", "set", "all_trec"):
        assert set(compat.supported_nicknames[name]) == set(pytrec_eval.supported_nicknames[name])


@pytest.mark.parametrize("seed", [7, 8, 9])
def test_a_mean_over_len_of_the_result_is_pytrec_evals(seed):
    # BEIR, MTEB and their kin sum each query's value and divide by len(scores): a query with
    # an empty ranking must be in the dict, as pytrec_eval returns it
    qrels, run = generated(seed)
    run["q0"] = {}
    measures = {"ndcg_cut.10", "map_cut.10", "recall.10", "P.10"}
    peer = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
    ours = compat.RelevanceEvaluator(qrels, measures).evaluate(run)
    assert "q0" in peer and sorted(ours) == sorted(peer)
    for name in ("ndcg_cut_10", "map_cut_10", "recall_10", "P_10"):
        theirs = sum(v[name] for v in peer.values()) / len(peer)
        assert sum(v[name] for v in ours.values()) / len(ours) == theirs, name


@pytest.mark.parametrize("measure", ["map", "gm_map", "num_rel", "num_ret", "P_5", "gm_bpref",
                                     "ndcg_cut_10", "recip_rank", "set_map"])
def test_compute_aggregated_measure_is_pytrec_evals(measure):
    """numpy's order of sums, to the last bit, over many query counts (numpy's pairwise sum
    changes its order at 8 and 128 values)."""
    for seed, queries in ((11, 15), (12, 9), (13, 140), (14, 300)):
        qrels, run = generated(seed, queries=queries)
        results = compat.RelevanceEvaluator(qrels, {"all_trec"}).evaluate(run)
        values = [v[measure] for v in results.values()]
        assert same(compat.compute_aggregated_measure(measure, values),
                    pytrec_eval.compute_aggregated_measure(measure, values)), (measure, queries)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [32, 34])
def test_every_measure_equals_pytrec_eval_on_ties(seed):
    """Every measure pytrec_eval lists, at levels 1 and 2, on scores that tie: every value to
    the last bit (set_map was set_P * set_recall: 43 of 1,900 values differed). Scores that
    tie only as 32-bit floats were checked the same way by hand (0 of 64,980 values differ),
    but not here: in a process that has run the rest of the suite, pytrec_eval itself then
    looped without end in trec_eval 9.0.8's gain code (m_ndcg.c:119, m_G.c:152, seen in gdb
    in two clean-clone runs), reading memory it never set."""
    rng = random.Random(seed)
    qrels, run = generated(seed)
    for query, docs in run.items():
        run[query] = {d: float(rng.randint(1, 3)) for d in docs}
    # runid and relstring are text in trec_eval, and pytrec_eval's number for them is whatever
    # its memory held (4.7e-310 here)
    measures = sorted(set(pytrec_eval.supported_measures) - {"runid", "relstring"})
    # pytrec_eval runs in a fresh interpreter: its loops above read memory it never set, so
    # what ran before in this process decides whether they end
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        peers = pool.apply_async(peer_values, (qrels, run, measures)).get(timeout=120)
    for measure in measures:
        for level in (1, 2):
            peer = peers[measure, level]
            ours = compat.RelevanceEvaluator(qrels, {measure}, relevance_level=level).evaluate(run)
            assert sorted(ours) == sorted(peer)
            for query in peer:
                assert sorted(ours[query]) == sorted(peer[query])
                for name, value in peer[query].items():
                    assert same(ours[query][name], value), (query, name, level)


def peer_values(qrels, run, measures):
    """pytrec_eval's values, one measure at a time, at levels 1 and 2."""
    import pytrec_eval
    return {(m, level): pytrec_eval.RelevanceEvaluator(qrels, {m}, relevance_level=level).evaluate(run)
            for m in measures for level in (1, 2)}


def tied(seed, queries=15, docs=30):
    """generated()'s shape with many tied scores, each a float that 32 bits hold exactly (so
    pytrec_eval's float32 ranking sees the ties as they are): trec_eval orders them by
    document id, descending."""
    rng = random.Random(seed)
    qrels, run = generated(seed, queries, docs)
    for query, docs_scores in run.items():
        run[query] = {doc: rng.randint(1, 6) / 4 for doc in docs_scores}
    return qrels, run


@pytest.mark.parametrize("measures", MEASURE_SETS[:4] + MEASURE_SETS[7:9],
                         ids=lambda m: ",".join(sorted(m))[:40])
@pytest.mark.parametrize("seed", [21, 22])
def test_ties_equal_pytrec_eval(measures, seed):
    qrels, run = tied(seed)
    assert any(len(set(s.values())) < len(s) for s in run.values())  # ties there are
    for level in (1, 2):
        peer = pytrec_eval.RelevanceEvaluator(qrels, measures, relevance_level=level).evaluate(run)
        ours = compat.RelevanceEvaluator(qrels, measures, relevance_level=level).evaluate(run)
        assert sorted(ours) == sorted(peer)
        for query in peer:
            assert sorted(ours[query]) == sorted(peer[query]), query
            for name, value in peer[query].items():
                assert same(ours[query][name], value), (query, name, level)


@pytest.mark.parametrize("make", [
    lambda m: m.RelevanceEvaluator({"q1": {"d1": 1}}, {"P"}).evaluate({"q1": {1: 1.0}}),
    lambda m: m.RelevanceEvaluator({"q1": {"d1": 1}}, {"P"}, relevance_level=1.5),
    lambda m: m.RelevanceEvaluator({"q1": {"d1": 1.5}}, {"P"}),
    lambda m: m.RelevanceEvaluator({"q1": {"d1": "1"}}, {"P"}),
    lambda m: m.RelevanceEvaluator({1: {"d1": 1}}, {"P"}),
    lambda m: m.RelevanceEvaluator({"q1": {1: 1}}, {"P"}),
    lambda m: m.RelevanceEvaluator({"q1": {"d1": 1}}, {"P"}).evaluate({"q1": {"d1": "x"}}),
])
def test_what_pytrec_eval_refuses_is_refused_with_its_type_and_words(make):
    """An int document id in the run (it would never match the str in the judgements), a
    relevance level of 1.5 (not read as 1), float or str grades, non-str ids: pytrec_eval's C
    raises TypeError, and so does the drop-in, with the same words."""
    import pytrec_eval
    from retrieval_metrics.compat import pytrec_eval as drop_in
    with pytest.raises(TypeError) as theirs:
        make(pytrec_eval)
    with pytest.raises(TypeError) as mine:
        make(drop_in)
    assert str(mine.value) == str(theirs.value)
