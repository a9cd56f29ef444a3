"""pytrec_eval as its users run it: parse both TREC files into dicts in plain Python, then evaluate.

    .venv/bin/python bench/pytrec_eval_baseline.py QRELS RUN [-k 10] [--dump OUT.json]

Prints the means. With --dump, also writes the per-query values and a float32 check of the run
(how many queries have two different score strings that collapse to one float32 value, which
would let pytrec_eval's ranking differ from an exact float64 one) to OUT.json.
"""

from __future__ import annotations

import argparse
import json
import sys

import pytrec_eval


def measures(k: int) -> list[str]:
    return [f"P_{k}", f"recall_{k}", f"ndcg_cut_{k}", "recip_rank"]


def float32_collisions(run: dict[str, dict[str, float]]) -> int:
    """Queries in which two different float64 scores are equal once rounded to float32."""
    from array import array

    bad = 0
    for scores in run.values():
        values = list(set(scores.values()))
        if len(set(array("f", values))) != len(values):
            bad += 1
    return bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("qrels")
    ap.add_argument("run")
    ap.add_argument("-k", type=int, default=10)
    ap.add_argument("--dump")
    args = ap.parse_args(argv)
    with open(args.qrels) as f:
        qrel = pytrec_eval.parse_qrel(f)
    with open(args.run) as f:
        run = pytrec_eval.parse_run(f)
    names = measures(args.k)
    results = pytrec_eval.RelevanceEvaluator(qrel, set(names)).evaluate(run)
    n = len(results)
    means = {m: (sum(r[m] for r in results.values()) / n if n else 0.0) for m in names}
    for m in names:
        print(f"{m}\tall\t{means[m]:.4f}")
    if args.dump:
        with open(args.dump, "w") as f:
            json.dump(
                {"per_query": results, "mean": means, "float32_collisions": float32_collisions(run)}, f
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
