"""The command line before and after a change, in the same minute: time and output.

    .venv/bin/python bench/before_after.py --base REV [--size small] [--repeat 7]

A refactor should change no number and cost no time. This checks out ``REV`` into a temporary
git worktree and runs the same commands from both package folders (``PYTHONPATH``), each a
fresh process, alternately (before, after, before, ...) so that the machine's load falls on
both alike. For each command it prints the median wall and CPU (user + system of the child)
time of each side, the ratios after / before, and whether the outputs were byte-identical.

The commands, on bench/generate.py's data (``small``: 1M lines, ``large``: 7M lines):

- the calculator's default four measures at k = 10 (``QRELS RUN -k 10``);
- ``-m all_trec -o trec`` (every trec_eval measure, printed as trec_eval prints them);
- the ``trec_eval`` mode's ``-m all_trec`` (trec_eval 10's output, byte for byte).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE)]

import generate  # noqa: E402

COMMANDS = {
    "default four, -k 10": lambda q, r: [q, r, "-k", "10"],
    "-m all_trec -o trec": lambda q, r: [q, r, "-m", "all_trec", "-o", "trec"],
    "trec_eval -m all_trec": lambda q, r: ["trec_eval", "-m", "all_trec", q, r],
}


def timed(package: Path, args: list[str]) -> tuple[float, float, bytes]:
    """(wall seconds, CPU seconds of the child, its stdout) of one fresh process."""
    env = {**os.environ, "PYTHONPATH": str(package)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "retrieval_metrics", *args], env=env,
                          capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{package}: {' '.join(args)} failed: {done.stderr.decode()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="the revision before the change (git)")
    ap.add_argument("--size", default="small", choices=("small", "large"))
    ap.add_argument("--repeat", type=int, default=7, help="timed runs per side and command")
    args = ap.parse_args(argv)
    generate.ensure([args.size])
    size = generate.SIZES[args.size]
    qrels, run = size.qrels_path, size.run_path
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "before"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree),
                        args.base], check=True, capture_output=True)
        try:
            sides = {"before": tree / "py", "after": ROOT / "py"}
            print(f"{args.size} ({run.name}), {args.repeat} runs a side, alternated; "
                  f"before = {args.base}, after = the working tree")
            print(f"{'command':24} {'before':>8} {'after':>8} {'ratio':>6} {'CPU ratio':>9}  output")
            for label, command in COMMANDS.items():
                line = command(str(qrels), str(run))
                for side in sides.values():  # warm the page cache and the bytecode
                    timed(side, line)
                walls = {name: [] for name in sides}
                cpus = {name: [] for name in sides}
                outputs = {}
                for _ in range(args.repeat):
                    for name, side in sides.items():
                        wall, cpu, out = timed(side, line)
                        walls[name].append(wall)
                        cpus[name].append(cpu)
                        outputs[name] = out
                before, after = (statistics.median(walls[n]) for n in ("before", "after"))
                cpu_ratio = statistics.median(cpus["after"]) / statistics.median(cpus["before"])
                same = "identical" if outputs["before"] == outputs["after"] else "DIFFERENT"
                print(f"{label:24} {before:7.2f}s {after:7.2f}s {after / before:6.2f} "
                      f"{cpu_ratio:9.2f}  {same}")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                           check=False, capture_output=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
