"""Speed and memory against trec_eval 10 itself, in one run (issue 19, item 6).

    .venv/bin/python bench/trec_eval_bench.py [--sizes small,large] [--repeat 5]

For each size (bench/generate.py's 1M- and 7M-line runs), five commands run as fresh
processes, one after the other in turn, --repeat times each:

- trec_eval 10 (built from tests/peer/ by scripts/build_trec_eval.py) `-m all_trec`, and
  `retrieval-metrics trec_eval -m all_trec` (its output checked byte for byte against
  trec_eval's in every run);
- trec_eval 10 with no -m (its default output, the `official` measures), trec_eval 10 with
  `-m P.10 -m recall.10 -m ndcg_cut.10 -m recip_rank` (the calculator's four), and
  `retrieval-metrics QRELS RUN -k 10` (the calculator's default four measures).

Each command runs under /usr/bin/time. Each sample records the wall time (perf_counter
around spawn and wait), the CPU time (user + system from os.wait4, which includes the
children a process waited for) and the peak memory counted over every process of the
command: every 10 ms the process tree is walked (/proc/PID/task/PID/children) and each
process's VmHWM (its own peak resident size) kept; the peak is the sum of those peaks (an
upper bound: forked children share their parent's pages, and each counts them), and never
less than /usr/bin/time's %M (the largest single process, what `/usr/bin/time -v` reports). The table shows medians; the ratios are ours over
trec_eval's median (goals: all_trec wall <= 1.0; the four measures' wall <= 0.5 of trec_eval's
default output, the ratio against its four-measure -m shown too; peak memory <= 1.0).

The package's bytecode is cached under bench/out/pycache (PYTHONPYCACHEPREFIX; an installed
package has its .pyc files), and each command runs once untimed first. The machine may be
shared: the load average before and after, and how busy the whole machine
was (from /proc/stat) while the commands ran, are printed with the table; CPU times are less
disturbed by other load than wall times. Exit status 0 when every goal is met and every
all_trec output is byte-identical.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "out"
sys.path.insert(0, str(HERE))

import generate  # noqa: E402  (bench/generate.py)

GOALS = {"all_trec": 1.0, "four": 0.5, "memory": 1.0}
TIME = "/usr/bin/time"
#: the package from this tree, its bytecode cached (under bench/out/, out of the tree) as an
#: installed package's is: without it every start would compile the package anew
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
       "PYTHONPATH": str(ROOT / "py"), "PYTHONPYCACHEPREFIX": str(OUT / "pycache")}
FOUR = ["-m", "P.10", "-m", "recall.10", "-m", "ndcg_cut.10", "-m", "recip_rank"]


@dataclass
class Sample:
    seconds: float
    cpu: float
    peak_mb: float
    largest_mb: float  # wait4's ru_maxrss: the largest single process
    processes: int
    status: int
    digest: str
    stderr: str = field(repr=False, default="")


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def _hwm_kb(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def run_child(cmd: list[str], out_path: Path) -> Sample:
    """Run cmd fresh, under /usr/bin/time (a process forked from this one would count this
    interpreter's memory in its peak until it execs): wall, CPU with its children, the summed
    peak memory of its processes, and /usr/bin/time's largest process."""
    err_path = out_path.with_suffix(".stderr")
    time_path = out_path.with_suffix(".time")
    peaks: dict[int, int] = {}
    done = threading.Event()

    def watch(root: int) -> None:
        while not done.is_set():
            stack = _children(root)  # /usr/bin/time itself is left out
            while stack:
                pid = stack.pop()
                hwm = _hwm_kb(pid)
                if hwm is not None:
                    peaks[pid] = max(peaks.get(pid, 0), hwm)
                stack += _children(pid)
            done.wait(0.01)

    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        start = time.perf_counter()
        proc = subprocess.Popen([TIME, "-f", "%M", "-o", str(time_path), *cmd], stdout=out,
                                stderr=err, cwd=ROOT, env=ENV)
        watcher = threading.Thread(target=watch, args=(proc.pid,), daemon=True)
        watcher.start()
        _, wait_status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
    done.set()
    watcher.join()
    status = os.waitstatus_to_exitcode(wait_status)
    largest = int(time_path.read_text().split()[-1]) / 1024
    peak = max(sum(peaks.values()) / 1024, largest)
    digest = hashlib.sha256(out_path.read_bytes()).hexdigest()
    return Sample(seconds, usage.ru_utime + usage.ru_stime, peak, largest, max(len(peaks), 1),
                  status, digest, err_path.read_text(errors="replace"))


class Busy:
    """How busy the whole machine was (share of all cores not idle) between start and stop."""

    @staticmethod
    def _read() -> tuple[int, int]:
        with open("/proc/stat") as f:
            cells = [int(x) for x in f.readline().split()[1:]]
        idle = cells[3] + (cells[4] if len(cells) > 4 else 0)
        return sum(cells), idle

    def __init__(self):
        self.total, self.idle = self._read()

    def share(self) -> float:
        total, idle = self._read()
        spent = total - self.total
        return 1.0 - (idle - self.idle) / spent if spent else 0.0


def commands(size: generate.Size, trec_eval: Path) -> dict[str, list[str]]:
    q, r = str(size.qrels_path), str(size.run_path)
    ours = [sys.executable, "-m", "retrieval_metrics"]
    return {
        "trec_eval -m all_trec": [str(trec_eval), "-m", "all_trec", q, r],
        "ours trec_eval -m all_trec": [*ours, "trec_eval", "-m", "all_trec", q, r],
        "trec_eval (default)": [str(trec_eval), q, r],
        "trec_eval -m four": [str(trec_eval), *FOUR, q, r],
        "ours QRELS RUN -k 10": [*ours, q, r, "-k", "10"],
    }


def median(samples: list[Sample], attr: str) -> float:
    return statistics.median(getattr(s, attr) for s in samples)


def bench_size(size: generate.Size, trec_eval: Path, repeat: int) -> dict:
    for path in (size.qrels_path, size.run_path):  # into the page cache before timing
        with open(path, "rb") as f:
            while f.read(1 << 24):
                pass
    cmds = commands(size, trec_eval)
    samples: dict[str, list[Sample]] = {name: [] for name in cmds}
    for cmd in cmds.values():  # once untimed: bytecode written, files in the page cache
        run_child(cmd, OUT / f"{size.label}-warm-up.txt")
    for i in range(repeat):
        for name, cmd in cmds.items():
            slug = name.replace(" ", "_").replace("(", "").replace(")", "")
            s = run_child(cmd, OUT / f"{size.label}-{slug}.txt")
            samples[name].append(s)
            print(f"  {size.label} {name} #{i + 1}: {s.seconds:.2f} s (cpu {s.cpu:.2f}), "
                  f"peak {s.peak_mb:.0f} MB over {s.processes} process(es)"
                  + ("" if s.status == 0 else f", exit {s.status}: {s.stderr.strip()[-300:]}"),
                  flush=True)
    reference = {s.digest for s in samples["trec_eval -m all_trec"]}
    identical = all(s.digest in reference for s in samples["ours trec_eval -m all_trec"]) \
        and len(reference) == 1
    return {"size": size, "samples": samples, "identical": identical}


def four_values(size: generate.Size) -> str:
    """Our four means (the table) beside trec_eval -m four's all line, for the eye."""
    ours = (OUT / f"{size.label}-ours_QRELS_RUN_-k_10.txt").read_text().splitlines()[-4:]
    theirs = [line for line in (OUT / f"{size.label}-trec_eval_-m_four.txt").read_text()
              .splitlines() if "\tall\t" in line]
    return "ours: " + "; ".join(" ".join(l.split()) for l in ours) + " | trec_eval: " + \
        "; ".join(" ".join(l.split()) for l in theirs)


def report(rows: list[dict], repeat: int, load_before, load_after, busy: float) -> bool:
    print(f"\nMedians of {repeat} fresh runs each (wall s / cpu s / peak MB over all "
          "processes):\n")
    head = ("run", "command", "wall s", "cpu s", "peak MB", "largest process MB")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in rows:
        size = row["size"]
        for name, samples in row["samples"].items():
            print(f"| {size.run_path.name} | {name} | {median(samples, 'seconds'):.2f} | "
                  f"{median(samples, 'cpu'):.2f} | {median(samples, 'peak_mb'):.0f} | "
                  f"{median(samples, 'largest_mb'):.0f} |")
    print("\nRatios, ours / trec_eval 10 (medians):\n")
    head = ("run", "ratio", "wall", "cpu", "peak memory", "goal")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    ok = True
    for row in rows:
        s, size = row["samples"], row["size"]
        pairs = [("all_trec mode / trec_eval -m all_trec", "ours trec_eval -m all_trec",
                  "trec_eval -m all_trec", GOALS["all_trec"]),
                 ("four measures / trec_eval default", "ours QRELS RUN -k 10",
                  "trec_eval (default)", GOALS["four"]),
                 ("four measures / trec_eval -m four", "ours QRELS RUN -k 10",
                  "trec_eval -m four", None)]
        for label, mine, theirs, goal in pairs:
            wall = median(s[mine], "seconds") / median(s[theirs], "seconds")
            cpu = median(s[mine], "cpu") / median(s[theirs], "cpu")
            memory = median(s[mine], "peak_mb") / median(s[theirs], "peak_mb")
            met = (goal is None or wall <= goal) and memory <= GOALS["memory"]
            if goal is not None:
                ok &= met
            print(f"| {size.run_path.name} | {label} | {wall:.2f} | {cpu:.2f} | {memory:.2f} | "
                  + (f"wall <= {goal}, memory <= 1.0: {'met' if met else 'NOT met'}"
                     if goal is not None else "(shown)") + " |")
        ok &= row["identical"]
        print(f"| {size.run_path.name} | all_trec output byte-identical in every run | "
              f"{'yes' if row['identical'] else 'NO'} | | | |")
    for row in rows:
        print(f"\n{row['size'].run_path.name} means: {four_values(row['size'])}")
    print(f"\nmachine: {os.cpu_count()} cores; load average before {load_before[0]:.2f} "
          f"{load_before[1]:.2f} {load_before[2]:.2f}, after {load_after[0]:.2f} "
          f"{load_after[1]:.2f} {load_after[2]:.2f}; the whole machine was {busy:.0%} busy "
          "while the commands ran (ours and trec_eval included)")
    print(f"every goal met: {'yes' if ok else 'NO'}")
    return ok


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="small,large",
                    help="comma-separated from tiny (100k lines), small (1M), large (7M)")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs per command and size")
    args = ap.parse_args(argv)
    names = [s for s in args.sizes.split(",") if s]
    unknown = [s for s in names if s not in generate.SIZES]
    if unknown:
        ap.error(f"unknown size {unknown[0]!r}; choose from {', '.join(generate.SIZES)}")
    OUT.mkdir(exist_ok=True)
    generate.ensure(names)
    built = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_trec_eval.py")],
                           capture_output=True, text=True)
    if built.returncode != 0:
        print(built.stderr.strip(), file=sys.stderr)
        return 1
    trec_eval = Path(built.stdout.strip())
    load_before = os.getloadavg()
    busy = Busy()
    rows = [bench_size(generate.SIZES[n], trec_eval, args.repeat) for n in names]
    share = busy.share()
    return 0 if report(rows, args.repeat, load_before, os.getloadavg(), share) else 1


if __name__ == "__main__":
    sys.exit(main())
