"""The C/W/L measures against cwl_eval itself on generated cases: through ir_measures'
cwl_eval provider (which runs cwl_eval's ruler with ir_measures' min_rel/max_rel scaling of the
grades), and through cwl_eval's own gain-file reader and ruler for TBG and RBP, which
ir_measures does not offer.

cwl_eval sums with numpy (pairwise sums, BLAS dot products) where the module sums exactly, so
the values agree to within a few units in the last place (rel 1e-12 here), not bit for bit.
"""

from __future__ import annotations

import logging
import random

import pytest
from retrieval_metrics import evaluate
from retrieval_metrics.measures.grammar import parse_metric

ir_measures = pytest.importorskip("ir_measures")

pytestmark = pytest.mark.slow  # peer comparisons: the full tier runs them
pytest.importorskip("cwl")
logging.getLogger("ir_measures.cwl_eval").setLevel(logging.ERROR)

#: ours -> ir_measures' (run through cwl_eval)
PAIRS = {
    "nerr8(max_rel=3)@5": "NERR8(max_rel=3)@5", "nerr8(max_rel=2)@20": "NERR8(max_rel=2)@20",
    "nerr9(max_rel=3)@10": "NERR9(max_rel=3)@10", "nerr10(max_rel=3)": "NERR10(max_rel=3)",
    "nerr10(p=0.5,max_rel=2)": "NERR10(p=0.5,max_rel=2)", "nerr11(max_rel=3)": "NERR11(max_rel=3)",
    "nerr11(T=2,max_rel=3)": "NERR11(T=2,max_rel=3)", "inst(max_rel=3)": "INST(max_rel=3)",
    "inst(T=3,min_rel=1,max_rel=3)": "INST(T=3,min_rel=1,max_rel=3)",
    "insq(max_rel=3)": "INSQ(max_rel=3)", "insq(T=2,max_rel=1)": "INSQ(T=2,max_rel=1)",
    "bpm(max_rel=3)@10": "BPM(max_rel=3)@10", "bpm(T=2,max_rel=3)@20": "BPM(T=2,max_rel=3)@20",
    "cwl_rbp": "RBP(rel=1)", "cwl_rbp(p=0.95)": "RBP(rel=1,p=0.95)",
}


def _case(seed: int, queries: int = 15):
    rng = random.Random(seed)
    qrels, run = [], []
    for q in range(1, queries + 1):
        docs = [f"d{i}" for i in range(rng.randint(1, 60))]
        for doc in docs:
            qrels.append((str(q), doc, rng.choice((-1, 0, 0, 1, 1, 2, 3))))
        pool = docs + [f"u{i}" for i in range(rng.randint(0, 30))]
        depth = 1100 if q == 1 else rng.randint(1, len(pool))  # one ranking past cwl's 1000
        if q == 1:
            pool += [f"v{i}" for i in range(1100)]
        ranked = rng.sample(pool, min(depth, len(pool)))
        run += [(str(q), doc, 5000.0 - rank) for rank, doc in enumerate(ranked)]
    return qrels, run


def _evaluate(qrels, run, names, level=1):
    judged, ranked = {}, {}
    for q, d, g in qrels:
        judged.setdefault(q, {})[d] = g
    for q, d, _s in run:
        ranked.setdefault(q, []).append(d)
    return evaluate(judged, ranked, metrics=list(names), relevance_threshold=level,
                    zero_division=0)


@pytest.mark.parametrize("seed", range(4))
def test_equal_to_cwl_eval_through_ir_measures(seed):
    qrels, run = _case(seed)
    report = _evaluate(qrels, run, PAIRS)
    measures = {ir_measures.parse_measure(theirs): parse_metric(ours).key
                for ours, theirs in PAIRS.items()}
    compared = 0
    for metric in ir_measures.cwl_eval.iter_calc(
            list(measures), [ir_measures.Qrel(*row) for row in qrels],
            [ir_measures.ScoredDoc(*row) for row in run]):
        ours = measures[metric.measure]
        assert report.per_query[metric.query_id][ours] == pytest.approx(
            float(metric.value), rel=1e-12, abs=1e-15), (metric.query_id, ours)
        compared += 1
    assert compared == len(report.per_query) * len(PAIRS)


