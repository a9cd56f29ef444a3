"""What the page computes, each request a function of its inputs alone: the boxes and the
settings in, plain data out, with what a session keeps for later questions (``Kept``,
``KeptMany``) beside it. ``page.session`` keeps those; ``page.web`` is the documented entry.

Each box is parsed on its own, so the line under a box can say what was detected even while
the other box is empty or wrong; errors come back as data for the page to place, never as a
traceback.
"""

from __future__ import annotations

from typing import NamedTuple

from ..errors import InputError, OptionError
from ..inputs.qrels import parse_qrels
from ..inputs.records import Judgements, Rankings
from ..inputs.run_names import run_source
from ..inputs.runs import THIRD_COLUMN, parse_run
from ..inputs.source import is_blank
from ..inputs.textrows import FORMATS
from ..measures.grammar import split_names
from ..scoring.evaluate import paused_gc, readings_of, score
from ..scoring.query import Settings, metric_specs
from ..scoring.settings import ANALYSE_MANY_OPTIONS, ANALYSE_OPTIONS, INSPECT_OPTIONS, choice, request_options
from ..scoring.settings import settings as make_settings
from .fusion import NAME as FUSED_NAME
from .fusion import fused_run, fusion_choice
from .options import fraction_option, whole_option


def analyse(qrels_text: str, run_text: str, options: dict | None = None,
            baseline_text: str = "", progress=None) -> tuple[dict, Kept | None]:
    """Scores what can be scored; ``errors`` says per box (and for the settings) what cannot.
    Returns the answer and what a session keeps of it (None when nothing was scored).

    With a baseline (a run, or a saved JSON report), ``comparison`` holds the paired test of
    every metric (``compare(...).to_dict()``) and ``baseline`` what was read there.
    ``progress(stage, done, total)``, if given, hears how far the reading of a large box
    ("qrels", "run") has come, then ("scoring", 0, 1). Once scored, ``unjudged_in_top``
    counts the unjudged documents in each scored query's top max(k) (queries with none are
    left out), ``readings`` lists the keys read in another tool's dialect (``ranx:hits@5``:
    ``{"key", "tool", "name", "definition"}`` each, as the ``metric_readings`` notice says
    them); the parsed inputs are what is kept, for ``inspect`` and ``precision_recall``.

    >>> out, kept = analyse("q1 0 d1 1", "q1 Q0 d1 1 2.5 run", {"k": "1"})
    >>> out["report"]["mean"]["ndcg@1"], out["errors"]["run"], kept.queries
    (1.0, None, ('q1',))
    """
    errors = {"qrels": None, "run": None, "options": None, "baseline": None}
    inputs = {"qrels": None, "run": None, "baseline": None}
    try:  # how to read the boxes: nothing can be read without it
        options = request_options(options, ANALYSE_OPTIONS, "analyse")
        for name in ("qrels_format", "run_format", "baseline_format"):
            options[name] = choice(name, options.get(name, "auto"), FORMATS)
        for name in ("third_column", "baseline_third_column"):
            options[name] = choice(name, options.get(name, "auto"), THIRD_COLUMN)
    except OptionError as exc:
        errors["options"] = exc.to_dict()
        return {"inputs": inputs, "errors": errors, "report": None, "comparison": None}, None
    try:  # what to compute: the boxes are still read, so their lines say what was detected
        settings = page_settings(options)
        _numbers(options, 100_000, "seed")
    except OptionError as exc:
        settings = None
        errors["options"] = exc.to_dict()
    judgements = rankings = None
    with paused_gc():
        if not is_blank(qrels_text):
            try:
                judgements = parse_qrels(qrels_text, options.get("qrels_format", "auto"),
                                         progress)
                inputs["qrels"] = judgements.summary.to_dict()
            except InputError as exc:
                errors["qrels"] = exc.to_dict()
        if not is_blank(run_text):
            try:
                rankings = parse_run(run_text, options.get("run_format", "auto"),
                                     options.get("third_column", "auto"), "run",
                                     judgements.summary.format if judgements else None,
                                     progress)
                inputs["run"] = rankings.summary.to_dict()
            except InputError as exc:
                errors["run"] = exc.to_dict()
    report = comparison = kept = None
    if judgements and rankings and settings:
        try:
            if progress is not None:
                progress("scoring", 0, 1)
            scored = score(judgements, rankings, settings)
            report = scored.to_dict()
        except InputError as exc:
            errors[exc.source] = exc.to_dict()
        baseline = compared = None
        if report is not None and not is_blank(baseline_text):
            compared, baseline = _compare(baseline_text, judgements, scored, settings,
                                          options, inputs, errors)
            comparison = compared.to_dict() if compared is not None else None
        if report is not None:
            kept = Kept(judgements, rankings, baseline, settings, tuple(scored.per_query),
                        scored, compared)
    out = {"inputs": inputs, "errors": errors, "report": report, "comparison": comparison}
    if kept is not None:
        out["unjudged_in_top"] = unjudged_in_top(judgements, rankings, kept.queries,
                                                 max(settings.k))
        out["readings"] = readings_of(metric_specs(settings))
    return out, kept


