"""A many-run comparison as text: LaTeX (booktabs) and Markdown for papers, a terminal table, CSV.

Each is a renderer of one :class:`~retrieval_metrics.comparison.many.ManyComparison`; none recomputes a
number. The paper tables show each system's means (optionally with their confidence
intervals), the best per column in bold (every system whose rounded mean equals the best
rounded mean), and a marker on every mean that differs significantly from the baseline's, with
a legend line saying which test, correction and alpha decided it.
"""

from __future__ import annotations

import csv
import io

from ..measures.keys import label
from .labels import CI_NAMES, CORRECTION_NAMES, TEST_NAMES

__all__ = ["LATEX_MARKERS", "TEXT_MARKERS", "letter", "many_csv", "many_table", "metric_label",
           "to_latex", "to_markdown"]

#: the most decimals a table prints (``--digits``, the page's digits): a double holds 15 to 17
#: significant digits, so more would print noise
MAX_DIGITS = 15
TEXT_MARKERS = {"better": "\u2191", "worse": "\u2193"}          # ↑ ↓
LATEX_MARKERS = {"better": r"$^{\uparrow}$", "worse": r"$^{\downarrow}$"}
_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}"}


def metric_label(key: str) -> str:
    """``ndcg@10`` -> ``nDCG@10``, ``map`` -> ``MAP``: the registry's labels.

    >>> metric_label("ndcg@10"), metric_label("rr"), metric_label("err@20"), metric_label("x")
    ('nDCG@10', 'RR', 'ERR@20', 'x')
    """
    return label(key)


def latex_escape(text: str) -> str:
    r"""Text safe in a LaTeX table cell.

    >>> latex_escape("bm25_rm3 & 50%")
    'bm25\\_rm3 \\& 50\\%'
    """
    return "".join(_LATEX_SPECIAL.get(c, c) for c in text)


def _markdown_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*").replace("_", "\\_")


def _fixed(value, digits: int, undefined: str = "\u2013") -> str:
    return undefined if value is None else f"{value:.{digits}f}"


def _best(comparison, digits: int) -> dict[str, set[str]]:
    """For each metric, the systems whose mean, rounded as shown, is the highest shown."""
    best = {}
    for metric in comparison.metrics:
        shown = {s: round(comparison.means[s][metric].mean, digits)
                 for s in comparison.systems if comparison.means[s][metric].mean is not None}
        top = max(shown.values(), default=None)
        best[metric] = {s for s, v in shown.items() if v == top}
    return best


def _legend(comparison, markers: dict[str, str], alpha_text: str, baseline: str) -> str:
    test = TEST_NAMES[comparison.test]
    correction = CORRECTION_NAMES[comparison.correction]
    if comparison.correction != "none":
        correction += f" correction over {comparison.family_size} comparisons"
    if comparison.pairs == "all":
        what = "Superscripts: the systems (by letter) this one is significantly better than"
    else:
        what = (f"{markers['better']}/{markers['worse']}: significantly better/worse than "
                f"{baseline}")
    return f"{what} (two-sided {test}, {correction}, {alpha_text}). Best per column in bold."


def letter(index: int) -> str:
    """The label of the index-th system in an all-pairs table: a, b, ..., z, then s27, s28...

    >>> letter(0), letter(25), letter(26)
    ('a', 'z', 's27')
    """
    return chr(ord("a") + index) if index < 26 else f"s{index + 1}"


def _name(comparison, system: str, escape) -> str:
    if comparison.pairs == "all":
        return f"{escape(system)} ({letter(comparison.systems.index(system))})"
    return escape(system) + (" (baseline)" if system == comparison.baseline else "")


def _cells(comparison, system: str, digits: int, intervals: bool, bold, markers, interval_fmt,
           superscript=None, undefined: str = "\u2013"):
    best = _best(comparison, digits)
    beats = comparison.beats()[system] if comparison.pairs == "all" else None
    cells = []
    for metric in comparison.metrics:
        m = comparison.means[system][metric]
        text = _fixed(m.mean, digits, undefined)
        if m.mean is not None and system in best[metric]:
            text = bold(text)
        if intervals and m.low is not None:
            text += " " + interval_fmt(_fixed(m.low, digits), _fixed(m.high, digits))
        if beats is not None:
            beaten = "".join(letter(comparison.systems.index(o)) for o in beats[metric])
            if beaten:
                text += superscript(beaten)
        else:
            d = comparison.differences.get(system, {}).get(metric)
            if d is not None and d.marker:
                text += markers[d.marker]
        cells.append(text)
    return cells


def to_latex(comparison, *, digits: int = 4, intervals: bool = False) -> str:
    r"""A booktabs ``tabular``: systems as rows (the baseline marked), metrics as columns.

    Needs ``\usepackage{booktabs}``. The legend is the last row, under ``\bottomrule``.
    ``intervals=True`` adds each mean's confidence interval in brackets.
    """
    columns = len(comparison.metrics) + 1
    lines = [f"% {comparison.describe()}",
             r"% needs \usepackage{booktabs}",
             r"\begin{tabular}{l" + "r" * len(comparison.metrics) + "}",
             r"\toprule",
             " & ".join(["System", *(latex_escape(metric_label(m)) for m in comparison.metrics)])
             + r" \\",
             r"\midrule"]
    for system in comparison.systems:
        name = _name(comparison, system, latex_escape)
        cells = _cells(comparison, system, digits, intervals, lambda t: rf"\textbf{{{t}}}",
                       LATEX_MARKERS, lambda lo, hi: f"[{lo}, {hi}]",
                       lambda letters: rf"$^{{\mathrm{{{letters}}}}}$", "--")
        lines.append(" & ".join([name, *cells]) + r" \\")
    lines.append(r"\bottomrule")
    if comparison.differences:
        legend = _legend(comparison, LATEX_MARKERS, rf"$\alpha = {comparison.alpha:g}$",
                         latex_escape(comparison.baseline))
        lines.append(rf"\multicolumn{{{columns}}}{{l}}{{\footnotesize {legend}}} \\")
    lines.append(r"\end{tabular}")
    return "\n".join(lines) + "\n"


