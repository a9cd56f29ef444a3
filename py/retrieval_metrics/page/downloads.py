"""The page's downloads: the text of every file the page offers, written here in Python.

The page has no writers of its own: it asks the worker for a file of the result it shows, and
the worker calls ``web.download``, which hands the kept result to one of these. A format the
command line also writes is the command line's own writer (``report.render``'s ``as_json``,
``as_jsonl``, ``as_csv``, ``comparison_csv``; ``comparison.tables``' ``to_latex``,
``to_markdown``, ``many_csv``), so the two files are byte for byte the same; the formats only
the page offers (the per-query and means tables, the comparison as JSON, the Answers mode's
files) are written here, in the same CSV dialect (``report.csvcells``) and as strict JSON
(an undefined value is null, never NaN).

Each writer returns ``{"name", "type", "text"}``: the file name the browser saves, its media
type and its text.
"""

from __future__ import annotations

import json
import math

from ..errors import OptionError
from ..report.csvcells import bool_cell, number_cell, text_cell, write_rows
from ..report.render import as_csv, as_json, as_jsonl, comparison_csv

#: the kinds of file of the Rankings mode, in the page's menu
REPORT_KINDS = ("report-json", "report-jsonl", "report-csv", "per-query-csv", "per-query-json",
                "means-csv", "means-json", "comparison-json", "comparison-csv")
#: the many-runs box's files
MANY_KINDS = ("many-latex", "many-markdown", "many-csv", "many-json", "many-html", "fused-run")
#: the self-contained HTML report ("Save report") of the shown run (and its baseline)
HTML_KINDS = ("report-html",)
#: the Answers mode's files
ANSWER_KINDS = ("answers-csv", "answers-jsonl", "answers-means-csv", "answers-json")


