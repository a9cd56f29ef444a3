"""compat.ir_measures' diversity (pyndeval), C/W/L (cwl_eval) and Compat measures give
ir_measures' numbers and counting: ir_measures itself runs here on generated subtopic qrels
(each row's ``iteration`` is its subtopic, as ir_measures' pyndeval provider reads it;
documents judged for several subtopics, grades -1 to 3, queries without a relevant document,
judged queries the run lacks, a query nobody judged, rows shuffled so that pyndeval's
numbering of the subtopics is not their numeric order) and tie-free runs (positive and
negative scores: ir_measures' Compat ranks a document the run lacks as if scored 0.0), with
every string alone, several in one call, and over each input shape; values by hand; and the
strings no provider or no measure here computes, refused with one error naming them."""

from __future__ import annotations

import logging
import math
import random

import pytest
from retrieval_metrics.compat import ir_measures as compat
from support import close, per_query

DIVERSITY = [
    "alpha_nDCG@20", "alpha_nDCG@5", "alpha_nDCG@1", "alpha_nDCG(rel=2)@10",
    "alpha_nDCG(alpha=0.3)@10", "alpha_nDCG(rel=0)@10", "α_nDCG@3",
    "alpha_DCG@10", "alpha_DCG(alpha=0.9)@5", "α_DCG@20",
    "ERR_IA@20", "ERR_IA@1", "ERR_IA(rel=2)@10", "nERR_IA@10", "nERR_IA(rel=3)@20",
    "NRBP", "NRBP(alpha=0.3,beta=0.8)", "NRBP(rel=2)",
    "AP_IA", "AP_IA(rel=2)", "MAP_IA", "P_IA@10", "P_IA(rel=2)@5", "StRecall@10",
    "StRecall(rel=2)@20",
]
CWL = [
    "NERR8(max_rel=3)@5", "NERR8(max_rel=2)@20", "NERR9(max_rel=3)@10", "NERR10(max_rel=3)",
    "NERR10(p=0.5,max_rel=2)", "NERR11(max_rel=3)", "NERR11(T=2.0,max_rel=3)",
    "INST(max_rel=3)", "INST(T=3.0,min_rel=1,max_rel=3)", "INSQ(max_rel=3)",
    "INSQ(T=2.0,max_rel=1)", "BPM(max_rel=3)@10", "BPM(T=2.0,max_rel=3)@20",
]
COMPAT = ["Compat", "Compat(p=0.8)", "Compat(normalize=False)", "Compat(p=0.5,normalize=False)"]
STRINGS = DIVERSITY + CWL + COMPAT
#: the diversity strings ir_measures computes in one pyndeval invocation (rel 1, alpha and
#: beta 0.5): in one call it gives 0 for every other invocation's measures (see below)
ONE_INVOCATION = ["alpha_nDCG@20", "alpha_nDCG@5", "alpha_DCG@10", "ERR_IA@20", "nERR_IA@10",
                  "NRBP", "AP_IA", "P_IA@10", "StRecall@10"]


def _peer():
    ir_measures = pytest.importorskip("ir_measures")
    pytest.importorskip("pyndeval")
    pytest.importorskip("cwl")
    logging.getLogger("ir_measures.cwl_eval").setLevel(logging.ERROR)
    return ir_measures


def generated(seed, negative=False, queries=14, docs=30):
    """``(qrels, run)`` as ``Qrel(query, doc, grade, subtopic)`` / ``ScoredDoc`` rows: every
    fourth query has no relevant document, every fifth is not in the run, query 999 of the run
    is not judged; each run's scores are distinct (below 0 with ``negative``)."""
    rng = random.Random(seed)
    qrels, run = [], []
    for q in range(queries):
        qid = str(100 + q)
        subtopics = rng.randint(1, 5)
        for d in rng.sample(range(docs), rng.randint(2, 22)):
            for s in rng.sample(range(1, subtopics + 1), rng.randint(1, subtopics)):
                grade = rng.choice((-1, 0, 0) if q % 4 == 3 else (-1, 0, 0, 1, 1, 2, 3))
                qrels.append(compat.Qrel(qid, f"d{d}", grade, str(s)))
        if q % 5 == 4:
            continue
        ranked = rng.sample(range(docs + 5), rng.randint(1, 30))
        scores = [s / 64 - (200 if negative else 0) for s in rng.sample(range(1, 10_000),
                                                                          len(ranked))]
        run += [compat.ScoredDoc(qid, f"d{d}", s) for d, s in zip(ranked, scores)]
    run.append(compat.ScoredDoc("999", "d1", 1.0))
    rng.shuffle(qrels)  # subtopics met out of their numeric order
    return qrels, run


