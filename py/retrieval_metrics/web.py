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


def analyse_many(qrels_text, runs, options: dict | None = None, progress=None) -> dict:
    r"""Several runs against one judgements box, compared with a baseline: the page's call for
    many runs. The judgements are parsed once; each run on its own, so one bad run is named
    in ``errors["runs"]`` and the others are still scored and compared.

    ``runs``: ``{name: text}`` or a list of ``[name, text]`` pairs (a JavaScript object would
    move names such as "2" before "bm25"; a list keeps the order the person chose). Texts are
    str or UTF-8 bytes. ``options``: ``analyse``'s (k, gain, missing, metrics, zero_division,
    qrels_format, run_format, third_column) and ``compare_many``'s (baseline: a name, default
    the first run; test; correction; alpha; confidence; samples; seed; bootstrap_ci; pairs;
    compare_metrics: the metric keys to compare, default all), plus
    ``digits`` (default 4) and ``intervals`` (default False) for the exports.
    ``progress(stage, done, total)`` hears "qrels", "run <name>" (reading), then
    ("scoring", i, n) per run and ("comparing", 0, 1).

    >>> out = analyse_many("q1 0 d1 1\nq2 0 d2 1", {"a": "q1 d1\nq2 d3", "b": "q1 d1\nq2 d2"},
    ...                    {"k": "1", "metrics": "recall"})
    >>> out["comparison"]["differences"]["b"]["recall@1"]["delta"], out["errors"]["runs"]
    (0.5, {'a': None, 'b': None})
    >>> out["exports"]["markdown"].splitlines()[2]
    '| a (baseline) | 0.5000 |'
    """
    from .many import compare_many, run_source
    options = dict(options or {})
    named = [(str(name), text) for name, text in (runs.items() if hasattr(runs, "items") else runs)]
    errors = {"qrels": None, "runs": {name: None for name, _ in named}, "options": None,
              "comparison": None}
    inputs = {"qrels": None, "runs": {name: None for name, _ in named}}
    out = {"inputs": inputs, "errors": errors, "reports": {}, "comparison": None, "exports": None}
    if len({name for name, _ in named}) != len(named):
        errors["options"] = OptionError("runs", "two runs have the same name; give each run "
                                        "its own name").to_dict()
        return out
    try:
        for name in ("qrels_format", "run_format"):
            options[name] = choice(name, options.get(name, "auto"), FORMATS)
        options["third_column"] = choice("third_column", options.get("third_column", "auto"),
                                         THIRD_COLUMN)
    except OptionError as exc:
        errors["options"] = exc.to_dict()
        return out
    try:
        settings = make_settings(options.get("k", 10), options.get("gain", "linear"),
                                 options.get("missing", "zero"), options.get("metrics"),
                                 options.get("zero_division", "skip"),
                                 options.get("relevance_threshold", 1))
    except OptionError as exc:
        settings = None
        errors["options"] = exc.to_dict()
    judgements = None
    rankings = {}
    with paused_gc():
        if qrels_text and qrels_text.strip():
            try:
                judgements = parse_qrels(qrels_text, options["qrels_format"], progress)
                inputs["qrels"] = judgements.summary.to_dict()
            except InputError as exc:
                errors["qrels"] = exc.to_dict()
        for name, text in named:
            if not (text and text.strip()):
                continue
            try:
                rankings[name] = parse_run(text, options["run_format"], options["third_column"],
                                           run_source(name),
                                           judgements.summary.format if judgements else None,
                                           progress)
                inputs["runs"][name] = rankings[name].summary.to_dict()
            except InputError as exc:
                errors["runs"][name] = exc.to_dict()
    if not (judgements and settings and rankings):
        return out
    reports = {}
    for i, (name, ranked) in enumerate(rankings.items()):
        if progress is not None:
            progress("scoring", i, len(rankings))
        try:
            reports[name] = score(judgements, ranked, settings)
        except InputError as exc:  # grades the gain cannot take: the judgements' fault
            errors["qrels"] = exc.to_dict()
            return out
        out["reports"][name] = reports[name].to_dict()
    if progress is not None:
        progress("comparing", 0, 1)
    try:
        comparison = compare_many(
            reports, options.get("baseline") or None, test=options.get("test", "randomisation"),
            correction=options.get("correction", "holm"), alpha=float(options.get("alpha", 0.05)),
            confidence=float(options.get("confidence", 0.95)), samples=_int(options.get("samples")),
            seed=_int(options.get("seed")) or 0, bootstrap_ci=options.get("bootstrap_ci", "bca"),
            pairs=options.get("pairs", "baseline"), metrics=options.get("compare_metrics") or None)
    except OptionError as exc:
        errors["comparison"] = exc.to_dict()
        return out
    except (TypeError, ValueError) as exc:
        errors["comparison"] = {"field": "options", "message": str(exc)}
        return out
    out["comparison"] = comparison.to_dict()
    digits = _int(options.get("digits"))
    export = {"digits": 4 if digits is None else digits, "intervals": bool(options.get("intervals"))}
    out["exports"] = {"latex": comparison.to_latex(**export),
                      "markdown": comparison.to_markdown(**export)}
    return out


def _int(value):
    """A whole-number option from the page (a number or its text), or None when not given."""
    if value is None or value == "":
        return None
    return int(value)


def analyse_answers(references_text, answers_text, options: dict | None = None) -> dict:
    """The Answers mode: references and answers (str or UTF-8 bytes) to per-item scores,
    means and notices; see ``answerreport.analyse_answers`` and docs/engine-api.md.

    >>> analyse_answers('{"id": "q1", "reference": "Paris"}', "q1,paris")["report"]["mean"]
    {'exact_match': 1.0, 'token_f1': 1.0, 'anls': 1.0, 'edit_similarity': 0.8}
    """
    from .answerreport import analyse_answers as analyse_both
    return analyse_both(references_text, answers_text, options)


__all__ = ["analyse", "analyse_many", "analyse_answers"]
