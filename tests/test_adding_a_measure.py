"""docs/adding-a-measure.md's recipe, followed on a copy of the package: its two examples (a
measure of our own, cg, and one trec_eval would also have, num_judged_ret) are taken from the
page itself, written as new files and nothing else, and each must then be in ``-m``,
``--help``, every output, the page's chooser and, for the second, the ``trec_eval`` mode."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "adding-a-measure.md"
OUTPUTS = ("table", "json", "jsonl", "csv", "markdown", "latex", "html")


def _examples() -> dict[str, str]:
    """{path: text} of every file the page shows: a line naming a path in backquotes ending
    with ':' followed by a fenced block."""
    text = DOC.read_text()
    found = re.findall(r"`((?:py|tests)/[^`]+)`:\n\n```\w*\n(.*?)```", text, re.S)
    return {path: body for path, body in found}


@pytest.fixture(scope="module")
def package(tmp_path_factory) -> Path:
    """A copy of the package with the page's files added, nothing else edited."""
    root = tmp_path_factory.mktemp("recipe")
    shutil.copytree(ROOT / "py" / "retrieval_metrics", root / "py" / "retrieval_metrics",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for path, body in _examples().items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(body)
    (root / "qrels.txt").write_text("q1 0 a 2\nq1 0 b 1\nq1 0 c 0\nq2 0 d 1\n")
    (root / "run.txt").write_text("q1 Q0 x 1 4 r\nq1 Q0 b 2 3 r\nq1 Q0 c 3 2 r\nq1 Q0 a 4 1 r\n"
                                  "q2 Q0 d 1 1 r\n")
    return root


def _python(root: Path, *args: str) -> subprocess.CompletedProcess:
    """Python with the copy's package first on its path, in the copy's folder."""
    env = dict(os.environ, PYTHONPATH=str(root / "py"))
    return subprocess.run([sys.executable, *args], cwd=root, env=env, capture_output=True,
                          text=True, timeout=120)


def _run(root: Path, *args: str) -> subprocess.CompletedProcess:
    return _python(root, "-m", "retrieval_metrics", *args)


def test_the_page_shows_both_files_of_each_example():
    assert set(_examples()) == {
        "py/retrieval_metrics/measures/cg.py", "tests/cases/measures/cg.json",
        "py/retrieval_metrics/measures/num_judged_ret.py",
        "tests/cases/measures/num_judged_ret.json"}


def test_the_examples_are_new_measures():
    from retrieval_metrics.measures.registry import BY_NAME
    from retrieval_metrics.measures.trec_eval_rows import ROWS
    assert "cg" not in BY_NAME and "num_judged_ret" not in BY_NAME
    assert "num_judged_ret" not in ROWS


@pytest.mark.slow
@pytest.mark.parametrize("name, metric, label, value", [
    ("cg", "cg@2", "CG@2", 1.0), ("num_judged_ret", "num_judged_ret", "num_judged_ret", 3.0)])
def test_each_example_reaches_every_place(package, name, metric, label, value):
    help_text = _run(package, "--help").stdout
    assert re.search(rf"\b{name}\b", help_text), help_text
    for output in OUTPUTS:
        done = _run(package, "qrels.txt", "run.txt", "-m", metric, "-o", output)
        assert done.returncode == 0, (output, done.stderr)
        shown = done.stdout.replace("\\_", "_")  # markdown and LaTeX escape it
        assert metric in shown or label in shown, (output, done.stdout)
    per_query = json.loads(_per_query(package, metric))
    assert per_query["q1"][metric] == value
    chooser = _python(package, "-c", "import json; from retrieval_metrics.measures.catalogue "
                      "import catalogue; print(json.dumps([m['value'] for m in catalogue()]))")
    assert name in json.loads(chooser.stdout), chooser.stderr


def _per_query(root: Path, metric: str) -> str:
    """The per-query values through the Python API of the copy, as JSON."""
    code = ("import json; from retrieval_metrics import evaluate; "
            f"r = evaluate('qrels.txt', 'run.txt', metrics=[{metric!r}]); "
            "print(json.dumps(r.per_query))")
    done = _python(root, "-c", code)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
def test_the_trec_eval_example_reaches_trec_output_and_the_trec_eval_mode(package):
    trec = _run(package, "qrels.txt", "run.txt", "-m", "num_judged_ret", "-o", "trec")
    assert re.search(r"^num_judged_ret\s+all\s+4$", trec.stdout, re.M), trec.stdout + trec.stderr
    mode = _run(package, "trec_eval", "-q", "-m", "num_judged_ret", "qrels.txt", "run.txt")
    assert mode.returncode == 0, mode.stderr
    lines = [line.split() for line in mode.stdout.splitlines()]
    assert ["num_judged_ret", "q1", "3"] in lines and ["num_judged_ret", "all", "4"] in lines
    everything = _run(package, "trec_eval", "-m", "all_trec", "qrels.txt", "run.txt")
    assert "num_judged_ret" not in everything.stdout  # a nickname lists trec_eval's own only
    assert everything.returncode == 0