CASES = [generated(seed, negative) for seed in (1, 2, 3) for negative in (False, True)]


# ``close``: 1e-12, as for the other strings (cwl_eval sums with numpy, measures.cwl with
# math.fsum, about 1e-16 apart; pyndeval and Compat agree to the last bit); ``per_query``:
# one value per query and measure


def as_peer(ir_measures, qrels, run):
    return ([ir_measures.Qrel(*row) for row in qrels], [ir_measures.ScoredDoc(*r) for r in run])


def compare(ir_measures, texts, qrels, run, peer_qrels=None, peer_run=None):
    """Asserts compat's aggregates and per-query values equal ir_measures' for ``texts`` in
    one call; the number of per-query values compared."""
    if peer_qrels is None:
        peer_qrels, peer_run = as_peer(ir_measures, qrels, run)
    measures = [ir_measures.parse_measure(t) for t in texts]
    expected = ir_measures.calc_aggregate(measures, peer_qrels, peer_run)
    got = compat.calc_aggregate(texts, qrels, run)
    assert [str(m) for m in got] == [str(compat.parse_measure(t)) for t in texts]
    for measure in measures:
        assert close(got[measure], expected[measure]), (measure, got[measure], expected[measure])
    peer = per_query(ir_measures.iter_calc(measures, peer_qrels, peer_run))
    ours = per_query(compat.iter_calc(texts, qrels, run))
    assert ours.keys() == peer.keys()  # the queries ir_measures scores, none other
    for key, value in peer.items():
        assert close(ours[key], value), (key, ours[key], value)
    return len(peer)


@pytest.mark.slow
@pytest.mark.parametrize("text", STRINGS)
def test_aggregate_and_per_query_equal_ir_measures(text):
    ir_measures = _peer()
    assert str(compat.parse_measure(text)) == str(ir_measures.parse_measure(text))
    compared = sum(compare(ir_measures, [text], *case) for case in CASES)
    assert compared == sum(len({r.query_id for r in qrels}) for qrels, _ in CASES)


@pytest.mark.slow
def test_generated_values_are_not_all_zero():
    """The comparison above would pass on a provider giving 0 everywhere: the generated
    cases give every measure values above 0, and at least three different ones."""
    values = [per_query(compat.iter_calc(STRINGS, qrels, run)) for qrels, run in CASES]
    for text in STRINGS:
        name = str(compat.parse_measure(text))
        mine = [v for case in values for (q, m), v in case.items() if m == name]
        assert max(mine) > 0 and len(set(mine)) >= 3, (text, mine)


@pytest.mark.slow
def test_dicts_read_as_one_subtopic_per_query():
    """Qrels as a dict carry no iteration: pyndeval sees subtopic "0" for every row (one
    subtopic per query); a query given as {} counts for Compat (the dict's keys) and for no
    other provider here."""
    ir_measures = _peer()
    for qrels, run in CASES[:2]:
        grades, scores = {"150": {}}, {}
        for row in qrels:
            grades.setdefault(row.query_id, {})[row.doc_id] = row.relevance
        for row in run:
            scores.setdefault(row.query_id, {})[row.doc_id] = row.score
        assert compare(ir_measures, ["alpha_nDCG@10", "StRecall@5", "NRBP", "INST(max_rel=3)",
                                     "Compat"], grades, scores, grades, scores) > 0


@pytest.mark.slow
def test_several_families_and_pytrec_eval_measures_in_one_call():
    """With pytrec_eval's measures in the call, ir_measures also scores 0 for the queries
    pytrec_eval counts (its first evaluator's), in every measure."""
    ir_measures = _peer()
    texts = ONE_INVOCATION + ["NERR8(max_rel=3)@5", "INST(max_rel=3)", "Compat", "P@5",
                              "nDCG@10", "NumQ", "NumRel", "RBP(rel=1)"]
    for qrels, run in CASES:
        assert compare(ir_measures, texts, qrels, run) > 0
        grades = {"150": {}}  # an empty query: pytrec_eval's, so every measure's 0
        for row in qrels:
            grades.setdefault(row.query_id, {})[row.doc_id] = row.relevance
        scores = {}
        for row in run:
            scores.setdefault(row.query_id, {})[row.doc_id] = row.score
        assert compare(ir_measures, texts, grades, scores, grades, scores) > 0


