"""``retrieval-metrics QRELS RUN``: the page's numbers from a terminal, in the same words."""

from __future__ import annotations

import argparse
import os
import sys

from .errors import InputError, OptionError
from .inputs.source import InputFile
from .inputs.textrows import FORMATS
from .measures import grammar, registry
from .measures.catalogue import catalogue
from .measures.keys import trec_name, trec_unlike
from .report.render import RENDERERS
from .scoring.evaluate import load_qrels, load_run, score
from .scoring.settings import settings as make_settings
from .scoring.settings import settings_record
from .scoring.ties import TIES, average_measures

# many.TESTS, stats.CORRECTIONS and many.PAIRS (not imported: the one-run CLI need not load them)
TESTS = ("randomisation", "t", "bootstrap", "tukey")
CORRECTIONS = ("holm", "bonferroni", "bh", "none")
PAIRS = ("baseline", "all")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="retrieval-metrics",
        description="Recall, precision, MRR and nDCG at k, exactly as trec_eval computes them, "
                    "from judgements (qrels) and results (a run) in JSON, CSV, TSV, "
                    "whitespace or TREC format.")
    parser.add_argument("qrels", help="judgements file (- for standard input)")
    parser.add_argument("run", nargs="+", metavar="RUN",
                        help="results file (- for standard input); several runs are compared "
                             "with a baseline (each named by its file name without extension)")
    parser.add_argument("-k", default="10", help="cutoffs, e.g. 1,5,10 (default 10)")
    parser.add_argument("--gain", choices=("linear", "exponential"), default="linear",
                        help="nDCG gain: the grade (trec_eval) or 2^grade - 1")
    parser.add_argument("--missing", choices=("zero", "skip"), default="zero",
                        help="judged queries absent from the run: score 0 (trec_eval -c) or leave out")
    parser.add_argument("--qrels-format", choices=FORMATS, default="auto")
    parser.add_argument("--run-format", choices=FORMATS, default="auto")
    parser.add_argument("--third-column", choices=("auto", "rank", "score"), default="auto",
                        help="3-column runs: rank, score, or decide from the values")
    parser.add_argument("-m", "--metrics", default=None, action="append",
                        help=metrics_help())
    parser.add_argument("--names", default=None, metavar="TOOL",
                        help="read every -m name as TOOL does: ir_measures (P(rel=2)@5, "
                             "SetF(beta=0.5)) or ranx (hits@5, rbp.95); one name alone: "
                             "ranx:hits@5. Default: this calculator's own names (docs/names.md)")
    parser.add_argument("-l", "--relevance-level", default="1", metavar="N",
                        help="a grade >= N is relevant (as trec_eval -l; default 1); nDCG keeps "
                             "every positive grade as its gain")
    parser.add_argument("--zero-division", default=None, choices=("skip", "warn", "0", "1", "nan"),
                        help="queries without a relevant document: skip them (default; with "
                             "-o trec, 0 as trec_eval), or score them with undefined values set "
                             "to 0 (as trec_eval), 1 or nan")
    parser.add_argument("--ties", choices=TIES, default="trec_eval",
                        help="documents with equal scores: trec_eval's order (default: by "
                             "document id, descending), optimistic (best grades first), "
                             "pessimistic (best grades last) or average (the expectation over "
                             f"every order of them; {', '.join(average_measures())} only)")
    parser.add_argument("-o", "--output", choices=(*RENDERERS, "latex", "markdown", "html"),
                        default="table",
                        help="table (default), json (the full report), jsonl (one line per "
                             "query), csv, trec (trec_eval -q lines), latex / markdown (the "
                             "means table for a paper, with significance markers), or html (one "
                             "self-contained report to hand over: settings, means, comparison, "
                             "charts, per-query values, checks, methods; use --out)")
    parser.add_argument("--out", metavar="FILE", help="write the output to FILE, not stdout")
    compare = parser.add_argument_group("comparing with a baseline")
    compare.add_argument("--baseline", metavar="NAME|FILE",
                         help="with one RUN: a baseline run (any results format) or a saved JSON "
                              "report, compared with it; with several: the name of one of them "
                              "(default the first), or another file, added as the first run")
    for flag, kind, words in (
            ("--test", {"choices": TESTS},
             "the paired significance test (default randomisation, the sign-flip test; t: "
             "paired t-test; bootstrap; tukey: the randomised Tukey HSD test over every run at "
             "once, paired by topic, whose p-values need no correction)"),
            ("--correction", {"choices": CORRECTIONS},
             "multiple-comparison correction over every system and metric (default holm; "
             "bonferroni, bh = Benjamini-Hochberg, none; with --test tukey only none)"),
            ("--pairs", {"choices": PAIRS},
             "test each against the baseline (default), or all: every pair, so the tables say "
             "which system beats which"),
            ("--alpha", {"type": float}, "significance level of the markers (default 0.05)"),
            ("--power", {"type": float},
             "the power of the topic-set analysis (default 0.8): the smallest difference these "
             "topics detect with it (the analysis is in -o html, and in the other outputs when "
             "--power or --difference is given)"),
            ("--difference", {"type": float},
             "the difference whose topic-set size is given (default: each observed difference)")):
        compare.add_argument(flag, default=None, help="several runs: " + words, **kind)
    compare.add_argument("--digits", type=int, default=4,
                         help="several runs: decimals in the latex, markdown and table outputs "
                              "(default 4)")
    compare.add_argument("--intervals", action="store_true",
                         help="several runs: each mean's confidence interval in the latex and "
                              "markdown tables too")
    compare.add_argument("--samples", type=int, default=None,
                         help="random sign patterns when there are more than 16 paired queries "
                              "(default 100,000), or bootstrap resamples (default 10,000)")
    compare.add_argument("--seed", type=int, default=0, help="seed of those samples")
    return parser