def unjudged_in_top(judgements: Judgements, rankings: Rankings, queries, depth: int) -> dict:
    """``{query: n}`` for the scored queries with n > 0 unjudged documents in their top
    ``depth`` (the page filters its per-query table by it).

    >>> from retrieval_metrics.inputs.qrels import parse_qrels
    >>> from retrieval_metrics.inputs.runs import parse_run
    >>> unjudged_in_top(parse_qrels({"q1": ["a"], "q2": ["b"]}),
    ...                 parse_run({"q1": ["x", "a", "y"], "q2": ["b"]}), ["q1", "q2"], 2)
    {'q1': 1}
    """
    out = {}
    for query in queries:
        grades = judgements.grades.get(query, {})
        n = sum(1 for doc in rankings.ranked.get(query, ())[:depth] if doc not in grades)
        if n:
            out[query] = n
    return out


def _compare(baseline_text, judgements, scored, settings, options, inputs, errors):
    from ..comparison.baseline import read_baseline
    from ..comparison.paired import compare
    rankings = None
    try:
        baseline = read_baseline(baseline_text, judgements,
                                 run_format=options.get("baseline_format", "auto"),
                                 third_column=options.get("baseline_third_column", "auto"))
        if not isinstance(baseline, dict):
            rankings = baseline
            baseline = score(judgements, rankings, settings)
        if isinstance(baseline, dict):
            inputs["baseline"] = {"format": "report", "label": "Saved report",
                                  "columns": None, "rows": len(baseline["per_query"]),
                                  "queries": len(baseline["per_query"]), "third_column": None,
                                  "description": f"Saved JSON report: "
                                                 f"{len(baseline['per_query']):,} scored queries"}
        else:
            inputs["baseline"] = baseline.inputs["run"].to_dict()
        return compare(baseline, scored, samples=options["samples"], seed=options["seed"]), rankings
    except (InputError, OptionError) as exc:
        errors["baseline"] = exc.to_dict()
        return None, None


class Kept(NamedTuple):
    """What an ``analyse`` read and scored, kept so that looking at one query (or the
    precision-recall curve, or a download) does not send and parse the inputs again."""

    judgements: Judgements
    rankings: Rankings
    baseline: Rankings | None  # None without a baseline, or when it is a saved report
    settings: Settings
    queries: tuple[str, ...]  # the report's scored queries
    report: object = None  # the Report, for the downloads
    comparison: object = None  # compare()'s result with a baseline, for the downloads


class KeptMany(NamedTuple):
    """What an ``analyse_many`` read, scored and compared: for the curves and the downloads."""

    judgements: Judgements
    rankings: dict  # {name: Rankings}
    reports: dict  # {name: Report}
    comparison: object  # compare_many()'s result
    export: dict  # the exports' digits and intervals
    settings: Settings
    fused: str | None = None  # the fused run's TREC text, when the runs were fused


