"""Writes never destroy what a path names, and reading takes what a shell hands over (issue 36).

- ``--out`` (and ``Report.write``) naming a character device or a FIFO writes into it: the node
  stays what it was (as root a replaced ``/dev/null`` would be the system's); ``-`` and
  ``/dev/stdout`` write to standard output, into the stream the shell opened (an appended file
  keeps what it held);
- a report written onto a file it was scored from is refused by the API in the command line's
  words; a missing folder is one error naming it;
- the calculator and its ``trec_eval`` mode read a FIFO, ``/dev/stdin``, a process
  substitution and ``-`` as they read a file, with the same output.

Each write case runs as this user and, when that is root, as ``nobody`` too.
"""

from __future__ import annotations

import os
import pwd
import shutil
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from retrieval_metrics import evaluate
from retrieval_metrics.errors import OptionError

ROOT = Path(__file__).resolve().parents[1]
PY = str(ROOT / "py")
QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\n"
RUN = "q1 Q0 d2 1 2.0 r\nq1 Q0 d1 2 1.0 r\nq2 Q0 d3 1 5.0 r\n"
EXPECTED_CSV_MEAN = "mean,,1.0,0.1,0.75,0.8154648767857288,\n"  # recall, P, MRR, nDCG at 10, by hand

def _shared_package() -> str:
    """A copy of the package that ``nobody`` can read (the clone may sit in a folder only root
    enters, as ``mktemp -d`` makes it): the folder to put on its PYTHONPATH."""
    import atexit
    import tempfile
    folder = Path(tempfile.mkdtemp(prefix="rm-package-"))
    atexit.register(shutil.rmtree, folder, True)
    shutil.copytree(Path(PY) / "retrieval_metrics", folder / "retrieval_metrics",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return str(folder)


def _nobody_python() -> str | None:
    """An interpreter ``nobody`` can run that imports the package (this venv's may live in a
    folder only root reads), or None."""
    for candidate in (sys.executable, "/usr/bin/python3"):
        try:
            done = subprocess.run([candidate, "-c", f"import sys; sys.path.insert(0, {NOBODY_PATH!r}); "
                                   "import retrieval_metrics.cli"], preexec_fn=as_user("nobody"),
                                  capture_output=True, timeout=30)
        except OSError:
            continue
        if done.returncode == 0:
            return candidate
    return None


def as_user(user: str):
    """preexec_fn that drops to ``nobody`` (only when this process is root)."""
    if user == "self":
        return None
    entry = pwd.getpwnam("nobody")

    def drop():
        os.setgid(entry.pw_gid)
        os.setuid(entry.pw_uid)
    return drop


def cli(*args, user="self", cwd=None, **options):
    env = {**os.environ, "PYTHONPATH": PY}
    python = sys.executable
    if user == "nobody":
        env["PYTHONPATH"] = NOBODY_PATH
        python = NOBODY_PYTHON
        if python is None:
            pytest.skip("no Python here that nobody can run with this package")
    return subprocess.run([python, "-m", "retrieval_metrics", *map(str, args)],
                          capture_output="stdout" not in options, text=True, env=env, cwd=cwd,
                          timeout=60, preexec_fn=as_user(user), **options)


pytestmark = pytest.mark.slow  # each case starts the command line (0.1 s and more)

USERS = ["self"] + (["nobody"] if os.geteuid() == 0 else [])
NOBODY_PATH = _shared_package() if os.geteuid() == 0 else PY
NOBODY_PYTHON = _nobody_python() if os.geteuid() == 0 else None


@pytest.fixture
def folder():
    """A folder of its own in the system's temporary folder (pytest's tmp_path lies under a
    folder only its owner may enter), open to nobody too."""
    import tempfile
    made = Path(tempfile.mkdtemp(prefix="rm-writes-"))
    made.chmod(0o777)
    (made / "q.txt").write_text(QRELS)
    (made / "run.trec").write_text(RUN)
    for name in ("q.txt", "run.trec"):
        (made / name).chmod(0o644)
    yield made
    shutil.rmtree(made, ignore_errors=True)


def test_the_hand_worked_means():
    """EXPECTED_CSV_MEAN by hand: q1 finds its one relevant document at rank 2 (recall 1,
    P@10 0.1, RR 0.5, nDCG 1/log2(3) = 0.6309...), q2 at rank 1 (1, 0.1, 1, 1)."""
    report = evaluate(QRELS, RUN)
    assert report.mean["recall@10"] == 1.0
    assert report.mean["precision@10"] == 0.1
    assert report.mean["mrr@10"] == 0.75
    assert report.mean["ndcg@10"] == (1 / __import__("math").log2(3) + 1) / 2


# --- writes ------------------------------------------------------------------------------------

@pytest.mark.parametrize("user", USERS)
def test_out_to_dev_null_leaves_the_device(folder, user):
    before = os.stat("/dev/null")
    done = cli(folder / "q.txt", folder / "run.trec", "--out", "/dev/null", user=user)
    assert done.returncode == 0, done.stderr
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev and after.st_ino == before.st_ino


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_out_to_a_character_device_of_our_own_is_written_into_not_replaced(folder):
    node = folder / "null"
    os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a second /dev/null
    node.chmod(0o666)  # (mknod's mode passes through the umask)
    for user in USERS:
        done = cli(folder / "q.txt", folder / "run.trec", "--out", node, user=user)
        assert done.returncode == 0, done.stderr
        assert stat.S_ISCHR(os.stat(node).st_mode), user
    assert sorted(p.name for p in folder.iterdir()) == ["null", "q.txt", "run.trec"]  # no temporary left


@pytest.mark.parametrize("user", USERS)
def test_out_to_a_fifo_is_read_by_whoever_listens(folder, user):
    fifo = folder / "pipe"
    os.mkfifo(fifo)
    fifo.chmod(0o666)  # (mkfifo's mode passes through the umask)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    done = cli(folder / "q.txt", folder / "run.trec", "-o", "csv", "--out", fifo, user=user)
    reader.join(30)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert received and received[0].decode().replace("\r\n", "\n").endswith(EXPECTED_CSV_MEAN)


@pytest.mark.parametrize("out", ["-", "/dev/stdout"])
@pytest.mark.parametrize("user", USERS)
def test_out_to_standard_output(folder, out, user):
    done = cli(folder / "q.txt", folder / "run.trec", "-o", "csv", "--out", out, user=user)
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith(EXPECTED_CSV_MEAN) and done.stdout.startswith("scope,query,")


@pytest.mark.parametrize("user", USERS)
def test_out_to_dev_stdout_appends_where_the_shell_appends(folder, user):
    log = folder / "log.csv"
    log.write_text("kept\n")
    log.chmod(0o666)
    with open(log, "a") as stream:
        done = cli(folder / "q.txt", folder / "run.trec", "-o", "csv", "--out", "/dev/stdout", user=user,
                   stdout=stream, stderr=subprocess.PIPE)
    assert done.returncode == 0, done.stderr
    text = log.read_text()
    assert text.startswith("kept\nscope,query,") and text.endswith(EXPECTED_CSV_MEAN)


@pytest.mark.parametrize("user", USERS)
def test_out_into_a_missing_folder_is_one_error_naming_it(folder, user):
    done = cli(folder / "q.txt", folder / "run.trec", "--out", folder / "no such" / "r.json", user=user)
    assert done.returncode == 2
    assert done.stderr.strip() == f"retrieval-metrics: cannot write {folder / 'no such' / 'r.json'}: the folder {folder / 'no such'} does not exist"


def test_report_write_into_a_missing_folder_names_it(folder):
    with pytest.raises(OptionError, match="the folder .*no such does not exist"):
        evaluate(QRELS, RUN).write(folder / "no such" / "r.json")


def test_report_write_onto_a_folder_is_refused(folder):
    with pytest.raises(OptionError, match="it is a folder"):
        evaluate(QRELS, RUN).write(folder, format="json")


@pytest.mark.parametrize("target", ["run.trec", "q.txt", "./run.trec", "link.trec", "hard.trec"])
def test_report_write_onto_an_input_is_refused_in_the_cli_words(folder, target):
    os.symlink(folder / "run.trec", folder / "link.trec")
    os.link(folder / "run.trec", folder / "hard.trec")
    report = evaluate(str(folder / "q.txt"), folder / "run.trec")
    with pytest.raises(OptionError) as refused:
        report.write(folder / target, format="json")
    done = cli("q.txt", "run.trec", "--out", target, cwd=folder)
    assert done.returncode == 2
    cli_words = done.stderr.strip().removeprefix("retrieval-metrics: ")
    # the same words, each naming the paths as it was given them
    assert str(refused.value).split(":", 1)[0].replace(str(folder / target), target) == cli_words.split(":", 1)[0]
    assert "it is one of the inputs" in str(refused.value) and "it is one of the inputs" in cli_words
    assert (folder / "run.trec").read_text() == RUN and (folder / "q.txt").read_text() == QRELS


def test_a_report_of_text_writes_anywhere(folder):
    evaluate(QRELS, RUN).write(folder / "r.json")  # no file was read: nothing to protect
    assert (folder / "r.json").stat().st_size > 0


@pytest.mark.parametrize("user", USERS)
def test_a_regular_file_is_still_replaced_atomically_with_its_mode(folder, user):
    out = folder / "r.csv"
    out.write_text("old\n")
    out.chmod(0o666)  # nobody may write it too
    done = cli(folder / "q.txt", folder / "run.trec", "-o", "csv", "--out", out, user=user)
    assert done.returncode == 0, done.stderr
    assert out.read_text().endswith(EXPECTED_CSV_MEAN)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666


# --- reading what a shell hands over ------------------------------------------------------------

def expected_table(folder: Path, *args) -> str:
    done = cli(folder / "q.txt", folder / "run.trec", *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def feed_fifo(path: Path, text: str) -> threading.Thread:
    os.mkfifo(path)
    writer = threading.Thread(target=lambda: path.write_text(text))
    writer.start()
    return writer


@pytest.mark.parametrize("mode", [[], ["trec_eval"]], ids=["calculator", "trec_eval"])
def test_fifos_are_read_as_files(folder, mode):
    want = (expected_table(folder, "-o", "csv") if not mode else
            subprocess.run([sys.executable, "-m", "retrieval_metrics", "trec_eval", folder / "q.txt",
                            folder / "run.trec"], capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": PY}).stdout)
    writers = [feed_fifo(folder / "q.fifo", QRELS), feed_fifo(folder / "r.fifo", RUN)]
    args = [*mode, folder / "q.fifo", folder / "r.fifo", *([] if mode else ["-o", "csv"])]
    done = cli(*args)
    for writer in writers:
        writer.join(30)
    assert done.returncode == 0, done.stderr
    assert done.stdout == want and want


@pytest.mark.parametrize("mode", [[], ["trec_eval"]], ids=["calculator", "trec_eval"])
@pytest.mark.parametrize("stdin_name", ["-", "/dev/stdin"])
def test_the_run_from_standard_input(folder, mode, stdin_name):
    want = cli(*mode, folder / "q.txt", folder / "run.trec").stdout
    done = cli(*mode, folder / "q.txt", stdin_name, input=RUN)
    assert done.returncode == 0, done.stderr
    assert done.stdout == want and want


@pytest.mark.skipif(shutil.which("bash") is None, reason="process substitution is bash's")
@pytest.mark.parametrize("mode", ["", "trec_eval"], ids=["calculator", "trec_eval"])
def test_process_substitution(folder, mode):
    want = cli(*([mode] if mode else []), folder / "q.txt", folder / "run.trec").stdout
    script = f'"{sys.executable}" -m retrieval_metrics {mode} <(cat q.txt) <(cat run.trec)'
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=folder,
                          env={**os.environ, "PYTHONPATH": PY}, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == want and want


def test_a_folder_as_an_input_is_one_error(folder):
    done = cli(folder / "q.txt", folder)
    assert done.returncode == 2
    assert done.stderr.strip().startswith("retrieval-metrics: ")
    assert "is a folder" in done.stderr and "Traceback" not in done.stderr