@pytest.mark.slow
def test_each_pyndeval_invocation_is_computed_on_its_own():
    """ir_measures 0.4.3 hands its pyndeval invocations (one per rel, alpha and beta) one
    generator of the run: the first consumes it, and every other invocation's measures score
    0 for every query (which one is first follows a set's order). Here each measure gets its
    value alone in ir_measures."""
    ir_measures = _peer()
    texts = ["alpha_nDCG@10", "alpha_nDCG(rel=2)@10", "NRBP(alpha=0.3,beta=0.8)"]
    qrels, run = CASES[0]
    peer_qrels, peer_run = as_peer(ir_measures, qrels, run)
    together = ir_measures.calc_aggregate([ir_measures.parse_measure(t) for t in texts],
                                          peer_qrels, peer_run)
    assert sum(value == 0 for value in together.values()) == 2  # the bug this avoids
    got = compat.calc_aggregate(texts, qrels, run)
    for text in texts:
        measure = ir_measures.parse_measure(text)
        alone = ir_measures.calc_aggregate([measure], peer_qrels, peer_run)[measure]
        assert alone > 0 and close(got[text], alone), text


@pytest.mark.slow
def test_every_input_shape_gives_ir_measures_numbers():
    """DataFrames with and without the iteration column, ir_measures' own tuples, and
    namedtuples without an iteration field (pyndeval's subtopic "0")."""
    ir_measures = _peer()
    pd = pytest.importorskip("pandas")
    from collections import namedtuple
    texts = ["alpha_nDCG@10", "ERR_IA@5", "AP_IA", "NERR10(max_rel=3)", "Compat(p=0.8)"]
    qrels, run = CASES[0]
    peer_qrels, peer_run = as_peer(ir_measures, qrels, run)
    frame = pd.DataFrame(qrels, columns=["query_id", "doc_id", "relevance", "iteration"])
    frame_run = pd.DataFrame(run, columns=["query_id", "doc_id", "score"])
    assert compare(ir_measures, texts, frame, frame_run, frame, frame_run) > 0
    assert compare(ir_measures, texts, peer_qrels, peer_run, peer_qrels, peer_run) > 0
    Row = namedtuple("Row", "query_id doc_id relevance")
    last = {(q.query_id, q.doc_id): q.relevance for q in qrels}  # one row per document
    rows = [Row(query, doc, grade) for (query, doc), grade in last.items()]
    assert compare(ir_measures, texts, rows, run, rows, peer_run) > 0
    plain = pd.DataFrame(rows)  # no iteration column
    assert compare(ir_measures, texts, plain, frame_run, plain, frame_run) > 0
    with pytest.raises(ValueError, match="judged twice for subtopic"):  # the rows as they are
        compat.calc_aggregate(texts, [Row(q.query_id, q.doc_id, q.relevance) for q in qrels], run)


# --- by hand -----------------------------------------------------------------------------

