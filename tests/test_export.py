"""The paper tables (LaTeX, Markdown) and the CSV of a many-run comparison: structure checked
by parsing the text, numbers against means and t-tests recomputed with numpy / scipy /
statsmodels from each run's per-query values."""

from __future__ import annotations

import csv
import io
import re

import numpy as np
import pytest
from retrieval_metrics.comparison.many import compare_many, evaluate_many
from retrieval_metrics.comparison.tables import latex_escape, many_csv, many_table, to_latex, to_markdown
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests
from support import make_runs

KEYS = ["recall@5", "precision@5", "ndcg@5", "ndcg@10"]


@pytest.fixture(scope="module")
def evaluations():
    qrels, runs = make_runs(30, 4, seed=3)
    runs = {"bm25_base": runs["run0"], "dense%v2": runs["run1"], "rerank": runs["run3"],
            "hybrid": runs["run2"]}
    return evaluate_many(qrels, runs, k=[5, 10], metrics=["recall", "precision", "ndcg"])


@pytest.fixture(scope="module")
def comparison(evaluations):
    return compare_many(evaluations, test="t", correction="holm", alpha=0.05)


def values(report, key):
    return np.array([report.per_query[q][key] for q in sorted(report.per_query)])


def expected_table(evaluations, digits=4):
    """Means rounded as shown, the best per column, and the markers from scipy's ttest_rel and
    statsmodels' Holm over every (system, metric)."""
    names = list(evaluations)
    keys = evaluations[names[0]].keys
    shown = {(n, k): f"{values(evaluations[n], k).mean():.{digits}f}" for n in names for k in keys}
    best = {k: {n for n in names if float(shown[n, k]) == max(float(shown[m, k]) for m in names)}
            for k in keys}
    family, ps = [], []
    for n in names[1:]:
        for k in keys:
            b, c = values(evaluations[names[0]], k), values(evaluations[n], k)
            if (c - b).std() > 0:
                family.append((n, k, (c - b).mean()))
                ps.append(sps.ttest_rel(c, b).pvalue)
    reject = multipletests(ps, 0.05, "holm")[0]
    markers = {(n, k): ("better" if delta > 0 else "worse")
               for (n, k, delta), r in zip(family, reject) if r}
    return names, keys, shown, best, markers


@pytest.mark.slow
def test_latex_structure_and_numbers(evaluations, comparison):
    text = to_latex(comparison)
    names, keys, shown, best, markers = expected_table(evaluations)
    lines = text.strip().split("\n")
    body = [line for line in lines if not line.startswith("%")]
    assert body[0] == r"\begin{tabular}{l" + "r" * len(keys) + "}"
    assert body[1] == r"\toprule" and body[3] == r"\midrule" and body[-1] == r"\end{tabular}"
    assert body[2] == r"System & Recall@5 & Recall@10 & Precision@5 & Precision@10 & nDCG@5 & nDCG@10 \\"
    rows = body[4:4 + len(names)]
    assert body[4 + len(names)] == r"\bottomrule"
    legend = body[5 + len(names)]
    assert legend.startswith(r"\multicolumn{7}{l}{\footnotesize $^{\uparrow}$/$^{\downarrow}$: "
                             r"significantly better/worse than bm25\_base (two-sided paired t-test, Holm")
    assert r"$\alpha = 0.05$" in legend and legend.endswith(r"} \\")
    assert text.count("{") == text.count("}")
    for name, row in zip(names, rows):
        assert row.endswith(r" \\")
        cells = row[:-3].split(" & ")
        assert len(cells) == len(keys) + 1
        assert cells[0] == latex_escape(name) + (" (baseline)" if name == names[0] else "")
        for key, cell in zip(keys, cells[1:]):
            number = shown[name, key]
            expected = rf"\textbf{{{number}}}" if name in best[key] else number
            marker = markers.get((name, key))
            if marker:
                expected += r"$^{\uparrow}$" if marker == "better" else r"$^{\downarrow}$"
            assert cell == expected, (name, key)
    assert markers  # the fixture has significant differences, so the markers are exercised
    assert r"bm25\_base" in text and r"dense\%v2" in text


@pytest.mark.slow
def test_markdown_structure_and_numbers(evaluations, comparison):
    text = to_markdown(comparison, digits=3)
    names, keys, shown, best, markers = expected_table(evaluations, digits=3)
    lines = text.rstrip("\n").split("\n")
    assert lines[0] == "| System | Recall@5 | Recall@10 | Precision@5 | Precision@10 | nDCG@5 | nDCG@10 |"
    assert lines[1] == "| :--- | ---: | ---: | ---: | ---: | ---: | ---: |"
    for name, row in zip(names, lines[2:2 + len(names)]):
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", row)[1:-1]]
        assert cells[0] == name.replace("_", "\\_") + (" (baseline)" if name == names[0] else "")
        for key, cell in zip(keys, cells[1:]):
            expected = f"**{shown[name, key]}**" if name in best[key] else shown[name, key]
            expected += {"better": "\u2191", "worse": "\u2193"}.get(markers.get((name, key)), "")
            assert cell == expected
    assert lines[2 + len(names)] == ""
    assert lines[3 + len(names)].startswith("\u2191/\u2193: significantly better/worse than bm25\\_base")
    assert "\u03b1 = 0.05" in lines[-1]


