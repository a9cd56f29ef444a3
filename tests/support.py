"""Shared helpers for the verification tests: where trec_eval's data lives and how to read its output.

Nothing here computes a metric; the expected numbers come from hand-worked formulas,
trec_eval's printed outputs or pytrec_eval, never from the engine.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
# trec_eval's test collection (with its licence), kept in the repository so that a fresh clone
# runs every test.
TREC_DIR = REPO_ROOT / "tests" / "data" / "trec_eval"

# trec_eval prints 4 decimals: a value agrees when it rounds to the printed one.
PRINTED_TOL = 5e-5 + 1e-12


def trec_dir() -> Path:
    """The folder of trec_eval's test collection, or skip (with the reason) when it is absent."""
    if not (TREC_DIR / "qrels.test").is_file():
        pytest.skip(f"trec_eval's test collection not found at {TREC_DIR} "
                    "(it belongs in tests/data/trec_eval)")
    return TREC_DIR


def read_trec_eval_output(path: Path) -> dict[str, dict[str, str]]:
    """Parses trec_eval's `measure<TAB>qid<TAB>value` lines into {measure: {qid: value text}}.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".out", delete=False) as f:
    ...     _ = f.write("P_5                   \\t301\\t0.2000\\nP_5                   \\tall\\t0.2667\\n")
    >>> read_trec_eval_output(Path(f.name))
    {'P_5': {'301': '0.2000', 'all': '0.2667'}}
    >>> os.unlink(f.name)
    """
    out: dict[str, dict[str, str]] = {}
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        measure, qid, value = line.split("\t")
        out.setdefault(measure.strip(), {})[qid.strip()] = value.strip()
    return out


def agrees_with_printed(ours: float, printed: str | float, tol: float = PRINTED_TOL) -> bool:
    """True when `ours` rounds to trec_eval's 4-decimal `printed` value.

    >>> agrees_with_printed(0.69556, "0.6956"), agrees_with_printed(0.6957, "0.6956")
    (True, False)
    """
    return isinstance(ours, (int, float)) and not isinstance(ours, bool) \
        and math.isfinite(ours) and abs(ours - float(printed)) <= tol


def notice_codes(report) -> dict:
    """{code: notice} of a report's notices."""
    return {n.code: n for n in report.notices}


def read_trec_qrels(path: Path) -> dict[str, dict[str, int]]:
    """A plain reader for trec_eval's qrels files (comment lines start with `#`), used only to
    derive expectations (which queries have relevant documents, thresholded copies)."""
    qrels: dict[str, dict[str, int]] = {}
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        q, _it, doc, grade = line.split()[:4]
        qrels.setdefault(q, {})[doc] = int(grade)
    return qrels


def expected_row(vals, ks):
    """Our metric keys from pytrec_eval's values of one query."""
    row = {"rr": vals["recip_rank"], "map": vals["map"], "rprec": vals["Rprec"]}
    for k in ks:
        row[f"precision@{k}"] = vals[f"P_{k}"]
        row[f"recall@{k}"] = vals[f"recall_{k}"]
        row[f"ndcg@{k}"] = vals[f"ndcg_cut_{k}"]
        row[f"ap@{k}"] = vals[f"map_cut_{k}"]
        row[f"hit_rate@{k}"] = vals[f"success_{k}"]
        # RR@k: recip_rank when the first relevant document is within the top k, else 0
        rr = vals["recip_rank"]
        row[f"mrr@{k}"] = rr if rr > 0 and 1 / rr <= k + 1e-9 else 0.0
    return row


def make_runs(n_queries: int, n_runs: int, seed: int):
    """Qrels and runs as TREC text; run i moves relevant documents up by i (so later runs are
    better), with noise, and a few queries left as the first run has them."""
    rng = random.Random(seed)
    qrels, runs = [], {f"run{i}": [] for i in range(n_runs)}
    for q in range(n_queries):
        qid = f"q{q:02d}"
        docs = [f"d{j}" for j in range(30)]
        relevant = set(rng.sample(docs, rng.randint(1, 6)))
        qrels += [f"{qid} 0 {d} {rng.randint(1, 3)}\n" for d in sorted(relevant)]
        qrels += [f"{qid} 0 {d} 0\n" for d in rng.sample(sorted(set(docs) - relevant), 5)]
        order = rng.sample(docs, 20)
        for i in range(n_runs):
            if q % 7 == 0:
                ranked = order
            else:
                noise = {d: rng.uniform(0, 6) - (i * 1.5 if d in relevant else 0) for d in order}
                ranked = sorted(order, key=lambda d: order.index(d) + noise[d])
            runs[f"run{i}"] += [f"{qid} Q0 {d} {r + 1} {50 - r} run{i}\n" for r, d in enumerate(ranked)]
    return "".join(qrels), {name: "".join(lines) for name, lines in runs.items()}


def close(a, b):
    return a == pytest.approx(b, rel=1e-12, abs=1e-12, nan_ok=True)


def per_query(metrics):
    out = {}
    for metric in metrics:
        key = (metric.query_id, str(metric.measure))
        assert key not in out, key  # one value per query and measure
        out[key] = float(metric.value)
    return out