def test_diversity_by_hand():
    """Two subtopics (the rows' iteration): d1 is relevant to both, d2 to subtopic 1; the run
    ranks d2 then d1, the ideal d1 then d2. Gains: run 1, then 0.5 + 1; ideal 2, then 0.5;
    ndeval divides each by the "ideal ideal" (2, then 1): alpha-nDCG@2 = (1 + 1.5 / log2 3) /
    (2 + 0.5 / log2 3). Query 2 is judged and not in the run: 0 in every mean."""
    Qrel, ScoredDoc = compat.Qrel, compat.ScoredDoc
    qrels = [Qrel("1", "d1", 1, "1"), Qrel("1", "d1", 2, "2"), Qrel("1", "d2", 1, "1"),
             Qrel("1", "d3", 0, "2"), Qrel("2", "x", 1, "1")]
    run = [ScoredDoc("1", "d2", 2.0), ScoredDoc("1", "d1", 1.0), ScoredDoc("1", "u", 0.5)]
    got = compat.calc_aggregate(["alpha_nDCG@2", "StRecall@1", "P_IA@2", "P_IA(rel=2)@2",
                                 "AP_IA", "NRBP"], qrels, run)
    d = 1 / math.log2(3)
    assert got["alpha_nDCG@2"] == pytest.approx((1 + 1.5 * d) / (2 + 0.5 * d) / 2, rel=1e-15)
    assert got["StRecall@1"] == 0.5 / 2  # d2 covers 1 of the 2 subtopics
    assert got["P_IA@2"] == 3 / 4 / 2  # 3 (document, subtopic) pairs over 2 * 2
    assert got["P_IA(rel=2)@2"] == 1 / 2 / 2  # at rel 2 only (d1, 2): one subtopic, 1 / 2
    # AP per subtopic: 1: d2, d1 at ranks 1, 2 (2 relevant): (1 + 1) / 2; 2: d1 at 2: 1 / 2
    assert got["AP_IA"] == (1 + 0.5) / 2 / 2
    # NRBP: (1 - (1 - 0.5) * 0.5) / m * (1 + 0.5 * 1.5) (gains 1, then 0.5 + 1; beta 0.5)
    assert got["NRBP"] == pytest.approx(0.75 / 2 * (1 + 0.5 * 1.5) / 2, rel=1e-15)


def test_diversity_ties_and_query_without_relevant_subtopic():
    """pyndeval orders tied scores by document id ascending (a before b); a query whose
    judgements hold no grade at the level scores 0 (ndeval's value), not an error."""
    Qrel, ScoredDoc = compat.Qrel, compat.ScoredDoc
    qrels = [Qrel("1", "a", 1, "1"), Qrel("2", "c", 0, "1")]
    run = [ScoredDoc("1", "b", 1.0), ScoredDoc("1", "a", 1.0), ScoredDoc("2", "c", 3.0)]
    values = per_query(compat.iter_calc(["P_IA@1", "alpha_nDCG@5", "NRBP"], qrels, run))
    assert values == {("1", "P_IA@1"): 1.0, ("1", "alpha_nDCG@5"): 1.0, ("1", "NRBP"): 0.75,
                      ("2", "P_IA@1"): 0.0, ("2", "alpha_nDCG@5"): 0.0, ("2", "NRBP"): 0.0}


def test_cwl_by_hand():
    """NERR8(max_rel=2)@2: gains 0.5 (grade 1) and 1 (grade 2); the reader goes on past rank
    1 with probability 1 - 0.5 and stops at 2: W = 1/1.5, 0.5/1.5, so EU = 2/3 * 0.5 + 1/3 *
    1 = 2/3. INST(max_rel=1) with the one relevant document first: C(i) = (i / (i + 1))^2
    once the goal is met, so W(i) is proportional to 1 / i^2 over cwl_eval's 1000 ranks.
    Query 2 is judged and not in the run: 0 in the mean."""
    qrels = {"1": {"a": 1, "b": 2}, "2": {"x": 1}, "3": {"r": 1}}
    run = {"1": {"a": 2.0, "b": 1.0}, "3": {"r": 1.0, "n": 0.5}}
    got = compat.calc_aggregate(["NERR8(max_rel=2)@2", "INST(max_rel=1)"], qrels, run)
    nerr8_1 = 2 / 3 * 0.5 + 1 / 3 * 1
    nerr8_3 = 2 / 3 * 0.5  # r: gain 0.5 at rank 1, n unjudged (gain 0) at rank 2
    assert got["NERR8(max_rel=2)@2"] == pytest.approx((nerr8_1 + 0 + nerr8_3) / 3, rel=1e-15)
    inst_3 = 1 / math.fsum(1 / i ** 2 for i in range(1, 1001))
    values = per_query(compat.iter_calc(["INST(max_rel=1)"], qrels, run))
    assert values[("3", "INST(max_rel=1)")] == pytest.approx(inst_3, rel=1e-14)
    assert values[("2", "INST(max_rel=1)")] == 0.0


