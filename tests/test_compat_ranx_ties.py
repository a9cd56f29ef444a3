"""Runs with tied scores through ``compat.ranx`` and ranx 0.3 itself: ranx ranks equal scores
in the order its (unstable) numba quicksort leaves them, and sorts again at set moments, so
every way of building and changing a Run is followed here, and every value compared to the
last bit, with the documents' order itself (``to_dict``)."""

import json
import random

import pytest
from retrieval_metrics.compat import ranx as ours
from retrieval_metrics.compat.ranx.order import argsort

ranx = pytest.importorskip("ranx")
pytestmark = [pytest.mark.slow,
              pytest.mark.filterwarnings("ignore::numba.core.errors.NumbaTypeSafetyWarning")]

NAMES = ["hits@5", "precision@3", "recall@10", "mrr", "map@10", "ndcg@5", "ndcg_burges@10",
         "r-precision", "bpref", "rbp.8", "f1@5", "dcg@3", "hit_rate@1", "map@5-l2"]


def tied(seed, queries=12, docs=40):
    """Judgements, and a run whose scores are few distinct values (every query has ties)."""
    rng = random.Random(seed)
    qrels, run = {}, {}
    for q in rng.sample(range(100), queries):
        qrels[f"q{q}"] = {f"d{d}": rng.choice((0, 1, 1, 2)) for d in rng.sample(range(docs), 8)}
        levels = rng.choice([(1.0,), (0.0, 1.0), (1.0, 2.0, 3.0), (0.5, 0.25, 0.125, 0.0625)])
        run[f"q{q}"] = {f"d{d}": rng.choice(levels) for d in rng.sample(range(docs), rng.randint(1, 35))}
    return qrels, run


def per_query(tool, qrels, run, **options):
    """Every value, as JSON text (so a NaN, ranx's bpref without non-relevant judgements,
    equals a NaN)."""
    values = tool.evaluate(qrels, run, NAMES, return_mean=False, **options)
    return json.dumps({name: [float(v) for v in values[name]] for name in NAMES})


def same_run(a, b):
    """The same queries, documents, values and order of documents."""
    assert json.dumps(dict(a.to_dict())) == json.dumps(dict(b.to_dict()))


@pytest.mark.parametrize("seed", range(6))
def test_built_from_dicts(seed):
    qrels, run = tied(seed)
    theirs, mine = ranx.Run(run), ours.Run(run)
    same_run(mine, theirs)
    assert per_query(ours, ours.Qrels(qrels), mine) == per_query(ranx, ranx.Qrels(qrels), theirs)
    assert per_query(ours, qrels, run) == per_query(ranx, qrels, run)  # plain dicts
    assert json.dumps(ours.evaluate(qrels, run, NAMES)) == json.dumps(
        {k: float(v) for k, v in ranx.evaluate(qrels, run, NAMES).items()})


@pytest.mark.parametrize("seed", range(4))
def test_changed_after_building(seed):
    """add_score (sorted at the next use), then make_comparable (the run changed in place and
    sorted again). Only queries the run has are changed: ranx itself crashes the interpreter
    (numba typed strings) when add_score, add or add_multi makes a new query here."""
    rng = random.Random(seed)
    qrels, run = tied(seed)
    theirs, mine = ranx.Run(run), ours.Run(run)
    for _ in range(30):
        q, d, v = rng.choice(list(run)), f"d{rng.randrange(50)}", rng.choice((1.0, 2.0))
        theirs.add_score(q, d, v)
        mine.add_score(q, d, v)
    assert per_query(ours, ours.Qrels(qrels), mine) == per_query(ranx, ranx.Qrels(qrels), theirs)
    same_run(mine, theirs)
    # judgements without the run's first query and with one the run lacks: make_comparable
    # drops the one and adds an empty ranking for the other
    changed = {q: grades for q, grades in qrels.items() if q != next(iter(qrels))}
    changed["q-judged-only"] = {"d1": 1}
    assert per_query(ours, ours.Qrels(changed), mine, make_comparable=True) == \
        per_query(ranx, ranx.Qrels(changed), theirs, make_comparable=True)
    same_run(mine, theirs)


def test_add_multi_sorts_every_query_again():
    """ranx's own add and add_multi corrupt document ids here (numba typed strings), so they are
    held to what ranx's code does: each query's documents replaced, then every query's order
    sorted again by numba's argsort of the negated values (numba run here)."""
    np = pytest.importorskip("numpy")
    numba = pytest.importorskip("numba")
    numba_argsort = numba.njit(lambda a: np.argsort(a))
    _, run = tied(3)
    mine = ours.Run(run)
    before = mine.to_dict()
    q = next(iter(run))
    docs, values = [f"x{i}" for i in range(20)], [1.0] * 20
    mine.add_multi([q], [docs], [values])
    expected = {}
    for q_id in sorted({**before, q: None}):
        given = dict(zip(docs, values)) if q_id == q else before[q_id]
        keys = list(given)
        order = numba_argsort(np.array([-v for v in given.values()], dtype=np.float64))
        expected[q_id] = {keys[i]: given[keys[i]] for i in order}
    assert json.dumps(mine.to_dict()) == json.dumps(expected)


def test_read_from_a_trec_file_and_compared(tmp_path):
    qrels, run = tied(7)
    path = tmp_path / "run.trec"
    path.write_text("".join(f"{q} Q0 {d} {i} {v} tied\n" for q, docs in run.items()
                            for i, (d, v) in enumerate(docs.items(), 1)))
    theirs, mine = ranx.Run.from_file(str(path), kind="trec"), ours.Run.from_file(path, kind="trec")
    same_run(mine, theirs)
    other = tied(8)[1]
    other = {q: other[q2] for q, q2 in zip(run, other)}
    a = ranx.compare(ranx.Qrels(qrels), [theirs, ranx.Run(other, name="other")], NAMES[:6], max_p=0.05)
    b = ours.compare(ours.Qrels(qrels), [mine, ours.Run(other, name="other")], NAMES[:6], max_p=0.05)
    assert str(b) == str(a)
    assert json.dumps(b.to_dict()) == json.dumps(a.to_dict())


def test_argsort_equals_numbas():
    np = pytest.importorskip("numpy")
    numba = pytest.importorskip("numba")
    numba_argsort = numba.njit(lambda a: np.argsort(a))
    rng = random.Random(1)
    for _ in range(500):
        n = rng.randint(0, 120)
        values = [rng.choice((1.0, 2.0, 0.0, -0.0)) if rng.random() < 0.7 else rng.random()
                  for _ in range(n)]
        if n and rng.random() < 0.2:
            values[rng.randrange(n)] = float("nan")
        expected = [int(i) for i in numba_argsort(np.array(values, dtype=np.float64))] if n else []
        assert argsort(values) == expected
