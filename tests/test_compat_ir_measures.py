"""compat.ir_measures gives ir_measures' numbers and counting: ir_measures itself runs here
(its pytrec_eval, msmarco, judged, gdeval and cwl_eval providers) on generated judgements
with queries that have no relevant document, judged queries the run lacks, a query nobody
judged, negative grades, and runs with and without tied scores (each provider breaks ties its
own way); aggregates and per-query values are compared for every measure string, alone and
all in one call, to the last bit (RBP, whose provider sums with BLAS, within 1e-12), and over
each input shape ir_measures reads."""

import random

import pytest

ir_measures = pytest.importorskip("ir_measures")

from retrieval_metrics.compat import ir_measures as compat  # noqa: E402
from support import close, per_query  # noqa: E402
from test_names_ir_measures import STRINGS as NAME_STRINGS  # noqa: E402

pytestmark = pytest.mark.slow  # peer comparisons: the full tier runs them

#: the dialect's strings (test_names_ir_measures.py), less the uncut nDCG(dcg='exp-log2'),
#: which ir_measures' ranx provider cannot compute here, and alpha_nDCG@20, compared in
#: test_compat_ir_measures_families.py; plus IPrec@0.125, which ir_measures hands to
#: pytrec_eval as the level 0.12
STRINGS = [s for s in NAME_STRINGS if s not in ("nDCG(dcg='exp-log2')", "alpha_nDCG@20")] + [
    "IPrec@0.125"]


def generated(seed, ties, queries=16, docs=30):
    """Numeric query ids (gdeval reads no others), grades -1 to 4 (gdeval's limit); every
    fourth query has no relevant document, every fifth is not in the run, and one query of
    the run is not judged."""
    rng = random.Random(seed)
    qrels, run = {}, {}
    for q in range(queries):
        qid = str(100 + q)
        judged = rng.sample(range(docs), rng.randint(1, 18))
        choices = (-1, 0, 0) if q % 4 == 3 else (-1, 0, 0, 1, 1, 2, 3, 4)
        qrels[qid] = {f"d{d}": rng.choice(choices) for d in judged}
        if q % 5 == 4:
            continue
        ranked = rng.sample(range(docs + 10), rng.randint(1, 35))
        if ties:  # few distinct scores: the providers' tie rules decide the order
            scores = [rng.randint(1, 6) / 4 for _ in ranked]
        else:  # distinct, and exact as 32-bit floats
            scores = [s / 64 for s in rng.sample(range(1, 10_000), len(ranked))]
        run[qid] = {f"d{d}": s for d, s in zip(ranked, scores)}
    run["999"] = {"d1": 1.0, "d2": 0.5}
    return qrels, run


CASES = [generated(seed, ties) for seed in (1, 2, 3) for ties in (False, True)]


#: cwl_eval computes RBP with numpy's dot product, whose order of additions is the BLAS
#: kernel's for the CPU at hand: equal within 1e-15, not to the last bit
BLAS_ORDER = ("RBP",)


def same(a, b, text="") -> bool:
    """Equal to the last bit (each value in its provider's arithmetic, the means summed in
    ir_measures' order), or both NaN; RBP within its BLAS-ordered dot product's rounding."""
    if text.startswith(BLAS_ORDER):
        return close(a, b)
    return a == b or (a != a and b != b)


@pytest.mark.parametrize("text", STRINGS)
def test_aggregate_and_per_query_equal_ir_measures(text):
    peer_measure = ir_measures.parse_measure(text)
    measure = compat.parse_measure(text)
    assert str(measure) == str(peer_measure)
    for qrels, run in CASES:
        expected = ir_measures.calc_aggregate([peer_measure], qrels, run)[peer_measure]
        got = compat.calc_aggregate([text], qrels, run)
        assert list(got) == [measure]
        assert same(got[measure], expected, text), (text, got[measure], expected)
        peer = per_query(ir_measures.iter_calc([peer_measure], qrels, run))
        ours = per_query(compat.iter_calc([text], qrels, run))
        assert ours.keys() == peer.keys()  # every judged query, none other
        for key, value in peer.items():
            assert same(ours[key], value, text), (text, key, ours[key], value)


