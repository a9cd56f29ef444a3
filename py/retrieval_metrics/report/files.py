"""Report files by suffix: written by ``Report.write``, read back by ``Report.read``.

- ``.json``: the whole report (strict JSON; an undefined value is null);
- ``.yaml`` / ``.yml``: the same data (needs PyYAML: the ``yaml`` extra);
- ``.toml``: the same data, but TOML has no null, so None fields are left out and come back
  as None / NaN from ``keys`` (needs tomli-w to write; Python 3.11's tomllib, or tomli, to read:
  the ``toml`` extra);
- ``.jsonl``: one object per scored query (for ``pandas.read_json(path, lines=True)``);
- ``.csv``: one row per scored query (``scope`` query), then the means (``scope`` mean), in the
  one CSV dialect of ``csvcells`` (an id written ``'=x`` reads back as ``=x``);
- ``.trec`` / ``.tsv`` (trec_eval's lines) and ``.txt`` (the table): written only.

JSON, YAML and TOML carry everything (settings, notices, inputs); JSONL and CSV carry the
numbers (keys, per-query values, means, missing queries), which is what ``Report.__eq__``
compares, so every readable file reads back to a report equal to the one written.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os

from ..errors import OptionError

WRITTEN = {"json": "json", "jsonl": "jsonl", "csv": "csv", "yaml": "yaml", "yml": "yaml",
           "toml": "toml", "trec": "trec", "tsv": "trec", "txt": "table", "table": "table"}
READABLE = ("json", "jsonl", "csv", "yaml", "toml")
EXTRAS = {"yaml": ("yaml", "PyYAML"), "tomli_w": ("toml", "tomli-w"), "tomli": ("toml", "tomli")}


class MissingDependency(ImportError):
    """An optional dependency a report format needs; the message names the extra to install."""


def optional(module: str, purpose: str):
    """``import module``, or MissingDependency naming the package extra that provides it."""
    try:
        return __import__(module)
    except ImportError:
        extra, package = EXTRAS[module]
        raise MissingDependency(f"{purpose} needs {package}: pip install "
                                f"\"retrieval-metrics[{extra}]\"", name=module) from None


def format_of(path, format: str | None, allowed) -> str:
    if format is None:
        suffix = os.fspath(path).rsplit(".", 1)[-1].lower() if "." in os.fspath(path) else ""
        format = WRITTEN.get(suffix)
        if format is None:
            raise OptionError("format", f"cannot tell the report format from {os.fspath(path)!r}; "
                              f"use a suffix: {', '.join('.' + s for s in WRITTEN if s != 'table')}")
    format = WRITTEN.get(format, format)
    if format not in allowed:
        raise OptionError("format", f"report format {format!r} cannot be "
                          f"{'read' if allowed is READABLE else 'written'}; use one of "
                          f"{', '.join(allowed)}")
    return format


def render(report, format: str) -> str:
    if format == "yaml":
        yaml = optional("yaml", "Writing a .yaml report")
        return yaml.safe_dump(report.to_dict(), sort_keys=False, allow_unicode=True)
    if format == "toml":
        tomli_w = optional("tomli_w", "Writing a .toml report")
        return tomli_w.dumps(_without_none(report.to_dict()))
    from .render import RENDERERS
    return RENDERERS[format](report)


def _without_none(value):
    if isinstance(value, dict):
        return {k: _without_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_none(v) for v in value]
    return value


def read(cls, path, format: str | None = None):
    fmt = format_of(path, format, READABLE)
    with open(path, encoding="utf-8", newline="") as file:
        text = file.read()
    if fmt == "json":
        return cls.from_dict(json.loads(text))
    if fmt == "yaml":
        yaml = optional("yaml", "Reading a .yaml report")
        return cls.from_dict(yaml.safe_load(text))
    if fmt == "toml":
        try:
            import tomllib
        except ImportError:  # Python < 3.11
            tomllib = optional("tomli", "Reading a .toml report")
        return cls.from_dict(tomllib.loads(text))
    if fmt == "jsonl":
        return _from_rows(cls, [json.loads(line) for line in text.splitlines() if line.strip()])
    return _from_csv(cls, text)


def _from_rows(cls, rows: list[dict]):
    """A report from ``.jsonl`` rows: the means are recomputed the engine's way."""
    from ..measures.registry import aggregate
    keys = [k for k in (rows[0] if rows else {}) if k not in ("query", "missing")]
    per_query = {row["query"]: {k: _number(row.get(k)) for k in keys} for row in rows}
    means = {k: aggregate(k, [values[k] for values in per_query.values()]) for k in keys} if rows else {}
    missing = [row["query"] for row in rows if row.get("missing")]
    return cls.from_dict({"keys": keys, "per_query": per_query, "mean": means,
                             "missing_queries": missing, **_unknown_settings(keys)})


def _from_csv(cls, text: str):
    from .csvcells import read_text_cell
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or rows[0][:2] != ["scope", "query"] or rows[0][-1:] != ["missing"]:
        raise OptionError("format", "this CSV is not a report (its header should start with "
                          "scope,query and end with missing)")
    keys = rows[0][2:-1]
    per_query, means, missing = {}, {}, []
    for row in rows[1:]:
        scope, query, values, flag = row[0], read_text_cell(row[1]), row[2:-1], row[-1]
        parsed = {k: (math.nan if v == "" else float(v)) for k, v in zip(keys, values)}
        if scope == "mean":
            means = parsed
            continue
        per_query[query] = parsed
        if flag == "true":
            missing.append(query)
    return cls.from_dict({"keys": keys, "per_query": per_query, "mean": means,
                             "missing_queries": missing, **_unknown_settings(keys)})


def _number(value) -> float:
    return math.nan if value is None else value


def _unknown_settings(keys: list[str]) -> dict:
    """What JSONL and CSV files do not say, as far as their keys tell it."""
    ks = sorted({int(k.rpartition("@")[2]) for k in keys if k.rpartition("@")[2].isdigit()})
    metrics = list(dict.fromkeys(k.partition("@")[0] for k in keys))
    return {"k": ks, "metrics": metrics}