def _fuse(texts: dict, rankings: dict, fusion, options, judgements, errors, inputs):
    """The runs read fused (``page.fusion``) into one more run, read and added to
    ``rankings`` as ``fused`` (``fused (2)`` if a run has that name): (its name, its TREC
    text), or None, with the reason in ``errors["options"]``, when it cannot be."""
    method, norm = fusion
    name = FUSED_NAME
    n = 1
    while name in texts:
        n += 1
        name = f"{FUSED_NAME} ({n})"
    formats = {run: rankings[run].summary.format for run in rankings}
    try:
        text = fused_run({run: texts[run] for run in rankings}, formats,
                         {run: r.ranked for run, r in rankings.items()}, method, norm)
        rankings[name] = parse_run(text, "trec", options["third_column"], run_source(name),
                                   judgements.summary.format)
    except (OptionError, InputError, ValueError) as exc:
        errors["options"] = (exc.to_dict() if hasattr(exc, "to_dict")
                             else {"field": "fuse", "message": str(exc)})
        return None
    inputs["runs"][name] = rankings[name].summary.to_dict()
    errors["runs"][name] = None
    return name, text


def inspect(kept: Kept, query: str, options: dict | None = None) -> dict:
    """One query of kept inputs: its ranking to ``options["depth"]`` (default the largest k)
    with each document's grade, the relevant documents never retrieved, its values, and the
    baseline's ranking beside it (``page.one_query.inspect_query``)."""
    from .one_query import inspect_query
    options = request_options(options, INSPECT_OPTIONS, "inspect")
    depth = whole_option(options, "depth", None, 0, 1_000_000)  # -5, 1.5, True: refused
    return inspect_query(str(query), kept.judgements, kept.rankings, kept.settings, depth,
                         kept.baseline)


def precision_recall(kept: Kept) -> dict:
    """trec_eval's 11-point interpolated precision (iprec_at_recall), averaged over the scored
    queries, for the run and (when it is a run) the baseline: ``{"recall": [0.0, ..., 1.0],
    "runs": [{"name": "run", "precision": [...], "queries": n}, ...]}``."""
    from .one_query import RECALL_LEVELS
    from .one_query import precision_recall as curve
    level = kept.settings.relevance_threshold
    runs = [{"name": "run", **curve(kept.judgements, kept.rankings, kept.queries, level)}]
    if kept.baseline is not None:
        runs.append({"name": "baseline", **curve(kept.judgements, kept.baseline, kept.queries, level)})
    for entry in runs:
        del entry["recall"]
    return {"recall": list(RECALL_LEVELS), "runs": runs}


