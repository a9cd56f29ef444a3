"""The page's one entry point: both boxes and the settings in, plain data out.

Each box is parsed on its own, so the line under a box can say what was detected even while
the other box is empty or wrong; errors come back as data for the page to place, never as a
traceback.
"""

from __future__ import annotations

from .errors import InputError, OptionError
from .evaluate import paused_gc, score
from .options import choice
from .options import settings as make_settings
from .qrels import parse_qrels
from .runs import THIRD_COLUMN, parse_run
from .textrows import FORMATS


def analyse(qrels_text: str, run_text: str, options: dict | None = None,
            baseline_text: str = "", progress=None) -> dict:
    """Scores what can be scored; ``errors`` says per box (and for the settings) what cannot.

    With a baseline (a run, or a saved JSON report), ``comparison`` holds the paired test of
    every metric (``compare(...).to_dict()``) and ``baseline`` what was read there.
    ``progress(stage, done, total)``, if given, hears how far the reading of a large box
    ("qrels", "run") has come, then ("scoring", 0, 1).

    >>> out = analyse("q1 0 d1 1", "q1 Q0 d1 1 2.5 run", {"k": "1"})
    >>> out["report"]["mean"]["ndcg@1"], out["errors"]["run"]
    (1.0, None)
    """
    options = dict(options or {})
    errors = {"qrels": None, "run": None, "options": None, "baseline": None}
    inputs = {"qrels": None, "run": None, "baseline": None}
    try:  # how to read the boxes: nothing can be read without it
        for name in ("qrels_format", "run_format", "baseline_format"):
            options[name] = choice(name, options.get(name, "auto"), FORMATS)
        for name in ("third_column", "baseline_third_column"):
            options[name] = choice(name, options.get(name, "auto"), THIRD_COLUMN)
    except OptionError as exc:
        errors["options"] = exc.to_dict()
        return {"inputs": inputs, "errors": errors, "report": None, "comparison": None}
    try:  # what to compute: the boxes are still read, so their lines say what was detected
        settings = make_settings(options.get("k", 10), options.get("gain", "linear"),
                                 options.get("missing", "zero"), options.get("metrics"),
                                 options.get("zero_division", "skip"),
                                 options.get("relevance_threshold", 1))
    except OptionError as exc:
        settings = None
        errors["options"] = exc.to_dict()
    judgements = rankings = None
    with paused_gc():
        if qrels_text.strip():
            try:
                judgements = parse_qrels(qrels_text, options.get("qrels_format", "auto"),
                                         progress)
                inputs["qrels"] = judgements.summary.to_dict()
            except InputError as exc:
                errors["qrels"] = exc.to_dict()
        if run_text.strip():
            try:
                rankings = parse_run(run_text, options.get("run_format", "auto"),
                                     options.get("third_column", "auto"), "run",
                                     judgements.summary.format if judgements else None,
                                     progress)
                inputs["run"] = rankings.summary.to_dict()
            except InputError as exc:
                errors["run"] = exc.to_dict()
    report = comparison = None
    if judgements and rankings and settings:
        try:
            if progress is not None:
                progress("scoring", 0, 1)
            scored = score(judgements, rankings, settings)
            report = scored.to_dict()
        except InputError as exc:
            errors[exc.source] = exc.to_dict()
        if report is not None and baseline_text.strip():
            comparison = _compare(baseline_text, judgements, scored, settings, options,
                                  inputs, errors)
    return {"inputs": inputs, "errors": errors, "report": report, "comparison": comparison}


def _compare(baseline_text, judgements, scored, settings, options, inputs, errors):
    from .baseline import load_baseline
    from .comparison import compare
    try:
        baseline = load_baseline(baseline_text, judgements, settings,
                                 run_format=options.get("baseline_format", "auto"),
                                 third_column=options.get("baseline_third_column", "auto"))
        if isinstance(baseline, dict):
            inputs["baseline"] = {"format": "report", "label": "Saved report",
                                  "columns": None, "rows": len(baseline["per_query"]),
                                  "queries": len(baseline["per_query"]), "third_column": None,
                                  "description": f"Saved JSON report: "
                                                 f"{len(baseline['per_query']):,} scored queries"}
        else:
            inputs["baseline"] = baseline.inputs["run"].to_dict()
        return compare(baseline, scored, samples=int(options.get("samples", 100_000)),
                       seed=int(options.get("seed", 0))).to_dict()
    except (InputError, OptionError) as exc:
        errors["baseline"] = exc.to_dict()
        return None


__all__ = ["analyse"]