# ir_measures computes nDCG without gains, and NumRet / NumQ, inside whichever invocation of
# pytrec_eval comes first in a set's order (gains or judged_only included), so those
# combinations are left out of the one call (compat computes each measure on its own).
TOGETHER = [s for s in STRINGS if "gains" not in s and "judged_only" not in s]


def test_all_measures_in_one_call():
    for qrels, run in CASES[:4]:
        qrels = {**qrels, "150": {}}  # a query given without judgements: pytrec_eval's 0
        measures = [ir_measures.parse_measure(s) for s in TOGETHER]
        expected = ir_measures.calc_aggregate(measures, qrels, run)
        got = compat.calc_aggregate(TOGETHER, qrels, run)
        assert len(got) == len(expected) == len(set(map(str, measures)))
        for measure in measures:
            assert same(got[measure], expected[measure], str(measure)), (measure, got[measure])
        peer = per_query(ir_measures.iter_calc(measures, qrels, run))
        ours = per_query(compat.iter_calc(TOGETHER, qrels, run))
        assert ours.keys() == peer.keys()
        assert all(same(ours[k], v, k[1]) for k, v in peer.items())


@pytest.mark.parametrize("text", ["P@5", "RR@5", "ERR@5", "RBP(rel=1)", "Judged@3"])
def test_a_query_given_without_judgements_counts_as_its_provider_counts_it(text):
    """pytrec_eval's and the judged provider read the dict's keys; the others its pairs."""
    qrels, run = CASES[0]
    qrels = {**qrels, "150": {}}
    measure = ir_measures.parse_measure(text)
    peer = per_query(ir_measures.iter_calc([measure], qrels, run))
    assert per_query(compat.iter_calc([text], qrels, run)) == pytest.approx(peer)
    assert close(compat.calc_aggregate([text], qrels, run)[measure],
                 ir_measures.calc_aggregate([measure], qrels, run)[measure])


def test_counting_by_hand():
    """Query 1: b (grade 0) then a (grade 2); query 2 judged, not in the run; query 3 in the
    run, not judged; query 4 judged, nothing relevant. RR = (1/2 + 0 + 0) / 3; NumQ counts
    the judged queries of the run (1 and 4); NumRel their relevant documents (1: a)."""
    qrels = [compat.Qrel("1", "a", 2), compat.Qrel("1", "b", 0), compat.Qrel("2", "c", 1),
             compat.Qrel("4", "z", 0)]
    run = [compat.ScoredDoc("1", "b", 0.9), compat.ScoredDoc("1", "a", 0.5),
           compat.ScoredDoc("3", "x", 1.0), compat.ScoredDoc("4", "z", 1.0)]
    got = compat.calc_aggregate([compat.RR, compat.NumQ, compat.NumRel, compat.P(rel=2)@2],
                                qrels, run)
    assert got == {"RR": 0.5 / 3, "NumQ": 2.0, "NumRel": 1.0, "P(rel=2)@2": 0.5 / 3}
    values = {(m.query_id, str(m.measure)): m.value for m in compat.iter_calc(["RR"], qrels, run)}
    assert values == {("1", "RR"): 0.5, ("4", "RR"): 0.0, ("2", "RR"): 0.0}