@pytest.mark.parametrize("seed", range(2))
def test_tbg_and_rbp_equal_cwl_eval_reading_its_gain_file(seed, tmp_path):
    """cwl_eval's own gain-file reader (a TREC qrels file of gains in [0, 1]) and ruler."""
    from cwl.ruler.measures.cwl_rbp import RBPCWLMetric
    from cwl.ruler.measures.cwl_tbg import TBGCWLMetric
    from cwl.ruler.ranking import RankingMaker
    from cwl.seeker.trec_qrel_handler import TrecQrelHandler

    qrels, run = _case(seed + 10)
    gain_file = tmp_path / "gains.qrels"
    # the gain of grade g under max_rel=3, as the module scales it: min(max(g, 0), 3) / 3
    gain_file.write_text("".join(f"{q} 0 {d} {min(max(g, 0), 3) / 3!r}\n" for q, d, g in qrels))
    handler = TrecQrelHandler(str(gain_file))
    names = {"tbg(max_rel=3)": lambda: TBGCWLMetric(224),
             "tbg(halflife=5,max_rel=3)": lambda: TBGCWLMetric(5.0),
             "cwl_rbp(p=0.9,max_rel=3)": lambda: RBPCWLMetric(0.9),
             "nerr8(max_rel=3)@10": None}
    report = _evaluate(qrels, run, names)
    names = {parse_metric(name).key: make for name, make in names.items()}
    by_query: dict[str, list[str]] = {}
    for q, d, _s in run:
        by_query.setdefault(q, []).append(d)
    compared = 0
    for q, docs in by_query.items():
        for ours, make in names.items():
            if make is None:
                continue
            maker = RankingMaker(q, handler, None, max_gain=1.0, min_gain=0.0, max_cost=1.0,
                                 min_cost=1.0, max_n=1000)
            for doc in docs:
                maker.add(doc, "_")
            expected = float(make().measure(maker.get_ranking()))
            assert report.per_query[q][ours] == pytest.approx(expected, rel=1e-12, abs=1e-15), (q, ours)
            compared += 1
    assert compared == 3 * len(by_query)


def test_hand_worked_and_binary_default():
    """Without max_rel a gain is 1 at or above the relevance threshold: INSQ(T=1) over two
    ranks... here over cwl_eval's 1000 ranks, a relevant document at rank 1 only:
    W(1) = 1 / sum of C(1)..C(i-1) products, C(i) = ((i + 1) / (i + 2))^2, so
    prod_{j<i} C(j) = (2 / (i + 1))^2 and W(1) = 1 / (4 * sum_{i=1..1000} 1 / (i + 1)^2)."""
    report = evaluate({"q": {"a": 2, "b": 1}}, {"q": ["a", "b"]},
                      metrics=["insq", "bpm@1", "nerr8@1"], relevance_threshold=2)
    expected = 1 / (4 * sum(1 / (i + 1) ** 2 for i in range(1, 1001)))
    assert report.mean["insq"] == pytest.approx(expected, rel=1e-13)
    assert report.mean["bpm@1"] == 1.0 and report.mean["nerr8@1"] == 1.0


def test_max_rel_must_be_above_min_rel():
    from retrieval_metrics.errors import OptionError
    with pytest.raises(OptionError, match="max_rel"):
        evaluate({"q": {"a": 1}}, {"q": ["a"]}, metrics=["inst(min_rel=2,max_rel=1)"])


#: ours (Q: the gains' and quantity's parameters) -> cwl_eval's class and its arguments
RULER = {
    "nerr8(Q)@5": ("cwl_nerr", "NERReq8CWLMetric", (5,)),
    "nerr8(Q)@20": ("cwl_nerr", "NERReq8CWLMetric", (20,)),
    "nerr9(Q)@10": ("cwl_nerr", "NERReq9CWLMetric", (10,)),
    "nerr10(Q)": ("cwl_nerr", "NERReq10CWLMetric", (0.9,)),
    "nerr10(p=0.5,Q)": ("cwl_nerr", "NERReq10CWLMetric", (0.5,)),
    "nerr11(Q)": ("cwl_nerr", "NERReq11CWLMetric", (1.0,)),
    "nerr11(T=2,Q)": ("cwl_nerr", "NERReq11CWLMetric", (2.0,)),
    "inst(Q)": ("cwl_inst", "INSTCWLMetric", (1.0,)),
    "inst(T=3,Q)": ("cwl_inst", "INSTCWLMetric", (3.0,)),
    "insq(Q)": ("cwl_insq", "INSQCWLMetric", (1.0,)),
    "insq(T=2,Q)": ("cwl_insq", "INSQCWLMetric", (2.0,)),
    "bpm(Q)@10": ("cwl_bpm", "BPMCWLMetric", (1.0, 10)),
    "bpm(T=2,Q)@20": ("cwl_bpm", "BPMCWLMetric", (2.0, 20)),
    "bpm(T=0.5,Q)@3": ("cwl_bpm", "BPMCWLMetric", (0.5, 3)),
    "cwl_rbp(Q)": ("cwl_rbp", "RBPCWLMetric", (0.8,)),
    "cwl_rbp(p=0.95,Q)": ("cwl_rbp", "RBPCWLMetric", (0.95,)),
    "tbg(Q)": ("cwl_tbg", "TBGCWLMetric", (224,)),
    "tbg(halflife=5,Q)": ("cwl_tbg", "TBGCWLMetric", (5.0,)),
}
#: cwl_eval's five numbers, in get_scores()'s order
QUANTITIES = ("eu", "etu", "ec", "etc", "ed")


