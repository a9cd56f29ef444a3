"""compat.ir_measures' provider objects against ir_measures 0.4.3's own (issue 38): each provider
computes what ir_measures' provider of that name computes for the measures it takes, refuses
what it does not take, and ``parse_trec_measure`` and the ``util`` converters give
ir_measures' answers."""

from __future__ import annotations

import random

import pytest
from retrieval_metrics.compat import ir_measures as ours

pytestmark = pytest.mark.slow  # ir_measures' providers load pytrec_eval and gdeval.pl


@pytest.fixture(scope="module")
def peer():
    import ir_measures
    return ir_measures


def generated(seed: int):
    """Judgements with grades 0-3 and a run without tied scores (pytrec_eval ranks by 32-bit
    floats, gdeval.pl by its own sort: ties would test their tie rules, not the measures)."""
    rng = random.Random(seed)
    qrels, run = [], []
    for q in range(6):
        docs = [f"D{i}" for i in range(15)]
        qrels += [ours.Qrel(str(q), d, rng.choice([0, 1, 2, 3])) for d in rng.sample(docs, 8)]
        scores = rng.sample(range(1, 1000), 12)
        run += [ours.ScoredDoc(str(q), d, s / 7.0) for d, s in zip(rng.sample(docs, 12), scores)]
    return qrels, run


CASES = {
    "pytrec_eval": ["P@5", "P(rel=2)@5", "R@10", "AP", "nDCG@10", "nDCG", "Rprec", "Bpref",
                    "RR", "SetF", "IPrec@0.3", "NumRet(rel=1)", "NumQ", "infAP"],
    "gdeval": ["ERR@10", "nDCG@10", "nDCG(dcg='exp-log2')@5"],
    "msmarco": ["RR@10"],
    "judged": ["Judged@5"],
}


@pytest.mark.parametrize("provider", sorted(CASES))
def test_each_provider_computes_what_ir_measures_provider_computes(peer, provider):
    mine, theirs = getattr(ours.providers, provider), getattr(peer, provider)
    for seed in range(3):
        qrels, run = generated(seed)
        for text in CASES[provider]:
            expected = theirs.calc_aggregate([peer.parse_measure(text)], qrels, run)
            got = mine.calc_aggregate([ours.parse_measure(text)], qrels, run)
            assert list(got.values())[0] == pytest.approx(list(expected.values())[0],
                                                          abs=1e-12), (provider, text, seed)
            per_query = {(m.query_id, round(m.value, 9)) for m in mine.iter_calc(
                [ours.parse_measure(text)], qrels, run)}
            assert per_query == {(m.query_id, round(m.value, 9)) for m in theirs.iter_calc(
                [peer.parse_measure(text)], qrels, run)}, (provider, text)


def test_a_provider_refuses_what_it_does_not_compute_as_ir_measures_does(peer):
    for provider, text in [("gdeval", "P@5"), ("msmarco", "AP"), ("judged", "nDCG@10"),
                           ("pytrec_eval", "ERR@10")]:
        assert not getattr(peer, provider).supports(peer.parse_measure(text))
        assert not getattr(ours.providers, provider).supports(ours.parse_measure(text))
        with pytest.raises(ValueError):
            getattr(ours.providers, provider).calc_aggregate([text], [], [])
    assert ours.pytrec_eval.is_available() and ours.gdeval.is_available()


@pytest.mark.parametrize("name", ["map", "P_5,10", "P.5", "ndcg_cut", "set_F.1.0,0.5",
                                  "iprec_at_recall", "success", "official", "recall_1000"])
def test_parse_trec_measure_is_ir_measures(peer, name, capsys):
    assert [str(m) for m in ours.parse_trec_measure(name)] == \
        [str(m) for m in peer.parse_trec_measure(name)]
    for unknown in ("nonsense", "Rndcg"):
        with pytest.raises(ValueError) as theirs:
            peer.parse_trec_measure(unknown)
        with pytest.raises(ValueError) as mine:
            ours.parse_trec_measure(unknown)
        assert str(mine.value) == str(theirs.value)


