"""`-m all_trec` against pytrec_eval computing the same measures, in one process (issue 12).

    .venv/bin/python bench/trec_measures_bench.py [--size tiny|small] [--repeat 3]

Two timings, each the median of --repeat alternate runs with the ratio ours / pytrec_eval:

- from the TREC files: ours ``evaluate(QRELS, RUN, metrics=["all_trec"])`` (77 values per
  query); pytrec_eval ``parse_qrel`` + ``parse_run`` + ``RelevanceEvaluator(qrels, <the same
  trec_eval measures>).evaluate(run)`` (it computes a few more, such as relstring and G);
- scoring only: ours ``score()`` on the parsed records, pytrec_eval ``evaluate(run)``.

Data: bench/generate.py.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "py")]

import generate  # noqa: E402
from retrieval_metrics import evaluate  # noqa: E402

PYTREC_MEASURES = {"num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
                   "recip_rank", "iprec_at_recall", "P", "recall", "infAP", "utility", "11pt_avg",
                   "ndcg", "Rprec_mult", "success", "map_cut", "ndcg_cut", "set_P", "set_recall",
                   "set_F"}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", default="tiny", choices=("tiny", "small"))
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    import pytrec_eval
    size = generate.SIZES[args.size]
    generate.ensure([args.size])
    with open(size.qrels_path) as f:
        qrels = pytrec_eval.parse_qrel(f)
    with open(size.run_path) as f:
        run = pytrec_eval.parse_run(f)
    from retrieval_metrics.scoring.evaluate import load, score
    from retrieval_metrics.scoring.settings import settings as make_settings
    settings = make_settings(metrics=["all_trec"], zero_division=0)
    judgements, rankings = load(size.qrels_path, size.run_path)
    times = {"files": ([], []), "scoring": ([], [])}
    for _ in range(args.repeat):
        start = time.perf_counter()
        report = evaluate(size.qrels_path, size.run_path, metrics=["all_trec"], zero_division=0)
        times["files"][0].append(time.perf_counter() - start)
        start = time.perf_counter()
        with open(size.qrels_path) as f:
            parsed_qrels = pytrec_eval.parse_qrel(f)
        with open(size.run_path) as f:
            parsed_run = pytrec_eval.parse_run(f)
        pytrec_eval.RelevanceEvaluator(parsed_qrels, PYTREC_MEASURES).evaluate(parsed_run)
        times["files"][1].append(time.perf_counter() - start)
        start = time.perf_counter()
        score(judgements, rankings, settings)
        times["scoring"][0].append(time.perf_counter() - start)
        start = time.perf_counter()
        pytrec_eval.RelevanceEvaluator(qrels, PYTREC_MEASURES).evaluate(run)
        times["scoring"][1].append(time.perf_counter() - start)
    print(f"{args.size}: {len(run):,} queries, {sum(map(len, run.values())):,} ranked documents, "
          f"{len(report.keys)} values per query")
    for name, (ours, theirs) in times.items():
        a, b = statistics.median(ours), statistics.median(theirs)
        print(f"{name:>8}: ours {a:.3f} s, pytrec_eval {b:.3f} s, ratio {a / b:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
