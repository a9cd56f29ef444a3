"""Large runs read and scored query by query, split across processes (``inputs.split``):
the same output as one process, and as trec_eval 10 itself.

The split only starts on files of 16 MB and more; here it is forced on small generated
files (``SPLIT_MIN_BYTES = 0``, three processes), and a spy checks that the split really
ran (or, for the files it must not take, that it gave up and the ordinary reader ran).
"""

from __future__ import annotations

import json
import random
import subprocess

import pytest
from retrieval_metrics.cli import main
from retrieval_metrics.inputs import split
from retrieval_metrics.scoring import split as scoring_split
from trec_eval_collections import graded_collection, run_trec_eval

pytestmark = pytest.mark.slow  # peer comparisons: the full tier runs them


@pytest.fixture
def spied(monkeypatch):
    """Split every file in three; the number of ranges of each split that ran to its end."""
    monkeypatch.setattr(split, "SPLIT_MIN_BYTES", 0)
    monkeypatch.setattr(split, "MAX_PARTS", 3)
    monkeypatch.setattr(split, "cores", lambda: 3)
    calls = []
    real = split.in_processes

    def spy(work, ranges):
        answers = real(work, ranges)
        calls.append(len(ranges))
        return answers
    monkeypatch.setattr(split, "in_processes", spy)
    return calls


def _grouped(run_path, tmp_path, name="grouped"):
    """The run's lines with each query's lines together (their order within it kept)."""
    lines = run_path.read_text().splitlines()
    lines.sort(key=lambda line: line.split()[0])
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("command", ["-c -q -m all_trec", "-q -m official -l 2",
                                     "-c -q -M 50 -m all_trec", "-q -J -m official",
                                     "-q -m ndcg.1=0.5,3=7 -m rbp.p=0.5 -m G -m relstring.15"])
def test_trec_eval_mode_split_matches_trec_eval_10(trec_eval_10, tmp_path, capsysbinary,
                                                   spied, command, seed):
    qrels, run = graded_collection(seed, tmp_path, missing="-c" in command.split())
    run = _grouped(run, tmp_path)
    args = [*command.split(), str(qrels), str(run)]
    expected = run_trec_eval(trec_eval_10, args)
    assert expected.returncode == 0, expected.stderr
    assert main(["trec_eval", *args]) == 0
    out, err = capsysbinary.readouterr()
    assert (out, err) == (expected.stdout, b"")
    assert spied == [3]


