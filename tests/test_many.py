"""evaluate_many and compare_many: every number recomputed here with numpy, scipy, statsmodels
and brute-force sign patterns from the per-query values of each run scored on its own."""

from __future__ import annotations

import itertools
import json
import math
import random
from fractions import Fraction

import numpy as np
import pytest
import retrieval_metrics
from retrieval_metrics import InputError, OptionError, evaluate
from retrieval_metrics.comparison.many import compare_many, evaluate_many
from retrieval_metrics.comparison.paired import compare
from retrieval_metrics.inputs.run_names import run_names
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests
from support import make_runs

K = [5, 10]
METRICS = ["recall", "precision", "mrr", "ndcg", "map"]


@pytest.fixture(scope="module")
def collection():
    return make_runs(30, 4, seed=3)


@pytest.fixture(scope="module")
def evaluations(collection):
    qrels, runs = collection
    return evaluate_many(qrels, runs, k=K, metrics=METRICS)


def per_query(report, key):
    return np.array([report.per_query[q][key] for q in sorted(report.per_query)])


# --- evaluate_many -------------------------------------------------------------------------------

def test_each_report_equals_evaluate(collection, evaluations):
    qrels, runs = collection
    assert evaluations.names == list(runs) and len(evaluations) == 4
    for name, run in runs.items():
        alone = evaluate(qrels, run, k=K, metrics=METRICS)
        assert evaluations[name].per_query == alone.per_query
        assert evaluations[name].mean == alone.mean
    assert evaluations.qrels.queries == 30
    data = json.loads(json.dumps(evaluations.to_dict(), allow_nan=False))
    assert set(data["reports"]) == set(runs)


def test_judgements_are_parsed_once(collection, monkeypatch):
    import importlib
    ev = importlib.import_module("retrieval_metrics.scoring.evaluate")  # the module, not the function
    calls = []
    real = ev.parse_qrels
    monkeypatch.setattr(ev, "parse_qrels", lambda *a, **kw: calls.append(1) or real(*a, **kw))
    qrels, runs = collection
    evaluate_many(qrels, runs, k=10)
    assert len(calls) == 1


def test_a_bad_run_is_named(collection):
    qrels, runs = collection
    bad = dict(runs, broken="q1 Q0 d1 1 0.5 x\nq1 Q0 d2 1\n")
    with pytest.raises(InputError) as info:
        evaluate_many(qrels, bad)
    assert info.value.source == "run broken" and info.value.line == 2
    assert info.value.message.startswith("run broken, line 2:")
    with pytest.raises(OptionError):
        evaluate_many(qrels, [])
    with pytest.raises(OptionError):
        evaluate_many(qrels, runs, k=0)


def test_public_names():
    assert retrieval_metrics.evaluate_many is evaluate_many
    assert retrieval_metrics.compare_many is compare_many


# --- compare_many: the table of means ------------------------------------------------------------

@pytest.mark.slow
def test_means_and_their_t_intervals(evaluations):
    result = compare_many(evaluations)
    assert result.systems == tuple(evaluations.names) and result.baseline == "run0"
    assert result.metrics == tuple(evaluations["run0"].keys)
    for name, report in evaluations.items():
        for key in result.metrics:
            values = per_query(report, key)
            got = result.means[name][key]
            low, high = sps.t.interval(0.95, len(values) - 1, loc=values.mean(), scale=sps.sem(values))
            assert got.n == 30
            assert got.mean == pytest.approx(values.mean(), abs=1e-15)
            assert got.mean == report.mean[key]
            assert (got.low, got.high) == (pytest.approx(low, abs=1e-12), pytest.approx(high, abs=1e-12))


def brute_force_p(deltas) -> float:
    """Exact two-sided sign-flip p over all 2^n patterns, in exact rational arithmetic."""
    exact = [Fraction(d) for d in deltas]
    observed = abs(sum(exact))
    hits = sum(abs(sum(s * d for s, d in zip(signs, exact))) >= observed
               for signs in itertools.product((1, -1), repeat=len(exact)))
    return hits / 2 ** len(exact)


def independent(evaluations, baseline, test):
    """Everything for every (system, metric) from numpy / scipy; p-values raw."""
    base = evaluations[baseline]
    out = {}
    for name, report in evaluations.items():
        if name == baseline:
            continue
        for key in base.keys:
            b, c = per_query(base, key), per_query(report, key)
            d = c - b
            row = {"delta": c.mean() - b.mean(), "wins": int((c > b).sum()),
                   "ties": int((c == b).sum()), "losses": int((c < b).sum())}
            sd = d.std(ddof=1)
            row["effect"] = d.mean() / sd if sd > 0 else None
            if sd > 0:
                row["ci"] = sps.t.interval(0.95, len(d) - 1, loc=d.mean(), scale=sps.sem(d))
            if test == "t":
                row["p"] = sps.ttest_rel(c, b).pvalue if sd > 0 else None
            out[name, key] = row
    return out