def metrics_help() -> str:
    """``-m``'s help, from the registry: every measure, its group and trec_eval's name."""
    groups = {}
    for item in catalogue():
        name = item["value"] + ("" if item["trec_eval"] in (None, item["value"]) else
                                f" ({item['trec_eval']})")
        groups.setdefault(item["group_label"], []).append(name)
    listed = "; ".join(f"{group}: {', '.join(names)}" for group, names in groups.items())
    return (f"comma-separated metrics, repeatable (-m a -m b adds b). {listed}. A measure at k "
            "alone is measured at every k; a name may carry its own cutoff or parameters "
            "(hit_rate@1, P_5, ndcg_cut_10, iprec_at_recall_0.10, err@20, rbp(p=0.9)); groups: "
            f"{', '.join(registry.GROUPS)} (official: trec_eval's default output; all_trec: every "
            f"trec_eval measure computed here). Default {','.join(grammar.default_metrics())}; "
            "--output trec: those trec_eval has a name for (recall_k, P_k, ndcg_cut_k), and recip_rank")


def _metrics(values: list[str] | None) -> list[str] | None:
    """Every -m given, in order (each may list several, comma-separated)."""
    if values is None:
        return None
    return [name for value in values for name in grammar.split_names(value)]


def _input(name: str, source: str):
    """A name on the command line is always a file (never text): ``-`` is standard input, and
    what a shell hands over otherwise (a FIFO, ``/dev/stdin``, a process substitution's
    ``/dev/fd/63``) is read once, whole, as the trec_eval mode reads it; a regular file is
    read by the parser itself."""
    import stat
    if name == "-":
        return sys.stdin.buffer.read()
    try:
        mode = os.stat(name).st_mode
        if stat.S_ISREG(mode):
            return InputFile(name)
        if stat.S_ISDIR(mode):
            raise InputError(source, f"{name} is a folder", expected="a file")
        with open(name, "rb") as stream:
            return stream.read()
    except FileNotFoundError:
        raise InputError(source, f"no such file: {name}", expected="a readable file") from None
    except OSError as exc:  # a folder on the way that may not be entered, say
        raise InputError(source, f"cannot read {name}: {exc.strerror}",
                         expected="a readable file") from None


def main(argv: list[str] | None = None) -> int:
    import warnings
    previous = warnings.showwarning
    warnings.showwarning = _warning_line
    try:
        return _main(argv)
    finally:
        warnings.showwarning = previous


