"""Deterministic benchmark data: TREC runs and qrels of three sizes, written to bench/data/.

    .venv/bin/python bench/generate.py [--sizes tiny,small,large] [--force]

| size  | run file         | lines     | qrels file         | judgements                          |
| ----- | ---------------- | --------- | ------------------ | ----------------------------------- |
| tiny  | run-100k.trec    | 100,000   | qrels-100k.trec    | ~100 per query, grades 0-3          |
| small | run-1m.trec      | 1,000,000 | qrels-1m.trec      | ~100 per query, grades 0-3          |
| large | run-7m.trec      | 7,000,000 | qrels-7m.trec      | ~1.07 relevant per query (MS MARCO) |

Every query retrieves 1,000 distinct documents (`doc-000123456`, drawn from an 8.8M-passage
corpus). Scores are BM25-like floats printed with 4 decimals, so two different scores differ by at
least 1e-4 and stay different in float32 (the ulp below 64 is at most 3.8e-6): the only ties are
exact ones, a few natural ones per query plus deliberate blocks in about one query in ten. Lines
are in trec_eval's order (score descending, then document id descending) and the rank column
agrees with it, so reading by rank or by score gives the same ranking.

Each file is written to a temporary name and renamed when complete; a file already present is
kept (the same seed gives the same bytes on the same Python version).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
CORPUS_SIZE = 8_841_823  # MS MARCO passage collection
DEPTH = 1_000
TAG = "bm25"


@dataclass(frozen=True)
class Size:
    name: str
    label: str  # file name part: run-<label>.trec, qrels-<label>.trec
    queries: int
    judged: str  # "graded" (~100 judged per query) or "sparse" (~1 relevant per query)

    @property
    def run_path(self) -> Path:
        return DATA / f"run-{self.label}.trec"

    @property
    def qrels_path(self) -> Path:
        return DATA / f"qrels-{self.label}.trec"


SIZES = {
    "tiny": Size("tiny", "100k", 100, "graded"),
    "small": Size("small", "1m", 1_000, "graded"),
    "large": Size("large", "7m", 7_000, "sparse"),
}


def query_ids(rng: random.Random, n: int) -> list[str]:
    """n distinct numeric query ids (MS MARCO style), in numeric order."""
    return [str(q) for q in sorted(rng.sample(range(1, 1_200_000), n))]


def ranking(rng: random.Random) -> list[tuple[str, float]]:
    """DEPTH (docid, score) pairs in trec_eval order: score descending, then docid descending."""
    docs = rng.sample(range(CORPUS_SIZE), DEPTH)
    mu = rng.uniform(14.0, 24.0)
    sigma = rng.uniform(1.5, 3.5)
    scores = [round(max(0.5, mu + sigma * rng.gauss(0.0, 1.0)), 4) for _ in range(DEPTH)]
    scores.sort(reverse=True)
    if rng.random() < 0.1:  # a deliberate block of exactly tied scores
        start = rng.randrange(DEPTH - 8)
        for i in range(start + 1, start + rng.randint(2, 8)):
            scores[i] = scores[start]
    pairs = [(f"doc-{d:09d}", s) for d, s in zip(docs, scores)]
    pairs.sort(key=lambda p: (p[1], p[0]), reverse=True)
    return pairs


def other_docs(rng: random.Random, exclude: set[str], n: int) -> list[str]:
    """n documents not in the ranking (judged but not retrieved)."""
    out: list[str] = []
    while len(out) < n:
        d = f"doc-{rng.randrange(CORPUS_SIZE):09d}"
        if d not in exclude:
            exclude.add(d)
            out.append(d)
    return out


def graded_judgements(rng: random.Random, pairs: list[tuple[str, float]]) -> dict[str, int]:
    """About 100 judgements: a pool biased to the top of the ranking plus unretrieved documents."""
    n_judged = rng.randint(80, 120)
    n_unretrieved = rng.randint(5, 25)
    pool_top = min(DEPTH, rng.randint(20, 50))
    ranks = list(range(pool_top))
    ranks += rng.sample(range(pool_top, DEPTH), max(0, n_judged - n_unretrieved - pool_top))
    judged: dict[str, int] = {}
    for r in ranks:
        p_rel = 0.55 * (1.0 - r / DEPTH) ** 3 + 0.03
        if rng.random() < p_rel:
            judged[pairs[r][0]] = rng.choices((1, 2, 3), weights=(5, 3, 2))[0]
        else:
            judged[pairs[r][0]] = 0
    seen = {d for d, _ in pairs}
    for d in other_docs(rng, seen, n_unretrieved):
        judged[d] = rng.choices((0, 1, 2, 3), weights=(70, 15, 10, 5))[0]
    if not any(judged.values()):  # every query has a relevant document (all are scored)
        judged[pairs[rng.randrange(10)][0]] = 1
    return judged


def sparse_judgements(rng: random.Random, pairs: list[tuple[str, float]]) -> dict[str, int]:
    """MS MARCO dev style: ~1.07 relevant documents per query, grade 1, often not retrieved."""
    n_rel = rng.choices((1, 2, 3), weights=(93, 6, 1))[0]
    judged: dict[str, int] = {}
    seen = {d for d, _ in pairs}
    for _ in range(n_rel):
        if rng.random() < 0.85:  # retrieved, log-uniform rank in 1..DEPTH
            r = min(DEPTH, int(DEPTH ** rng.random())) - 1
            judged[pairs[r][0]] = 1
        else:
            judged[other_docs(rng, seen, 1)[0]] = 1
    return judged


def generate(size: Size) -> None:
    rng = random.Random(f"retrieval-metrics-bench-{size.name}")
    qids = query_ids(rng, size.queries)
    judge = graded_judgements if size.judged == "graded" else sparse_judgements
    DATA.mkdir(parents=True, exist_ok=True)
    run_tmp = size.run_path.with_suffix(".tmp")
    qrels_tmp = size.qrels_path.with_suffix(".tmp")
    with open(run_tmp, "w", encoding="ascii", newline="\n") as run_f, open(
        qrels_tmp, "w", encoding="ascii", newline="\n"
    ) as qrels_f:
        for qid in qids:
            pairs = ranking(rng)
            run_f.write(
                "".join(
                    f"{qid} Q0 {doc} {rank} {score:.4f} {TAG}\n"
                    for rank, (doc, score) in enumerate(pairs, 1)
                )
            )
            judged = judge(rng, pairs)
            qrels_f.write("".join(f"{qid} 0 {doc} {g}\n" for doc, g in sorted(judged.items())))
    os.replace(qrels_tmp, size.qrels_path)
    os.replace(run_tmp, size.run_path)


def ensure(names: list[str], force: bool = False, log=print) -> None:
    """Generate the data of each named size unless both of its files exist."""
    for name in names:
        size = SIZES[name]
        if not force and size.run_path.exists() and size.qrels_path.exists():
            continue
        log(f"generating {size.run_path.name} and {size.qrels_path.name} ...", flush=True)
        generate(size)
        mb = size.run_path.stat().st_size / 1e6
        log(f"  {size.run_path.name}: {mb:.1f} MB", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="tiny,small,large", help="comma-separated: tiny,small,large")
    ap.add_argument("--force", action="store_true", help="regenerate files that exist")
    args = ap.parse_args(argv)
    names = [s for s in args.sizes.split(",") if s]
    unknown = [s for s in names if s not in SIZES]
    if unknown:
        ap.error(f"unknown size {unknown[0]!r}; choose from {', '.join(SIZES)}")
    ensure(names, force=args.force)
    return 0


if __name__ == "__main__":
    sys.exit(main())
