"""ranx's ``compare`` and its ``Report``, standard library only: several runs evaluated with
ranx's names and numbers, every pair tested (Student's paired t-test, or Fisher's randomisation
test), wins / ties / losses counted, and the report printed as ranx prints it (its table, its
LaTeX and its dict), so code written for ranx's ``compare`` runs unchanged in the page.

The means are numpy's (``numpy_mean``), the t-test's p-values scipy's ``ttest_rel`` to the last
bit (its order of operations, and Student's t by scipy's own algorithm, ``compat.ranx.student_t``). ranx
draws the randomisation test's permutations with numba's generator, which Python does not have:
here each of ``n_permutations`` samples swaps each query's pair with probability 1/2 (seeded
by ``random_seed``), the same test, so its p-values agree with ranx's within sampling error.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass

from ...errors import OptionError
from ..numpy_order import numpy_mean
from .studentized_range import tukey_hsd_p_values

__all__ = ["Report", "compare_scores", "simple_table"]

CHARS = list("abcdefghijklmnopqrstuvwxyz")
SUPER_CHARS = list("ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖ۹ʳˢᵗᵘᵛʷˣʸᶻ")  # ranx's own (its "q" is an Arabic nine)
METRIC_LABELS = {
    "hits": "Hits", "hit_rate": "Hit Rate", "precision": "P", "recall": "Recall", "f1": "F1",
    "r-precision": "R-Prec", "mrr": "MRR", "map": "MAP", "dcg": "DCG",
    "dcg_burges": "DCG Burges", "ndcg": "NDCG", "ndcg_burges": "NDCG Burges", "bpref": "BPref",
    **{f"rbp.{i}": f"RBP.{i}" for i in range(1, 100)},
}
STAT_TEST_LABELS = {"fisher": "Fisher's randomization test",
                    "student": "paired Student's t-test", "tukey": "Tukey's HSD test"}


class PairDict(dict):
    """ranx's ``FrozensetDict``: a pair of models is one key in either order
    (``comparisons["a", "b"] is comparisons["b", "a"]``)."""

    def __getitem__(self, key):
        return super().__getitem__(frozenset(key))

    def __setitem__(self, key, value):
        super().__setitem__(frozenset(key), value)

    def __contains__(self, key):
        return super().__contains__(frozenset(key))


def student_t_p_value(control: list[float], treatment: list[float]) -> float:
    """scipy's ``ttest_rel(control, treatment).pvalue`` (two-sided), operation for operation:
    the differences' mean and their mean squared deviation summed in numpy's order, the sample
    variance as that times n / (n - 1), t = mean / sqrt(variance / n), and p = 2 stdtr(n - 1,
    -|t|) (scipy's own algorithm, ``compat.ranx.student_t``). Differences that do not vary give
    t = +-inf and p = 0 when their mean is not 0, NaN when it is (0 / 0), as in scipy."""
    from .student_t import stdtr
    d = [c - t for c, t in zip(control, treatment)]
    n = len(d)
    if n < 2:
        return math.nan
    mean = numpy_mean(d)
    variance = numpy_mean([(x - mean) * (x - mean) for x in d]) * (n / (n - 1))
    denominator = math.sqrt(variance / n)
    if denominator == 0.0:
        return math.nan if mean == 0.0 else 0.0
    return 2 * stdtr(float(n - 1), -abs(mean / denominator))


def fisher_p_value(control: list[float], treatment: list[float], n_permutations: int,
                   random_seed: int) -> float:
    """Fisher's randomisation test (two-sided) as ranx computes it: the share of
    ``n_permutations`` random relabellings whose difference of means is at least the observed
    one. Swapping the two runs gives the same value (the relabellings are the same)."""
    n = len(control)
    observed = abs(numpy_mean(control) - numpy_mean(treatment))
    draw = random.Random(random_seed).getrandbits
    at_least = 0
    for _ in range(n_permutations):
        bits = draw(n) if n else 0
        a = [t if bits >> i & 1 else c for i, (c, t) in enumerate(zip(control, treatment))]
        b = [c if bits >> i & 1 else t for i, (c, t) in enumerate(zip(control, treatment))]
        if abs(numpy_mean(a) - numpy_mean(b)) >= observed:
            at_least += 1
    return at_least / n_permutations


def compare_scores(scores: dict, metrics: list[str], stat_test: str = "student",
                   n_permutations: int = 1000, max_p: float = 0.01, random_seed: int = 42,
                   rounding_digits: int = 3, show_percentages: bool = False,
                   model_names: list | None = None) -> Report:
    """ranx's ``compare`` once the runs are evaluated: ``scores`` is ``{model: {metric:
    per-query values}}`` (every model over the same queries, in the same order); every pair is
    tested on every metric and its wins / ties / losses counted. ``stat_test``: "student"
    (ranx's default), "fisher", or "tukey" (scipy's Tukey HSD over the runs as independent
    groups, as ranx runs it: ``studentized_range``)."""
    if stat_test not in STAT_TEST_LABELS:
        raise OptionError("stat_test", f"stat_test must be 'student', 'fisher' or 'tukey', "
                          f"found {stat_test!r}")
    if not isinstance(n_permutations, int) or isinstance(n_permutations, bool) \
            or n_permutations < 1:
        raise OptionError("n_permutations", f"n_permutations must be a whole number of at least "
                          f"1, found {n_permutations!r}")
    model_names = list(scores) if model_names is None else list(model_names)
    results = {model: {m: numpy_mean(scores[model][m]) for m in metrics} for model in scores}
    comparisons = PairDict()
    win_tie_loss = {}
    tukey = {m: tukey_hsd_p_values([scores[name][m] for name in model_names])
             for m in metrics} if stat_test == "tukey" else {}
    for i, control in enumerate(model_names):
        for j, treatment in enumerate(model_names):
            if control == treatment:
                continue
            tested = {}
            for m in metrics:
                a, b = scores[control][m], scores[treatment][m]
                p = (tukey[m][i][j] if stat_test == "tukey"
                     else student_t_p_value(a, b) if stat_test == "student"
                     else fisher_p_value(a, b, n_permutations, random_seed))
                tested[m] = {"p_value": p, "significant": p <= max_p}
            comparisons[control, treatment] = tested
            win_tie_loss[(control, treatment)] = {m: _win_tie_loss(scores[control][m],
                                                                   scores[treatment][m])
                                                  for m in metrics}
    return Report(model_names, results, comparisons, list(metrics), max_p, win_tie_loss,
                  rounding_digits, show_percentages, stat_test)


def _win_tie_loss(control: list[float], treatment: list[float]) -> dict:
    """The queries where the control scores higher (W), the same (T), lower (L)."""
    pairs = list(zip(control, treatment))
    return {"W": sum(c > t for c, t in pairs), "T": sum(c == t for c, t in pairs),
            "L": sum(c < t for c, t in pairs)}


@dataclass(repr=False, eq=False)
class Report:
    """ranx's ``Report``: the means, the pairs' p-values and wins / ties / losses, printed as
    ranx prints them (``to_table``, ``to_latex``, ``to_dict``, ``save``); built with ranx's
    arguments, in ranx's order."""

    model_names: list
    results: dict
    comparisons: object
    metrics: list
    max_p: float
    win_tie_loss: dict
    rounding_digits: int = 3
    show_percentages: bool = False
    stat_test: str = "student"

    def format_score(self, score: float) -> str:
        if self.show_percentages:
            digits = max(0, self.rounding_digits - 2)
            return "%.{n}f".format(n=self.rounding_digits - 2) % round(score * 100, digits)
        return "%.{n}f".format(n=self.rounding_digits) % round(score, self.rounding_digits)

    def _better_than(self, model, metric) -> list[int]:
        """The indexes of the models ``model`` is significantly better than on ``metric``."""
        return [j for j, other in enumerate(self.model_names)
                if model != other and self.comparisons[model, other][metric]["significant"]
                and self.results[model][metric] > self.results[other][metric]]

    def get_superscript_for_table(self, model, metric) -> str:
        return "".join(SUPER_CHARS[j] for j in self._better_than(model, metric))

    def get_superscript_for_latex(self, model, metric) -> str:
        return "".join(CHARS[j] for j in self._better_than(model, metric))

    def get_phantoms_for_latex(self, model, metric) -> str:
        better = set(self._better_than(model, metric))
        return "".join(CHARS[j] for j, other in enumerate(self.model_names)
                       if other != model and j not in better)

    def get_metric_label(self, m: str) -> str:
        """ranx's label ("NDCG@10", "MAP@100-l2"); a name ranx has no label for is shown as
        it is (ranx raises KeyError there)."""
        m, level = m.split("-l", 1) if "-l" in m else (m, None)
        name, cutoff = m.split("@", 1) if "@" in m else (m, None)
        label = METRIC_LABELS.get(name, name) + (f"@{cutoff}" if cutoff is not None else "")
        return label + (f"-l{level}" if level is not None else "")

    def get_stat_test_label(self, stat_test: str) -> str:
        return STAT_TEST_LABELS[stat_test]

    def to_table(self) -> str:
        """The table ranx prints (tabulate's "simple" format, as ranx calls it)."""
        rows = []
        for i, (run, values) in enumerate(self.results.items()):
            rows.append([CHARS[i], run, *(f"{self.format_score(score)}"
                                          f"{self.get_superscript_for_table(run, metric)}"
                                          for metric, score in values.items())])
        headers = ["#", "Model", *(self.get_metric_label(m) for m in self.metrics)]
        return simple_table(rows, headers)

    def to_latex(self) -> str:
        """The LaTeX table ranx writes, character for character."""
        best = {}
        for m in self.metrics:
            best_model, best_score = None, 0.0
            for model in self.model_names:
                if best_score < round(self.results[model][m], self.rounding_digits):
                    best_score = round(self.results[model][m], self.rounding_digits)
                    best_model = model
            best[m] = best_model
        preamble = ("========================\n% Add in preamble\n\\usepackage{graphicx}\n"
                    "\\usepackage{booktabs}\n========================\n\n")
        prefix = ("% To change the table size, act on the resizebox argument `0.8`.\n"
                  "\\begin{table*}[ht]\n\\centering\n\\caption{\nOverall effectiveness of the "
                  "models.\nThe best results are highlighted in boldface.\nSuperscripts denote "
                  "significant differences in " + self.get_stat_test_label(self.stat_test)
                  + " with $p \\le " + str(self.max_p) + "$.\n}\n\\resizebox{0.8\\textwidth}{!}{"
                  + "\n\\begin{tabular}{c|l" + "|c" * len(self.metrics) + "}" + "\n\\toprule"
                  + "\n\\textbf{\\#}" + "\n& \\textbf{Model}"
                  + "".join(f"\n& \\textbf{{{self.get_metric_label(m)}}}" for m in self.metrics)
                  + " \\\\ \n\\midrule")
        content = []
        for i, model in enumerate(self.model_names):
            row = f"{CHARS[i]} &\n{model} &\n"
            cells = []
            for m in self.metrics:
                score = self.format_score(self.results[model][m])
                score = f"\\textbf{{{score}}}" if best[m] == model else score
                cells.append(f"{score}$^{{{self.get_superscript_for_latex(model, m)}}}$"
                             f"\\hphantom{{$^{{{self.get_phantoms_for_latex(model, m)}}}$}} &")
            cells[-1] = cells[-1][:-1]
            content.append(row + "\n".join(cells) + "\\\\")
        body = "\n".join(content).replace("_", "\\_").replace("$^{}$", "")
        suffix = "\\bottomrule\n\\end{tabular}\n}\n\\label{tab:results}\n\\end{table*}"
        return preamble + "\n" + prefix + "\n" + body + "\n" + suffix

    def to_dict(self) -> dict:
        """ranx's dict: ``stat_test``, ``metrics``, ``model_names``, then per model its
        ``scores``, ``comparisons`` (p-values) and ``win_tie_loss`` against every other."""
        out = {"stat_test": self.stat_test, "metrics": self.metrics,
               "model_names": self.model_names}
        for m1 in self.model_names:
            out[m1] = {"scores": self.results[m1], "comparisons": {}, "win_tie_loss": {}}
            for m2 in self.model_names:
                if m1 == m2:
                    continue
                out[m1]["comparisons"][m2] = {m: self.comparisons[m1, m2][m]["p_value"]
                                              for m in self.metrics}
                out[m1]["win_tie_loss"][m2] = {m: self.win_tie_loss[(m1, m2)][m]
                                               for m in self.metrics}
        return out

    def to_dataframe(self):
        """The means as a pandas DataFrame (pandas imported only now), as ranx makes it."""
        import pandas as pd
        d = self.to_dict()
        frame = pd.DataFrame.from_dict({name: d[name]["scores"] for name in d["model_names"]},
                                       orient="index")
        return frame.reset_index().rename(columns={"index": "model_names"})

    def save(self, path) -> None:
        """``to_dict`` as JSON (indent 4), as ranx saves it."""
        with open(path, "w") as f:
            f.write(json.dumps(self.to_dict(), indent=4))

    def print_results(self) -> None:
        print(json.dumps(self.results, indent=4))

    def __repr__(self) -> str:
        return self.to_table()

    __str__ = __repr__


