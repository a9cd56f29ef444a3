"""Run pytrec_eval's own test file against ``retrieval_metrics.compat.pytrec_eval``, beside the
project (the file is pytrec_eval's, not copied here):

    .venv/bin/python scripts/run_pytrec_eval_tests.py PATH/TO/pytrec_eval/tests/pytrec_eval_tests.py \\
        [--trec-eval-test-dir tests/data/trec_eval]

The test file reads trec_eval's test collection from ``../trec_eval/test`` beside its folder;
a temporary copy of the layout points that at ``--trec-eval-test-dir`` (trec_eval 10's, in
this repository, by default), and ``import pytrec_eval`` finds a module that is this package's
compat layer. Its exit status is unittest's.

pytrec_eval 0.5's expected outputs are trec_eval 9's (its trec_eval submodule, commit de6a29f;
``git archive de6a29f test`` of usnistgov/trec_eval): with those the file passes 7 of 7 against
the compat layer, as against pytrec_eval itself. With trec_eval 10's outputs (the default
here) both fail the same one check, ``11pt_avg`` on out.test.aql at relevance level 2 (0.1804,
trec_eval 9's value, where trec_eval 10 prints 0.1817).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHIM = "from retrieval_metrics.compat.pytrec_eval import *  # noqa: F401,F403\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("test_file", type=Path)
    parser.add_argument("--trec-eval-test-dir", type=Path, default=ROOT / "tests" / "data" / "trec_eval")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        (base / "tests").mkdir()
        (base / "trec_eval").mkdir()
        shutil.copy(args.test_file, base / "tests" / "pytrec_eval_tests.py")
        os.symlink(args.trec_eval_test_dir.resolve(), base / "trec_eval" / "test")
        (base / "shim").mkdir()
        (base / "shim" / "pytrec_eval.py").write_text(SHIM)
        path = os.pathsep.join([str(base / "shim"), str(ROOT / "py")])
        env = dict(os.environ, PYTHONPATH=path)
        return subprocess.call([sys.executable, str(base / "tests" / "pytrec_eval_tests.py")],
                               env=env, cwd=base)


if __name__ == "__main__":
    sys.exit(main())
