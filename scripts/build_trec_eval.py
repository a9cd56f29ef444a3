"""Builds trec_eval 10 from the source kept in the repository (tests/peer/trec_eval-10-src.tar.gz,
NIST public-domain-style licence in tests/peer/LICENSE.md) into build/trec_eval-10/, the
reference the differential tests run beside ``retrieval-metrics trec_eval``.

Plain ``make`` in the unpacked source, with one change, applied here rather than kept as edited
source: trec_eval 10's m_rbp.c declares ``double sum, min, max;`` and then reads ``min`` and
``max`` before writing them (it takes the smallest and largest gain from them), so what rbp
prints on graded judgements depends on whatever the stack held: an -O2 build prints garbage
there. trec_eval's own test outputs were made as if both started at 0, so the reference is
built with ``double sum, min = 0.0, max = 0.0;`` (the intended rbp: gains divided by the
largest one when it exceeds 1). The build is cached: a second run only checks the binary.

    python3 scripts/build_trec_eval.py        # prints the path of the binary

Exits 1 with one clear line when there is no C compiler or make fails.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "tests" / "peer" / "trec_eval-10-src.tar.gz"
BUILD = ROOT / "build" / "trec_eval-10"
RBP_BUG = "double sum, min, max;"
RBP_FIX = "double sum, min = 0.0, max = 0.0;"


class BuildError(Exception):
    """The reference cannot be built here (the message says why, in one line)."""


def _stamp() -> str:
    digest = hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:16]
    return f"{digest} {RBP_FIX}"


def build(quiet: bool = True) -> Path:
    """The path of the built trec_eval 10 binary, building it first when needed."""
    binary = BUILD / "trec_eval" / "trec_eval"
    stamp = BUILD / "stamp"
    if binary.is_file() and stamp.is_file() and stamp.read_text() == _stamp():
        return binary
    compiler = os.environ.get("CC") or shutil.which("gcc") or shutil.which("cc")
    if not compiler:
        raise BuildError("no C compiler (gcc or cc) on PATH: trec_eval 10, the reference of the "
                         "differential tests, is built from tests/peer/ with `make`")
    if not shutil.which("make"):
        raise BuildError("no `make` on PATH: trec_eval 10 is built from tests/peer/ with make")
    if BUILD.exists():
        shutil.rmtree(BUILD)
    BUILD.mkdir(parents=True)
    with tarfile.open(SOURCE) as tar:
        for member in tar.getmembers():  # the archive's own files only, nothing outside BUILD
            target = (BUILD / member.name).resolve()
            if not str(target).startswith(str(BUILD.resolve()) + os.sep):
                raise BuildError(f"{SOURCE.name}: unexpected path {member.name!r}")
        tar.extractall(BUILD)
    rbp = BUILD / "trec_eval" / "m_rbp.c"
    text = rbp.read_text(encoding="latin-1")
    if text.count(RBP_BUG) != 1:
        raise BuildError(f"{rbp}: expected one `{RBP_BUG}` to initialise; the source changed")
    rbp.write_text(text.replace(RBP_BUG, RBP_FIX), encoding="latin-1")
    done = subprocess.run(["make", f"CC={compiler}", "trec_eval"], cwd=BUILD / "trec_eval",
                          capture_output=True, text=True)
    if done.returncode != 0 or not binary.is_file():
        last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise BuildError(f"make failed in {BUILD / 'trec_eval'}: {last[0]}")
    stamp.write_text(_stamp())
    return binary


def main() -> int:
    try:
        print(build())
    except BuildError as exc:
        print(f"build_trec_eval: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
