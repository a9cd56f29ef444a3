"""Reports as text: a table for people, JSON, CSV, and trec_eval's own lines for diffing."""

from __future__ import annotations

import json
import re

from .csvcells import bool_cell, number_cell, text_cell, write_rows
from ..errors import OptionError
from .report import Report

METRIC_LABELS = {"recall": "Recall", "precision": "Precision", "mrr": "MRR", "ndcg": "nDCG",
                 "hit_rate": "Hit rate", "ap": "AP", "judged": "Judged", "rr": "RR (full)",
                 "map": "MAP", "rprec": "R-prec"}
TREC_NAMES = {"recall": "recall_{k}", "precision": "P_{k}", "ndcg": "ndcg_cut_{k}",
              "hit_rate": "success_{k}", "ap": "map_cut_{k}", "rr": "recip_rank", "map": "map",
              "rprec": "Rprec"}


def as_json(report: Report, meta: dict | None = None) -> str:
    """The whole report; ``meta`` (what made it: files, engine version, settings, date), when
    given, comes first."""
    data = report.to_dict()
    ordered = {"meta": meta} if meta is not None else {}
    ordered.update({"per_query": data.pop("per_query"), "mean": data.pop("mean"),
                    "notices": data.pop("notices"), "inputs": data.pop("inputs")})
    ordered.update(data)
    return json.dumps(ordered, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def as_jsonl(report: Report) -> str:
    """One JSON object per scored query (``query``, ``missing``, then each metric): what
    ``pandas.read_json(path, lines=True)`` wants. Undefined values are null."""
    missing = set(report.missing_queries)
    lines = []
    for query, values in report.to_dict()["per_query"].items():
        lines.append(json.dumps({"query": query, "missing": query in missing, **values},
                                ensure_ascii=False, allow_nan=False))
    return "\n".join(lines) + ("\n" if lines else "")


def as_csv(report: Report) -> str:
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


#: keys that are trec_eval's own names (trec_measures' measures), printed as they are
TREC_OWN = ("num_ret", "num_rel", "num_rel_ret", "gm_map", "bpref", "infAP", "11pt_avg",
            "set_P", "set_recall", "set_F", "utility", "ndcg")
TREC_OWN_PREFIXES = ("iprec_at_recall_", "Rprec_mult_")
#: other keys with a trec_eval name: rbp at trec_eval's default persistence
TREC_RENAMED = {"rbp(p=0.9)": "rbp", "rbp_resid(p=0.9)": "rbp_resid"}
#: counts: printed as whole numbers, and summed (not averaged) on the all line
TREC_COUNTS = ("num_ret", "num_rel", "num_rel_ret")


def trec_name(key: str) -> str | None:
    """trec_eval's name for a report key, or None when trec_eval has no such measure.

    >>> trec_name("precision@5"), trec_name("iprec_at_recall_0.10"), trec_name("rbp(p=0.9)")
    ('P_5', 'iprec_at_recall_0.10', 'rbp')
    >>> trec_name("ndcg"), trec_name("ndcg@10"), trec_name("mrr@10")
    ('ndcg', 'ndcg_cut_10', None)
    """
    if key in TREC_OWN or key.startswith(TREC_OWN_PREFIXES):
        return key
    if key in TREC_RENAMED:
        return TREC_RENAMED[key]
    name, at, k = key.partition("@")
    if not at:
        return UNCUT_TREC_NAMES.get(name)
    return TREC_NAMES[name].format(k=k) if name in TREC_NAMES and k.isdigit() else None


_LINE_BREAKERS = re.compile("[\t\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")


def as_trec(report: Report) -> str:
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
    names = [(key, trec_name(key)) for key in report.keys]
    names = [(key, name) for key, name in names if name is not None]
    for query, values in report.per_query.items():
        for key, name in names:
            if key == "gm_map":
                continue
            lines.append(f"{name:<22}\t{query}\t{_trec_value(key, values[key])}")
    if report.mean:
        for key, name in names:
            value = report.mean[key]
            if key in TREC_COUNTS:
                value = sum(values[key] for values in report.per_query.values())
            lines.append(f"{name:<22}\tall\t{_trec_value(key, value)}")
    return "\n".join(lines) + ("\n" if lines else "")


def _trec_value(key: str, value: float) -> str:
    if key in TREC_COUNTS and value == value:
        return str(int(value))
    return f"{value:.4f}"


UNCUT_TREC_NAMES = {"rr": "recip_rank", "map": "map", "rprec": "Rprec", "recall": "set_recall",
                    "ndcg": "ndcg"}


def as_table(report: Report) -> str:
    """Means (metric by k), then the notices, for a person at a terminal."""
    out = []
    inputs = report.inputs
    for name, title in (("qrels", "Judgements"), ("run", "Results")):
        if name in inputs:
            out.append(f"{title}: {inputs[name].description}")
    out.append(f"Scored queries: {report.scored_queries:,}  (gain {report.gain}, missing "
               f"queries {'score 0' if report.missing == 'zero' else 'left out'})")
    out.append("")
    cut = [n for n in report.metrics if n in METRIC_LABELS
           and all(f"{n}@{k}" in report.mean for k in report.k)]  # a family at every k
    if report.mean:
        header = ["metric", *(f"@{k}" for k in report.k)]
        body = [[METRIC_LABELS[n], *(_fixed(report.mean[f"{n}@{k}"]) for k in report.k)] for n in cut]
        widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]
        for row in [header, *body] if body else []:
            out.append("  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i])
                                 for i, c in enumerate(row)).rstrip())
        in_table = {f"{n}@{k}" for n in cut for k in report.k}
        for key in report.keys:  # the whole-ranking metrics and those with their own cutoff
            if key not in in_table:
                label = METRIC_LABELS[key] if key in ("rr", "map", "rprec") else key
                out.append(f"{label}: {_fixed(report.mean[key])}")
    for notice in report.notices:
        out.append(f"{'!' if notice.level == 'warning' else '-'} {notice.message}")
    return "\n".join(out) + "\n"


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
