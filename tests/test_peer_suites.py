"""The peers' own test suites, run unchanged against the drop-ins (issue 38).

ranx's ``tests/`` (its repository at ranx 0.3.21's code) and ir_measures' ``tests/`` (tag v0.4.3)
are vendored with their licences under ``tests/peers/``, with pytrec_eval's own test file and the
trec_eval 9 outputs it reads (``tests/peers/pytrec_eval``); ``tests/peers/shim/`` puts the names
``ranx``, ``ir_measures`` and ``pytrec_eval`` on the drop-ins (each shim module only re-exports the drop-in's
module of the same place), so not a line of theirs is edited. Each suite runs in a process of
its own, from a copy in a temporary folder (ranx's tests write into their data folder), twice:
against the real peer (installed here) and through the shim against ours.

``tests/peers/<peer>/LEFT_OUT`` names the tests of the peer's numba kernels the share leaves out
(each with its reason). ``tests/peers/<peer>/PASSING`` lists the tests that pass on the drop-in: every one of them must
still pass (none can silently stop passing), and a test that passes and is not listed fails
this too, so the list is kept true as the drop-ins grow. The share of the peer's own passing
tests that pass on ours is printed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

PEERS = Path(__file__).resolve().parent / "peers"
ROOT = PEERS.parent.parent
pytestmark = pytest.mark.slow  # each suite runs twice, in processes of its own


def outcomes(peer: str, tmp_path: Path, shimmed: bool) -> dict[str, str]:
    """{test id: "passed" | "failed" | "error" | "skipped"} of the peer's suite, run from a copy
    (through the shim when ``shimmed``, else against the installed peer)."""
    folder = tmp_path / ("ours" if shimmed else "theirs") / peer
    shutil.copytree(PEERS / peer, folder)
    report = folder / "report.xml"
    path = [str(PEERS / "shim"), str(ROOT / "py")] if shimmed else []
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    env.pop("RM_NO_SKIP", None)
    subprocess.run([sys.executable, "-m", "pytest", "tests", "-q", "-p", "no:cacheprovider",
                    "-p", "no:playwright", "-o", "addopts=", "--continue-on-collection-errors",
                    f"--junitxml={report}"], cwd=folder, env=env, capture_output=True,
                   timeout=600, check=False)
    results = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        name = f"{case.get('classname')}::{case.get('name')}"
        kinds = {child.tag for child in case}
        results[name] = ("failed" if "failure" in kinds else "error" if "error" in kinds
                         else "skipped" if "skipped" in kinds else "passed")
    return results


def recorded(peer: str, name: str = "PASSING") -> set[str]:
    """The test ids of tests/peers/<peer>/<name> (LEFT_OUT: each line's first field)."""
    path = PEERS / peer / name
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    return {line.split("\t")[0] for line in lines if line and not line.startswith("#")}


@pytest.mark.parametrize("peer", ["ranx", "ir_measures"])
def test_the_peers_own_tests_that_pass_on_the_drop_in_are_the_recorded_ones(peer, tmp_path):
    theirs = outcomes(peer, tmp_path, shimmed=False)
    ours = outcomes(peer, tmp_path, shimmed=True)
    passing_theirs = {name for name, outcome in theirs.items() if outcome == "passed"}
    passing_ours = {name for name, outcome in ours.items() if outcome == "passed"}
    assert len(passing_theirs) > 25  # the peer's suite ran
    # the tests of the peer's numba kernels the issue lets us leave out: each one of theirs
    # that passes there and not here, named with its reason in LEFT_OUT
    left_out = recorded(peer, "LEFT_OUT")
    assert left_out <= passing_theirs - passing_ours, left_out - (passing_theirs - passing_ours)
    counted = passing_theirs - left_out
    share = len(passing_ours & counted) / len(counted)
    print(f"{peer}: {len(passing_ours & counted)} of the {len(counted)} tests that pass on "
          f"{peer} itself pass on the drop-in ({share:.0%}; {len(left_out)} left out, "
          f"tests/peers/{peer}/LEFT_OUT)")
    assert share >= 0.95
    stopped = sorted(recorded(peer) - passing_ours)
    assert stopped == [], f"{peer}'s tests that passed on the drop-in and no longer do: {stopped}"
    new = sorted(passing_ours - recorded(peer))
    assert new == [], f"{peer}'s tests that now pass on the drop-in: add them to " \
                      f"tests/peers/{peer}/PASSING: {new}"


def unittest_outcome(tmp_path: Path, shimmed: bool) -> tuple[int, str]:
    """(tests run, the last line) of pytrec_eval's own test file, run from a copy."""
    folder = tmp_path / ("ours" if shimmed else "theirs")
    shutil.copytree(PEERS / "pytrec_eval", folder)
    path = [str(PEERS / "shim"), str(ROOT / "py")] if shimmed else []
    done = subprocess.run([sys.executable, str(folder / "tests" / "pytrec_eval_tests.py")],
                          cwd=folder, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(path)})
    lines = done.stderr.strip().splitlines()
    ran = next(int(line.split()[1]) for line in lines if line.startswith("Ran "))
    return ran, lines[-1]


def test_pytrec_eval_s_own_test_file_passes_7_of_7_on_the_drop_in(tmp_path):
    assert unittest_outcome(tmp_path, shimmed=False) == (7, "OK")  # pytrec_eval itself
    assert unittest_outcome(tmp_path, shimmed=True) == (7, "OK")