def analyse_many(qrels_text, runs, options: dict | None = None, progress=None) -> tuple[dict, KeptMany | None]:
    r"""Several runs against one judgements box, compared with a baseline: the page's call for
    many runs. The judgements are parsed once; each run on its own, so one bad run is named
    in ``errors["runs"]`` and the others are still scored and compared.

    ``runs``: ``{name: text}`` or a list of ``[name, text]`` pairs (a JavaScript object would
    move names such as "2" before "bm25"; a list keeps the order the person chose). Texts are
    str or UTF-8 bytes. ``options``: ``analyse``'s (k, gain, missing, metrics, zero_division, ties,
    qrels_format, run_format, third_column) and ``compare_many``'s (baseline: a name, default
    the first run; test; correction; alpha; confidence; samples; seed; bootstrap_ci; pairs;
    compare_metrics: the metric keys to compare, default all; topic_sets: the topic-set
    analysis too), plus
    ``digits`` (default 4) and ``intervals`` (default False) for the exports.
    ``progress(stage, done, total)`` hears "qrels", "run <name>" (reading), then
    ("scoring", i, n) per run and ("comparing", 0, 1). Returns the answer and what a session
    keeps of it (None unless the runs were compared).

    >>> out, _ = analyse_many("q1 0 d1 1\nq2 0 d2 1", {"a": "q1 d1\nq2 d3", "b": "q1 d1\nq2 d2"},
    ...                    {"k": "1", "metrics": "recall"})
    >>> out["comparison"]["differences"]["b"]["recall@1"]["delta"], out["errors"]["runs"]
    (0.5, {'a': None, 'b': None})
    >>> out["exports"]["markdown"].splitlines()[2]
    '| a (baseline) | 0.5000 |'
    """
    from ..comparison.many import compare_many
    named = [(str(name), text) for name, text in (runs.items() if hasattr(runs, "items") else runs)]
    errors = {"qrels": None, "runs": {name: None for name, _ in named}, "options": None,
              "comparison": None}
    inputs = {"qrels": None, "runs": {name: None for name, _ in named}}
    out = {"inputs": inputs, "errors": errors, "reports": {}, "comparison": None, "exports": None,
           "fused": None}
    if len({name for name, _ in named}) != len(named):
        errors["options"] = OptionError("runs", "two runs have the same name; give each run "
                                        "its own name").to_dict()
        return out, None
    try:
        options = request_options(options, ANALYSE_MANY_OPTIONS, "analyse_many")
        for name in ("qrels_format", "run_format"):
            options[name] = choice(name, options.get(name, "auto"), FORMATS)
        options["third_column"] = choice("third_column", options.get("third_column", "auto"),
                                         THIRD_COLUMN)
    except OptionError as exc:
        errors["options"] = exc.to_dict()
        return out, None
    try:
        settings = page_settings(options)
        _numbers(options, None, "seed", "alpha", "confidence", "digits")
        fusion = fusion_choice(options.get("fuse"))
    except OptionError as exc:
        settings = fusion = None
        errors["options"] = exc.to_dict()
    judgements = None
    rankings = {}
    with paused_gc():
        if qrels_text and not is_blank(qrels_text):
            try:
                judgements = parse_qrels(qrels_text, options["qrels_format"], progress)
                inputs["qrels"] = judgements.summary.to_dict()
            except InputError as exc:
                errors["qrels"] = exc.to_dict()
        for name, text in named:
            if not text or is_blank(text):
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
        return out, None
    fused = None
    if fusion and len(rankings) >= 2:
        fused = _fuse(dict(named), rankings, fusion, options, judgements, errors, inputs)
    reports = {}
    for i, (name, ranked) in enumerate(rankings.items()):
        if progress is not None:
            progress("scoring", i, len(rankings))
        try:
            reports[name] = score(judgements, ranked, settings)
        except InputError as exc:  # grades the gain cannot take: the judgements' fault
            errors["qrels"] = exc.to_dict()
            return out, None
        out["reports"][name] = reports[name].to_dict()
    if progress is not None:
        progress("comparing", 0, 1)
    try:
        comparison = compare_many(
            reports, options.get("baseline") or None, test=options.get("test", "randomisation"),
            correction=options.get("correction", "holm"),
            alpha=options["alpha"], confidence=options["confidence"],
            samples=options["samples"], seed=options["seed"], bootstrap_ci=options.get("bootstrap_ci", "bca"),
            pairs=options.get("pairs", "baseline"), metrics=options.get("compare_metrics") or None,
            topic_sets=bool(options.get("topic_sets")))
    except OptionError as exc:
        errors["comparison"] = exc.to_dict()
        return out, None
    except (TypeError, ValueError) as exc:
        errors["comparison"] = {"field": "options", "message": str(exc)}
        return out, None
    out["comparison"] = comparison.to_dict()
    export = {"digits": options["digits"], "intervals": bool(options.get("intervals"))}
    out["exports"] = {"latex": comparison.to_latex(**export),
                      "markdown": comparison.to_markdown(**export)}
    out["fused"] = ({"name": fused[0], "method": fusion[0], "norm": fusion[1]} if fused
                    else None)
    return out, KeptMany(judgements, rankings, reports, comparison, export, settings,
                         fused[1] if fused else None)


def precision_recall_many(kept: KeptMany) -> dict:
    """The 11-point interpolated precision-recall curve (``precision_recall``'s shape) of every
    run an ``analyse_many`` compared, each over its own scored queries."""
    from .one_query import RECALL_LEVELS
    from .one_query import precision_recall as curve
    runs = []
    for name, report in kept.reports.items():
        points = curve(kept.judgements, kept.rankings[name], list(report.per_query),
                       report.relevance_threshold)
        runs.append({"name": name, "precision": points["precision"], "queries": points["queries"]})
    return {"recall": list(RECALL_LEVELS), "runs": runs}


