"""``compat.ranx.compare`` and its ``Report`` against ranx 0.3 itself, and ranx's README usage
run unchanged against the compat module. The README's numbers (0.7861; 0.6416 and 0.75) are
ranx's documented outputs; the rest is ranx run on the same generated runs."""

import json
import math
import random

import pytest
from retrieval_metrics.compat import ranx as ours
from retrieval_metrics.compat.ranx.report import simple_table
from retrieval_metrics.errors import OptionError

METRICS = ["ndcg@10", "map@100", "mrr", "precision@5", "recall@10", "hits@5", "rbp.95",
           "ndcg_burges@10-l2", "bpref", "r-precision", "f1@10", "hit_rate@3"]


def generated(seed, queries=40, runs=("bm25", "dense", "hybrid_x")):
    rng = random.Random(seed)
    qrels = {f"q{i}": {f"d{j}": rng.choice([1, 1, 2, 3]) for j in rng.sample(range(30), rng.randint(1, 6))}
             for i in range(queries)}
    out = {}
    for name in runs:
        out[name] = {q: {f"d{j}": round(rng.random(), 6) for j in rng.sample(range(30), rng.randint(1, 15))}
                     for q in qrels}
    return qrels, out


def both(tool, qrels, runs, **options):
    return tool.compare(tool.Qrels(qrels), [tool.Run(run, name=name) for name, run in runs.items()],
                        METRICS, **options)


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("digits,percentages", [(3, False), (4, True), (2, False)])
def test_student_compare_equals_ranx(seed, digits, percentages):
    ranx = pytest.importorskip("ranx")
    qrels, runs = generated(seed)
    theirs = both(ranx, qrels, runs, max_p=0.05, rounding_digits=digits, show_percentages=percentages)
    mine = both(ours, qrels, runs, max_p=0.05, rounding_digits=digits, show_percentages=percentages)
    assert str(mine) == str(theirs)
    assert mine.to_latex() == theirs.to_latex()
    a, b = mine.to_dict(), theirs.to_dict()
    assert [a[k] for k in ("stat_test", "metrics", "model_names")] == \
        [b[k] for k in ("stat_test", "metrics", "model_names")]
    for model in runs:
        # numpy's mean, to the last bit (through JSON: ranx's bpref mean is NaN here, as ours)
        assert json.dumps(a[model]["scores"]) == json.dumps(b[model]["scores"])
        assert a[model]["win_tie_loss"] == b[model]["win_tie_loss"]
        # scipy's ttest_rel p-values, to the last bit (through JSON, so NaN equals NaN)
        assert json.dumps(a[model]["comparisons"]) == json.dumps(b[model]["comparisons"])


@pytest.mark.filterwarnings("ignore:Precision loss occurred:RuntimeWarning")
def test_student_p_values_equal_ttest_rel_bit_for_bit():
    """Generated score columns of every shape a comparison meets (few and many queries, ties,
    tiny and huge differences, constant shifts): the p-value is scipy's, bit for bit."""
    from retrieval_metrics.compat.ranx.report import student_t_p_value
    stats = pytest.importorskip("scipy.stats")
    rng = random.Random(17)
    checked = 0
    for _ in range(3000):
        n = rng.choice([2, 3, 5, 10, 25, 50, 100, 250, 1000, rng.randint(2, 400)])
        scale = rng.choice([1.0, 0.1, 1e-3, 1e-8])
        shift = rng.choice([0.0, 0.0, 0.01, 0.1, 0.5]) * rng.choice([1, -1])
        control = [round(rng.random(), rng.choice([1, 2, 4, 17])) for _ in range(n)]
        treatment = [min(1.0, max(0.0, c + shift + scale * rng.gauss(0, 1))) for c in control]
        if rng.random() < 0.05:
            treatment = [c + 0.25 for c in control]  # every query moves by the same amount
        expected = float(stats.ttest_rel(control, treatment).pvalue)
        got = student_t_p_value(control, treatment)
        assert got == expected or (math.isnan(got) and math.isnan(expected)), (n, got, expected)
        checked += not math.isnan(expected)
    assert checked > 2500


