"""Ten runs compared in the page (issue 12, "Speed"): printed, not asserted.

    .venv/bin/python bench/many_runs_bench.py [--runs 10] [--repeat 3] [--no-build]

trec_eval's test collection (tests/data/trec_eval: qrels.test, 3 topics) and `--runs` runs made
from its results.test (each score moved by a seeded random amount, so the runs differ), k = 10 and
the page's default metrics and test (paired randomisation, Holm). The page's clock runs from the
files being added (read) to the many-run tables and curves being drawn; beside it the worker's own
time in Python (`web.analyse_many` and every run's curve), and the same calls under CPython in
this process.
Goal: under 2 s in the page for 10 runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "py"))

from pagekit import CHROMIUM, CHROMIUM_ARGS, App, start_in_thread  # noqa: E402

TREC = ROOT / "tests" / "data" / "trec_eval"


def make_runs(count: int) -> list[tuple[str, str]]:
    lines = [line.split() for line in (TREC / "results.test").read_text().splitlines() if line.strip()]
    runs = []
    for i in range(count):
        rng = random.Random(i)
        moved = [[*f[:4], repr(float(f[4]) + rng.random() * i), *f[5:]] for f in lines]
        runs.append((f"system-{i}", "\n".join(" ".join(f) for f in moved) + "\n"))
    return runs


def wait_many(page, since: int, timeout: float = 120) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        renders, busy, timings = page.evaluate(
            "() => [window.__calculator.many.renders(), window.__calculator.many.busy(), window.__calculator.many.timings]")
        if renders > since and not busy:
            return timings
        time.sleep(0.02)
    raise SystemExit("the many-run comparison did not finish")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-build", action="store_true", help="use dist/ as it is")
    args = parser.parse_args(argv)
    if not args.no_build:
        subprocess.run([sys.executable, str(ROOT / "scripts" / "build.py")], cwd=ROOT, check=True)
    qrels = (TREC / "qrels.test").read_text()
    runs = make_runs(args.runs)
    from retrieval_metrics.page.web import analyse_many, precision_recall_many
    cpython = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        out = analyse_many(qrels.encode(), [(n, t.encode()) for n, t in runs], {"k": "10"})
        precision_recall_many()
        cpython.append(time.perf_counter() - t0)
        assert out["comparison"], out["errors"]
    from playwright.sync_api import sync_playwright
    server, url = start_in_thread(ROOT / "dist")
    page_s, worker_s = [], []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            app = App(page, url)
            app.open()
            app.wait_ready()
            before = app.renders()
            page.evaluate("""(text) => { const box = document.getElementById('qrels-input');
                box.value = text; box.dispatchEvent(new Event('input', {bubbles: true})); }""", qrels)
            app.settle(before)
            files = [{"name": f"{n}.run", "mimeType": "text/plain", "buffer": t.encode()} for n, t in runs]
            for _ in range(args.repeat):
                before = page.evaluate("() => window.__calculator.many.renders()")
                page.get_by_test_id("many-file").set_input_files(files)
                timings = wait_many(page, before)
                page_s.append(timings["fromAdded"] / 1000)
                worker_s.append((timings["worker"] or {}).get("analyse_many", float("nan")) / 1000)
                before = page.evaluate("() => window.__calculator.many.renders()")
                page.get_by_test_id("many-clear").click()
                wait_many(page, before)
            browser.close()
    finally:
        server.shutdown()
    print(f"{args.runs} runs on trec_eval's test collection (k = 10, default metrics, randomisation test, Holm), "
          f"median of {args.repeat}:")
    print(f"  page, files added -> tables drawn: {statistics.median(page_s):.2f} s   (all: {', '.join(f'{s:.2f}' for s in page_s)})")
    print(f"  worker, Python (compare + curves):  {statistics.median(worker_s):.2f} s")
    print(f"  CPython, same call in-process:     {statistics.median(cpython):.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