def download(kind: str, meta: dict | None, kept) -> dict:
    """The file ``kind`` (``{"name", "type", "text"}``) of a kept result: the report's files
    (``downloads.REPORT_KINDS``, of a ``Kept``), the many-run files (``MANY_KINDS``, of a
    ``KeptMany``), the Answers mode's (``ANSWER_KINDS``, of its answer). ``meta`` (what made
    it) heads the JSON files."""
    from . import downloads
    if kind in downloads.MANY_KINDS:
        if kind == "many-html":
            return downloads.html_file(kept.comparison, kept.reports, kept.judgements,
                                       kept.rankings, kept.settings, _html_meta(meta))
        if kind == "fused-run":
            return downloads.fused_file(kept.fused)
        return downloads.many_file(kind, kept.comparison, kept.reports, **kept.export)
    if kind in downloads.ANSWER_KINDS:
        return downloads.answers_file(kind, kept)
    if kind in downloads.HTML_KINDS:
        return _report_html(kept, meta)
    if meta is not None:  # the page names the files and formats; the settings are the engine's
        from ..scoring.settings import settings_record
        meta = dict(meta)
        formats = {key: value for key, value in dict(meta.get("settings") or {}).items()
                   if key in ("qrels_format", "run_format", "third_column")}
        meta["settings"] = {**settings_record(kept.settings), **formats}
    return downloads.report_file(kind, kept.report, kept.comparison, meta)


def download_source(kind: str) -> str:
    """Which request's result the download ``kind`` is of: "analyse", "analyse_many" or
    "analyse_answers" (an unknown kind is the report's: its writer names the kinds there are)."""
    from . import downloads
    if kind in downloads.MANY_KINDS:
        return "analyse_many"
    if kind in downloads.ANSWER_KINDS:
        return "analyse_answers"
    return "analyse"


def _report_html(kept: Kept, meta) -> dict:
    """"Save report" for the shown run: its HTML report, with the baseline run beside it
    (compared as ``compare`` did: the same samples and seed) when the baseline is a run."""
    from ..comparison.many import compare_many
    from . import downloads
    reports = {"run": kept.report}
    rankings = {"run": kept.rankings}
    if kept.baseline is not None:
        reports = {"baseline": score(kept.judgements, kept.baseline, kept.settings), **reports}
        rankings = {"baseline": kept.baseline, **rankings}
    options = {}
    if kept.comparison is not None:
        options = {"samples": kept.comparison.samples, "seed": kept.comparison.seed,
                   "exact_max_n": kept.comparison.exact_max_n}
    comparison = compare_many(reports, **options)
    return downloads.html_file(comparison, reports, kept.judgements, rankings, kept.settings,
                               _html_meta(meta))


def _html_meta(meta) -> dict:
    """The report's heading line: the engine and the date (the page's ``meta`` gives them)."""
    from ..version import __version__
    meta = dict(meta or {})
    meta.setdefault("engine", f"retrieval-metrics {__version__}")
    meta.setdefault("created", "")
    return meta


def _max_digits() -> int:
    """The tables' bound on decimals, read when digits are asked for (with many runs, whose
    comparison is loaded then), so the page's start-up does not load the tables."""
    from ..comparison.tables import MAX_DIGITS
    return MAX_DIGITS


def _numbers(options: dict, samples_default, *names: str) -> None:
    """The numeric options named, checked and set in ``options`` as the CLI reads its flags
    (``page.options``): samples, seed, alpha, confidence, digits."""
    from ..comparison.paired import MAX_SAMPLES
    read = {"samples": lambda: whole_option(options, "samples", samples_default, 1, MAX_SAMPLES),
            "seed": lambda: whole_option(options, "seed", 0, 0),
            "alpha": lambda: fraction_option(options, "alpha", 0.05),
            "confidence": lambda: fraction_option(options, "confidence", 0.95),
            "digits": lambda: whole_option(options, "digits", 4, 0, _max_digits())}
    values = {name: read[name]() for name in ("samples", *names)}
    options.update(values)


def page_settings(options: dict) -> Settings:
    """The settings of ``analyse`` and ``analyse_many``: ``metrics`` (the chooser's names) and
    ``metrics_extra`` (more names in the CLI's ``-m`` syntax, as the person typed them)."""
    metrics = options.get("metrics")
    extra = split_names(str(options.get("metrics_extra") or ""))
    if extra:
        metrics = [*(metrics or ()), *extra]
    return make_settings(options.get("k", 10), options.get("gain", "linear"),
                         options.get("missing", "zero"), metrics,
                         options.get("zero_division", "skip"),
                         options.get("relevance_threshold", 1),
                         ties=options.get("ties") or "trec_eval")