def test_fisher_compare_within_sampling_error_of_ranx():
    ranx = pytest.importorskip("ranx")
    qrels, runs = generated(3)
    theirs = both(ranx, qrels, runs, stat_test="fisher", max_p=0.05).to_dict()
    mine = both(ours, qrels, runs, stat_test="fisher", max_p=0.05).to_dict()
    for model in runs:
        assert json.dumps(mine[model]["scores"]) == json.dumps(theirs[model]["scores"])
        for other, p_values in theirs[model]["comparisons"].items():
            for metric, p in p_values.items():
                if math.isnan(p):
                    assert math.isnan(mine[model]["comparisons"][other][metric])
                    continue
                # 1,000 permutations each: the two estimates' standard error is at most
                # sqrt(2 * 0.25 / 1000) = 0.022; five of them apart would be a real difference
                assert abs(mine[model]["comparisons"][other][metric] - p) <= 0.11, (model, other, metric)


def test_identical_runs_give_nan_p_values_and_ties_as_ranx():
    ranx = pytest.importorskip("ranx")
    qrels, runs = generated(4, runs=("a",))
    runs["b"] = runs["a"]
    theirs = both(ranx, qrels, runs).to_dict()
    mine = both(ours, qrels, runs).to_dict()
    assert math.isnan(mine["a"]["comparisons"]["b"]["mrr"]) and math.isnan(theirs["a"]["comparisons"]["b"]["mrr"])
    assert mine["a"]["win_tie_loss"] == theirs["a"]["win_tie_loss"]
    assert mine["a"]["win_tie_loss"]["b"]["mrr"] == {"W": 0, "T": 40, "L": 0}


def test_ranx_readme_usage_runs_unchanged():
    """ranx's README "Usage", verbatim but for the import, with its documented outputs."""
    Qrels, Run, evaluate, compare = ours.Qrels, ours.Run, ours.evaluate, ours.compare
    qrels_dict = {"q_1": {"d_12": 5, "d_25": 3},
                  "q_2": {"d_11": 6, "d_22": 1}}
    run_dict = {"q_1": {"d_12": 0.9, "d_23": 0.8, "d_25": 0.7,
                        "d_36": 0.6, "d_32": 0.5, "d_35": 0.4},
                "q_2": {"d_12": 0.9, "d_11": 0.8, "d_25": 0.7,
                        "d_36": 0.6, "d_22": 0.5, "d_35": 0.4}}
    qrels = Qrels(qrels_dict)
    run = Run(run_dict)
    # the README prints the values cut to four decimals (0.64166... as 0.6416)
    assert math.floor(evaluate(qrels, run, "ndcg@5") * 1e4) / 1e4 == 0.7861
    assert {k: math.floor(v * 1e4) / 1e4 for k, v in evaluate(qrels, run, ["map@5", "mrr"]).items()} == \
        {"map@5": 0.6416, "mrr": 0.75}
    _, generated_runs = generated(5, queries=2, runs=[f"model_{i}" for i in range(1, 6)])
    run_1, run_2, run_3, run_4, run_5 = (Run({q: r for q, r in zip(qrels_dict, run.values())}, name=name)
                                         for name, run in generated_runs.items())
    report = compare(
        qrels=qrels,
        runs=[run_1, run_2, run_3, run_4, run_5],
        metrics=["map@100", "mrr@100", "ndcg@10"],
        max_p=0.01  # P-value threshold
    )
    lines = str(report).splitlines()
    assert lines[0].split() == ["#", "Model", "MAP@100", "MRR@100", "NDCG@10"]
    assert [line.split()[:2] for line in lines[2:]] == [[c, f"model_{i}"] for i, c in enumerate("abcde", 1)]
    assert "\\begin{tabular}{c|l|c|c|c}" in report.to_latex()


