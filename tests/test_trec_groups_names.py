"""The calculator's ``-m official``, ``-m set`` and ``-m all_trec`` print the measures its
``trec_eval`` mode prints for the same nickname (issue 36): one definition of each group
(``measures.trec_eval_rows.NICKNAMES``), and every difference is said on stderr with its reason.
trec_eval's other nicknames (``prefs``, ``all_prefs``, ``qrels_jg``) hold measures only the mode
computes: the calculator refuses each, naming every measure the mode prints for it and the
mode's command.

On trec_eval's own test collection: the names of the calculator's ``-o trec`` lines, in the order
they first appear, against the mode's (and, where the suite built it, trec_eval 10's own).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from retrieval_metrics.measures.trec_eval_rows import NICKNAMES

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "trec_eval"
GROUPS = ("official", "set", "all_trec")
#: trec_eval's other nicknames, with the -R format the mode reads qrels.test in for them
MODE_ONLY = {"prefs": "qrels_prefs", "all_prefs": "qrels_prefs", "qrels_jg": "qrels_jg"}
pytestmark = pytest.mark.slow  # each case runs the command line twice


def run(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "retrieval_metrics", *map(str, args)],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "py")})


def names(stdout: str) -> list[str]:
    """The measures of the ``all`` lines (the means), in their order."""
    seen = []
    for line in stdout.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] == "all" and fields[0] not in seen:
            seen.append(fields[0])
    return seen


def said_left_out(stderr: str) -> dict[str, str]:
    """{trec_eval's name: the line saying why} of every measure ``-o trec`` left out."""
    out = {}
    for line in stderr.splitlines():
        texts = re.search(r"leaves out trec_eval's (.+?): text, not numbers", line)
        if texts:
            for name in texts.group(1).split(" and "):
                out[name] = line
        unlike = re.search(r"which is not trec_eval's (\S+):", line)
        if unlike:
            out[unlike.group(1)] = line
    return out


def test_every_nickname_is_a_group_or_refused_by_name():
    assert set(GROUPS) | set(MODE_ONLY) == set(NICKNAMES)


@pytest.mark.parametrize("nickname, reads", sorted(MODE_ONLY.items()))
def test_a_nickname_only_the_mode_computes_is_refused_naming_each_measure(nickname, reads):
    qrels, results = DATA / "qrels.test", DATA / "results.test"
    mode = run("trec_eval", "-R", reads, "-m", nickname, qrels, results)
    assert mode.returncode == 0, mode.stderr
    printed = [name for name in names(mode.stdout) if name not in ("runid", "num_q")]
    assert len(printed) >= 3
    calculator = run(qrels, results, "-m", nickname, "-o", "trec")
    assert calculator.returncode == 2 and calculator.stdout == ""
    assert f"retrieval-metrics trec_eval -m {nickname}" in calculator.stderr
    words = set(re.findall(r"[A-Za-z_]+", calculator.stderr))
    # a measure printed at its cutoffs (P_avgjg_5, ...) is named once, as P_avgjg
    unnamed = [name for name in printed
               if not any(name == w or re.fullmatch(re.escape(w) + r"_[0-9.]+", name) for w in words)]
    assert unnamed == [], calculator.stderr


@pytest.mark.parametrize("group", GROUPS)
def test_the_calculators_group_prints_the_trec_eval_modes_measures(group):
    qrels, results = DATA / "qrels.test", DATA / "results.test"
    mode = run("trec_eval", "-m", group, qrels, results)
    assert mode.returncode == 0, mode.stderr
    calculator = run(qrels, results, "-m", group, "-o", "trec")
    assert calculator.returncode == 0, calculator.stderr
    expected, printed = names(mode.stdout), names(calculator.stdout)
    left_out = said_left_out(calculator.stderr)
    # the mode prints a measure's values under their own names (P_5, ...): a measure the
    # calculator leaves out leaves out each of them, and each has its reason on stderr
    missing = [name for name in expected if name not in printed]
    for name in missing:
        base = next((b for b in left_out if name == b or name.startswith(b + "_")), None)
        assert base is not None, f"{group}: {name} is printed by the trec_eval mode, and -o trec " \
                                 f"neither prints it nor says why: {calculator.stderr}"
    assert [name for name in printed if name not in expected] == []  # nothing the mode lacks
    assert [name for name in expected if name in printed] == printed  # in trec_eval's order
    if group == "set":  # the drift this test was written for
        assert "set_relative_P" in printed and "set_map" in printed
    assert set(left_out) <= {"runid", "relstring", "rbp", "rbp_resid"}


@pytest.mark.parametrize("group", GROUPS)
def test_the_trec_eval_mode_prints_what_trec_eval_10_prints(group, trec_eval_10):
    qrels, results = DATA / "qrels.test", DATA / "results.test"
    reference = subprocess.run([trec_eval_10, "-m", group, qrels, results], capture_output=True,
                               text=True, timeout=120)
    assert names(run("trec_eval", "-m", group, qrels, results).stdout) == names(reference.stdout)