@pytest.mark.slow
@pytest.mark.parametrize("correction, method", [("holm", "holm"), ("bonferroni", "bonferroni"),
                                                ("bh", "fdr_bh")])
def test_t_test_differences_and_corrections(evaluations, correction, method):
    result = compare_many(evaluations, "run1", test="t", correction=correction, alpha=0.05)
    expected = independent(evaluations, "run1", "t")
    family = [pair for pair, row in expected.items() if row["p"] is not None]
    reject, corrected, _, _ = multipletests([expected[pair]["p"] for pair in family], 0.05, method)
    decided = dict(zip(family, zip(corrected, reject)))
    assert result.family_size == len(family)
    assert set(result.differences) == {"run0", "run2", "run3"}
    for (name, key), row in expected.items():
        got = result.differences[name][key]
        assert got.delta == pytest.approx(row["delta"], abs=1e-14)
        assert (got.wins, got.ties, got.losses) == (row["wins"], row["ties"], row["losses"])
        assert got.n == 30 and got.method == "t"
        if row["effect"] is None:
            assert got.effect_size is None and got.p_value is None and got.p_corrected is None
            continue
        assert got.effect_size == pytest.approx(row["effect"], rel=1e-12)
        assert (got.low, got.high) == (pytest.approx(row["ci"][0], abs=1e-12),
                                       pytest.approx(row["ci"][1], abs=1e-12))
        assert got.p_value == pytest.approx(row["p"], rel=1e-9, abs=1e-15)
        p_corrected, rejected = decided[name, key]
        assert got.p_corrected == pytest.approx(p_corrected, rel=1e-9, abs=1e-15)
        assert got.significant == bool(rejected)
        assert got.marker == (None if not rejected else "better" if row["delta"] > 0 else "worse")
    # the generated runs get better with i: run3 significantly beats run1 somewhere
    assert ("run3", "better") in {(s, m) for s, _, m in result.significant()}


@pytest.mark.slow
def test_randomisation_is_compares_test(evaluations):
    """The default test is compare()'s sign-flip test, with the same numbers."""
    result = compare_many(evaluations, samples=2000, seed=3)
    for name in ("run1", "run2", "run3"):
        single = compare(evaluations["run0"], evaluations[name], samples=2000, seed=3)
        for record in single.metrics:
            got = result.differences[name][record.metric]
            assert (got.delta, got.wins, got.ties, got.losses, got.p_value, got.method, got.min_p) == (
                record.delta, record.wins, record.ties, record.losses, record.p_value,
                "sampled", record.min_p)


@pytest.mark.slow
def test_randomisation_exact_p_by_brute_force():
    """12 queries: exact test; p recounted over all 4,096 sign patterns in rationals."""
    qrels, runs = make_runs(12, 3, seed=8)
    evaluations = evaluate_many(qrels, runs, k=5, metrics=["ndcg", "precision"])
    result = compare_many(evaluations, correction="none")
    for name in ("run1", "run2"):
        for key in result.metrics:
            d = per_query(evaluations[name], key) - per_query(evaluations["run0"], key)
            got = result.differences[name][key]
            assert got.method == "exact" and got.min_p == 2 / 2 ** 12
            assert got.p_value == pytest.approx(brute_force_p(d.tolist()), abs=1e-15)
            assert got.p_corrected == got.p_value


@pytest.mark.slow
def test_bootstrap_test(evaluations):
    result = compare_many(evaluations, test="bootstrap", samples=4000, seed=2)
    assert result.ci_method == "bca" and result.samples == 4000
    again = compare_many(evaluations, test="bootstrap", samples=4000, seed=2)
    assert result.differences == again.differences          # seeded: the same numbers
    expected = independent(evaluations, "run0", "bootstrap")
    for (name, key), row in expected.items():
        got = result.differences[name][key]
        assert 1 / 4001 <= got.p_value <= 1
        if got.low is not None:
            assert got.low <= row["delta"] + 1e-12 and row["delta"] <= got.high + 1e-12
            # close to the t interval for 30 queries (both estimate the mean's spread)
            assert got.low == pytest.approx(row["ci"][0], abs=0.5 * (row["ci"][1] - row["ci"][0]))
    percentile = compare_many(evaluations, test="bootstrap", samples=4000, seed=2,
                              bootstrap_ci="percentile")
    assert percentile.ci_method == "percentile"
    assert "bootstrap percentile" in percentile.describe()