def test_report_saves_and_reads_back(tmp_path):
    qrels, runs = generated(6, queries=10)
    report = both(ours, qrels, runs)
    report.save(tmp_path / "report.json")
    assert json.loads((tmp_path / "report.json").read_text()) == json.loads(json.dumps(report.to_dict()))
    frame = report.to_dataframe()
    assert list(frame["model_names"]) == list(runs)


def test_tabulate_simple_format_as_tabulate():
    tabulate = pytest.importorskip("tabulate").tabulate
    cases = [
        ([["a", "x", "0.500", "12", "0.25ᵇ"], ["b", "long name", "0.417", "7", "0.125"]], ["#", "Model", "N", "I", "S"]),
        ([["a", "1", "1.000"], ["b", "2", "0.000"]], ["#", "Model", "NDCG@10"]),
        ([["a", "m", "32.0"], ["b", "n", "5.25"]], ["#", "Model", "A much longer heading"]),
    ]
    for rows, headers in cases:
        assert simple_table(rows, headers) == tabulate(tabular_data=rows, headers=headers)


@pytest.mark.slow  # the studentized range integrated for every pair and metric, twice
@pytest.mark.parametrize("seed, queries", [(3, 40), (4, 12), (5, 3)])
@pytest.mark.parametrize("max_p", [0.01, 0.05])
def test_tukey_compare_equals_ranx(seed, queries, max_p):
    """ranx's Tukey HSD (scipy's tukey_hsd over the runs as groups): the same significance
    marks and tables, and p-values within 1e-9 of scipy's (its integration's own error)."""
    ranx = pytest.importorskip("ranx")
    qrels, runs = generated(seed, queries=queries, runs=("bm25", "dense", "hybrid_x", "rm3"))
    theirs = both(ranx, qrels, runs, stat_test="tukey", max_p=max_p)
    mine = both(ours, qrels, runs, stat_test="tukey", max_p=max_p)
    assert str(mine) == str(theirs)
    assert mine.to_latex() == theirs.to_latex()
    a, b = mine.to_dict(), theirs.to_dict()
    for model in runs:
        for other, by_metric in b[model]["comparisons"].items():
            for metric, p in by_metric.items():
                q = a[model]["comparisons"][other][metric]
                assert (math.isnan(q) and math.isnan(p)) or abs(q - p) <= 1e-9, (model, other, metric)


def test_unknown_tests_are_refused_by_name():
    qrels, runs = generated(7, queries=5)
    with pytest.raises(OptionError, match="'student', 'fisher' or 'tukey'"):
        both(ours, qrels, runs, stat_test="wilcoxon")
    with pytest.raises(OptionError, match="n_permutations"):
        both(ours, qrels, runs, stat_test="fisher", n_permutations=0)


def test_fuse_fuses_and_optimize_fusion_reports():
    """fuse gives a fused run (tests/test_compat_ranx_fusion.py compares every method with
    ranx, and optimize_fusion's report); optimize_fusion finds parameters and, asked, every
    value it tried."""
    from retrieval_metrics.compat.ranx import fuse, optimize_fusion
    fused = fuse([ours.Run({"q": {"d": 1.0}}), ours.Run({"q": {"d": 2.0}})], norm=None,
                 method="sum")
    assert fused.to_dict() == {"q": {"d": 3.0}}
    qrels = ours.Qrels({"q": {"d": 1}})
    runs = [ours.Run({"q": {"d": 1.0, "e": 2.0}}), ours.Run({"q": {"d": 2.0, "e": 1.0}})]
    assert optimize_fusion(qrels, runs, method="rrf", metric="mrr") == {"k": 100}  # all tie
    best, report = optimize_fusion(qrels, runs, method="rrf", metric="mrr",
                                   return_optimization_report=True)
    assert best == {"k": 100} and report.configs == [str(k) for k in range(10, 101, 10)]
    # every k fuses d and e to equal scores, e ranked first (ranx's tie order): MRR 1/2
    assert report.results == [0.5] * 10 and "RRF" in str(report)
