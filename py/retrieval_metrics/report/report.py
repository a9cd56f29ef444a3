"""The one structured result that the page and the CLI both render without recomputing."""

from __future__ import annotations

import math

from ..inputs.records import InputSummary, Notice
from .schema import EXPECTED_REPORT, check_report_dict  # noqa: F401 (importable from here)


class Report:
    """Scores per query and their means, what was read, and what changed the numbers.

    ``per_query[qid][key]`` and ``mean[key]``, keys such as ``ndcg@10`` (see ``keys``).
    """

    #: the files the report was scored from (``evaluate`` given paths), which ``write`` refuses
    #: to replace
    read_from: tuple[str, ...] = ()

    def __init__(self, k: tuple[int, ...], metrics: tuple[str, ...], gain: str, missing: str,
                 keys: list[str], per_query: dict[str, dict[str, float]], mean: dict[str, float],
                 scored_queries: int, missing_queries: list[str],
                 notices: list[Notice] | None = None,
                 inputs: dict[str, InputSummary] | None = None, zero_division="skip",
                 relevance_threshold: int = 1, *, ties: str = "trec_eval",
                 tie_ranges: dict | None = None):
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
        self.ties = ties  # how equal scores were ordered (scoring.ties)
        #: {key: (pessimistic mean, optimistic mean)} for the means the order of ties can move
        self.tie_ranges = dict(tie_ranges or {})

    def write(self, path, format: str | None = None) -> None:
        """Writes the report in the format its suffix names: ``.json`` (all of it), ``.jsonl``
        (one line per query, for dataframes), ``.csv``, ``.yaml``/``.yml`` (PyYAML),
        ``.toml`` (tomli-w; None fields left out), ``.trec``/``.tsv`` (trec_eval's lines) or
        ``.txt`` (the table); ``format`` overrides the suffix. A file is written atomically (a
        temporary file, then a rename): a failed write leaves the old one whole; a device or a
        FIFO is written into, never replaced (``report.files.write_text``). A path the report
        was scored from is refused, in the command line's words:

        >>> import os, tempfile
        >>> from retrieval_metrics import evaluate
        >>> folder = tempfile.mkdtemp(); run = os.path.join(folder, "run.trec")
        >>> with open(run, "w") as f:
        ...     _ = f.write("q1 Q0 d1 1 1.0 t\\n")
        >>> evaluate({"q1": ["d1"]}, run).write(run)
        Traceback (most recent call last):
        ...
        retrieval_metrics.errors.OptionError: cannot write the output to ...run.trec: it is one of the inputs (...run.trec); choose another file
        """
        from .files import WRITTEN, format_of, render, write_text
        text = render(self, format_of(path, format, tuple(dict.fromkeys(WRITTEN.values()))))
        write_text(path, text, self.read_from)

    @classmethod
    def read(cls, path, format: str | None = None) -> "Report":
        """A report from a file ``write`` made (``.json``, ``.jsonl``, ``.csv``, ``.yaml``,
        ``.yml``, ``.toml``), equal to the report written.

        >>> import os, tempfile
        >>> report = report_from_dict({"per_query": {"q1": {"mrr@10": 1.0}}})
        >>> path = os.path.join(tempfile.mkdtemp(), "report.csv")
        >>> report.write(path)
        >>> Report.read(path) == report
        True
        """
        from .files import read
        return read(cls, path, format)

    @classmethod
    def from_dict(cls, data: dict, source: str = "report") -> "Report":
        """A report again from ``to_dict()``'s data: ``report_from_dict`` (``source`` names
        the data in its errors: the file it came from)."""
        return report_from_dict(data, source)

    def compare(self, baseline, **options):
        """This report (the candidate) against ``baseline`` (a Report or a saved report's
        dict): ``comparison.compare(baseline, self, **options)``."""
        from ..comparison.paired import compare
        return compare(baseline, self, **options)

    def __eq__(self, other) -> bool:
        """Equal numbers: the same keys, per-query values and means (an undefined value equals
        an undefined value) and missing queries. Settings, notices and input descriptions say
        how the numbers came about; compare ``to_dict()`` to include them."""
        if not isinstance(other, Report):
            return NotImplemented
        return (list(self.keys) == list(other.keys)
                and list(self.per_query) == list(other.per_query)
                and all(_same(self.per_query[q], other.per_query[q]) for q in self.per_query)
                and _same(self.mean, other.mean)
                and list(self.missing_queries) == list(other.missing_queries))

    __hash__ = None

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
            "ties": self.ties,
            "tie_ranges": {k: list(v) for k, v in self.tie_ranges.items()},
            "per_query": {q: _clean(v) for q, v in self.per_query.items()},
            "mean": _clean(self.mean),
            "scored_queries": self.scored_queries,
            "missing_queries": list(self.missing_queries),
            "notices": [n.to_dict() for n in self.notices],
            "inputs": {name: s.to_dict() for name, s in self.inputs.items()},
        }


def _same(a: dict, b: dict) -> bool:
    if list(a) != list(b):
        return False
    for key, x in a.items():
        y = b[key]
        if x != y and not (x != x and y != y):  # NaN equals NaN here
            return False
    return True


def _clean(values: dict[str, float]) -> dict[str, float | None]:
    return {k: (v if v is None or math.isfinite(v) else None) for k, v in values.items()}






def report_from_dict(data: dict, source: str = "report") -> Report:
    """A Report again from ``to_dict()``'s data (a saved JSON, YAML or TOML report), for
    comparisons and tests; a value that is null or absent (TOML has no null) is NaN. Data of
    another shape is refused with InputError naming ``source`` (see ``check_report_dict``)."""
    from ..inputs.records import InputSummary, Notice
    check_report_dict(data, source)
    inputs = {name: InputSummary(d.get("format", ""), d.get("label", ""), d.get("columns"),
                                 d.get("rows", 0), d.get("queries", 0), d.get("third_column"))
              for name, d in (data.get("inputs") or {}).items() if d}
    notices = [Notice(n["code"], n["level"], n["message"], n.get("count", 0),
                      tuple(n.get("queries", ()))) for n in data.get("notices", [])]
    raw = data.get("per_query") or {}
    keys = list(data.get("keys") or next(iter(raw.values()), {}))
    per_query = {q: _filled(values, keys) for q, values in raw.items()}
    mean = _filled(data.get("mean") or {}, keys if raw else [])
    return Report(tuple(data.get("k", ())), tuple(data.get("metrics", ())), data.get("gain", "linear"),
                  data.get("missing", "zero"), keys,
                  per_query, mean, data.get("scored_queries", len(per_query)),
                  list(data.get("missing_queries", ())), notices, inputs,
                  data.get("zero_division", "skip"), data.get("relevance_threshold", 1),
                  ties=data.get("ties", "trec_eval"),
                  tie_ranges={k: tuple(v) for k, v in (data.get("tie_ranges") or {}).items()})


def _filled(values: dict, keys: list[str]) -> dict[str, float]:
    """Every key, in ``keys`` order when they are known; None or absent is NaN."""
    nan = float("nan")
    out = {k: (nan if values.get(k) is None else values[k]) for k in keys}
    out.update({k: (nan if v is None else v) for k, v in values.items() if k not in out})
    return out