def _main(argv: list[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["trec_eval"]:  # trec_eval 10's own command line and output
        from .compat.trec_eval import main as trec_eval_main
        return trec_eval_main(argv[1:])
    args = build_parser().parse_args(argv)
    if args.out == "-":  # standard output, as with no --out
        args.out = None
    if args.zero_division is None:  # trec_eval's lines count every judged query, as its all line
        args.zero_division = "0" if args.output == "trec" else "skip"
    metrics = _metrics(args.metrics)
    if metrics is None and args.output == "trec":
        # trec_eval's lines: the default measures it has a name for (not MRR@k), and recip_rank
        at_k = {item["value"]: item["trec_eval"] for item in catalogue()
                if item["group"] == "cutoff"}
        metrics = [name for name in grammar.default_metrics() if at_k.get(name)] + ["rr"]
    many = (len(args.run) > 1 or args.output in ("latex", "markdown", "html")
            or any(v is not None for v in (args.test, args.correction, args.alpha, args.pairs)))
    inputs = [args.qrels, *args.run, args.baseline]
    try:
        if args.out:
            _check_out(args.out, inputs)
        if many:
            text = _many(args, metrics)
        else:
            text = _one(args, metrics)
        if args.out:
            from .report.files import write_text
            try:
                # a file atomically (a failed write keeps the old one); a device, a FIFO or
                # /dev/stdout written into, never replaced
                write_text(args.out, text, inputs)
            except OSError as exc:
                raise OptionError("out", f"cannot write {args.out}: {exc.strerror}") from None
    except (InputError, OptionError) as exc:
        print(f"retrieval-metrics: {printable(exc.message)}", file=sys.stderr)
        return 2
    if not args.out:
        # the human-readable outputs name ids as they are: a terminal must not obey their
        # escape sequences (JSON escapes its own; CSV and trec are data for programs)
        sys.stdout.write(printable(text) if args.output in ("table", "markdown") else text)
    return 0


def _warning_line(message, category, filename, lineno, file=None, line=None) -> None:
    """A Python warning (``--zero-division warn``'s UndefinedMetricWarning) as one line on
    stderr, ``retrieval-metrics: warning: ...``, in the voice of the CLI's errors, rather than
    Python's ``file.py:NN: Category: ...`` and the source line that raised it."""
    print(f"retrieval-metrics: warning: {printable(str(message))}",
          file=file if file is not None else sys.stderr)


_CONTROL = {c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7f, 0xa0)) if c not in (9, 10)}
_CONTROL.update({c: f"\\u{c:04x}" for c in (0x2028, 0x2029, *range(0x202a, 0x202f),
                                            *range(0x2066, 0x206a))})


def printable(text: str) -> str:
    r"""``text`` with control characters (terminal escape sequences, C1 controls, bidi
    overrides) shown as ``\x1b``-style escapes; line ends and tabs kept.

    >>> printable("q\x1b[31mred\tx\r\n")
    'q\\x1b[31mred\tx\\x0d\n'
    """
    return text.translate(_CONTROL)


def _check_out(out: str, inputs) -> None:
    """--out onto an input (the same path, or the same file by another name) is refused before
    anything is read, so a run or judgements file is never overwritten by its own report (in
    the words ``Report.write`` refuses it with)."""
    from .report.files import refuse_an_input
    refuse_an_input(out, inputs)


def _meta(args, settings) -> dict:
    """What made a JSON report: the files, the engine's version, the settings and the date
    (the page's downloads record the same)."""
    from datetime import datetime, timezone

    from .version import __version__
    return {
        "engine": f"retrieval-metrics {__version__}",
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "files": {"qrels": args.qrels, "run": args.run[0], "baseline": args.baseline},
        "settings": {**settings_record(settings), "qrels_format": args.qrels_format,
                     "run_format": args.run_format, "third_column": args.third_column},
    }


