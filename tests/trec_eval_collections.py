"""Generated collections for the differential tests against trec_eval 10, and how to run it
(the built binary is conftest.py's ``trec_eval_10`` fixture). Nothing here computes a measure.
"""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

from retrieval_metrics.cli import main


def graded_collection(seed: int, tmp: Path, *, missing: bool) -> tuple[Path, Path]:
    """Judgements and a run: graded 0-3 with some -1 and some unjudged documents, judged
    documents never retrieved, a query without relevant documents, a judged query with only
    unjudged results, queries only in the run; with ``missing``, judged queries without
    results. Scores distinct within each query, documents once each."""
    rng = random.Random(seed)
    qrels, run = [], []
    queries = [f"{300 + i}" for i in range(rng.randint(6, 9))] + ["q10", "Q2"]
    for n, qid in enumerate(queries):
        pool = [f"D{seed}-{qid}-{i:03d}" for i in range(rng.randint(20, 140))]
        rng.shuffle(pool)
        judged = pool[: len(pool) * 2 // 3]
        for doc in judged:
            grade = rng.choice((-1, 0, 0, 0, 1, 1, 2, 3)) if n != 1 else rng.choice((0, -1))
            qrels.append(f"{qid} 0 {doc} {grade}")
        if missing and n in (2, 5):
            continue
        ranked = pool[: rng.randint(1, len(pool))] if n != 3 else pool[len(judged):][:7]
        if n == 3:  # only unjudged documents (-J leaves nothing)
            ranked = ranked or [f"U{seed}-{qid}"]
        scores = rng.sample(range(1, 10 ** 6), len(ranked))
        for doc, score in zip(ranked, scores):
            run.append(f"{qid} Q0 {doc} 0 {score / 1000:.3f} run{seed}")
    run += [f"999 Q0 X{i} 0 {i}.5 run{seed}" for i in range(3)]  # only in the run
    rng.shuffle(qrels)
    rng.shuffle(run)
    return write_pair(tmp, seed, qrels, run)


def write_pair(tmp: Path, seed: int, qrels: list[str], run: list[str]) -> tuple[Path, Path]:
    """The judgement and run lines written to ``qrels<seed>`` and ``run<seed>`` in ``tmp``."""
    qrels_path, run_path = tmp / f"qrels{seed}", tmp / f"run{seed}"
    qrels_path.write_text("\n".join(qrels) + "\n")
    run_path.write_text("\n".join(run) + "\n")
    return qrels_path, run_path


def run_trec_eval(binary: Path, args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([str(binary), *args], capture_output=True, timeout=120)


def ours(args: list[str], capsysbinary) -> tuple[int, bytes, bytes]:
    """``retrieval-metrics trec_eval ARGS``: its status, stdout and stderr."""
    status = main(["trec_eval", *args])
    out, err = capsysbinary.readouterr()
    return status, out, err