def _shapes(qrels, run):
    pd = pytest.importorskip("pandas")
    qrel_rows = [compat.Qrel(q, d, g) for q, docs in qrels.items() for d, g in docs.items()]
    run_rows = [compat.ScoredDoc(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    peer_qrels = [ir_measures.Qrel(*row) for row in qrel_rows]
    peer_run = [ir_measures.ScoredDoc(*row) for row in run_rows]
    yield "dicts", qrels, run, qrels, run
    yield "namedtuples", qrel_rows, run_rows, peer_qrels, peer_run
    yield "generators", iter(qrel_rows), (r for r in run_rows), iter(peer_qrels), iter(peer_run)
    frame_q = pd.DataFrame(qrel_rows, columns=["query_id", "doc_id", "relevance", "iteration"])
    frame_r = pd.DataFrame(run_rows, columns=["query_id", "doc_id", "score"])
    yield "DataFrames", frame_q, frame_r, frame_q, frame_r
    yield "ir_measures' tuples", peer_qrels, peer_run, peer_qrels, peer_run


def test_every_input_shape_gives_ir_measures_numbers():
    texts = ["nDCG@10", "P(rel=2)@5", "RR@10", "NumRel", "Judged@5", "RBP(rel=1)"]
    measures = [ir_measures.parse_measure(t) for t in texts]
    qrels, run = CASES[0]
    for shape, our_qrels, our_run, peer_qrels, peer_run in _shapes(qrels, run):
        expected = ir_measures.calc_aggregate(measures, peer_qrels, peer_run)
        got = compat.calc_aggregate(measures, our_qrels, our_run)  # ir_measures' own objects
        assert list(got) == measures, shape
        for measure in measures:
            assert close(got[measure], expected[measure]), (shape, measure)


def test_measure_objects_read_as_ir_measures_writes_them():
    from retrieval_metrics.compat.ir_measures import AP, P, SetF, nDCG
    assert [str(m) for m in (P@5, P(rel=2)@5, nDCG(dcg="exp-log2")@10, AP(rel=1), SetF(beta=0.5))] \
        == [str(m) for m in (ir_measures.P@5, ir_measures.P(rel=2)@5,
                             ir_measures.nDCG(dcg="exp-log2")@10, ir_measures.AP(rel=1),
                             ir_measures.SetF(beta=0.5))]
    for text in STRINGS + ["SetF(rel=2,beta=2.0)", "P(cutoff=5)", "P(cutoff=3)@5"]:
        assert str(compat.parse_measure(text)) == str(ir_measures.parse_measure(text)), text
    qrels, run = CASES[0]
    got = compat.calc_aggregate([P@5, "nDCG@10"], qrels, run)
    assert got["P@5"] == got[P@5] == got[ir_measures.P@5]
    assert (P@5).calc_aggregate(qrels, run) == got[P@5]
    aggregated, rows = compat.calc([P@5], qrels, run)
    assert aggregated == {P@5: got[P@5]} and len(rows) == len(qrels)


def test_trec_files(tmp_path):
    qrels_text = "1 0 a 2\n1 0 b 0\n2 0 c 1\n"
    run_text = "1 Q0 b 1 0.9 r\n1 Q0 a 2 0.5 r\n"
    path = tmp_path / "qrels.txt"
    path.write_text(qrels_text)
    assert list(compat.read_trec_qrels(str(path))) == list(ir_measures.read_trec_qrels(str(path)))
    assert list(compat.read_trec_run(run_text)) == list(ir_measures.read_trec_run(run_text))
    with pytest.raises(ValueError, match="line 2: expected 6 columns"):
        list(compat.read_trec_run("1 Q0 b 1 0.9 r\n1 Q0 a 2\n"))


@pytest.mark.parametrize("text, error, words", [
    ("Foo@3", NameError, "measure not found: Foo"),
])
def test_parse_refusals(text, error, words):
    with pytest.raises(error, match=words):
        compat.parse_measure(text)


@pytest.mark.parametrize("text, words", [
    ("P", "needs cutoff"), ("RBP", "RBP(rel=1)"), ("ERR", "ERR@20"), ("RBP(rel=1)@10", "whole"),
    ("NumRel(rel=2)", "rel=1 only"), ("RR(judged_only=True)@10", "msmarco"),
    ("SetF(beta=1)", "float"), ("Rprec@5", "no parameter 'cutoff'"),
])
def test_what_no_provider_computes_is_refused_naming_why(text, words):
    qrels, run = CASES[0]
    peer = ir_measures.parse_measure(text)
    with pytest.raises((ValueError, AssertionError)):  # ir_measures refuses it too
        ir_measures.calc_aggregate([peer], qrels, run)
    with pytest.raises(ValueError) as caught:
        compat.calc_aggregate([text], qrels, run)
    assert words in str(caught.value) and repr(text) in str(caught.value), str(caught.value)


@pytest.mark.parametrize("qrels, run, words", [
    ({"1": {"a": 1.5}}, {"1": {"a": 1.0}}, "relevance must be a whole number"),
    ({"1": {"a": 1}}, {"1": {"a": "high"}}, "score must be a number"),
    ({"1": {"a": 1}}, {"1": {"a": float("nan")}}, "NaN"),
    ([("1", "a", 1)], {"1": {"a": 1.0}}, "not a namedtuple"),
    ({"1": {"a": 5}}, {"1": {"a": 1.0}}, "gdeval"),
    ("qrels.txt", {"1": {"a": 1.0}}, "read_trec_qrels"),
])
def test_bad_input_is_one_clear_error(qrels, run, words):
    with pytest.raises(ValueError, match=words):
        compat.calc_aggregate(["ERR@5", "P@5"], qrels, run)


def test_what_ir_measures_callers_use_gives_ir_measures_values(tmp_path):
    """evaluator(...).calc_aggregate, iter_calc's Metric rows, PyTerrier's frames and TREC files
    given as paths, Path objects, open files and gzip, each against ir_measures itself."""
    import gzip
    from pathlib import Path
    pd = pytest.importorskip("pandas")
    qrels, run = CASES[0]
    measures = [ir_measures.parse_measure(t) for t in ("nDCG@10", "P(rel=2)@5", "AP", "RR")]
    expected = ir_measures.evaluator(measures, qrels).calc_aggregate(run)
    got = compat.evaluator(measures, qrels).calc_aggregate(run)
    assert got.keys() == expected.keys()
    assert all(close(got[m], expected[m]) for m in measures)
    theirs = sorted(ir_measures.iter_calc(measures, qrels, run), key=lambda r: (str(r.measure), r.query_id))
    mine = sorted(compat.iter_calc(measures, qrels, run), key=lambda r: (str(r.measure), r.query_id))
    assert [(r.query_id, str(r.measure)) for r in mine] == [(r.query_id, str(r.measure)) for r in theirs]
    assert all(type(r).__name__ == "Metric" and close(r.value, t.value) for r, t in zip(mine, theirs))
    # PyTerrier's frames (qid, docno, label / score), as PyTerrier hands them to ir_measures
    pt_qrels = pd.DataFrame([(q, d, g) for q, docs in qrels.items() for d, g in docs.items()],
                            columns=["qid", "docno", "label"])
    pt_run = pd.DataFrame([(q, d, s, 0) for q, docs in run.items() for d, s in docs.items()],
                          columns=["qid", "docno", "score", "rank"])
    got = compat.calc_aggregate(measures, pt_qrels, pt_run)
    assert all(close(got[m], expected[m]) for m in measures)
    with pytest.raises(ValueError, match="PyTerrier's qid, docno, score are read too"):
        compat.calc_aggregate(measures, qrels, pt_run.rename(columns={"docno": "doc"}))
    # TREC files: a path, a Path, an open file, a .gz path
    qrels_text = "".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items())
    run_text = "".join(f"{q} Q0 {d} {i} {s} r\n" for q, docs in run.items()
                       for i, (d, s) in enumerate(docs.items(), 1))
    (tmp_path / "q.txt").write_text(qrels_text)
    (tmp_path / "r.txt").write_text(run_text)
    with gzip.open(tmp_path / "r.txt.gz", "wt") as f:
        f.write(run_text)
    peer_qrels = list(ir_measures.read_trec_qrels(str(tmp_path / "q.txt")))
    peer_run = list(ir_measures.read_trec_run(str(tmp_path / "r.txt")))
    assert list(compat.read_trec_qrels(Path(tmp_path / "q.txt"))) == peer_qrels
    with open(tmp_path / "q.txt") as f:
        assert list(compat.read_trec_qrels(f)) == peer_qrels
    with open(tmp_path / "r.txt") as f:
        assert list(compat.read_trec_run(f)) == peer_run
    assert list(compat.read_trec_run(str(tmp_path / "r.txt.gz"))) == peer_run
    got = compat.calc_aggregate(measures, compat.read_trec_qrels(str(tmp_path / "q.txt")),
                                compat.read_trec_run(Path(tmp_path / "r.txt")))
    assert all(close(got[m], ir_measures.calc_aggregate(measures, peer_qrels, peer_run)[m]) for m in measures)
