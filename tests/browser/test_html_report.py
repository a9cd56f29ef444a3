"""`retrieval-metrics QRELS RUN RUN RUN -o html --out report.html`: one file that names every
run with its means, opens in Chromium with the network off, and asks for nothing outside it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
QRELS = "q1 0 a 2\nq1 0 b 1\nq1 0 c 0\nq2 0 d 1\nq2 0 e 2\nq3 0 f 1\n"
RUNS = {"bm25": "q1 Q0 a 1 3 x\nq1 Q0 u 2 2 x\nq1 Q0 b 3 2 x\nq2 Q0 d 1 1 x\nq3 Q0 f 1 1 x\n",
        "dense": "q1 Q0 c 1 3 y\nq1 Q0 b 2 2 y\nq1 Q0 a 3 1 y\nq2 Q0 e 1 5 y\nq3 Q0 z 1 1 y\n",
        "hybrid": "q1 Q0 b 1 3 y\nq1 Q0 a 2 2 y\nq2 Q0 e 1 5 y\nq2 Q0 d 2 1 y\nq3 Q0 f 1 1 y\n"}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("html")
    (folder / "qrels.txt").write_text(QRELS)
    paths = []
    for name, text in RUNS.items():
        (folder / f"{name}.run").write_text(text)
        paths.append(str(folder / f"{name}.run"))
    out = folder / "report.html"
    subprocess.run([sys.executable, "-m", "retrieval_metrics", str(folder / "qrels.txt"), *paths,
                    "-m", "ndcg,precision", "-k", "10", "-o", "html", "--out", str(out)],
                   check=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT / "py")})
    return out


def _means():
    """Each run's means, computed by the library (the CLI must show these)."""
    import retrieval_metrics as rm
    return {name: rm.evaluate(QRELS, text, k=10, metrics=["ndcg", "precision"]).mean
            for name, text in RUNS.items()}


def test_the_file_refers_to_nothing_outside_itself(report):
    text = report.read_text(encoding="utf-8")
    assert not re.search(r"https?:", text)
    assert not re.search(r"<link\b|<script\b[^>]*\bsrc=|<img\b|<iframe\b|@import|url\(", text, re.I)
    assert "<svg" in text and "Methods" in text and "trec_eval ndcg_cut_10" in text


def test_opens_offline_in_chromium_and_names_every_run_with_its_means(report, browser):
    """In the session's Chromium (pytest-playwright's ``browser``: a second Playwright in the
    same process would clash with its event loop), offline, every request refused."""
    requests = []
    context = browser.new_context()
    try:
        context.set_offline(True)
        context.route("**/*", lambda route: (requests.append(route.request.url), route.abort()))
        page = context.new_page()
        page.on("request", lambda request: requests.append(request.url))
        page.set_content(report.read_text(encoding="utf-8"), wait_until="load")
        page.wait_for_timeout(300)
        means_table = page.locator("table", has=page.locator("caption", has_text="Mean over queries")).first.inner_text()
        pairs = page.evaluate("""() => [...document.querySelectorAll('dl.pairs dt')].map((dt) => {
            const dd = dt.nextElementSibling;
            return [dt.textContent, dd.textContent, Math.abs(dt.getBoundingClientRect().top - dd.getBoundingClientRect().top) < 3,
                    dd.getBoundingClientRect().left - dt.getBoundingClientRect().right < 200]; })""")
        intervals = page.evaluate("""() => [...document.querySelectorAll('.iv')].map((e) => e.getClientRects().length)""")
        body = page.locator("body").inner_text()
        charts = page.locator("svg").count()
    finally:
        context.close()
    assert requests == []
    for name, means in _means().items():
        row = next(line for line in means_table.splitlines() if line.startswith(name))
        for key in ("ndcg@10", "precision@10"):
            assert f"{means[key]:.4f}" in row, (name, key, row)
    assert charts == 2
    # the settings read as label: value pairs, each value on its label's line and near it
    assert ["cutoffs k", "10", True, True] in pairs
    assert all(same_line and near for _, _, same_line, near in pairs), pairs
    assert not any(label.startswith("run ") for label, *_ in pairs)  # was "run run"
    assert intervals and all(n == 1 for n in intervals)  # each interval on one line
    assert "randomisation test" in body and "Topic-set analysis" in body
