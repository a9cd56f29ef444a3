"""``retrieval-metrics QRELS RUN``: the page's numbers from a terminal, in the same words."""

from __future__ import annotations

import argparse
import os
import sys

from .errors import InputError, OptionError
from .evaluate import evaluate
from .metrics import CUTOFF_METRICS, DEFAULT_METRICS, FULL_METRICS
from .qrels import FORMATS
from .render import RENDERERS
from .textrows import InputFile


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
                             f"(default {','.join(DEFAULT_METRICS)}; --output trec adds rr)")
    parser.add_argument("-o", "--output", choices=tuple(RENDERERS), default="table")
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
        report = evaluate(_input(args.qrels, "qrels"), _input(args.run, "run"), k=args.k,
                          gain=args.gain, missing=args.missing, qrels_format=args.qrels_format,
                          run_format=args.run_format, third_column=args.third_column,
                          metrics=metrics)
    except (InputError, OptionError) as exc:
        print(f"retrieval-metrics: {exc.message}", file=sys.stderr)
        return 2
    sys.stdout.write(RENDERERS[args.output](report))
    return 0