@pytest.mark.parametrize("where", ["two ranges", "one range"])
def test_trec_eval_mode_falls_back_when_a_query_is_apart(trec_eval_10, tmp_path, capsysbinary,
                                                         spied, monkeypatch, where):
    """A query's lines at both ends of the file (so in two of the ranges), or apart within
    one range: the split gives up, the line reader reads the file, the output is still
    trec_eval's."""
    from retrieval_metrics.compat.trec_eval import run as trec_run
    qrels, run = graded_collection(3, tmp_path, missing=False)
    lines = _grouped(run, tmp_path).read_text().splitlines()
    if where == "two ranges":
        lines.append(lines.pop(0))
    else:
        lines.insert(2, lines.pop(len(lines) // 6))
    run.write_text("\n".join(lines) + "\n")
    ordinary = []
    real = trec_run.read_results
    monkeypatch.setattr(trec_run, "read_results", lambda path: ordinary.append(path) or real(path))
    args = ["-q", "-m", "all_trec", str(qrels), str(run)]
    expected = run_trec_eval(trec_eval_10, args)
    assert main(["trec_eval", *args]) == 0
    assert capsysbinary.readouterr().out == expected.stdout
    assert ordinary == [str(run)]


def _calculator_files(tmp_path, *, comment=False, repeats=False, ties=False):
    """Judgements (graded, some queries without a relevant document or without results) and
    a TREC run grouped by query (with ``ties``, tied scores; with ``repeats``, documents listed
    twice)."""
    rng = random.Random(7)
    qrels, run = [], []
    for q in range(40):
        qid = f"q{q:02d}"
        docs = [f"d{q}-{i}" for i in range(rng.randint(5, 60))]
        for doc in rng.sample(docs, len(docs) // 2):
            qrels.append(f"{qid} 0 {doc} {rng.choice((0, 0, 1, 2, 3)) if q % 9 else 0}")
        if q % 13 == 5:
            continue  # judged, no results
        scores = ([round(rng.uniform(0, 5), 1) for _ in docs] if ties  # ties
                  else [round(s * 0.01, 2) for s in rng.sample(range(1, 500), len(docs))])
        for rank, (doc, score) in enumerate(sorted(zip(docs, scores), key=lambda p: -p[1]), 1):
            run.append(f"{qid} Q0 {doc} {rank} {score} tag")
        if repeats and q % 7 == 3:
            run.append(f"{qid} Q0 {docs[0]} {len(docs) + 1} 9.5 tag")
    run += [f"zz Q0 x{i} {i} {1 - i / 10} tag" for i in range(3)]  # a query only in the run
    if comment:
        run.insert(len(run) // 2, "# a comment")
    (tmp_path / "qrels").write_text("\n".join(qrels) + "\n")
    (tmp_path / "run").write_text("\n".join(run) + "\n")
    return tmp_path / "qrels", tmp_path / "run"


def _json_report(args, capsys) -> dict:
    assert main([*args, "-o", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    data["meta"].pop("created")
    return data


@pytest.mark.parametrize("extra", [[], ["-k", "1,5,20", "-m", "map,ndcg,rbp(p=0.8)@10"],
                                   ["--zero-division", "0", "-l", "2"]])
def test_calculator_split_gives_the_one_process_report(tmp_path, capsys, monkeypatch, spied,
                                                       extra):
    qrels, run = _calculator_files(tmp_path, repeats=True)
    args = [str(qrels), str(run), *extra]
    split_report = _json_report(args, capsys)
    assert spied == [3]
    assert "duplicate_documents" in [n["code"] for n in split_report["notices"]]
    monkeypatch.setattr(scoring_split, "score_file", lambda *a, **k: None)
    assert split_report == _json_report(args, capsys)


@pytest.mark.parametrize("policy", ["trec_eval", "optimistic", "average"])
def test_a_run_with_ties_gives_the_one_process_report(tmp_path, capsys, monkeypatch, spied,
                                                      policy):
    """Equal scores: the split reader records the ties as the ordinary reader does, scores
    them by the policy and tells them in the same notice, with the same ranges."""
    qrels, run = _calculator_files(tmp_path, ties=True)
    args = [str(qrels), str(run), "--ties", policy]
    split_report = _json_report(args, capsys)
    assert spied == [3]
    assert "score_ties" in [n["code"] for n in split_report["notices"]]
    monkeypatch.setattr(scoring_split, "score_file", lambda *a, **k: None)
    assert split_report == _json_report(args, capsys)


def test_calculator_split_matches_trec_eval_10_per_query(trec_eval_10, tmp_path, capsys, spied):
    """P@10, recall@10 and nDCG@10 of every scored query (a judged query without results
    scores 0, as with -c), as trec_eval 10 prints them."""
    qrels, run = _calculator_files(tmp_path)
    report = _json_report([str(qrels), str(run)], capsys)
    assert spied == [3]
    done = subprocess.run([str(trec_eval_10), "-q", "-c", "-m", "P.10", "-m", "recall.10", "-m",
                           "ndcg_cut.10", str(qrels), str(run)], capture_output=True, text=True)
    theirs = {}
    for line in done.stdout.splitlines():
        name, qid, value = line.split()
        theirs[(qid, name)] = value
    names = {"precision@10": "P_10", "recall@10": "recall_10", "ndcg@10": "ndcg_cut_10"}
    assert report["per_query"]
    for qid, values in report["per_query"].items():
        for ours, name in names.items():
            assert f"{values[ours]:.4f}" == theirs[(qid, name)], (qid, name)


def test_calculator_falls_back_on_a_comment(tmp_path, capsys, monkeypatch, spied):
    """A comment line: the split gives up, and the ordinary reader says it skipped it."""
    qrels, run = _calculator_files(tmp_path, comment=True)
    report = _json_report([str(qrels), str(run)], capsys)
    assert spied == []
    assert "comments_skipped" in [n["code"] for n in report["notices"]]


def test_a_failing_child_is_not_clean():
    def work(r):
        if r == 2:
            raise ValueError("no")
        return r * 10
    assert split.in_processes(work, [1, 3]) == [10, 30]
    with pytest.raises(split.NotClean, match="ValueError: no"):
        split.in_processes(work, [1, 2])