def _one(args, metrics) -> str:
    """One run, alone or against ``--baseline``: the report (and compare()'s table)."""
    settings = make_settings(args.k, args.gain, args.missing, metrics, args.zero_division,
                             args.relevance_level, ties=args.ties, dialect=args.names)
    judgements = load_qrels(_input(args.qrels, "qrels"), qrels_format=args.qrels_format)
    report = None
    if args.run[0] != "-" and os.path.isfile(args.run[0]):
        # a large clean TREC run: read and scored query by query, on more than one core
        from .scoring.split import score_file
        report = score_file(judgements, args.run[0], settings, args.run_format,
                            args.third_column)
    if report is None:
        rankings = load_run(_input(args.run[0], "run"), judgements,
                            run_format=args.run_format, third_column=args.third_column)
        report = score(judgements, rankings, settings)
    if args.baseline:
        from .comparison.baseline import load_baseline
        from .comparison.paired import compare
        baseline = load_baseline(_input(args.baseline, "baseline"), judgements, settings,
                                 run_format=args.run_format, third_column=args.third_column)
        samples = 100_000 if args.samples is None else args.samples
        comparison = compare(baseline, report, samples=samples, seed=args.seed)
        return _comparison_output(args.output, report, baseline, comparison, _meta(args, settings))
    if args.output == "json":
        from .report.render import as_json
        return as_json(report, _meta(args, settings))
    if args.output == "trec":
        asked = {name.lower() for name in metrics or ()}
        texts = [name for group, names in _TEXT_LINES.items() if group in asked for name in names]
        _say_unprinted(report, _unlike_trec_eval(args), list(dict.fromkeys(texts)))
    return RENDERERS[args.output](report)


def _unlike_trec_eval(args) -> list[str]:
    """The options given that make some values differ from trec_eval's."""
    unlike = []
    if args.gain != "linear":
        unlike.append(f"--gain {args.gain}")
    if args.ties != "trec_eval":
        unlike.append(f"--ties {args.ties}")
    if args.zero_division != "0":
        unlike.append(f"--zero-division {args.zero_division}")
    return unlike


#: the lines of trec_eval's groups that are text, not numbers
_TEXT_LINES = {"official": ("runid",), "set": ("runid",), "all_trec": ("runid", "relstring")}


def _say_unprinted(report, settings: list[str], texts: list[str] = ()) -> None:
    """``-o trec`` prints a line under trec_eval's name only where the value is trec_eval 10's:
    say on stderr (so the lines still diff against trec_eval's) which asked-for metrics or
    ``all`` lines it leaves out, and why, and which options move the numbers it prints."""
    from .report.render import trec_all_line_unlike
    keys = report.keys
    say = []
    if texts:
        say.append(f"-o trec leaves out trec_eval's {' and '.join(texts)}: text, not numbers "
                   "(retrieval-metrics trec_eval prints them)")
    unnamed = [key for key in keys if trec_name(key) is None
               and trec_unlike(key) is None]
    if unnamed:
        say.append(f"-o trec leaves out {', '.join(unnamed)}: trec_eval has no measure of that "
                   "name (use -o csv, json or table for them)")
    for key in keys:
        unlike = trec_unlike(key)
        if unlike is not None:
            name, why = unlike
            say.append(f"-o trec leaves out {key}, which is not trec_eval's {name}: {why} "
                       f"(retrieval-metrics trec_eval -m {name} prints trec_eval's)")
        why = trec_all_line_unlike(report, key)
        if why:
            say.append(f"-o trec leaves out {key}'s all line: {why} (retrieval-metrics "
                       "trec_eval -c prints it)")
    if settings:
        say.append(f"-o trec: with {', '.join(settings)}, lines may differ from trec_eval's, "
                   "which has no such option")
    for line in say:
        print(f"retrieval-metrics: {line}", file=sys.stderr)