def test_compat_by_hand():
    """The run scores b below 0 and lacks a, both graded 1: ir_measures' ideal is a (as if
    scored 0.0), then b; Compat(p=0.5) to depth 2: overlaps 0 then 1, (0 + 0.5 * 1/2) / 1.5
    over the ideal's (1 + 0.5 * 2/2) / 1.5 = 1, so 1/6 (not 5/6, b first in the ideal, as
    measures.clarke_compatibility orders the retrieved documents). A query given as {} counts (0)."""
    qrels = {"1": {"a": 1, "b": 1}, "2": {}}
    run = {"1": {"b": -1.0}, "2": {"z": 1.0}}
    assert compat.calc_aggregate(["Compat(p=0.5)"], qrels, run)["Compat(p=0.5)"] == \
        pytest.approx(1 / 6 / 2, rel=1e-15)
    positive = {"1": {"b": 1.0}}  # b scored above 0.0: b first in the ideal, 5/6
    assert compat.calc_aggregate(["Compat(p=0.5,normalize=False)"], {"1": {"a": 1, "b": 1}},
                                 positive)["Compat(p=0.5,normalize=False)"] == \
        pytest.approx((1 + 0.5 * 1 / 2) / 1.5, rel=1e-15)


def test_measure_objects_and_aliases():
    from retrieval_metrics.compat.ir_measures import NRBP, Compat, alpha_nDCG, α_nDCG
    assert str(alpha_nDCG(rel=2)@10) == "alpha_nDCG(rel=2)@10"
    assert α_nDCG is alpha_nDCG and str(compat.parse_measure("MAP_IA")) == "AP_IA"
    assert str(Compat(normalize=False)) == "Compat(normalize=False)" and str(NRBP) == "NRBP"
    assert compat.parse_measure("INST(max_rel=3)")["T"] == 1.0


# --- refused -----------------------------------------------------------------------------

REFUSED = [
    ("alpha_nDCG", "needs a cutoff"), ("StRecall", "needs a cutoff"),
    ("ERR_IA@25", "cutoffs up to 20"), ("alpha_nDCG(judged_only=True)@10", "judged_only"),
    ("AP_IA(judged_only=True)", "judged_only"), ("StRecall(judged_only=True)@5", "no parameter"),
    ("INST", "needs max_rel"), ("NERR8(max_rel=3)", "needs cutoff"),
    ("INST(min_rel=3,max_rel=3)", "min_rel below max_rel"), ("Compat(p=1)", "float"),
    ("alpha_nDCG(alpha=1)@5", "float"), ("NRBP@10", "no parameter 'cutoff'"),
]


@pytest.mark.parametrize("text, words", REFUSED)
def test_what_no_provider_computes_is_one_clear_error(text, words):
    qrels, run = {"1": {"a": 1}}, {"1": {"a": 1.0}}
    for call in (compat.calc_aggregate, compat.iter_calc, compat.calc):
        with pytest.raises(ValueError) as caught:
            call([text], qrels, run)
        message = str(caught.value)
        assert repr(text) in message and words in message, message
        error = caught.value  # one error: none chained to it that a traceback would show
        assert error.__cause__ is None and (error.__context__ is None or error.__suppress_context__)


@pytest.mark.slow
@pytest.mark.parametrize("text", [t for t, _ in REFUSED])
def test_ir_measures_fails_on_them_too(text):
    ir_measures = _peer()
    with pytest.raises(Exception):  # noqa: B017 (any refusal of ir_measures' own)
        measure = ir_measures.parse_measure(text)
        ir_measures.calc_aggregate([measure], [ir_measures.Qrel("1", "a", 1, "1")],
                                   [ir_measures.ScoredDoc("1", "a", 1.0)])


def test_a_subtopic_judgement_given_twice_is_refused_for_the_diversity_measures():
    """ndeval counts both rows for the subtopic and keeps the last grade for the document;
    the other measures read the pair's last grade, as every provider but pyndeval does."""
    Qrel = compat.Qrel
    qrels = [Qrel("1", "a", 1, "1"), Qrel("1", "a", 0, "1"), Qrel("1", "b", 1, "2")]
    run = {"1": {"a": 2.0, "b": 1.0}}
    with pytest.raises(ValueError, match="'a' is judged twice for subtopic .iteration. '1'"):
        compat.calc_aggregate(["alpha_nDCG@5"], qrels, run)
    assert compat.calc_aggregate(["P@1", "INST(max_rel=1)"], qrels, run)["P@1"] == 0.0
