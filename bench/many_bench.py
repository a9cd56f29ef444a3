"""Many runs at once (issue 12, "Speed"): judgements parsed once, N runs scored, then compared.

    .venv/bin/python bench/many_bench.py [--runs 10] [--repeat 5] [--sizes trec_eval,tiny]

In one process, for each collection, the median of --repeat timings of:

- one:       evaluate(qrels, run)                     one run, judgements parsed with it
- separate:  evaluate(qrels, run_i) for each of N runs  the judgements parsed N times
- many:      evaluate_many(qrels, {name_i: run_i})     the judgements parsed once
- compare:   compare_many(...) with each test (randomisation, t, bootstrap), Holm
- page call: web.analyse_many(qrels, runs, options)   what the page's worker runs (CPython here)

(CPU time: the machine is shared) and the ratios many / one (goal: about N) and separate / many (> 1: what parsing the judgements
once saves). Collections: trec_eval's test collection (tests/data/trec_eval: 3 queries, qrels
3,681 lines, results 1,500 lines) and bench/generate.py's "tiny" one (100 queries x 1,000
documents, 100,000 lines per run). The N runs are the collection's run with its scores perturbed
by a seeded random amount (run i by up to i), so they rank differently and compare as real runs.
Settings: k = 5,10,20 and the default metrics.

Measured here (2 cores shared with other work, CPU time, median of 5, 10 runs):

| collection | one run | 10 x evaluate() | evaluate_many() | many / one | separate / many |
| --- | --- | --- | --- | --- | --- |
| trec_eval (3 queries) | 5.5 ms | 38.2 ms | 31.1 ms | 5.68 | 1.23 |
| tiny (100 queries x 1,000 docs) | 117.5 ms | 1,322 ms | 1,234 ms | 10.51 | 1.07 |

compare_many over the 10 runs (9 systems x 12 metric keys = 108 p-values, Holm): on trec_eval
4.7 ms (randomisation, exact), 4.3 ms (t), 338 ms (bootstrap, 10,000 resamples), and the whole
web.analyse_many 43.7 ms; on "tiny" 8.9 s (randomisation, 100,000 sampled sign patterns per
p-value: ~80 ms each), 40 ms (t), 2.3 s (bootstrap), web.analyse_many 9.5 s (randomisation).
Where the judgements are larger than a run (trec_eval's collection) evaluate_many costs about
6 runs' worth for 10; where runs dominate, N runs cost N times one.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "py"))
sys.path.insert(0, str(HERE))

from retrieval_metrics import evaluate  # noqa: E402
from retrieval_metrics.comparison.many import compare_many, evaluate_many  # noqa: E402
from retrieval_metrics.page.web import analyse_many  # noqa: E402

K = [5, 10, 20]


def perturbed_runs(run_text: str, n: int) -> dict[str, str]:
    """N runs from one: run i adds a seeded uniform(0, i) to every score (run 0 is the run)."""
    import random
    lines = run_text.splitlines()
    runs = {}
    for i in range(n):
        rng = random.Random(i)
        out = []
        for line in lines:
            q, z, d, r, s, t = line.split()
            out.append(f"{q} {z} {d} {r} {float(s) + rng.random() * i:.6f} sys{i}")
        runs[f"sys{i}"] = "\n".join(out) + "\n"
    return runs


def collection(name: str) -> tuple[str, str]:
    if name == "trec_eval":
        folder = ROOT / "tests" / "data" / "trec_eval"
        return (folder / "qrels.test").read_text(), (folder / "results.test").read_text()
    import generate
    generate.main(["--sizes", name])
    size = generate.SIZES[name]
    return size.qrels_path.read_text(), size.run_path.read_text()


def timed(fn, repeat: int) -> float:
    """Median CPU seconds (time.process_time): on a machine shared with other work, wall
    time swings with their load; CPU time much less. The process is single-threaded."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def bench(name: str, n: int, repeat: int) -> None:
    qrels, run = collection(name)
    runs = perturbed_runs(run, n)
    first = next(iter(runs.values()))
    one = timed(lambda: evaluate(qrels, first, k=K), repeat)
    separate = timed(lambda: [evaluate(qrels, r, k=K) for r in runs.values()], repeat)
    many = timed(lambda: evaluate_many(qrels, runs, k=K), repeat)
    evaluations = evaluate_many(qrels, runs, k=K)
    queries = evaluations[next(iter(runs))].scored_queries
    print(f"\n{name}: {n} runs, {queries} queries, qrels {qrels.count(chr(10)):,} lines, "
          f"each run {first.count(chr(10)):,} lines; CPU time, median of {repeat}")
    print(f"  one run            evaluate()            {one * 1000:9.1f} ms")
    print(f"  {n} runs separately  {n} x evaluate()        {separate * 1000:9.1f} ms")
    print(f"  {n} runs at once     evaluate_many()       {many * 1000:9.1f} ms")
    print(f"  ratio many / one   {many / one:6.2f}  (goal: about {n})")
    print(f"  ratio separate / many {separate / many:6.2f}  (the judgements parsed once)")
    for test in ("randomisation", "t", "bootstrap"):
        seconds = timed(lambda test=test: compare_many(evaluations, test=test), max(1, repeat // 2))
        result = compare_many(evaluations, test=test)
        method = {d.method for row in result.differences.values() for d in row.values()}
        print(f"  compare_many test={test:<13} {seconds * 1000:9.1f} ms  "
              f"({result.family_size} p-values; {', '.join(sorted(method))})")
    page = timed(lambda: analyse_many(qrels, runs, {"k": "5,10,20"}), max(1, repeat // 2))
    print(f"  web.analyse_many (parse, score, compare, exports)  {page * 1000:9.1f} ms")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--sizes", default="trec_eval,tiny")
    args = parser.parse_args(argv)
    for name in args.sizes.split(","):
        bench(name, args.runs, args.repeat)


if __name__ == "__main__":
    main()
