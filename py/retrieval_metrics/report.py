"""The one structured result that the page and the CLI both render without recomputing."""

from __future__ import annotations

import math

from .records import InputSummary, Notice


class Report:
    """Scores per query and their means, what was read, and what changed the numbers.

    ``per_query[qid][key]`` and ``mean[key]``, keys such as ``ndcg@10`` (see ``keys``).
    """

    def __init__(self, k: tuple[int, ...], metrics: tuple[str, ...], gain: str, missing: str,
                 keys: list[str], per_query: dict[str, dict[str, float]], mean: dict[str, float],
                 scored_queries: int, missing_queries: list[str],
                 notices: list[Notice] | None = None,
                 inputs: dict[str, InputSummary] | None = None, zero_division="skip",
                 relevance_threshold: int = 1):
        self.k = k
        self.metrics = metrics
        self.gain = gain
        self.missing = missing
        self.keys = keys
        self.per_query = per_query
        self.mean = mean
        self.scored_queries = scored_queries
        self.missing_queries = missing_queries
        self.notices = notices or []
        self.inputs = inputs or {}
        self.zero_division = zero_division
        self.relevance_threshold = relevance_threshold

    def write(self, path, format: str | None = None) -> None:
        """Writes the report as ``json`` (all of it), ``jsonl`` (one line per query, for
        dataframes), ``csv``, ``trec`` or ``table``; the format defaults to the file's
        extension."""
        from .render import RENDERERS
        if format is None:
            format = str(path).rsplit(".", 1)[-1].lower()
            format = {"txt": "table", "tsv": "trec"}.get(format, format)
        if format not in RENDERERS:
            raise ValueError(f"unknown report format {format!r}; use one of {', '.join(RENDERERS)}")
        with open(path, "w", encoding="utf-8", newline="") as file:
            file.write(RENDERERS[format](self))

    def __repr__(self) -> str:
        return (f"<Report k={list(self.k)} queries={self.scored_queries} "
                f"mean={ {k: round(v, 4) for k, v in self.mean.items()} }>")

    def to_dict(self) -> dict:
        """Strict JSON: an undefined value (none here today) would be null, never NaN."""
        return {
            "k": list(self.k),
            "metrics": list(self.metrics),
            "keys": list(self.keys),
            "gain": self.gain,
            "missing": self.missing,
            "zero_division": self.zero_division,
            "relevance_threshold": self.relevance_threshold,
            "per_query": {q: _clean(v) for q, v in self.per_query.items()},
            "mean": _clean(self.mean),
            "scored_queries": self.scored_queries,
            "missing_queries": list(self.missing_queries),
            "notices": [n.to_dict() for n in self.notices],
            "inputs": {name: s.to_dict() for name, s in self.inputs.items()},
        }


def _clean(values: dict[str, float]) -> dict[str, float | None]:
    return {k: (v if v is None or math.isfinite(v) else None) for k, v in values.items()}


def report_from_dict(data: dict) -> Report:
    """A Report again from ``to_dict()``'s JSON (a saved report), for comparisons and tests."""
    from .records import InputSummary, Notice
    inputs = {name: InputSummary(d["format"], d["label"], d["columns"], d["rows"], d["queries"],
                                 d.get("third_column"))
              for name, d in (data.get("inputs") or {}).items() if d}
    notices = [Notice(n["code"], n["level"], n["message"], n.get("count", 0),
                      tuple(n.get("queries", ()))) for n in data.get("notices", [])]
    nan = float("nan")
    per_query = {q: {k: (nan if v is None else v) for k, v in values.items()}
                 for q, values in data["per_query"].items()}
    mean = {k: (nan if v is None else v) for k, v in data.get("mean", {}).items()}
    return Report(tuple(data.get("k", ())), tuple(data.get("metrics", ())), data.get("gain", "linear"),
                  data.get("missing", "zero"), list(data.get("keys") or next(iter(per_query.values()), {})),
                  per_query, mean, data.get("scored_queries", len(per_query)),
                  list(data.get("missing_queries", ())), notices, inputs,
                  data.get("zero_division", "skip"), data.get("relevance_threshold", 1))