def to_markdown(comparison, *, digits: int = 4, intervals: bool = False) -> str:
    """A pipe table (GitHub-flavoured Markdown) and the legend line under it."""
    header = ["System", *(metric_label(m) for m in comparison.metrics)]
    lines = ["| " + " | ".join(_markdown_escape(h) for h in header) + " |",
             "| " + " | ".join([":---", *("---:" for _ in comparison.metrics)]) + " |"]
    for system in comparison.systems:
        name = _name(comparison, system, _markdown_escape)
        cells = _cells(comparison, system, digits, intervals, lambda t: f"**{t}**",
                       TEXT_MARKERS, lambda lo, hi: f"[{lo}, {hi}]",
                       lambda letters: f"<sup>{letters}</sup>")
        lines.append("| " + " | ".join([name, *cells]) + " |")
    if comparison.differences:
        lines.append("")
        lines.append(_legend(comparison, TEXT_MARKERS, f"\u03b1 = {comparison.alpha:g}",
                             _markdown_escape(comparison.baseline)))
    return "\n".join(lines) + "\n"


def _align(rows: list[list[str]], left: set[int]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(widths[i]) if i in left else c.rjust(widths[i])
                      for i, c in enumerate(row)).rstrip() for row in rows]


def many_table(comparison, *, digits: int = 4) -> str:
    """For a person at a terminal: the means with their intervals, then every difference."""
    out = [comparison.describe(), ""]
    level = f"{comparison.confidence:.0%}"
    rows = [["system", *comparison.metrics]]
    for system in comparison.systems:
        cells = _cells(comparison, system, digits, True, lambda t: t, TEXT_MARKERS,
                       lambda lo, hi: f"[{lo}, {hi}]", lambda letters: f" >{letters}")
        rows.append([_name(comparison, system, str), *cells])
    if comparison.pairs == "all":
        out.append(f"Means and their {level} t intervals (>ab: significantly better than "
                   "systems a and b)")
    else:
        out.append(f"Means and their {level} t intervals ({TEXT_MARKERS['better']}/"
                   f"{TEXT_MARKERS['worse']}: significantly better/worse than the baseline)")
    out.extend(_align(rows, {0}))
    if comparison.differences:
        every = comparison.pairs == "all"
        names = comparison.systems
        tested = ([(b, a) for i, a in enumerate(names) for b in names[i + 1:]] if every
                  else [(name, comparison.baseline) for name in comparison.differences])
        table = comparison.pairwise if every else {
            name: {comparison.baseline: row} for name, row in comparison.differences.items()}
        out.append("")
        title = "Differences (system - against)" if every else f"Differences from {comparison.baseline}"
        out.append(f"{title} ({level} {CI_NAMES[comparison.ci_method]} intervals; effect = mean "
                   "difference / sd of the differences)")
        p_name = f"p ({CORRECTION_NAMES[comparison.correction]})"
        rows = [["system", *(["against"] if every else []), "metric", "delta", f"{level} CI",
                 "W/T/L", "effect", "p", p_name, ""]]
        for system, against in tested:
            for metric, d in table[system][against].items():
                rows.append([
                    system, *([against] if every else []), metric,
                    "\u2013" if d.delta is None else f"{d.delta:+.{digits}f}",
                    "\u2013" if d.low is None else f"[{d.low:+.{digits}f}, {d.high:+.{digits}f}]",
                    f"{d.wins}/{d.ties}/{d.losses}",
                    "\u2013" if d.effect_size is None else f"{d.effect_size:+.2f}",
                    "\u2013" if d.p_value is None else f"{d.p_value:.4g}",
                    "\u2013" if d.p_corrected is None else f"{d.p_corrected:.4g}",
                    TEXT_MARKERS.get(d.marker, "")])
        left = {0, 1, 2, 9} if every else {0, 1, 8}
        out.extend(_align(rows, left))
    for notice in comparison.notices:
        out.append(f"{'!' if notice.level == 'warning' else '-'} {notice.message}")
    return "\n".join(out) + "\n"


CSV_FIELDS = ["system", "metric", "baseline", "mean", "mean_low", "mean_high", "n_queries",
              "delta", "delta_low", "delta_high", "wins", "ties", "losses", "effect_size",
              "p_value", "p_corrected", "significant", "marker", "n_pairs", "method", "beats"]


def many_csv(comparison) -> str:
    """One row per (system, metric), full precision; empty cells where a value is undefined
    (the baseline has no difference from itself). ``beats``: the systems this one is
    significantly better than on the metric, separated by ";"."""
    beats = comparison.beats()
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for system in comparison.systems:
        for metric in comparison.metrics:
            m = comparison.means[system][metric]
            d = comparison.differences.get(system, {}).get(metric)
            row = [system, metric, int(system == comparison.baseline), m.mean, m.low, m.high, m.n]
            if d is None:
                row += [None] * 13
            else:
                row += [d.delta, d.low, d.high, d.wins, d.ties, d.losses, d.effect_size,
                        d.p_value, d.p_corrected, int(d.significant), d.marker, d.n, d.method]
            row.append(";".join(beats[system][metric]))
            writer.writerow(["" if v is None else (repr(v) if isinstance(v, float) else v)
                             for v in row])
    return out.getvalue()