def _name(pattern: str, params: str) -> str:
    """``nerr10(p=0.5,Q)`` with Q = ``max_rel=3,quantity=etu`` (or ``quantity=etu``)."""
    return pattern.replace("Q", params)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("scale", ["max_rel=3", "binary"])
def test_every_quantity_equals_cwl_eval(seed, scale, tmp_path):
    """Every C/W/L measure x cwl_eval's five numbers (EU, ETU, EC, ETC, ED), per query, against
    cwl_eval's ruler (its Ranking of gains from its own gain-file reader, no cost file, depth
    1000) on generated cases: graded, unjudged documents, rankings of 1 to 90 documents and one
    of 1,100 (past cwl_eval's 1000)."""
    import importlib

    from cwl.ruler.ranking import RankingMaker
    from cwl.seeker.trec_qrel_handler import TrecQrelHandler

    qrels, run = _case(seed + 20)
    level = 2 if scale == "binary" else 1
    gain_file = tmp_path / "gains.qrels"
    if scale == "binary":  # grade >= the relevance threshold (2): gain 1, else 0
        gains = {(q, d): 1.0 if g >= level else 0.0 for q, d, g in qrels}
    else:  # min(max(g, 0), 3) / 3, ir_measures' scaling for cwl_eval
        gains = {(q, d): min(max(g, 0), 3) / 3 for q, d, g in qrels}
    gain_file.write_text("".join(f"{q} 0 {d} {g!r}\n" for (q, d), g in gains.items()))
    handler = TrecQrelHandler(str(gain_file))
    extra = "" if scale == "binary" else "max_rel=3,"
    names = {(pattern, quantity): _name(pattern, f"{extra}quantity={quantity}")
             for pattern in RULER for quantity in QUANTITIES}
    report = _evaluate(qrels, run, names.values(), level=level)
    keys = {name: parse_metric(name).key for name in names.values()}
    by_query: dict[str, list[str]] = {}
    for q, d, _s in run:
        by_query.setdefault(q, []).append(d)
    assert max(len(docs) for docs in by_query.values()) > 1000
    compared, largest = 0, 0.0
    for q, docs in by_query.items():
        for pattern, (module, cls, args) in RULER.items():
            maker = RankingMaker(q, handler, None, max_gain=1.0, min_gain=0.0, max_cost=1.0,
                                 min_cost=1.0, max_n=1000)
            for doc in docs:
                maker.add(doc, "_")
            metric = getattr(importlib.import_module(f"cwl.ruler.measures.{module}"), cls)(*args)
            metric.measure(maker.get_ranking())
            for quantity, expected in zip(QUANTITIES, metric.get_scores()):
                ours = report.per_query[q][keys[names[pattern, quantity]]]
                expected = float(expected)
                assert ours == pytest.approx(expected, rel=1e-12, abs=1e-15), (q, pattern, quantity)
                largest = max(largest, abs(ours - expected) / max(abs(expected), 1e-300))
                compared += 1
    assert compared == len(by_query) * len(RULER) * len(QUANTITIES)
    assert largest < 1e-12


def test_quantity_names():
    """quantity=eu is the measure itself (its key unchanged); words are read without regard
    to case; a word outside the five is refused, naming them."""
    from retrieval_metrics.errors import OptionError
    assert parse_metric("inst(quantity=EU)").key == "inst"
    assert parse_metric("bpm(T=2,quantity='ETU')@10").key == "bpm(T=2.0,quantity='etu')@10"
    assert parse_metric("tbg(quantity=\"ed\")") == parse_metric("tbg(quantity=ed)")
    with pytest.raises(OptionError, match="eu, etu, ec, etc, ed"):
        parse_metric("insq(quantity=depth)")