@pytest.mark.slow
def test_intervals_in_cells(evaluations, comparison):
    text = to_markdown(comparison, intervals=True)
    v = values(evaluations["hybrid"], "ndcg@10")
    low, high = sps.t.interval(0.95, len(v) - 1, loc=v.mean(), scale=sps.sem(v))
    assert f"{v.mean():.4f}" in text and f"[{low:.4f}, {high:.4f}]" in text
    assert f"[{low:.4f}, {high:.4f}]" in to_latex(comparison, intervals=True)


def test_csv_rows(evaluations, comparison):
    rows = list(csv.DictReader(io.StringIO(many_csv(comparison))))
    assert len(rows) == 4 * 6
    by = {(r["system"], r["metric"]): r for r in rows}
    base = by["bm25_base", "ndcg@10"]
    assert base["baseline"] == "1" and base["delta"] == "" and base["p_value"] == ""
    b = values(evaluations["bm25_base"], "ndcg@10")
    c = values(evaluations["rerank"], "ndcg@10")
    row = by["rerank", "ndcg@10"]
    assert float(row["mean"]) == pytest.approx(c.mean(), abs=1e-15)
    assert float(row["delta"]) == pytest.approx((c - b).mean(), abs=1e-14)
    assert float(row["p_value"]) == pytest.approx(sps.ttest_rel(c, b).pvalue, rel=1e-9)
    assert (int(row["wins"]), int(row["ties"]), int(row["losses"])) == (
        int((c > b).sum()), int((c == b).sum()), int((c < b).sum()))


def test_terminal_table(comparison):
    text = many_table(comparison)
    assert text.startswith("Two-sided paired t-test, Holm correction over ")
    assert "bm25_base (baseline)" in text and "Differences from bm25_base" in text
    assert "p (Holm)" in text


def test_one_system_has_no_legend(evaluations):
    alone = compare_many({"only": evaluations["hybrid"]})
    latex = to_latex(alone)
    assert "multicolumn" not in latex and r"\textbf{" in latex  # it is the best of one
    assert "\u2191/\u2193" not in to_markdown(alone)


def test_ties_in_the_shown_digits_are_all_bold():
    a = {"per_query": {"q1": {"m": 0.12341}, "q2": {"m": 0.5}}}
    b = {"per_query": {"q1": {"m": 0.12344}, "q2": {"m": 0.5}}}
    c = {"per_query": {"q1": {"m": 0.1}, "q2": {"m": 0.5}}}
    text = to_markdown(compare_many({"a": a, "b": b, "c": c}), digits=3)
    # means 0.311705, 0.31172, 0.3: shown 0.312, 0.312, 0.300
    assert "| a (baseline) | **0.312** |" in text and "| b | **0.312** |" in text
    assert "| c | 0.300 |" in text


@pytest.mark.slow
def test_all_pairs_superscripts(evaluations):
    result = compare_many(evaluations, test="t", pairs="all")
    beats = result.beats()
    letters = {name: "abcd"[i] for i, name in enumerate(result.systems)}
    latex = to_latex(result)
    markdown = to_markdown(result)
    for system in result.systems:
        row = next(line for line in latex.splitlines() if line.startswith(latex_escape(system) + " ("))
        assert row.startswith(f"{latex_escape(system)} ({letters[system]}) & ")
        cells = row[:-3].split(" & ")[1:]
        md_row = next(line for line in markdown.splitlines() if line.startswith(f"| {system.replace('_', chr(92) + '_')} ("))
        md_cells = [c.strip() for c in re.split(r"(?<!\\)\|", md_row)[1:-1]][1:]
        for metric, cell, md in zip(result.metrics, cells, md_cells):
            beaten = "".join(letters[o] for o in result.systems if o in beats[system][metric])
            if beaten:
                assert cell.endswith(rf"$^{{\mathrm{{{beaten}}}}}$") and md.endswith(f"<sup>{beaten}</sup>")
            else:
                assert "$^" not in cell and "<sup>" not in md
    assert "Superscripts: the systems (by letter) this one is significantly better than" in latex
    assert any(beats[s][m] for s in beats for m in beats[s])
    rows = list(csv.DictReader(io.StringIO(many_csv(result))))
    assert {(r["system"], r["metric"]): r["beats"] for r in rows} == {
        (s, m): ";".join(beats[s][m]) for s in beats for m in beats[s]}
    assert "against" in many_table(result)


def test_undefined_means():
    """A metric with no defined value (zero_division="nan" everywhere) shows as -- in LaTeX
    and an en dash in Markdown, is never bold, and has no test."""
    a = {"per_query": {"q1": {"m": None, "n": 0.5}, "q2": {"m": None, "n": 0.25}}}
    b = {"per_query": {"q1": {"m": 0.5, "n": 1.0}, "q2": {"m": 1.0, "n": 0.75}}}
    result = compare_many({"a": a, "b": b})
    assert result.means["a"]["m"] == (None, None, None, 0)
    assert result.differences["b"]["m"].p_value is None and result.differences["b"]["m"].n == 0
    latex = to_latex(result)
    assert r"a (baseline) & -- & 0.3750 \\" in latex
    assert r"b & \textbf{0.7500} & \textbf{0.8750} \\" in latex
    assert "| a (baseline) | \u2013 | 0.3750 |" in to_markdown(result)