def test_the_converters_give_ir_measures_shapes(peer):
    qrels, run = generated(4)
    assert ours.util.QrelsConverter(qrels).as_dict_of_dict() == \
        peer.util.QrelsConverter([peer.Qrel(*q) for q in qrels]).as_dict_of_dict()
    assert ours.util.RunConverter(run).as_dict_of_dict() == \
        peer.util.RunConverter([peer.ScoredDoc(*r) for r in run]).as_dict_of_dict()
    mine = ours.util.RunConverter(run).as_sorteddict()
    theirs = peer.util.RunConverter([peer.ScoredDoc(*r) for r in run]).as_sorteddict()
    assert {q: [tuple(r) for r in rows] for q, rows in mine.items()} == \
        {q: [tuple(r) for r in rows] for q, rows in theirs.items()}


def test_a_judged_query_with_an_empty_ranking_counts_as_ir_measures_counts_it(peer):
    """pytrec_eval scores a judged query whose ranking is empty (num_q 1, num_rel R): NumQ 2
    and NumRel 3 here, not 1 and 1; the other measures agree with ir_measures too."""
    qrels = [("1", "a", 1), ("1", "b", 1), ("2", "c", 1)]
    run = {"1": {"a": 1.0}, "2": {}}
    names = ["NumQ", "NumRel", "NumRet", "P@1", "AP", "nDCG@5", "Rprec", "Bpref", "SetF",
             "RR@5", "ERR@5"]
    theirs = peer.calc_aggregate([peer.parse_measure(n) for n in names],
                                 [peer.Qrel(*q) for q in qrels], run)
    mine = ours.calc_aggregate([ours.parse_measure(n) for n in names],
                               [ours.Qrel(*q) for q in qrels], run)
    assert {str(k): v for k, v in mine.items()} == {str(k): v for k, v in theirs.items()}
    assert mine[ours.NumQ] == 2 and mine[ours.NumRel] == 3


@pytest.mark.parametrize("run", [{"1": {"d": 1.0}}, {1: {"d": 1.0}}])
def test_an_int_query_id_is_refused_as_ir_measures_refuses_it(peer, run):
    """ir_measures hands its pytrec_eval measures to pytrec_eval, which refuses an id that is
    not a str; the drop-in did not, and scored the int query 1 apart from the run's "1" (0)."""
    with pytest.raises(TypeError) as theirs:
        peer.calc_aggregate([peer.P@1], [peer.Qrel(1, "d", 1)], run)
    with pytest.raises(TypeError) as mine:
        ours.calc_aggregate([ours.P@1], [ours.Qrel(1, "d", 1)], run)
    assert str(mine.value) == str(theirs.value) == "Expected string as key."


@pytest.mark.parametrize("names", [
    ["P@1", "AP", "nDCG@5", "RR", "NumQ", "P@5", "R@10", "Rprec", "SetF", "IPrec@0.2"],
    ["P@1", "RR@5", "AP", "ERR@5", "Judged@5", "nDCG(dcg='exp-log2')@5"],
])
def test_iter_calc_yields_in_ir_measures_order(peer, names):
    """pytrec_eval's measures first, query by query in the run's order, each query's measures
    in trec_eval's order; then msmarco's and judged's measure by measure, gdeval's topic by
    topic (one relevance level here: with several, ir_measures' own order follows its string
    hashes, see _order)."""
    qrels = [("1", "a", 1), ("2", "c", 1), ("10", "d", 2), ("10", "e", 1)]
    run = {"10": {"d": 1.0, "e": 3.0}, "2": {"c": 1.0, "x": 2.0}, "1": {"a": 1.0}}
    theirs = [(m.query_id, str(m.measure), round(m.value, 4)) for m in peer.iter_calc(
        [peer.parse_measure(n) for n in names], [peer.Qrel(*q) for q in qrels], run)]
    mine = [(m.query_id, str(m.measure), round(m.value, 4)) for m in ours.iter_calc(
        [ours.parse_measure(n) for n in names], [ours.Qrel(*q) for q in qrels], run)]
    assert mine == theirs