@pytest.mark.slow
def test_baseline_choice_and_options(evaluations):
    assert compare_many(evaluations, "run2").baseline == "run2"
    assert evaluations.compare("run3").baseline == "run3"
    with pytest.raises(OptionError, match="not one of the runs"):
        compare_many(evaluations, "nope")
    for options in ({"test": "wilcoxon"}, {"correction": "sidak"}, {"alpha": 0},
                    {"alpha": 1.5}, {"confidence": "high"}, {"samples": 0}, {"bootstrap_ci": "basic"}):
        with pytest.raises(OptionError):
            compare_many(evaluations, **options)


@pytest.mark.slow
def test_reports_as_dicts_and_one_system(evaluations):
    saved = {name: json.loads(json.dumps(report.to_dict())) for name, report in evaluations.items()}
    from_dicts = compare_many(saved, test="t")
    from_reports = compare_many(evaluations, test="t")
    assert from_dicts.differences == from_reports.differences
    alone = compare_many({"only": evaluations["run0"]})
    assert alone.differences == {} and alone.family_size == 0
    assert alone.means["only"]["ndcg@10"].mean == evaluations["run0"].mean["ndcg@10"]


@pytest.mark.slow
def test_to_dict_is_strict_json(evaluations):
    data = compare_many(evaluations, test="t").to_dict()
    text = json.dumps(data, allow_nan=False)
    back = json.loads(text)
    assert back["baseline"] == "run0" and back["test"] == "t" and back["correction"] == "holm"
    assert back["means"]["run1"]["ndcg@10"]["n"] == 30
    assert set(back["differences"]) == {"run1", "run2", "run3"}
    assert back["differences"]["run1"]["ndcg@10"].keys() >= {
        "delta", "low", "high", "wins", "ties", "losses", "effect_size", "p_value",
        "p_corrected", "significant", "marker"}


def test_hand_worked_three_queries():
    """Two systems, three queries. Differences 0.5, 0.5, 0: mean 1/3, sd 0.288675 (ddof 1),
    effect 1.1547; t = (1/3) / (0.288675 / sqrt 3) = 2.0, df 2, p = 0.1835 (t table);
    sign flips: |+-0.5 +-0.5 +-0| = 1 for 4 of 8 patterns: p = 0.5."""
    base = {"per_query": {"a": {"m": 0.0}, "b": {"m": 0.5}, "c": {"m": 1.0}}}
    cand = {"per_query": {"a": {"m": 0.5}, "b": {"m": 1.0}, "c": {"m": 1.0}}}
    t = compare_many({"base": base, "cand": cand}, test="t").differences["cand"]["m"]
    assert t.effect_size == pytest.approx(1 / 3 / math.sqrt(1 / 12), rel=1e-12)
    assert t.p_value == pytest.approx(2 * (1 - 0.5 * (1 + 2 / math.sqrt(6))), rel=1e-12)  # df=2 cdf
    assert (t.wins, t.ties, t.losses) == (2, 1, 0)
    r = compare_many({"base": base, "cand": cand}).differences["cand"]["m"]
    assert r.p_value == 0.5 and r.p_corrected == 0.5
    means = compare_many({"base": base, "cand": cand}).means
    assert means["base"]["m"].mean == 0.5 and means["cand"]["m"].mean == pytest.approx(2.5 / 3)


@pytest.mark.slow
def test_notices(collection):
    qrels, runs = collection
    a = evaluate_many(qrels, {"a": runs["run0"]}, k=5, metrics=["ndcg"])["a"]
    b = evaluate_many(qrels, {"b": runs["run1"]}, k=5, metrics=["ndcg", "recall"])["b"]
    result = compare_many({"a": a, "b": b})
    assert result.metrics == ("ndcg@5",)
    codes = [n.code for n in result.notices]
    assert "metrics_not_compared" in codes
    small = compare_many({"x": {"per_query": {"q": {"m": 0.1}, "r": {"m": 0.2}}},
                          "y": {"per_query": {"q": {"m": 0.3}, "r": {"m": 0.1}}}})
    assert "too_few_queries" in [n.code for n in small.notices]


@pytest.mark.parametrize("paths, names", [
    (["runs/bm25.trec", "runs/dense.trec"], ["bm25", "dense"]),
    (["a/run.txt", "b/run.txt", "c/other.txt"], ["a/run", "b/run", "other"]),
    (["x/a/run", "y/a/run"], ["x/a/run", "y/a/run"]),
    (["same.run", "same.run"], ["same", "same (2)"]),
    (["-", "results.test"], ["stdin", "results"]),
    ([".hidden"], [".hidden"]),
])
def test_run_names(paths, names):
    assert run_names(paths) == names