def strict(value):
    """``value`` with every non-finite float as None, so that ``json.dumps`` writes null.

    >>> strict({"a": [1.0, float("nan")], "b": float("inf")})
    {'a': [1.0, None], 'b': None}
    """
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: strict(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [strict(v) for v in value]
    return value


def json_text(data, indent) -> str:
    """Strict JSON, non-ASCII text kept as it is, one newline at the end."""
    return json.dumps(strict(data), indent=indent, ensure_ascii=False, allow_nan=False) + "\n"


def _file(name: str, media: str, text: str) -> dict:
    return {"name": name, "type": media, "text": text}


def _report_json(*keys):
    """A JSON file of ``meta`` and these keys of the report's dict (one level indented)."""
    def text(report, meta) -> str:
        data = report.to_dict()
        return json_text({"meta": meta, **{key: data[key] for key in keys}}, 1)
    return text


#: a scored run's files: kind -> (file name, media type, text(report, meta))
REPORT_FILES = {
    "report-json": ("retrieval-metrics-report.json", "application/json", as_json),
    "report-jsonl": ("retrieval-metrics-report.jsonl", "application/jsonl",
                     lambda report, meta: as_jsonl(report)),
    "report-csv": ("retrieval-metrics-report.csv", "text/csv", lambda report, meta: as_csv(report)),
    "per-query-csv": ("retrieval-metrics-per-query.csv", "text/csv",
                      lambda report, meta: per_query_csv(report)),
    "per-query-json": ("retrieval-metrics-per-query.json", "application/json",
                       _report_json("per_query", "missing_queries")),
    "means-csv": ("retrieval-metrics-means.csv", "text/csv", lambda report, meta: means_csv(report)),
    "means-json": ("retrieval-metrics-means.json", "application/json",
                   _report_json("scored_queries", "mean")),
}


def report_file(kind: str, report, comparison=None, meta: dict | None = None) -> dict:
    """One file of a scored run (``report``: a Report; ``comparison``: compare()'s result, or
    None without a baseline); ``meta`` (what made it) heads the JSON files.

    >>> from retrieval_metrics import evaluate
    >>> report = evaluate({"q1": {"d1": 1}}, {"q1": ["d1", "d2"]}, k=[1, 2], metrics=["recall"])
    >>> report_file("means-csv", report)["text"].splitlines()
    ['metric,k,value,scored_queries', 'recall,1,1.0,1', 'recall,2,1.0,1']
    """
    if kind in REPORT_FILES:
        name, media, text = REPORT_FILES[kind]
        return _file(name, media, text(report, meta))
    if kind in ("comparison-json", "comparison-csv"):
        if comparison is None:
            raise OptionError("download", "there is no comparison: add a baseline first")
        if kind == "comparison-csv":
            return _file("retrieval-metrics-comparison.csv", "text/csv", comparison_csv(comparison))
        return _file("retrieval-metrics-comparison.json", "application/json",
                     json_text({"meta": meta, **comparison.to_dict()}, 2))
    raise OptionError("download", f"unknown download {kind!r}; one of {', '.join(REPORT_KINDS)}")


def per_query_csv(report) -> str:
    """The per-query rows alone (the report's CSV has the means after them): the query, its
    value of each key and whether it was missing from the results.

    >>> from retrieval_metrics import evaluate
    >>> report = evaluate({"q1": {"d1": 1}, "q2": {"d2": 1}}, {"q1": ["d1"]}, k=[1], metrics=["recall"])
    >>> per_query_csv(report).splitlines()
    ['query,recall@1,missing', 'q1,1.0,false', 'q2,0.0,true']
    """
    missing = set(report.missing_queries)
    rows = [["query", *report.keys, "missing"]]
    for query, values in report.per_query.items():
        rows.append([text_cell(query), *(number_cell(values[k]) for k in report.keys),
                     bool_cell(query in missing)])
    return write_rows(rows)


def means_csv(report) -> str:
    """The means alone, one row per report key: the measure, its cutoff (empty for a key
    without one, such as ``map`` or ``bpref``), the mean and how many queries it is over."""
    rows = [["metric", "k", "value", "scored_queries"]]
    for key in report.keys:
        metric, _, k = key.rpartition("@") if _has_cutoff(key) else (key, "", "")
        rows.append([text_cell(metric), k, number_cell(report.mean.get(key)),
                     str(report.scored_queries)])
    return write_rows(rows)


def _has_cutoff(key: str) -> bool:
    """``precision@5`` has a cutoff; ``rbp(p=0.9)`` and ``iprec_at_recall_0.10`` have none."""
    name, at, k = key.rpartition("@")
    return bool(at) and k.isdigit()


def fused_file(text: str | None) -> dict:
    """The fused run of the last comparison, as a TREC run (``page.fusion``)."""
    if text is None:
        raise OptionError("download", "the runs were not fused: choose a fusion method in the "
                          "Many runs box")
    return _file("retrieval-metrics-fused.trec", "text/plain", text)


def many_file(kind: str, comparison, reports: dict, digits: int = 4,
              intervals: bool = False) -> dict:
    """One file of a many-run comparison: the paper tables, the CSV, or the JSON the CLI writes
    for several runs (``{"comparison", "reports"}``)."""
    from ..comparison.tables import many_csv, to_latex, to_markdown
    if kind == "many-latex":
        return _file("retrieval-metrics-runs.tex", "application/x-tex",
                     to_latex(comparison, digits=digits, intervals=intervals))
    if kind == "many-markdown":
        return _file("retrieval-metrics-runs.md", "text/markdown",
                     to_markdown(comparison, digits=digits, intervals=intervals))
    if kind == "many-csv":
        return _file("retrieval-metrics-runs.csv", "text/csv", many_csv(comparison))
    if kind == "many-json":
        data = {"comparison": comparison.to_dict(),
                "reports": {name: report if isinstance(report, dict) else report.to_dict()
                            for name, report in reports.items()}}
        return _file("retrieval-metrics-runs.json", "application/json", json_text(data, 2))
    raise OptionError("download", f"unknown download {kind!r}; one of {', '.join(MANY_KINDS)}")


def html_file(comparison, reports: dict, judgements, rankings: dict, settings,
              meta: dict | None = None) -> dict:
    """The self-contained HTML report (``comparison.html.html_report``, what ``-o html``
    writes) of ``compare_many``'s ``comparison`` of ``reports``, with the checks and
    judgement diagnostics of the parsed ``rankings`` (``{name: Rankings}``) and the
    topic-set analysis (added here when the comparison was made without it)."""
    from ..comparison.html import html_report
    from ..comparison.many import with_topic_sets
    from ..scoring.pool import diagnose_parsed
    diagnostics = diagnose_parsed(judgements, rankings, settings)
    text = html_report(with_topic_sets(comparison, reports), reports, diagnostics,
                       qrels=judgements.summary, meta=meta)
    return _file("retrieval-metrics-report.html", "text/html", text)


def answers_file(kind: str, result: dict) -> dict:
    """One file of the Answers mode's result (``answers.report.analyse_answers``'s dict): the
    per-item table (CSV, the references as a JSON list; JSONL), the means (CSV) or the whole
    report (JSON: settings, means, items, notices, inputs)."""
    from ..answers.report import ANSWER_METRICS
    report = result["report"]
    keys = list(ANSWER_METRICS)
    items = [_item(row, keys) for row in report["per_item"]]
    if kind == "answers-csv":
        rows = [["id", "answer", "references", *keys, "answered"]]
        for row in items:
            rows.append([text_cell(row["id"]), "" if row["answer"] is None else text_cell(row["answer"]),
                         json.dumps(row["references"], ensure_ascii=False, separators=(",", ":")),
                         *(number_cell(row[k]) for k in keys),
                         "false" if row["answer"] is None else "true"])
        return _file("answer-metrics-per-item.csv", "text/csv", write_rows(rows))
    if kind == "answers-jsonl":
        text = "".join(json_text(row, None) for row in items)
        return _file("answer-metrics-per-item.jsonl", "application/jsonl", text)
    if kind == "answers-means-csv":
        rows = [["metric", "mean", "items", "normalize"]]
        for key in keys:
            rows.append([key, number_cell(report["mean"].get(key)), str(report["scored_items"]),
                         report["normalize"].get(key) or "none"])
        return _file("answer-metrics-means.csv", "text/csv", write_rows(rows))
    if kind == "answers-json":
        data = {"settings": {"missing": report["missing"],
                             "normalize": {k: report["normalize"].get(k) for k in keys}},
                "mean": report["mean"], "scored_items": report["scored_items"], "per_item": items,
                "missing_items": report["missing_items"],
                "unreferenced_answers": report["unreferenced_answers"],
                "notices": report["notices"], "inputs": result["inputs"]}
        return _file("answer-metrics-report.json", "application/json", json_text(data, 1))
    raise OptionError("download", f"unknown download {kind!r}; one of {', '.join(ANSWER_KINDS)}")


def _item(row: dict, keys: list[str]) -> dict:
    return {"id": row["id"], "answer": row.get("answer"), "references": row["references"],
            **{k: row[k] for k in keys}}
