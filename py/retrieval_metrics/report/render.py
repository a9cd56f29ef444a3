"""Reports as text: a table for people, JSON, CSV, and trec_eval's own lines for diffing.

Each renderer takes a ``report.Report`` (read through its attributes, so this module needs
not import it) and returns the text; labels and trec_eval's names come from the registry.
"""

from __future__ import annotations

import json
import re

from ..errors import OptionError
from ..measures.aggregation import trec_eval_mean
from ..measures.grammar import family_words
from ..measures.keys import is_count, label, measure_of, trec_name
from .csvcells import bool_cell, number_cell, text_cell, write_rows


def as_json(report, meta: dict | None = None) -> str:
    """The whole report; ``meta`` (what made it: files, engine version, settings, date), when
    given, comes first."""
    data = report.to_dict()
    ordered = {"meta": meta} if meta is not None else {}
    ordered.update({"per_query": data.pop("per_query"), "mean": data.pop("mean"),
                    "notices": data.pop("notices"), "inputs": data.pop("inputs")})
    ordered.update(data)
    return json.dumps(ordered, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def as_jsonl(report) -> str:
    """One JSON object per scored query (``query``, ``missing``, then each metric): what
    ``pandas.read_json(path, lines=True)`` wants. Undefined values are null."""
    missing = set(report.missing_queries)
    lines = []
    for query, values in report.to_dict()["per_query"].items():
        lines.append(json.dumps({"query": query, "missing": query in missing, **values},
                                ensure_ascii=False, allow_nan=False))
    return "\n".join(lines) + ("\n" if lines else "")


def as_csv(report) -> str:
    """One row per scored query (``scope`` = ``query``), then the means (``scope`` = ``mean``,
    the query cell empty): a query named ``all`` stays a query. The dialect is ``csvcells``'s.
    """
    rows = [["scope", "query", *report.keys, "missing"]]
    missing = set(report.missing_queries)
    for query, values in report.per_query.items():
        rows.append(["query", text_cell(query), *(number_cell(values[k]) for k in report.keys),
                     bool_cell(query in missing)])
    if report.mean:
        rows.append(["mean", "", *(number_cell(report.mean[k]) for k in report.keys), ""])
    return write_rows(rows)


_LINE_BREAKERS = re.compile("[\t\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")


def as_trec(report) -> str:
    """``measure<TAB>qid<TAB>value`` with 4 decimals, per query then ``all``, as ``trec_eval -q``
    prints them, so the output diffs against trec_eval's (after sorting: the order of the
    measures is the report's). MRR is printed as trec_eval's recip_rank, which has no cutoff:
    ask for the metric ``rr``. As trec_eval does, the counts are whole numbers summed on the
    all line, and gm_map is printed on the all line only (its geometric mean). A query named
    ``all`` would be taken for the means there, so it is refused (CSV and JSON tell them apart)."""
    if "all" in report.per_query:
        raise OptionError("output", "a query is named \"all\", which trec_eval's format uses for "
                          "the means; use -o csv, json or jsonl for these queries")
    broken = next((q for q in report.per_query if _LINE_BREAKERS.search(str(q))), None)
    if broken is not None:
        raise OptionError("output", f"query {broken!r} holds a tab or a line break, which would "
                          "break trec_eval's one-line, tab-separated rows; use -o csv, json or "
                          "jsonl for these queries")
    lines = []
    names = [(key, trec_name(key), is_count(key), measure_of(key)) for key in report.keys]
    names = [row for row in names if row[1] is not None]
    for query, values in report.per_query.items():
        for key, name, count, measure in names:
            if measure.aggregate != "mean":  # gm_map, num_q: trec_eval prints the all line only
                continue
            lines.append(f"{name:<22}\t{query}\t{_trec_value(count, values[key])}")
    if report.mean:
        # trec_eval's all line: its sums, query after query in its (byte) order of ids
        order = sorted(report.per_query, key=_trec_order)
        for key, name, count, measure in names:
            if trec_all_line_unlike(report, key):
                continue
            value = trec_eval_mean([report.per_query[q][key] for q in order], measure.aggregate,
                                   count)
            lines.append(f"{name:<22}\tall\t{_trec_value(count, value)}")
    return "\n".join(lines) + ("\n" if lines else "")


def trec_all_line_unlike(report, key: str) -> str | None:
    """Why trec_eval's ``all`` line of ``key`` cannot be had from the report's per-query values
    (so ``as_trec`` leaves it out), or None. One case: with -c (missing queries scored 0), a
    query missing and a relevance level other than 1, trec_eval's num_rel all line counts every judgement graded
    above 0, whatever the level (its te_calc_avg_meas_s num_rel), not the sum of the queries."""
    if (key == "num_rel" and report.missing == "zero" and report.relevance_threshold != 1
            and report.missing_queries):  # with none missing, it is trec_eval's line without -c
        return ("trec_eval -c counts every judgement graded above 0 on that line, whatever the "
                "relevance level")
    return None


def _trec_order(query) -> bytes:
    return str(query).encode("utf-8", "surrogatepass")


def _trec_value(count: bool, value: float) -> str:
    if count and value == value:
        return str(int(value))
    return f"{value:.4f}"


def as_table(report) -> str:
    """Means (metric by k), then the notices, for a person at a terminal."""
    out = []
    inputs = report.inputs
    for name, title in (("qrels", "Judgements"), ("run", "Results")):
        if name in inputs:
            out.append(f"{title}: {inputs[name].description}")
    out.append(f"Scored queries: {report.scored_queries:,}  (gain {report.gain}, missing "
               f"queries {'score 0' if report.missing == 'zero' else 'left out'})")
    out.append("")
    cut = [n for n in report.metrics if n in family_words()
           and all(f"{n}@{k}" in report.mean for k in report.k)]  # a family at every k
    if report.mean:
        header = ["metric", *(f"@{k}" for k in report.k)]
        body = [[_family_label(n), *(_fixed(report.mean[f"{n}@{k}"]) for k in report.k)]
                for n in cut]
        widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]
        for row in [header, *body] if body else []:
            out.append("  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i])
                                 for i, c in enumerate(row)).rstrip())
        in_table = {f"{n}@{k}" for n in cut for k in report.k}
        for key in report.keys:  # the whole-ranking metrics and those with their own cutoff
            if key not in in_table:
                shown = label(key) if key in ("rr", "map", "rprec") else key
                out.append(f"{shown}: {_fixed(report.mean[key])}")
    for notice in report.notices:
        out.append(f"{'!' if notice.level == 'warning' else '-'} {notice.message}")
    return "\n".join(out) + "\n"