@pytest.mark.slow
def test_all_pairs(evaluations):
    """pairs="all": every pair tested once (t-test), Holm over every pair and metric, and
    beats() from the corrected decisions; recomputed with scipy and statsmodels."""
    result = compare_many(evaluations, test="t", pairs="all")
    names = list(evaluations)
    keys = evaluations["run0"].keys
    family, ps = [], []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            for key in keys:
                x, y = per_query(evaluations[a], key), per_query(evaluations[b], key)
                if np.std(y - x) > 0:
                    family.append((b, a, key, (y - x).mean()))
                    ps.append(sps.ttest_rel(y, x).pvalue)
    reject, corrected, _, _ = multipletests(ps, 0.05, "holm")
    assert result.family_size == len(family) and result.pairs == "all"
    expected_beats = {(n, k): set() for n in names for k in keys}
    for (b, a, key, delta), p, pc, r in zip(family, ps, corrected, reject):
        forward, backward = result.pairwise[b][a][key], result.pairwise[a][b][key]
        assert forward.p_value == pytest.approx(p, rel=1e-9)
        assert forward.p_corrected == backward.p_corrected == pytest.approx(pc, rel=1e-9)
        assert forward.delta == pytest.approx(delta, abs=1e-14) and backward.delta == -forward.delta
        assert (backward.wins, backward.losses) == (forward.losses, forward.wins)
        if r:
            expected_beats[(b if delta > 0 else a), key].add(a if delta > 0 else b)
    beats = result.beats()
    assert {(n, k): set(beats[n][k]) for n in names for k in keys} == expected_beats
    assert any(expected_beats.values())
    # the differences from the baseline are the pairwise ones
    assert result.differences["run2"] == result.pairwise["run2"]["run0"]
    data = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert data["pairs"] == "all" and set(data["pairwise"]) == set(names)
    with pytest.raises(OptionError):
        compare_many(evaluations, pairs="some")


@pytest.mark.slow
def test_beats_with_the_baseline_pairs(evaluations):
    result = compare_many(evaluations, test="t")
    for system, metric, marker in result.significant():
        if marker == "better":
            assert "run0" in result.beats()[system][metric]
        else:
            assert system in result.beats()["run0"][metric]
    assert result.pairwise == {}


@pytest.mark.slow
def test_a_subset_of_metrics_is_a_smaller_family(evaluations):
    """Holm over 2 metrics x 3 systems = 6 p-values: each corrected p recomputed."""
    result = compare_many(evaluations, test="t", metrics=["ndcg@10", "map"])
    assert result.metrics == ("ndcg@10", "map") and result.family_size == 6
    ps = [result.differences[s][m].p_value for s in ("run1", "run2", "run3") for m in ("ndcg@10", "map")]
    corrected = multipletests(ps, 0.05, "holm")[1]
    got = [result.differences[s][m].p_corrected for s in ("run1", "run2", "run3") for m in ("ndcg@10", "map")]
    assert got == pytest.approx(list(corrected), rel=1e-12)
    with pytest.raises(OptionError, match="keys every report has"):
        compare_many(evaluations, metrics=["ndcg@100"])
    with pytest.raises(OptionError):
        compare_many(evaluations, metrics=[])


def test_a_list_of_paths(collection, tmp_path):
    qrels, runs = collection
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    paths = [tmp_path / "a" / "run.trec", tmp_path / "b" / "run.trec", tmp_path / "bm25.txt"]
    for path, text in zip(paths, runs.values()):
        path.write_text(text)
    evaluations = evaluate_many(qrels, [str(p) for p in paths], k=10)
    assert evaluations.names == ["a/run", "b/run", "bm25"]
    assert evaluations["bm25"].per_query == evaluate(qrels, runs["run2"], k=10).per_query
    assert evaluate_many(qrels, paths, k=10).names == ["a/run", "b/run", "bm25"]   # pathlib too
    with pytest.raises(OptionError, match="no such file"):
        evaluate_many(qrels, [str(tmp_path / "missing.trec")])


def test_topic_set_analysis_only_when_asked_for_and_the_same_when_added_later():
    from retrieval_metrics.comparison.many import compare_many, with_topic_sets
    from retrieval_metrics.comparison.power import power_analysis
    rng = random.Random(4)
    base = {f"q{i}": {"ndcg@10": rng.random()} for i in range(30)}
    runs = {"base": {"per_query": base},
            "new": {"per_query": {q: {"ndcg@10": min(1.0, v["ndcg@10"] + rng.gauss(0.05, 0.1))}
                                  for q, v in base.items()}}}
    plain = compare_many(runs)
    assert plain.power == {} and plain.to_dict()["power"] == {}
    asked = compare_many(runs, topic_sets=True, power=0.9)
    deltas = [runs["new"]["per_query"][q]["ndcg@10"] - base[q]["ndcg@10"] for q in sorted(base)]
    assert asked.power["new"]["ndcg@10"] == power_analysis(deltas, 0.05, 0.9, None)
    assert with_topic_sets(compare_many(runs, power=0.9), runs).power == asked.power
    assert asked.differences == plain.differences  # the tests do not change
