"""A report to hand over: one self-contained HTML file of a many-run (or one-run) evaluation.

Settings, each run's means with their intervals, the comparison, charts as inline SVG, the
per-query values, the checks and judgement diagnostics, and a methods paragraph to paste into
a paper. It refers to nothing outside itself: no stylesheet, script, image or font file and no
web address; the CSV and JSON of the tables are inside it too, as ``data:`` links. Like
``tables.py`` it renders what was computed and recomputes no number.
"""

from __future__ import annotations

import base64
import html
import json
import math

from ..report.render import trec_name
from .tables import many_csv, metric_label

__all__ = ["TREC_EVAL_VERSION", "html_report", "methods_paragraph"]

#: the trec_eval whose definitions and rounding the measures transcribe
TREC_EVAL_VERSION = "trec_eval 10.0"

_STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1b1b1b}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5rem 0 1rem}th,td{padding:.2rem .6rem;border-bottom:1px solid #e3e3e3;text-align:right}
th:first-child,td:first-child{text-align:left}caption{text-align:left;font-weight:600;padding:.3rem 0}
.notice{margin:.3rem 0}.warning{color:#8a3b00}.small{color:#555;font-size:.9em}
svg{display:block;margin:.5rem 0 1rem}svg text{font:12px system-ui,sans-serif}
details{margin:.5rem 0}@media print{details{display:block}a.download{display:none}}
dl.pairs{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:.5rem 0 1rem}
dl.pairs dt{font-weight:600}dl.pairs dt::after{content:":"}dl.pairs dd{margin:0}
.iv{white-space:nowrap}
"""


def _e(text) -> str:
    return html.escape(str(text), quote=True)


def _num(value, digits: int = 4) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "\u2013"
    return f"{value:.{digits}f}"


def _p(value) -> str:
    if value is None:
        return "\u2013"
    return f"{value:.4f}" if value >= 0.0001 else f"{value:.1e}"


def _table(caption: str, head: list[str], rows: list[list[str]], raw: bool = False) -> str:
    cells = "".join(f"<th scope=\"col\">{_e(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c if raw else _e(c)}</td>" for c in row) + "</tr>"
                   for row in rows)
    return (f"<table><caption>{_e(caption)}</caption><thead><tr>{cells}</tr></thead>"
            f"<tbody>{body}</tbody></table>")


def _pairs(rows: list[list]) -> str:
    """Settings as label: value pairs (a description list), each value beside its label."""
    return ('<dl class="pairs">' + "".join(f"<dt>{_e(label)}</dt><dd>{_e(value)}</dd>"
                                          for label, value in rows) + "</dl>")


def measure_names(keys) -> list[str]:
    """Each key with trec_eval's name for it, or the words that say it has none."""
    out = []
    for key in keys:
        trec = trec_name(key)
        out.append(f"{metric_label(key)} ({'trec_eval ' + trec if trec else 'no trec_eval equivalent'})")
    return out


def methods_paragraph(comparison, reports: dict, diagnostics=None) -> str:
    """The paragraph for a paper's method section: measures and their trec_eval names, the
    settings that change numbers, the test, samples, correction and the trec_eval matched."""
    first = next(iter(reports.values()))
    keys = list(comparison.metrics)
    parts = [f"We report {', '.join(measure_names(keys))}, computed with retrieval-metrics, "
             f"whose measures match {TREC_EVAL_VERSION}."]
    level = getattr(first, "relevance_threshold", 1)
    parts.append(f"A document is relevant to the binary measures at grade {level} or above; "
                 f"nDCG uses the {getattr(first, 'gain', 'linear')} gain of every positive grade.")
    missing = getattr(first, "missing", "zero")
    parts.append("Judged queries a run did not answer score 0 (as trec_eval -c)."
                 if missing == "zero" else "Judged queries a run did not answer are left out.")
    ties = getattr(first, "ties", "trec_eval")
    parts.append({"trec_eval": "Documents with equal scores are ordered as trec_eval orders "
                               "them (by document id, descending).",
                  "optimistic": "Documents with equal scores are ordered best grade first "
                                "(optimistic).",
                  "pessimistic": "Documents with equal scores are ordered best grade last "
                                 "(pessimistic).",
                  "average": "Documents with equal scores are scored by the expectation over "
                             "every order of them (McSherry and Najork 2008)."}[ties])
    if len(comparison.systems) > 1:
        parts.append(comparison.describe())
    if diagnostics is not None and diagnostics.pool_bias:
        parts.append(f"Pool bias is estimated by leaving each run's uniquely contributed "
                     f"judged documents (top {diagnostics.pool_depth}) out (Zobel 1998).")
    return " ".join(parts)


def _means_chart(comparison, metric: str) -> str:
    """Horizontal bars of each system's mean with its interval, on a 0..1 scale when the
    values fit it."""
    rows = [(s, comparison.means[s][metric]) for s in comparison.systems]
    values = [v for _, m in rows for v in (m.mean, m.low, m.high) if v is not None]
    top = 1.0 if values and 0 <= min(values) and max(values) <= 1 else max(values or [1.0]) or 1.0
    width, left, bar = 560, 160, 22
    height = bar * len(rows) + 30
    scale = (width - left - 70) / top
    parts = [f'<svg role="img" aria-label="{_e(metric_label(metric))} by run" width="{width}" '
             f'height="{height}" viewBox="0 0 {width} {height}">',
             f'<title>{_e(metric_label(metric))}: mean and {comparison.confidence:.0%} '
             f'interval of each run</title>']
    for i, (system, m) in enumerate(rows):
        y = 5 + i * bar
        parts.append(f'<text x="{left - 6}" y="{y + 15}" text-anchor="end">{_e(system)}</text>')
        if m.mean is None:
            continue
        parts.append(f'<rect x="{left}" y="{y + 3}" width="{max(0.0, m.mean) * scale:.1f}" '
                     f'height="{bar - 8}" fill="#6b8fb8"/>')
        if m.low is not None and m.high is not None:
            x1, x2, mid = left + m.low * scale, left + m.high * scale, y + bar / 2 - 1
            parts.append(f'<line x1="{x1:.1f}" x2="{x2:.1f}" y1="{mid}" y2="{mid}" '
                         f'stroke="#111" stroke-width="1.5"/>')
        parts.append(f'<text x="{left + max(0.0, m.mean) * scale + 6:.1f}" y="{y + 15}">'
                     f'{_num(m.mean)}</text>')
    axis = height - 20
    parts.append(f'<line x1="{left}" x2="{left + top * scale:.1f}" y1="{axis}" y2="{axis}" '
                 f'stroke="#999"/>')
    for t in (0.0, top / 2, top):
        parts.append(f'<text x="{left + t * scale:.1f}" y="{axis + 14}" text-anchor="middle">'
                     f'{t:g}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _data_link(name: str, mime: str, text: str, label: str) -> str:
    data = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return (f'<a class="download" download="{_e(name)}" href="data:{mime};charset=utf-8;'
            f'base64,{data}">{_e(label)}</a>')


def html_report(comparison, reports: dict, diagnostics=None, *, qrels=None, meta=None,
                title: str = "Retrieval evaluation") -> str:
    """The whole report as one HTML document (a str).

    ``comparison``: ``compare_many``'s result (one run too); ``reports``: ``{name: Report}``;
    ``diagnostics``: ``scoring.pool.diagnose_parsed``'s (checks, judged@k, condensed values,
    pool bias); ``qrels``: the judgements' ``InputSummary``; ``meta``: what made it (engine,
    date, files), as the JSON output's ``meta``.
    """
    metrics = list(comparison.metrics)
    labels = [metric_label(k) for k in metrics]
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{_e(title)}</title><style>{_STYLE}</style></head><body>",
           f"<h1>{_e(title)}</h1>"]
    if meta:
        out.append(f'<p class="small">{_e(meta.get("engine", ""))}, {_e(meta.get("created", ""))}</p>')

    # settings
    first = next(iter(reports.values()))
    rows = [["cutoffs k", ", ".join(map(str, getattr(first, "k", ())))],
            ["measures", ", ".join(measure_names(metrics))],
            ["gain", getattr(first, "gain", "")], ["missing queries", getattr(first, "missing", "")],
            ["zero_division", getattr(first, "zero_division", "")],
            ["relevance level", getattr(first, "relevance_threshold", "")],
            ["ties", getattr(first, "ties", "trec_eval")]]
    if len(comparison.systems) > 1:
        rows += [["test", comparison.test], ["samples", comparison.samples or "\u2013"],
                 ["seed", comparison.seed], ["correction", comparison.correction],
                 ["alpha", comparison.alpha], ["confidence", comparison.confidence],
                 ["baseline", comparison.baseline]]
    if qrels is not None:
        rows.append(["judgements", qrels.description])
    for name, report in reports.items():
        summary = getattr(report, "inputs", {}).get("run")
        if summary is not None:
            rows.append([f"results \u201c{name}\u201d", summary.description])
    out.append("<h2>Settings</h2><p class=\"small\">What was scored, and how</p>" + _pairs(rows))

    # means
    out.append("<h2>Means</h2>")
    rows = []
    for system in comparison.systems:
        row = [system]
        for key in metrics:
            m = comparison.means[system][key]
            cell = _e(_num(m.mean))
            if m.low is not None:  # an interval never breaks across lines
                cell += f' <span class="iv">[{_e(_num(m.low))}, {_e(_num(m.high))}]</span>'
            d = comparison.differences.get(system, {}).get(key)
            if d is not None and d.marker:
                cell += " \u2191" if d.marker == "better" else " \u2193"
            row.append(cell)
        rows.append([_e(row[0]), *row[1:]])
    out.append(_table(f"Mean over queries [{comparison.confidence:.0%} t interval, clipped to "
                      f"the measure's range]" + (f"; \u2191/\u2193: significantly better/worse "
                                                 f"than {comparison.baseline}"
                                                 if len(comparison.systems) > 1 else ""),
                      ["run", *labels], rows, raw=True))
    for key in metrics:
        out.append(f"<figure>{_means_chart(comparison, key)}<figcaption class=\"small\">"
                   f"{_e(metric_label(key))}: each run's mean and interval</figcaption></figure>")

    # comparison
    if len(comparison.systems) > 1:
        out.append("<h2>Comparison</h2>")
        pairs = (list(comparison.differences.items()) if comparison.pairs == "baseline" else
                 [(f"{a} vs {b}", row) for a, by in comparison.pairwise.items()
                  for b, row in by.items() if comparison.systems.index(a) > comparison.systems.index(b)])
        rows = []
        for who, row in pairs:
            for key in metrics:
                d = row[key]
                rows.append([who if comparison.pairs == "all" else f"{who} vs {comparison.baseline}",
                             metric_label(key),
                             f"{_num(d.delta)} [{_num(d.low)}, {_num(d.high)}]",
                             f"{d.wins}/{d.ties}/{d.losses}",
                             f"{_num(d.effect_size, 3)} [{_num(d.effect_low, 3)}, {_num(d.effect_high, 3)}]",
                             _p(d.p_value), _p(d.p_corrected),
                             "\u2013" if d.mc_error is None else f"{d.mc_error:.4f}",
                             "yes" if d.significant else "no"])
        out.append(_table(comparison.describe(),
                          ["pair", "measure", "difference [interval]", "W/T/L",
                           "effect size [interval]", "p", "corrected p", "Monte Carlo error",
                           "significant"], rows))
        if comparison.power:
            power, difference = comparison.power_settings
            rows = []
            for system, row in comparison.power.items():
                for key in metrics:
                    a = row[key]
                    rows.append([f"{system} vs {comparison.baseline}", metric_label(key), a.n,
                                 _num(a.sd), _num(a.observed), _num(a.observed_power, 3),
                                 _num(a.detectable), _num(a.difference),
                                 "\u2013" if a.topics_needed is None else f"{a.topics_needed:,}"])
            out.append(_table(
                f"Topic-set analysis (Sakai 2016; paired t-test, alpha = {comparison.alpha:g}, "
                f"power {power:g}): the smallest difference these topics detect, and the topics "
                f"the difference needs" + ("" if difference is None else f" ({difference:g})"),
                ["pair", "measure", "topics", "sd of differences", "observed difference",
                 "power for it", "detectable difference", "difference", "topics needed"], rows))

    # checks and judgements
    out.append("<h2>Checks</h2>")
    notices = list(diagnostics.checks) if diagnostics is not None else []
    for name, report in reports.items():
        for n in getattr(report, "notices", []):
            if n.code.startswith(("score_ties", "low_judged", "no_scored")):
                notices.append(n._replace(message=f"{name}: {n.message}"))
    notices += list(comparison.notices)
    if notices:
        out.append("".join(f'<p class="notice {_e(n.level)}">{_e(n.message)}</p>' for n in notices))
    else:
        out.append("<p>No check found anything to report.</p>")
    if diagnostics is not None:
        rows = []
        for name in comparison.systems:
            judged = diagnostics.judged.get(name, {})
            cond = diagnostics.condensed.get(name)
            k10 = [v.get(10, v.get(max(v))) for v in judged.values() if v]
            row = [name, _num(sum(k10) / len(k10), 3) if k10 else "\u2013"]
            for key in metrics:
                normal = comparison.means[name][key].mean
                row.append(f"{_num(normal)} / {_num(cond.mean.get(key) if cond else None)}")
            bias = diagnostics.pool_bias.get(name)
            row.append("\u2013" if bias is None else
                       f"{bias.unique_relevant:,} relevant; " + ", ".join(
                           f"{metric_label(k)} \u2212{_num(bias.drop.get(k))}" for k in metrics
                           if k in bias.drop))
            rows.append(row)
        out.append(_table("Judgements: judged@10 (mean over queries), each mean normally / on the "
                          "condensed list (judged documents only), and the leave-one-run-out "
                          "pool bias (relevant documents only this run contributed; the drop of "
                          "each mean without them)",
                          ["run", "judged@10", *labels, "pool bias"], rows))

    # per-query values
    out.append("<h2>Per-query values</h2>")
    for key in metrics:
        queries = sorted({q for r in reports.values() for q in _per_query(r)})
        rows = [[q, *(_num(_per_query(reports[s]).get(q, {}).get(key)) for s in comparison.systems)]
                for q in queries]
        out.append(f"<details><summary>{_e(metric_label(key))} ({len(queries):,} queries)"
                   f"</summary>{_table(metric_label(key), ['query', *comparison.systems], rows)}"
                   "</details>")

    # methods and downloads
    out.append("<h2>Methods</h2>")
    out.append(f'<p id="methods">{_e(methods_paragraph(comparison, reports, diagnostics))}</p>')
    data = {"comparison": comparison.to_dict(),
            "reports": {n: (r.to_dict() if hasattr(r, "to_dict") else r) for n, r in reports.items()}}
    if diagnostics is not None:
        data["diagnostics"] = diagnostics.to_dict()
    out.append("<p>" + _data_link("comparison.csv", "text/csv", many_csv(comparison),
                                  "The tables as CSV") + " \u00b7 "
               + _data_link("report.json", "application/json",
                            json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False),
                            "Everything as JSON") + "</p>")
    out.append("</body></html>\n")
    return "\n".join(out)


def _per_query(report) -> dict:
    return report.per_query if hasattr(report, "per_query") else report.get("per_query", {})