def _many(args, metrics) -> str:
    """Several runs (or a paper table): judgements parsed once, every run scored, then
    compare_many() against the baseline."""
    from .comparison.baseline import load_baseline
    from .comparison.many import compare_many
    from .comparison.tables import many_csv, many_table, to_latex, to_markdown
    from .inputs.run_names import name_clashes, run_names, run_source
    from .scoring.evaluate import load_qrels, load_run
    if args.output in ("jsonl", "trec"):
        raise OptionError("output", f"--output {args.output} has no form for several runs; use "
                          "table, json, csv, latex or markdown")
    settings = make_settings(args.k, args.gain, args.missing, metrics, args.zero_division,
                             args.relevance_level, ties=args.ties, dialect=args.names)
    judgements = load_qrels(_input(args.qrels, "qrels"), qrels_format=args.qrels_format)
    names = run_names(args.run)
    baseline = None
    extra = None
    if args.baseline is not None:
        if args.baseline in names:
            baseline = args.baseline
        elif args.baseline in args.run:
            baseline = names[args.run.index(args.baseline)]
        elif os.path.isfile(args.baseline):
            same = [i for i, path in enumerate(args.run)
                    if path != "-" and os.path.isfile(path) and os.path.samefile(path, args.baseline)]
            if same:
                baseline = names[same[0]]
            else:
                extra = args.baseline
        else:
            raise OptionError("baseline", f"--baseline {args.baseline}: neither the name of a "
                              f"run ({', '.join(names)}) nor a file")
    reports = {}
    parsed = {}
    clashes = name_clashes(args.run, names)
    if extra is not None:
        baseline = run_names([extra, *args.run])[0]
        names = run_names([extra, *args.run])[1:]
        clashes = name_clashes([extra, *args.run], [baseline, *names])
        reports[baseline] = load_baseline(_input(extra, "baseline"), judgements, settings,
                                          run_format=args.run_format,
                                          third_column=args.third_column)
    for name, path in zip(names, args.run):
        source = run_source(name)
        rankings = load_run(_input(path, source), judgements, run_format=args.run_format,
                            third_column=args.third_column, run_source=source)
        reports[name] = score(judgements, rankings, settings)
        parsed[name] = rankings
    comparison = compare_many(reports, baseline, test=args.test or "randomisation",
                              correction=args.correction,
                              power=0.8 if args.power is None else args.power,
                              difference=args.difference,
                              topic_sets=(args.output == "html" or args.power is not None
                                          or args.difference is not None),
                              alpha=0.05 if args.alpha is None else args.alpha,
                              samples=args.samples, seed=args.seed,
                              pairs=args.pairs or "baseline")
    from .comparison.tables import MAX_DIGITS
    if not 0 <= args.digits <= MAX_DIGITS:
        raise OptionError("digits", f"--digits must be from 0 to {MAX_DIGITS}, "
                          f"found {args.digits}")
    notes = [f"Run names: {clash}" for clash in clashes]
    if notes and args.output in ("latex", "markdown", "csv"):
        for note in notes:  # these outputs have no place for it
            print(f"retrieval-metrics: {printable(note)}", file=sys.stderr)
    if args.output == "latex":
        return to_latex(comparison, digits=args.digits, intervals=args.intervals)
    if args.output == "markdown":
        return to_markdown(comparison, digits=args.digits, intervals=args.intervals)
    if args.output == "csv":
        return many_csv(comparison)
    if args.output == "html":
        from .comparison.html import html_report
        from .scoring.pool import diagnose_parsed
        diagnostics = diagnose_parsed(judgements, parsed, settings)
        meta = _meta(args, settings)
        meta["files"]["run"] = list(args.run)
        return html_report(comparison, reports, diagnostics, qrels=judgements.summary, meta=meta)
    if args.output == "json":
        import json
        data = {"comparison": comparison.to_dict(), "notices": notes,
                "reports": {name: report if isinstance(report, dict) else report.to_dict()
                            for name, report in reports.items()}}
        return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    text = "\n".join(f"{name}: {report.inputs['run'].description}"
                     for name, report in reports.items() if not isinstance(report, dict))
    head = f"Judgements: {judgements.summary.description}\n{text}\n"
    head += "".join(f"- {note}\n" for note in notes) + "\n"
    return head + many_table(comparison, digits=args.digits)


def _comparison_output(output: str, report, baseline, comparison, meta=None) -> str:
    from .report.render import as_json, comparison_csv, comparison_table
    if output == "json":
        import json
        data = json.loads(as_json(report, meta))
        data["baseline"] = baseline if isinstance(baseline, dict) else baseline.to_dict()
        data["comparison"] = comparison.to_dict()
        return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    if output == "csv":
        return comparison_csv(comparison)
    if output == "table":
        return RENDERERS["table"](report) + "\n" + comparison_table(comparison)
    raise OptionError("output", f"--output {output} has no comparison form; use table, json or csv")