def _cell_type(cell: str) -> int:
    """tabulate's type of a cell, as a rank: 1 bool, 2 int, 3 float, 5 str."""
    if cell in ("True", "False"):
        return 1
    try:
        int(cell)
        return 2
    except ValueError:
        pass
    try:
        number = float(cell)
    except ValueError:
        return 5
    if math.isinf(number) or math.isnan(number):
        return 3 if cell.lower() in ("inf", "-inf", "nan") else 5
    return 3


def _after_point(cell: str) -> int:
    """tabulate's ``_afterpoint``: the characters after the decimal point (-1: none)."""
    if _cell_type(cell) != 3:
        return -1
    pos = cell.rfind(".")
    pos = cell.lower().rfind("e") if pos < 0 else pos
    return len(cell) - pos - 1 if pos >= 0 else -1


def simple_table(rows: list[list[str]], headers: list[str]) -> str:
    """tabulate's "simple" table of string cells, as ranx calls it (``tabulate(rows,
    headers)``): a column of numbers has its numbers reformatted with ``format(x, "g")`` and
    lined up on their decimal points, right-aligned; any other column is left-aligned; columns
    are at least two wider than their heading and two spaces apart; lines end without spaces."""
    columns = [list(column) for column in zip(*rows)] if rows else [[] for _ in headers]
    out_columns, aligns = [], []
    for column, header in zip(columns, headers):
        kind = max((_cell_type(c) for c in column), default=1)
        if kind == 3:
            cells = [format(float(c), "g") for c in column]
        else:
            cells = [c if kind == 2 else c.strip() for c in column]
        numeric = kind in (2, 3)
        if numeric:
            points = [_after_point(c) for c in cells]
            cells = [c + " " * (max(points) - p) for c, p in zip(cells, points)]
        width = max([len(header) + 2, *(len(c) for c in cells)])
        out_columns.append([c.rjust(width) if numeric else c.ljust(width) for c in cells])
        aligns.append((numeric, width))
    head = "  ".join(h.rjust(w) if numeric else h.ljust(w)
                     for h, (numeric, w) in zip(headers, aligns)).rstrip()
    line = "  ".join("-" * w for _, w in aligns).rstrip()
    body = ["  ".join(row).rstrip() for row in zip(*out_columns)]
    return "\n".join([head, line, *body])
