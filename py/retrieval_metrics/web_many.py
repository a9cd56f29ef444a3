"""The page's many-run entry point: one judgements box, several named runs, a baseline among
them; plain data out (each box's errors as data, never a traceback).

The judgements are parsed once and every run is scored against them (as ``evaluate_many``);
``compare_many`` gives the systems x metrics table with confidence intervals, differences,
corrected p-values and markers; the paper tables (LaTeX, Markdown) and each run's
precision-recall curve come with it, so the page needs no second request.
"""

from __future__ import annotations

from .errors import InputError, OptionError
from .evaluate import paused_gc, score
from .options import choice
from .options import settings as make_settings
from .qrels import parse_qrels
from .runs import THIRD_COLUMN, parse_run
from .textrows import FORMATS

MAX_RUNS = 50


def _number(options: dict, name: str, cast, default):
    value = options.get(name, default)
    if value in (None, ""):
        return default
    try:
        return cast(value)
    except (TypeError, ValueError):
        raise OptionError(name, f"{name} must be a number, found {value!r}") from None


def analyse_many(qrels_text, runs, options: dict | None = None, baseline: str | None = None,
                 progress=None) -> dict:
    """``runs``: ``[(name, text), ...]`` (or ``{name: text}``) in the page's order; ``baseline``
    one of the names (default: the first). ``options``: ``analyse``'s (k, gain, missing, metrics,
    zero_division, qrels_format, run_format, third_column) and the comparison's ``test``
    (randomisation | t | bootstrap), ``correction`` (holm | bonferroni | bh | none), ``alpha``,
    ``samples``, ``seed``. Returns ``{"inputs": {"qrels", "runs": {name: summary}},
    "errors": {"qrels", "options", "runs": {name: error}}, "reports": {name: {"mean",
    "scored_queries", "missing_queries", "notices"}}, "comparison": compare_many(...).to_dict(),
    "latex", "markdown", "curves": {"recall": [...], "runs": [{"name", "precision",
    "queries"}]}}``; what cannot be computed is None.

    >>> out = analyse_many("q1 0 d1 1\\nq2 0 d2 1", [("a", "q1 Q0 d1 1 2 a\\nq2 Q0 d2 1 1 a"),
    ...                    ("b", "q1 Q0 d3 1 2 b\\nq2 Q0 d2 1 1 b")], {"k": "1", "metrics": ["precision"]})
    >>> out["comparison"]["differences"]["b"]["precision@1"]["delta"], out["errors"]["runs"]
    (-0.5, {'a': None, 'b': None})
    """
    from .inspect_query import RECALL_LEVELS, precision_recall
    from .many import compare_many, run_source
    options = dict(options or {})
    runs = list(runs.items()) if isinstance(runs, dict) else [tuple(r) for r in runs]
    names = [str(name) for name, _ in runs]
    errors = {"qrels": None, "options": None, "runs": dict.fromkeys(names)}
    inputs = {"qrels": None, "runs": dict.fromkeys(names)}
    out = {"inputs": inputs, "errors": errors, "reports": None, "comparison": None,
           "latex": None, "markdown": None, "curves": None}
    try:
        if len(set(names)) != len(names):
            raise OptionError("runs", "two runs have the same name; give each its own")
        if len(names) > MAX_RUNS:
            raise OptionError("runs", f"at most {MAX_RUNS} runs at once, found {len(names)}")
        for name in ("qrels_format", "run_format"):
            options[name] = choice(name, options.get(name, "auto"), FORMATS)
        options["third_column"] = choice("third_column", options.get("third_column", "auto"),
                                         THIRD_COLUMN)
        settings = make_settings(options.get("k", 10), options.get("gain", "linear"),
                                 options.get("missing", "zero"), options.get("metrics"),
                                 options.get("zero_division", "skip"))
        compare_options = {
            "test": options.get("test", "randomisation"),
            "correction": options.get("correction", "holm"),
            "alpha": _number(options, "alpha", float, 0.05),
            "samples": _number(options, "samples", int, None),
            "seed": _number(options, "seed", int, 0),
        }
    except OptionError as exc:
        errors["options"] = exc.to_dict()
        settings = None
    judgements = None
    rankings = {}
    with paused_gc():
        if _text(qrels_text):
            try:
                judgements = parse_qrels(qrels_text, options.get("qrels_format", "auto"), progress)
                inputs["qrels"] = judgements.summary.to_dict()
            except InputError as exc:
                errors["qrels"] = exc.to_dict()
        for name, text in runs:
            if not _text(text):
                errors["runs"][name] = {"source": run_source(name), "line": None, "text": None,
                                        "expected": "a run", "problem": "the run is empty",
                                        "message": f"run {name}: the run is empty"}
                continue
            try:
                rankings[name] = parse_run(text, options.get("run_format", "auto"),
                                           options.get("third_column", "auto"), run_source(name),
                                           judgements.summary.format if judgements else None)
                inputs["runs"][name] = rankings[name].summary.to_dict()
            except InputError as exc:
                errors["runs"][name] = exc.to_dict()
    if not (judgements and settings and names) or len(rankings) != len(names):
        return out
    try:
        reports = {}
        for name in names:
            if progress is not None:
                progress("scoring", names.index(name), len(names))
            reports[name] = score(judgements, rankings[name], settings)
    except InputError as exc:
        errors[exc.source if exc.source == "qrels" else "options"] = exc.to_dict()
        return out
    out["reports"] = {name: {"mean": r.mean, "scored_queries": r.scored_queries,
                             "missing_queries": r.missing_queries,
                             "notices": [n.to_dict() for n in r.notices]}
                      for name, r in reports.items()}
    try:
        comparison = compare_many(reports, baseline or names[0], **compare_options)
    except OptionError as exc:
        errors["options"] = exc.to_dict()
        return out
    out["comparison"] = _clean(comparison.to_dict())
    out["latex"] = comparison.to_latex()
    out["markdown"] = comparison.to_markdown()
    out["curves"] = {"recall": list(RECALL_LEVELS), "runs": [
        {"name": name, **{key: value for key, value in
                          precision_recall(judgements, rankings[name], list(reports[name].per_query)).items()
                          if key != "recall"}}
        for name in names]}
    return out


def _text(text) -> bool:
    return bool(text) and bool(text.strip())


def _clean(value):
    """Strict JSON: NaN and infinities become None."""
    if isinstance(value, float) and value != value or value in (float("inf"), float("-inf")):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


__all__ = ["analyse_many"]
