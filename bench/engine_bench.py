"""Speed and memory of the CLI against pytrec_eval on the same TREC files (issue 2, "Speed").

    .venv/bin/python bench/engine_bench.py [--sizes small,large] [--repeat 3] [-k 10]
                                           [--no-check] [--no-profile]

For each size, both sides run as fresh processes, alternately, --repeat times each:

- ours: `python -m retrieval_metrics QRELS RUN -k 10` (process start, parse, score, table output
  written to a file under bench/out/);
- pytrec_eval: bench/pytrec_eval_baseline.py (pytrec_eval.parse_qrel / parse_run into dicts, then
  RelevanceEvaluator(P_k, recall_k, ndcg_cut_k, recip_rank).evaluate(run)).

Wall time is perf_counter around spawn and wait; peak memory is the child's own ru_maxrss from
os.wait4. The table shows medians and the ratios ours / pytrec_eval (goals: time <= 0.75, memory
<= 1.0), plus the children's CPU time (user + system), which other load on the machine disturbs
less than wall time; use --repeat 5 or more on a busy machine. Then, on the 1M-line run: a sanity check (our precision@k, ndcg@k and recall@k per query
and as means equal pytrec_eval's P_k, ndcg_cut_k, recall_k to 1e-9) and a cProfile of the engine's
evaluate() in a fresh process (top 15 by cumulative time, then by own time; the whole profile is
saved to bench/out/evaluate-1m.prof; --profile large profiles the 7M-line run instead).

Data comes from bench/generate.py (generated on first use, about 25 s): run-100k / run-1m /
run-7m.trec and qrels-100k / qrels-1m / qrels-7m.trec in bench/data/.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "out"
sys.path.insert(0, str(HERE))

import generate  # noqa: E402  (bench/generate.py)

BASELINE = HERE / "pytrec_eval_baseline.py"
TIME_GOAL = 0.75
MEMORY_GOAL = 1.0


@dataclass
class Sample:
    seconds: float
    cpu: float  # user + system CPU seconds: steadier than wall time when others load the box
    peak_mb: float
    status: int
    stderr: str


def run_child(cmd: list[str], stdout_path: Path) -> Sample:
    """Run cmd as a fresh process; its wall time and its own peak RSS (ru_maxrss, KiB on Linux)."""
    err_path = stdout_path.with_suffix(".stderr")
    with open(stdout_path, "wb") as out, open(err_path, "wb") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, cwd=ROOT)
        _, wait_status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(wait_status)
    stderr = err_path.read_text(errors="replace")
    return Sample(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
                  proc.returncode, stderr)


def ours_cmd(size: generate.Size, k: int, *extra: str) -> list[str]:
    return [sys.executable, "-m", "retrieval_metrics", str(size.qrels_path), str(size.run_path),
            "-k", str(k), *extra]


def baseline_cmd(size: generate.Size, k: int, *extra: str) -> list[str]:
    return [sys.executable, str(BASELINE), str(size.qrels_path), str(size.run_path),
            "-k", str(k), *extra]


def engine_available() -> str | None:
    """None when `import retrieval_metrics.cli` works in a fresh process, else the error line."""
    proc = subprocess.run([sys.executable, "-c", "import retrieval_metrics.cli"],
                          capture_output=True, text=True, cwd=ROOT)
    if proc.returncode == 0:
        return None
    lines = proc.stderr.strip().splitlines()
    return lines[-1] if lines else f"exit status {proc.returncode}"


def warm_cache(size: generate.Size) -> None:
    """Read both files once so that every timed run finds them in the page cache."""
    for path in (size.qrels_path, size.run_path):
        with open(path, "rb") as f:
            while f.read(1 << 24):
                pass


def median(samples: list[Sample], attr: str) -> float | None:
    ok = [getattr(s, attr) for s in samples if s.status == 0]
    return statistics.median(ok) if ok else None


def fmt(x: float | None, spec: str) -> str:
    return "n/a" if x is None else format(x, spec)


def ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or not b else a / b



def _print_sample(label: str, s: "Sample") -> None:
    print(f"  {label}: {s.seconds:.2f} s (cpu {s.cpu:.2f}), {s.peak_mb:.0f} MB"
          + ("" if s.status == 0 else f", exit {s.status}"), flush=True)
    if s.status != 0:
        print("    " + "\n    ".join(s.stderr.strip().splitlines()[-5:]), flush=True)


def bench_size(size: generate.Size, k: int, repeat: int, with_ours: bool) -> dict:
    warm_cache(size)
    ours: list[Sample] = []
    base: list[Sample] = []
    for i in range(repeat):
        if with_ours:
            ours.append(run_child(ours_cmd(size, k), OUT / f"ours-{size.label}.txt"))
            _print_sample(f"{size.label} ours #{i + 1}", ours[-1])
        base.append(run_child(baseline_cmd(size, k), OUT / f"pytrec-{size.label}.txt"))
        _print_sample(f"{size.label} pytrec_eval #{i + 1}", base[-1])
    row = {
        "size": size.name,
        "run": size.run_path.name,
        "lines": size.queries * generate.DEPTH,
        "ours_s": median(ours, "seconds"),
        "pytrec_s": median(base, "seconds"),
        "ours_cpu": median(ours, "cpu"),
        "pytrec_cpu": median(base, "cpu"),
        "ours_mb": median(ours, "peak_mb"),
        "pytrec_mb": median(base, "peak_mb"),
        "ours_runs": [s.seconds for s in ours],
        "pytrec_runs": [s.seconds for s in base],
    }
    row["time_ratio"] = ratio(row["ours_s"], row["pytrec_s"])
    row["memory_ratio"] = ratio(row["ours_mb"], row["pytrec_mb"])
    row["cpu_ratio"] = ratio(row["ours_cpu"], row["pytrec_cpu"])
    return row


def print_table(rows: list[dict], k: int, repeat: int) -> None:
    print(f"\nCLI (-k {k}) vs pytrec_eval parse + evaluate, fresh processes, median of {repeat}:\n")
    head = ("size", "run", "ours s", "pytrec s", "ratio", "ours MB", "pytrec MB", "ratio",
            "ours cpu s", "pytrec cpu s", "cpu ratio")
    print("| " + " | ".join(head) + " |")
    print("| " + " | ".join("---" for _ in head) + " |")
    for r in rows:
        t_ok = r["time_ratio"] is not None and r["time_ratio"] <= TIME_GOAL
        m_ok = r["memory_ratio"] is not None and r["memory_ratio"] <= MEMORY_GOAL
        cells = (
            r["size"], f"{r['run']} ({r['lines']:,} lines)",
            fmt(r["ours_s"], ".2f"), fmt(r["pytrec_s"], ".2f"),
            fmt(r["time_ratio"], ".2f") + (" ok" if t_ok else ""),
            fmt(r["ours_mb"], ".0f"), fmt(r["pytrec_mb"], ".0f"),
            fmt(r["memory_ratio"], ".2f") + (" ok" if m_ok else ""),
            fmt(r["ours_cpu"], ".2f"), fmt(r["pytrec_cpu"], ".2f"), fmt(r["cpu_ratio"], ".2f"),
        )
        print("| " + " | ".join(cells) + " |")
    print(f"\ngoals: time ratio <= {TIME_GOAL}, memory ratio <= {MEMORY_GOAL} (wall time is the "
          "goal; cpu = user + system seconds of the child, less disturbed by other load)")


def sanity_check(size: generate.Size, k: int) -> bool:
    """Our per-query and mean P@k, nDCG@k, recall@k equal pytrec_eval's to 1e-9 (not timed)."""
    ours_json = OUT / f"ours-{size.label}.json"
    base_json = OUT / f"pytrec-{size.label}.json"
    s = run_child(ours_cmd(size, k, "--output", "json"), ours_json)
    if s.status != 0:
        print(f"sanity: our CLI failed (exit {s.status}): {s.stderr.strip()[-500:]}")
        return False
    b = run_child(baseline_cmd(size, k, "--dump", str(base_json)), OUT / f"pytrec-{size.label}.txt")
    if b.status != 0:
        print(f"sanity: pytrec_eval failed: {b.stderr.strip()[-500:]}")
        return False
    ours = json.loads(ours_json.read_text())
    base = json.loads(base_json.read_text())
    if base["float32_collisions"]:
        print(f"sanity: {base['float32_collisions']} queries have float32 score collisions; "
              "pytrec_eval may rank them differently, comparison skipped")
        return False
    pairs = {f"precision@{k}": f"P_{k}", f"ndcg@{k}": f"ndcg_cut_{k}", f"recall@{k}": f"recall_{k}"}
    ok = True
    ours_q, base_q = ours.get("per_query", {}), base["per_query"]
    if set(ours_q) != set(base_q):
        only_ours, only_base = set(ours_q) - set(base_q), set(base_q) - set(ours_q)
        print(f"sanity: query sets differ: {len(only_ours)} only ours, {len(only_base)} only pytrec_eval")
        ok = False
    for ours_key, base_key in pairs.items():
        common = set(ours_q) & set(base_q)
        worst = max((abs(ours_q[q][ours_key] - base_q[q][base_key]) for q in common), default=0.0)
        m_ours = ours.get("mean", {}).get(ours_key)
        m_base = base["mean"][base_key]
        diff = None if m_ours is None else abs(m_ours - m_base)
        good = worst <= 1e-9 and diff is not None and diff <= 1e-9
        ok &= good
        print(f"sanity {ours_key:>13} vs {base_key:<12} mean ours {fmt(m_ours, '.12f')} "
              f"pytrec {m_base:.12f}  |mean diff| {fmt(diff, '.1e')}  "
              f"max |per-query diff| {worst:.1e}  {'ok' if good else 'MISMATCH'}")
    return ok


