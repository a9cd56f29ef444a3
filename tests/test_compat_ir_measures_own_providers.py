"""The measures of ir_measures' own providers against ir_measures 0.4.3 itself (issue 38): a
caller's measures made with ``define`` and ``define_byquery`` (its runtime provider), its
``Accuracy`` (its accuracy provider) and ndeval's ``nNRBP`` (its pyndeval provider), each on
generated judgements and runs; the values, their order and the means, and the lists that mix
them with the other measures, are ir_measures' own."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from retrieval_metrics.compat import ir_measures as ours

pytestmark = pytest.mark.slow  # ir_measures loads pytrec_eval and pandas


@pytest.fixture(scope="module")
def peer():
    import ir_measures
    return ir_measures


def generated(seed: int, ties: bool = False):
    """Judgements (grades 0-2, a subtopic in each row's iteration) and a run; without ties
    unless asked (pytrec_eval ranks by 32-bit floats)."""
    rng = random.Random(seed)
    qrels, run = [], []
    for q in range(7):
        for d in rng.sample(range(30), 14):
            for sub in rng.sample(range(3), rng.randint(1, 2)):
                qrels.append((str(q), f"D{d}", rng.choice([0, 0, 1, 2]), str(sub)))
        scores = [rng.randint(1, 6) for _ in range(20)] if ties else rng.sample(range(1, 999), 20)
        run += [(str(q), f"D{d}", s / 8.0) for d, s in zip(rng.sample(range(30), rng.randint(3, 20)), scores)]
    run += [("99", "D1", 1.0)]  # a query nobody judged
    return qrels, run


def both(peer, qrels, run):
    return (([peer.Qrel(*r) for r in qrels], [peer.ScoredDoc(*r) for r in run]),
            ([ours.Qrel(*r) for r in qrels], [ours.ScoredDoc(*r) for r in run]))


def listed(metrics):
    return [(m.query_id, str(m.measure), m.value) for m in metrics]


def precision_like(qrels, run):
    run = run.merge(qrels, "left", on=["query_id", "doc_id"])
    for qid, frame in run.groupby("query_id"):
        yield qid, float((frame["relevance"] > 0).sum()) / len(frame)


def top_score(qrels, run):
    return float(run["score"].iloc[0]) if len(run) else 0.0


@pytest.mark.parametrize("seed", range(4))
def test_define_and_define_byquery_give_ir_measures_values_order_and_means(peer, seed):
    qrels, run = generated(seed, ties=True)
    (theirs_q, theirs_r), (ours_q, ours_r) = both(peer, qrels, run)
    for lib, q, r, out in ((peer, theirs_q, theirs_r, []), (ours, ours_q, ours_r, [])):
        mine = lib.define(precision_like, "MyP")
        best = lib.define_byquery(top_score)
        for measures in ([mine @ 3, mine, best], [best @ 1, mine @ 5]):
            # ir_measures computes a set of measures: their order is its set's, which changes
            # from one process to the next (str hashes); the values are what must agree
            out.append(sorted(listed(lib.iter_calc(measures, q, r))))
            out.append({str(k): v for k, v in lib.calc_aggregate(measures, q, r).items()})
        out.append(listed((mine @ 2).iter_calc(q, r)))
        out.append((mine @ 2).calc_aggregate(q, r))
        if lib is peer:
            expected = out
        else:
            assert out == expected


@pytest.mark.parametrize("seed", range(4))
def test_a_list_mixing_runtime_accuracy_and_other_measures_is_ir_measures_list(peer, seed):
    qrels, run = generated(seed)
    (theirs_q, theirs_r), (ours_q, ours_r) = both(peer, qrels, run)
    results = []
    for lib, q, r in ((peer, theirs_q, theirs_r), (ours, ours_q, ours_r)):
        mine = lib.define(precision_like, "MyP")
        measures = [lib.P @ 5, mine @ 4, lib.parse_measure("Accuracy(rel=2)@10"), lib.NumQ, lib.AP]
        results.append((listed(lib.iter_calc(measures, q, r)),
                        {str(k): v for k, v in lib.calc_aggregate(measures, q, r).items()}))
    assert results[1][0] == results[0][0]
    assert results[1][1] == pytest.approx(results[0][1], rel=1e-12, nan_ok=True)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("measure", ["Accuracy", "Accuracy(rel=2)", "Accuracy@5", "Accuracy(rel=2)@3"])
def test_accuracy_is_ir_measures_accuracy_provider(peer, seed, measure):
    qrels, run = generated(seed, ties=True)
    (theirs_q, theirs_r), (ours_q, ours_r) = both(peer, qrels, run)
    try:
        theirs = listed(peer.accuracy.iter_calc([peer.parse_measure(measure)], theirs_q, theirs_r))
    except ZeroDivisionError:
        with pytest.raises(ZeroDivisionError, match="no non-relevant document"):
            list(ours.accuracy.iter_calc([ours.parse_measure(measure)], ours_q, ours_r))
        return
    mine = listed(ours.accuracy.iter_calc([ours.parse_measure(measure)], ours_q, ours_r))
    assert [m[:2] for m in mine] == [t[:2] for t in theirs]
    assert [m[2] for m in mine] == pytest.approx([t[2] for t in theirs], rel=0, abs=1e-15)
    assert ours.parse_measure(measure).calc_aggregate(ours_q, ours_r) == pytest.approx(
        peer.parse_measure(measure).calc_aggregate(theirs_q, theirs_r), abs=1e-15, nan_ok=True)


def test_accuracy_with_no_non_relevant_document_fails_as_ir_measures_does(peer):
    """Every document read relevant: ir_measures divides by zero; so does the drop-in, saying
    which query."""
    qrels, run = [("q", "a", 1, "0"), ("q", "b", 1, "0")], [("q", "a", 2.0), ("q", "b", 1.0)]
    (theirs_q, theirs_r), (ours_q, ours_r) = both(peer, qrels, run)
    with pytest.raises(ZeroDivisionError):
        list(peer.accuracy.iter_calc([peer.Accuracy], theirs_q, theirs_r))
    with pytest.raises(ZeroDivisionError, match="query 'q' has no non-relevant document"):
        list(ours.accuracy.iter_calc([ours.Accuracy], ours_q, ours_r))


def test_the_other_providers_refuse_accuracy_and_runtime_measures(peer):
    mine = ours.define(precision_like, "MyP")
    for measure in (ours.Accuracy, mine @ 3):
        assert not ours.pytrec_eval.supports(measure)
        with pytest.raises(ValueError, match="is computed by ir_measures' (accuracy|runtime) provider"):
            ours.pytrec_eval.evaluator([measure], [])
    assert ours.accuracy.supports(ours.Accuracy) and ours.runtime.supports(mine @ 3)
    assert not ours.runtime.supports(ours.P @ 5) and not ours.accuracy.supports(mine)
    assert (peer.accuracy.supports(peer.Accuracy), peer.pytrec_eval.supports(peer.Accuracy)) == (True, False)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("measure", ["nNRBP", "nNRBP(rel=2)", "nNRBP(alpha=0.3,beta=0.7)"])
def test_nnrbp_is_ndeval_nnrbp_to_the_last_bit(peer, seed, measure):
    qrels, run = generated(seed)
    (theirs_q, theirs_r), (ours_q, ours_r) = both(peer, qrels, run)
    theirs = listed(peer.pyndeval.iter_calc([peer.parse_measure(measure)], theirs_q, theirs_r))
    assert listed(ours.pyndeval.iter_calc([ours.parse_measure(measure)], ours_q, ours_r)) == theirs


def test_run_and_qrel_inputs_are_ir_measures(peer):
    results = []
    for lib in (peer, ours):
        a = lib.define(lambda q, r: (), run_inputs=["query_id"], qrel_inputs=["query_id", "doc_id", "x"])
        b = lib.define(lambda q, r: ())
        results.append([sorted(getter(ms)) for getter in (lib.run_inputs, lib.qrel_inputs,
                                                          lib.runtime.run_inputs, lib.runtime.qrel_inputs)
                        for ms in ([a], [b], [a, b], [a, lib.P @ 5], [lib.P @ 5])])
    assert results[1] == results[0]


def test_defining_a_measure_imports_nothing_outside_the_standard_library():
    """pandas is imported when a runtime measure is computed (its function takes DataFrames),
    not when the drop-in is imported or a measure defined."""
    code = ("import sys\nfrom retrieval_metrics.compat import ir_measures\n"
            "m = ir_measures.define_byquery(lambda q, r: 1.0)\n"
            "ir_measures.calc_aggregate([ir_measures.Accuracy, ir_measures.P@1], "
            "[ir_measures.Qrel('q', 'a', 1), ir_measures.Qrel('q', 'b', 0)], "
            "[ir_measures.ScoredDoc('q', 'a', 1.0), ir_measures.ScoredDoc('q', 'b', 0.5)])\n"
            "print(sorted(n for n in ('pandas', 'numpy') if n in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


CWL_MEASURES = ["P@5", "P(rel=2)@10", "RR", "RR(rel=2)", "AP", "AP(rel=2)", "RBP(rel=1)",
                "RBP(rel=2,p=0.9)", "SDCG(max_rel=2)@5", "SDCG(min_rel=1,max_rel=2)@10",
                "BPM(T=2.0,max_rel=2)@10", "NERR8(max_rel=2)@10", "NERR10(p=0.8,max_rel=2)",
                "INST(T=2.0,max_rel=2)", "INSQ(max_rel=2)"]


def cwl_listed(metrics):
    return [(m.query_id, str(m.measure), type(m).__name__, tuple(m[2:])) for m in metrics]


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("seed", range(5))
def test_the_cwl_eval_provider_is_ir_measures_with_cwl_eval(peer, seed):
    """ir_measures.cwl_eval (which runs cwl_eval): its own P@k, RR and AP, SDCG, RBP and the
    C/W/L measures; each query's CwlMetric (its five numbers within 1e-12: cwl_eval sums with
    numpy, measures.cwl exactly), in ir_measures' order, the judged queries without results
    0, the means."""
    import logging
    logging.getLogger("ir_measures").disabled = True
    qrels, run = generated(seed, ties=True)
    (theirs_q, theirs_r), (ours_q, ours_r) = both(peer, qrels, run)
    theirs = cwl_listed(peer.cwl_eval.iter_calc([peer.parse_measure(m) for m in CWL_MEASURES],
                                                theirs_q, theirs_r))
    mine = cwl_listed(ours.cwl_eval.iter_calc([ours.parse_measure(m) for m in CWL_MEASURES],
                                              ours_q, ours_r))
    assert [m[:3] for m in mine] == [t[:3] for t in theirs]
    for m, t in zip(mine, theirs):
        assert m[3] == pytest.approx(t[3], rel=1e-12, abs=1e-12), m[:2]
    theirs_means = peer.cwl_eval.calc_aggregate([peer.parse_measure(m) for m in CWL_MEASURES], theirs_q, theirs_r)
    mine_means = ours.cwl_eval.calc_aggregate([ours.parse_measure(m) for m in CWL_MEASURES], ours_q, ours_r)
    assert {str(k): v for k, v in mine_means.items()} == pytest.approx(
        {str(k): v for k, v in theirs_means.items()}, rel=1e-12)


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("seed", range(3))
def test_sdcg_and_the_cwl_measures_in_the_default_pipeline_are_ir_measures(peer, seed):
    """The default pipeline sends SDCG, RBP(rel) and the C/W/L measures to cwl_eval (CwlMetric)
    and P@k, RR and AP to pytrec_eval: a mixed call gives ir_measures' values and means (the
    order of cwl_eval's measures follows a set's order in ir_measures: compared as sets)."""
    import logging
    logging.getLogger("ir_measures").disabled = True
    qrels, run = generated(seed)
    (theirs_q, theirs_r), (ours_q, ours_r) = both(peer, qrels, run)
    names = ["P@5", "SDCG(max_rel=2)@10", "AP", "RBP(rel=1)", "INST(max_rel=2)", "Judged@5"]
    theirs = cwl_listed(peer.iter_calc([peer.parse_measure(m) for m in names], theirs_q, theirs_r))
    mine = cwl_listed(ours.iter_calc([ours.parse_measure(m) for m in names], ours_q, ours_r))
    assert sorted(m[:3] for m in mine) == sorted(t[:3] for t in theirs)
    by_key = {t[:2]: t[3] for t in theirs}
    for m in mine:
        assert m[3] == pytest.approx(by_key[m[:2]], rel=1e-12, abs=1e-12), m[:2]


def test_the_cwl_eval_provider_refuses_what_cwl_eval_does_not_compute():
    for text, words in (("nDCG@10", "cwl_eval computes"), ("SDCG(max_rel=2)", "needs a cutoff"),
                        ("RBP", "needs rel"), ("INST", "needs max_rel"), ("RR@10", "takes no cutoff"),
                        ("P(judged_only=True)@5", "judged_only")):
        assert not ours.cwl_eval.supports(text)
        with pytest.raises(ValueError, match=words):
            ours.cwl_eval.evaluator([text], [])