def _family_label(word: str) -> str:
    """``mrr`` -> ``MRR``: a family's label at k, without the k (the columns say it)."""
    return label(f"{word}@1").rpartition("@")[0]


def _fixed(value: float) -> str:
    return "n/a" if value != value else f"{value:.4f}"  # n/a: undefined (zero_division="nan")


def comparison_table(comparison) -> str:
    """Baseline against candidate, one line per metric, for a person at a terminal."""
    header = ["metric", "baseline", "candidate", "delta", "W/T/L", "p", "test"]
    body = []
    for r in comparison.metrics:
        if r.n == 0:
            body.append([r.metric, "-", "-", "-", "0/0/0", "-", "no paired queries"])
            continue
        test = "exact" if r.method == "exact" else f"{r.samples:,} samples, seed {r.seed}"
        body.append([r.metric, f"{r.baseline_mean:.4f}", f"{r.candidate_mean:.4f}",
                     f"{r.delta:+.4f}", f"{r.wins}/{r.ties}/{r.losses}", f"{r.p_value:.4g}", test])
    widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]
    out = [f"Paired queries: {comparison.paired_queries:,}; two-sided paired sign-flip "
           "randomisation test on the mean difference", ""]
    for row in [header, *body]:
        out.append("  ".join(c.ljust(widths[i]) if i in (0, 6) else c.rjust(widths[i])
                             for i, c in enumerate(row)).rstrip())
    for notice in comparison.notices:
        out.append(f"{'!' if notice.level == 'warning' else '-'} {notice.message}")
    return "\n".join(out) + "\n"


COMPARISON_FIELDS = ("metric", "baseline_mean", "candidate_mean", "delta", "wins", "ties", "losses",
                     "p_value", "n", "method", "samples", "seed")
_FLOAT_FIELDS = {"baseline_mean", "candidate_mean", "delta", "p_value"}


def comparison_csv(comparison) -> str:
    """One row per metric key, in ``csvcells``'s dialect (floats as repr, counts as integers)."""
    rows = [list(COMPARISON_FIELDS)]
    for record in comparison.metrics:
        row = record.to_dict()
        rows.append([_comparison_cell(f, row[f]) for f in COMPARISON_FIELDS])
    return write_rows(rows)


def _comparison_cell(field: str, value) -> str:
    if value is None:
        return ""
    if field in _FLOAT_FIELDS:
        return number_cell(value)
    if isinstance(value, str):
        return text_cell(value)
    return str(int(value))


RENDERERS = {"table": as_table, "json": as_json, "jsonl": as_jsonl, "csv": as_csv, "trec": as_trec}
