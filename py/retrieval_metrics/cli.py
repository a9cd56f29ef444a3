"""``retrieval-metrics QRELS RUN``: the page's numbers from a terminal, in the same words."""

from __future__ import annotations

import argparse
import os
import sys

from .errors import InputError, OptionError
from .evaluate import load, score
from .metrics import CUTOFF_METRICS, DEFAULT_METRICS, FULL_METRICS
from .options import settings as make_settings
from .render import RENDERERS
from .source import InputFile
from .textrows import FORMATS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="retrieval-metrics",
        description="Recall, precision, MRR and nDCG at k, exactly as trec_eval computes them, "
                    "from judgements (qrels) and results (a run) in JSON, CSV, TSV, "
                    "whitespace or TREC format.")
    parser.add_argument("qrels", help="judgements file (- for standard input)")
    parser.add_argument("run", help="results file (- for standard input)")
    parser.add_argument("-k", default="10", help="cutoffs, e.g. 1,5,10 (default 10)")
    parser.add_argument("--gain", choices=("linear", "exponential"), default="linear",
                        help="nDCG gain: the grade (trec_eval) or 2^grade - 1")
    parser.add_argument("--missing", choices=("zero", "skip"), default="zero",
                        help="judged queries absent from the run: score 0 (trec_eval -c) or leave out")
    parser.add_argument("--qrels-format", choices=FORMATS, default="auto")
    parser.add_argument("--run-format", choices=FORMATS, default="auto")
    parser.add_argument("--third-column", choices=("auto", "rank", "score"), default="auto",
                        help="3-column runs: rank, score, or decide from the values")
    parser.add_argument("-m", "--metrics", default=None,
                        help=f"comma-separated, from {', '.join(CUTOFF_METRICS + FULL_METRICS)} "
                             f"(each at every k), or names with their own cutoff or parameters "
                             f"(hit_rate@1, P_5, ndcg_cut_10, recip_rank, bpref, infAP, "
                             f"iprec_at_recall_0.10, err@10, rbp(p=0.9), ...), or the groups "
                             f"official (trec_eval's default output) and all_trec (every "
                             f"trec_eval measure computed here) "
                             f"(default {','.join(DEFAULT_METRICS)}; --output trec adds rr)")
    parser.add_argument("-l", "--relevance-level", default="1", metavar="N",
                        help="a grade >= N is relevant (as trec_eval -l; default 1); nDCG keeps "
                             "every positive grade as its gain")
    parser.add_argument("--zero-division", default="skip", choices=("skip", "warn", "0", "1", "nan"),
                        help="queries without a relevant document: skip them (default), or score "
                             "them with undefined values set to 0 (as trec_eval), 1 or nan")
    parser.add_argument("-o", "--output", choices=tuple(RENDERERS), default="table",
                        help="table (default), json (the full report), jsonl (one line per "
                             "query), csv, or trec (trec_eval -q lines)")
    parser.add_argument("--out", metavar="FILE", help="write the output to FILE, not stdout")
    compare = parser.add_argument_group("comparing with a baseline")
    compare.add_argument("--baseline", metavar="RUN",
                         help="a baseline run (any results format) or a saved JSON report: "
                              "adds a paired comparison with a significance test")
    compare.add_argument("--samples", type=int, default=100_000,
                         help="random sign patterns when there are more than 16 paired queries")
    compare.add_argument("--seed", type=int, default=0, help="seed of those samples")
    return parser


def _input(name: str, source: str):
    """A name on the command line is always a file (never text): ``-`` is standard input."""
    if name == "-":
        return sys.stdin.buffer.read()
    if not os.path.isfile(name):
        raise InputError(source, f"no such file: {name}", expected="a readable file")
    return InputFile(name)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    metrics = args.metrics
    if metrics is None and args.output == "trec":
        metrics = [*DEFAULT_METRICS, "rr"]
    try:
        settings = make_settings(args.k, args.gain, args.missing, metrics, args.zero_division,
                                 args.relevance_level)
        judgements, rankings = load(_input(args.qrels, "qrels"), _input(args.run, "run"),
                                    qrels_format=args.qrels_format, run_format=args.run_format,
                                    third_column=args.third_column)
        report = score(judgements, rankings, settings)
        if args.baseline:
            from .baseline import load_baseline
            from .comparison import compare
            baseline = load_baseline(_input(args.baseline, "baseline"), judgements, settings,
                                     run_format=args.run_format, third_column=args.third_column)
            comparison = compare(baseline, report, samples=args.samples, seed=args.seed)
            text = _comparison_output(args.output, report, baseline, comparison, args, settings)
        elif args.output == "json":
            from .render import as_json
            text = as_json(report, _meta(args, settings))
        else:
            text = RENDERERS[args.output](report)
    except (InputError, OptionError) as exc:
        print(f"retrieval-metrics: {exc.message}", file=sys.stderr)
        return 2
    if args.out:
        try:
            with open(args.out, "w", encoding="utf-8", newline="") as file:
                file.write(text)
        except OSError as exc:
            print(f"retrieval-metrics: cannot write {args.out}: {exc.strerror}", file=sys.stderr)
            return 2
    else:
        sys.stdout.write(text)
    return 0


def _meta(args, settings) -> dict:
    """What made a JSON report: the files, the engine's version, the settings and the date
    (the page's downloads record the same)."""
    from datetime import datetime, timezone

    from . import __version__
    return {
        "engine": f"retrieval-metrics {__version__}",
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "files": {"qrels": args.qrels, "run": args.run, "baseline": args.baseline},
        "settings": {"k": list(settings.k), "gain": settings.gain, "missing": settings.missing,
                     "metrics": list(settings.metrics), "zero_division": settings.zero_division,
                     "relevance_threshold": settings.relevance_threshold,
                     "qrels_format": args.qrels_format, "run_format": args.run_format,
                     "third_column": args.third_column},
    }


def _comparison_output(output: str, report, baseline, comparison, args=None, settings=None) -> str:
    from .render import as_json, comparison_csv, comparison_table
    if output == "json":
        import json
        data = json.loads(as_json(report, _meta(args, settings)))
        data["baseline"] = baseline if isinstance(baseline, dict) else baseline.to_dict()
        data["comparison"] = comparison.to_dict()
        return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    if output == "csv":
        return comparison_csv(comparison)
    if output == "table":
        return RENDERERS["table"](report) + "\n" + comparison_table(comparison)
    raise OptionError("output", f"--output {output} has no comparison form; use table, json or csv")
