"""The result of scoring a live retriever: means, per-query values, statuses and latency.

Kept apart from the engine's ``Report`` (whose ``metrics`` are metric names): here
``metrics`` are the means, keyed by the names the caller asked for, as docs/api.md shows.
Query ids keep their type (a list of queries gives ids 0, 1, ...) and their order.

Files, by suffix: ``.json`` (everything; strict JSON, an undefined value is null), ``.yaml`` /
``.yml`` (the same, needs PyYAML), ``.toml`` (the same, needs tomli-w to write and, before
Python 3.11, tomli to read; TOML has no null, so undefined values are left out), ``.jsonl``
(one line per query: ``query_id``, ``status``, ``latency``, ``error``, then each metric) and
``.csv`` (the same columns). ``RetrievalEvaluation.read(path)`` reads each back to an equal
evaluation (from ``.jsonl`` / ``.csv`` without the settings and the wall time, which they do
not hold; from ``.csv`` with query ids as str, as CSV has no types).
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
from collections import Counter
from typing import Any

from ..errors import InputError, OptionError
from ..report.files import READABLE, dump_data, format_of, load_data, read_file_text, write_text
from .latency import Latency

ROW_FIELDS = ("query_id", "status", "latency", "error")
EXPECTED = "what RetrievalEvaluation.write / to_dict() gives"


class RetrievalEvaluation:
    """What :func:`evaluate_retrieval` measured.

    - ``metrics``: ``{name: mean over the queries}`` in the order asked (NaN when no query has a
      defined value; geometric for gm_map, as ``ranking_metrics``); ``mean`` is the same dict.
    - ``per_query``: ``{query_id: {name: value}}`` in query order.
    - ``statuses``: ``{query_id: status}``; ``status_counts``: ``{status: count}`` in order of
      first appearance.
    - ``latencies``: ``{query_id: seconds}``; ``latency``: a :class:`.latency.Latency` (mean,
      p50, p95, max, total, wall).
    - ``errors``: ``{query_id: "TypeError: ..."}`` for calls recorded as failed.
    - ``settings``: how the evaluation ran (k, on_degraded, on_error, zero_division, ...).
    """

    def __init__(self, names: list[str], query_ids: list, per_query: dict, *, statuses: dict,
                 latencies: dict, errors: dict | None = None, wall_seconds: float | None = None,
                 settings: dict | None = None):
        self.names = list(names)
        self.query_ids = list(query_ids)
        self.per_query = {qid: dict(per_query[qid]) for qid in self.query_ids}
        self.statuses = {qid: statuses[qid] for qid in self.query_ids}
        self.latencies = {qid: latencies[qid] for qid in self.query_ids}
        self.errors = dict(errors or {})
        self.wall_seconds = wall_seconds
        self.settings = dict(settings or {})
        self.metrics = {name: _mean_of(name, [self.per_query[q][name] for q in self.query_ids])
                        for name in self.names}
        self.status_counts = dict(Counter(self.statuses[q] for q in self.query_ids))
        self.latency = Latency.of([self.latencies[q] for q in self.query_ids], wall_seconds)

    # what comparison.compare reads from a report
    @property
    def mean(self) -> dict:
        return self.metrics

    @property
    def keys(self) -> list[str]:
        return list(self.names)

    @property
    def zero_division(self) -> Any:
        return self.settings.get("zero_division")

    @property
    def relevance_threshold(self) -> Any:
        return self.settings.get("relevance_threshold")

    def compare(self, baseline: Any, **options):
        """This evaluation (the candidate) against ``baseline`` (another evaluation, a Report or
        a saved report's dict): ``comparison.compare(baseline, self, **options)``."""
        from ..comparison.paired import compare
        return compare(baseline, self, **options)

    def to_report(self):
        """The numbers as an engine ``Report`` (query ids as str, metric keys in the engine's
        spelling: ``mrr`` -> ``rr``), for its renderers: ``to_report().write("run.trec")``
        gives trec_eval's lines, ``.txt`` the table."""
        from ..measures.grammar import parse_metric
        from ..report.report import Report
        specs = [parse_metric(name) for name in self.names]
        keys = [spec.key for spec in specs]
        per_query = {str(q): {key: self.per_query[q][name] for name, key in zip(self.names, keys)}
                     for q in self.query_ids}
        mean = {key: self.metrics[name] for name, key in zip(self.names, keys)}
        cutoffs = tuple(sorted({s.cutoff for s in specs if s.cutoff is not None}))
        return Report(cutoffs, tuple(self.names), "linear", "zero", keys, per_query, mean,
                      len(per_query), [], zero_division=self.settings.get("zero_division", "warn"),
                      relevance_threshold=self.settings.get("relevance_threshold", 1))

    def __repr__(self) -> str:
        means = {k: (round(v, 4) if v == v else v) for k, v in self.metrics.items()}
        return (f"<RetrievalEvaluation queries={len(self.query_ids)} metrics={means} "
                f"status_counts={self.status_counts}>")

    def __eq__(self, other: object) -> bool:
        """The same measurements: metric names, query ids in order, per-query values (an
        undefined value equals an undefined value), statuses, latencies and errors. The
        settings and the wall time say how they came about (and JSONL and CSV files do not
        hold them); compare ``to_dict()`` to include them."""
        if not isinstance(other, RetrievalEvaluation):
            return NotImplemented
        mine, theirs = self.to_dict(), other.to_dict()
        return all(mine[field] == theirs[field] for field in (
            "names", "query_ids", "per_query", "statuses", "latencies", "errors"))

    __hash__ = None  # mutable, compared by value

    # ---- as data -------------------------------------------------------------------------

    def to_dict(self) -> dict:
        """Strict-JSON data (NaN as None). ``per_query``, ``statuses``, ``latencies`` are keyed
        by ``str(query_id)`` (JSON keys are strings); ``query_ids`` keeps the ids as given."""
        return {
            "metrics": _clean(self.metrics),
            "status_counts": dict(self.status_counts),
            "latency": self.latency.to_dict(),
            "names": list(self.names),
            "query_ids": list(self.query_ids),
            "per_query": {str(q): _clean(self.per_query[q]) for q in self.query_ids},
            "statuses": {str(q): self.statuses[q] for q in self.query_ids},
            "latencies": {str(q): self.latencies[q] for q in self.query_ids},
            "errors": {str(q): e for q, e in self.errors.items()},
            "settings": dict(self.settings),
        }

    @classmethod
    def from_dict(cls, data: dict) -> RetrievalEvaluation:
        """An evaluation again from :meth:`to_dict`'s data."""
        try:
            query_ids = list(data["query_ids"])
            per_query = {q: _unclean(data["per_query"][str(q)]) for q in query_ids}
            statuses = {q: data["statuses"][str(q)] for q in query_ids}
            latencies = {q: data["latencies"][str(q)] for q in query_ids}
            by_key = {str(q): q for q in query_ids}
            errors = {by_key[key]: message for key, message in (data.get("errors") or {}).items()}
            names = list(data["names"])
        except (KeyError, TypeError) as error:
            raise InputError("report", f"not a retrieval evaluation: {error!s} is missing",
                             expected=EXPECTED) from None
        for q in query_ids:
            if not isinstance(statuses[q], str):
                raise InputError("report", f"query {q!r}: the status should be a string, found "
                                 f"{statuses[q]!r:.60}", expected=EXPECTED)
            latency = latencies[q]
            if latency is not None and (isinstance(latency, bool)
                                        or not isinstance(latency, (int, float))):
                raise InputError("report", f"query {q!r}: the latency should be a number, found "
                                 f"{latency!r:.60}", expected=EXPECTED)
        latency = data.get("latency") or {}
        return cls(names, query_ids, per_query, statuses=statuses, latencies=latencies,
                   errors=errors, wall_seconds=latency.get("wall"),
                   settings=data.get("settings") or {})

    def rows(self) -> list[dict]:
        """One dict per query: ``query_id``, ``status``, ``latency``, ``error``, then each
        metric (None where undefined); what ``pandas.DataFrame(evaluation.rows())`` wants."""
        return [{"query_id": q, "status": self.statuses[q], "latency": self.latencies[q],
                 "error": self.errors.get(q), **_clean(self.per_query[q])}
                for q in self.query_ids]

    @classmethod
    def from_rows(cls, rows: list[dict]) -> RetrievalEvaluation:
        names = [key for key in (rows[0] if rows else {}) if key not in ROW_FIELDS]
        qids = [row["query_id"] for row in rows]
        return cls(names, qids, {row["query_id"]: _unclean({n: row[n] for n in names})
                                 for row in rows},
                   statuses={row["query_id"]: row["status"] for row in rows},
                   latencies={row["query_id"]: row["latency"] for row in rows},
                   errors={row["query_id"]: row["error"] for row in rows if row.get("error")})

    # ---- files ---------------------------------------------------------------------------

    def write(self, path, format: str | None = None) -> None:
        """Writes the evaluation in the format of the file's suffix (see the module's doc);
        ``.trec`` / ``.tsv`` (trec_eval's lines) and ``.txt`` (the table) are the engine
        report's renderings of the numbers (:meth:`to_report`), written only."""
        format = format_of(path, format, FORMATS + ENGINE_RENDERED)
        if format in ENGINE_RENDERED:
            self.to_report().write(path, format)
            return
        write_text(path, self.dumps(format))  # made first: a refused format leaves the file

    def dumps(self, format: str = "json") -> str:
        """The text :meth:`write` would write."""
        if format == "json":
            return json.dumps(self.to_dict(), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
        if format in ("yaml", "toml"):
            return dump_data(self.to_dict(), format)
        if format == "jsonl":
            return "".join(json.dumps(row, ensure_ascii=False, allow_nan=False) + "\n"
                           for row in self.rows())
        if format == "csv":
            out = io.StringIO()
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow([*ROW_FIELDS, *self.names])
            for row in self.rows():
                writer.writerow(["" if v is None else (repr(v) if isinstance(v, float) else v)
                                 for v in row.values()])
            return out.getvalue()
        raise OptionError("format", f"report format {format!r} cannot be written; use one of "
                          f"{', '.join(FORMATS)}")

    @classmethod
    def read(cls, path, format: str | None = None) -> RetrievalEvaluation:
        """Reads a file :meth:`write` wrote back to an equal evaluation."""
        format = format_of(path, format, READABLE)
        name = os.fspath(path)
        text = read_file_text(path)  # a malformed file: InputError naming it and the line
        data = None if format == "csv" else load_data(text, format, name, "query_id")
        try:
            if format == "toml":
                return cls.from_dict(_with_none(data))
            if format in ("json", "yaml"):
                return cls.from_dict(data)
            if format == "jsonl":
                return cls.from_rows(data)
            return cls.from_rows(_csv_rows(text))
        except InputError as error:
            raise InputError(name, error.problem, expected=error.expected) from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
            raise InputError(name, f"not a retrieval evaluation ({type(error).__name__}: "
                             f"{error!s:.80})", expected=EXPECTED) from None


FORMATS = ("json", "jsonl", "csv", "yaml", "toml")
ENGINE_RENDERED = ("trec", "table")


def _csv_rows(text: str) -> list[dict]:
    """CSV rows with latencies and values as floats again. CSV has no types, so query ids
    come back as str (TREC's "301" must stay a str; a list's 0, 1, ... become "0", "1")."""
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None) or []
    rows = []
    for cells in reader:
        row = dict(zip(header, cells))
        row["latency"] = float(row["latency"])
        row["error"] = row["error"] or None
        for name in header[len(ROW_FIELDS):]:
            row[name] = None if row[name] == "" else float(row[name])
        rows.append(row)
    return rows


def _mean_of(name: str, values: list[float]) -> float:
    """The mean the way ranking_metrics takes it: arithmetic, or geometric for a measure
    registered so (gm_map, as trec_eval)."""
    from ..measures.aggregation import aggregate
    return aggregate(name, values)  # a name this version does not know: the arithmetic mean


def _clean(values: dict) -> dict:
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else v)
            for k, v in values.items()}


def _unclean(values: dict) -> dict:
    for k, v in values.items():
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
            raise InputError("report", f"{k}: expected a number or null, found {v!r:.60}",
                             expected=EXPECTED)
    return {k: (math.nan if v is None else float(v)) for k, v in values.items()}


def _with_none(data: dict) -> dict:
    """A TOML file's data with the fields TOML could not hold (None) back as None."""
    names = data.get("names", [])
    for values in (data.get("per_query") or {}).values():
        for name in names:
            values.setdefault(name, None)
    data["metrics"] = {name: data.get("metrics", {}).get(name) for name in names}
    latency = data.setdefault("latency", {})
    for field in Latency._fields:
        latency.setdefault(field, None)
    settings = data.get("settings")
    if settings:
        settings.setdefault("k", None)
    return data