def profile_evaluate(size: generate.Size, k: int, top: int = 15) -> None:
    """cProfile of retrieval_metrics.scoring.evaluate(qrels path, run path, k) in this process."""
    from retrieval_metrics import evaluate

    start, cpu = time.perf_counter(), time.process_time()
    evaluate(size.qrels_path, size.run_path, k=k)
    plain, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"\nevaluate() alone on {size.run_path.name}, k={k}: {plain:.2f} s (cpu {cpu:.2f} s); "
          "the CLI's time minus this is process start, imports and output")
    prof = cProfile.Profile(time.process_time)  # CPU time: other load on the box does not show
    start = time.perf_counter()
    prof.enable()
    evaluate(size.qrels_path, size.run_path, k=k)
    prof.disable()
    seconds = time.perf_counter() - start
    path = OUT / f"evaluate-{size.label}.prof"
    prof.dump_stats(path)
    for order in ("cumulative", "tottime"):
        buf = io.StringIO()
        stats = pstats.Stats(prof, stream=buf).sort_stats(order)
        stats.print_stats(top)
        text = buf.getvalue()
        for prefix in sorted({str(ROOT) + "/", *(p + "/" for p in sys.path if p)}, key=len, reverse=True):
            text = text.replace(prefix, "")
        body = text[text.find("   ncalls"):] if "   ncalls" in text else text
        print(f"\nprofile of evaluate() on {size.run_path.name}, k={k} "
              f"({seconds:.2f} s wall under cProfile; the times below are CPU seconds), top {top} by {order}:\n")
        print(body.rstrip())
    print(f"\n(full profile: {path.relative_to(ROOT)}; view with "
          f"`.venv/bin/python -m pstats {path.relative_to(ROOT)}`)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="small,large",
                    help="comma-separated from tiny (100k lines), small (1M), large (7M)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per side and size")
    ap.add_argument("-k", type=int, default=10)
    ap.add_argument("--no-check", action="store_true", help="skip the 1M-run sanity check")
    ap.add_argument("--no-profile", action="store_true", help="skip the cProfile of evaluate()")
    ap.add_argument("--profile", default="small", metavar="SIZE",
                    help="the size whose evaluate() is profiled (default small, the 1M-line run)")
    ap.add_argument("--profile-only", action="store_true",
                    help="only the profile, in this process (the benchmark runs it so, in a child)")
    ap.add_argument("--json", help="also write the table rows to this file")
    args = ap.parse_args(argv)
    names = [s for s in args.sizes.split(",") if s]
    unknown = [s for s in names if s not in generate.SIZES]
    if unknown:
        ap.error(f"unknown size {unknown[0]!r}; choose from {', '.join(generate.SIZES)}")
    if args.repeat < 1:
        ap.error("--repeat must be >= 1")

    if args.profile not in generate.SIZES:
        ap.error(f"unknown size {args.profile!r}; choose from {', '.join(generate.SIZES)}")
    OUT.mkdir(exist_ok=True)
    if args.profile_only:
        generate.ensure([args.profile])
        profile_evaluate(generate.SIZES[args.profile], args.k)
        return 0
    needed = list(dict.fromkeys(["tiny", *names] + ([] if args.no_check else ["small"])
                                + ([] if args.no_profile else [args.profile])))
    generate.ensure(needed)

    problem = engine_available()
    if problem:
        print(f"engine not importable ({problem}); measuring pytrec_eval only")

    rows = [bench_size(generate.SIZES[n], args.k, args.repeat, problem is None) for n in names]
    print_table(rows, args.k, args.repeat)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))

    status = 0
    if problem is None and not args.no_check:
        print()
        if not sanity_check(generate.SIZES["small"], args.k):
            status = 1
    if problem is None and not args.no_profile:
        # in a fresh process, so that this one's heap does not colour the numbers
        sys.stdout.flush()
        child = subprocess.run([sys.executable, __file__, "--profile-only", "--profile",
                                args.profile, "-k", str(args.k)], cwd=ROOT)
        if child.returncode != 0:
            print(f"\nprofile: evaluate() failed (exit {child.returncode})")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
