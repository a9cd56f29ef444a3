"""judged_only=True on any measure: against pytrec_eval's judged_docs_only_flag (trec_eval -J)
for trec_eval's measures, and against the peer run on the ranking the test itself strips of
its unjudged documents for the others (ndeval, cwl_eval, ir_measures' Compat), as ir_measures'
judged_only does."""

from __future__ import annotations

import random

import pytest
from retrieval_metrics import evaluate
from retrieval_metrics.errors import OptionError
from retrieval_metrics.measures.grammar import parse_metric

pytrec_eval = pytest.importorskip("pytrec_eval")

#: ours (judged-only) -> pytrec_eval's
TREC = {"P(judged_only=True)@5": "P_5", "precision(judged_only=true)@10": "P_10",
        "map(judged_only=True)": "map", "rr(judged_only=True)": "recip_rank",
        "ndcg(judged_only=True)@10": "ndcg_cut_10", "ndcg(judged_only=True)": "ndcg",
        "recall(judged_only=True)@10": "recall_10", "rprec(judged_only=True)": "Rprec",
        "hit_rate(judged_only=True)@3": "success_3", "ap(judged_only=True)@10": "map_cut_10",
        "bpref(judged_only=True)": "bpref"}


def _case(seed: int, queries: int = 20):
    rng = random.Random(seed)
    judged, ranked = {}, {}
    for q in range(queries):
        docs = [f"d{i}" for i in range(rng.randint(1, 30))]
        judged[str(q)] = {d: rng.choice((-1, 0, 0, 1, 1, 2)) for d in docs}
        pool = docs + [f"u{i}" for i in range(rng.randint(0, 30))]
        ranked[str(q)] = rng.sample(pool, rng.randint(1, len(pool)))
    return judged, ranked


def _scores(ranked):
    return {q: {d: 1000.0 - i for i, d in enumerate(docs)} for q, docs in ranked.items()}


def _judged_only(ranked, judged):
    return {q: [d for d in docs if judged.get(q, {}).get(d, -1) >= 0]
            for q, docs in ranked.items()}


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("level", (1, 2))
def test_trec_measures_equal_pytrec_eval_minus_J(seed, level):
    judged, ranked = _case(seed)
    report = evaluate(judged, ranked, metrics=list(TREC), relevance_threshold=level,
                      zero_division=0)
    theirs = pytrec_eval.RelevanceEvaluator(judged, set(TREC.values()), relevance_level=level,
                                            judged_docs_only_flag=True).evaluate(_scores(ranked))
    compared = 0
    for query, values in report.per_query.items():
        for ours, name in TREC.items():
            key = parse_metric(ours).key
            assert values[key] == pytest.approx(theirs[query][name], abs=1e-12), (query, ours)
            compared += 1
    assert compared == 20 * len(TREC)
    # and it is not the measure without the flag
    plain = evaluate(judged, ranked, metrics=["map"], relevance_threshold=level, zero_division=0)
    assert plain.mean["map"] != report.mean["map(judged_only=True)"]


def test_other_measures_on_the_stripped_ranking():
    """Diversity, C/W/L and Compat: judged-only equals the measure on the ranking the test
    strips itself (the peers' judged_only is that filter)."""
    judged, ranked = _case(7)
    names = ["alpha_ndcg@10", "nrbp", "st_recall@5", "inst(max_rel=2)", "nerr8@5", "compat",
             "err@10", "rbp(p=0.5)", "tbg"]
    flagged = [n.replace("@", "(judged_only=True)@") if "@" in n and "(" not in n else
               n.replace(")", ",judged_only=True)") if "(" in n else n + "(judged_only=True)"
               for n in names]
    ours = evaluate(judged, ranked, metrics=flagged, zero_division=0)
    stripped = evaluate(judged, _judged_only(ranked, judged), metrics=names, zero_division=0)
    for name, flag in zip(names, flagged):
        key, flag_key = parse_metric(name).key, parse_metric(flag).key
        assert "judged_only=True" in flag_key
        for query in stripped.per_query:
            assert ours.per_query[query][flag_key] == stripped.per_query[query][key], (query, name)


def test_pyndeval_on_the_judged_only_ranking():
    pyndeval = pytest.importorskip("pyndeval")
    rng = random.Random(3)
    qrels, lines = [], []
    for q in range(8):
        docs = [f"d{i}" for i in range(rng.randint(2, 20))]
        for d in docs:
            for s in rng.sample(range(1, 5), rng.randint(1, 4)):
                qrels.append((str(q), str(s), d, rng.choice((0, 1, 1))))
        ranked = rng.sample(docs + [f"u{i}" for i in range(10)], rng.randint(2, len(docs) + 10))
        lines += [(str(q), d, 100.0 - i) for i, d in enumerate(ranked)]
    judged_docs = {(q, d) for q, _s, d, _g in qrels}
    kept = [row for row in lines if (row[0], row[1]) in judged_docs]
    theirs = pyndeval.RelevanceEvaluator(
        [pyndeval.SubtopicQrel(*r) for r in sorted(qrels, key=lambda r: int(r[1]))],
        ["alpha-nDCG@10", "P-IA@5"]).evaluate([pyndeval.ScoredDoc(*r) for r in kept])
    report = evaluate("".join(f"{q} {s} {d} {g}\n" for q, s, d, g in qrels),
                      "".join(f"{q} Q0 {d} 1 {x!r} t\n" for q, d, x in lines),
                      metrics=["alpha_ndcg(judged_only=True)@10", "p_ia(judged_only=True)@5"],
                      zero_division=0, missing="skip")
    for query, values in theirs.items():
        assert report.per_query[query]["alpha_ndcg(judged_only=True)@10"] == values["alpha-nDCG@10"]
        assert report.per_query[query]["p_ia(judged_only=True)@5"] == values["P-IA@5"]


def test_spellings():
    assert parse_metric("nDCG(judged_only=True)@10").key == "ndcg_judged@10"  # kept as it was
    assert parse_metric("ndcg(judged_only=False)@10").key == "ndcg@10"
    spec = parse_metric("rbp(p=0.5, judged_only=True)")
    assert parse_metric(spec.key) == spec
    with pytest.raises(OptionError, match="judged_only must be True or False"):
        parse_metric("P(judged_only=maybe)@5")
