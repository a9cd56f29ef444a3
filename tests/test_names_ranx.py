"""ranx's metric names give ranx's own numbers: ``ranx.evaluate`` runs here, on generated
judgements and tie-free runs, against ``ranking_metrics(..., dialect="ranx")``,
``evaluate(..., dialect="ranx")`` and the ``ranx:`` prefix. ranx compiles its metrics with
numba on first use (minutes, once; cached after)."""

import random

import pytest

ranx = pytest.importorskip("ranx")

from retrieval_metrics import evaluate, ranking_metrics  # noqa: E402
from retrieval_metrics.errors import OptionError  # noqa: E402

pytestmark = pytest.mark.slow  # peer comparisons: the full tier runs them

NAMES = [
    "hits@1", "hits@5", "hits@20", "hits", "hit_rate@1", "hit_rate@5", "precision@1",
    "precision@5", "precision@50", "recall@5", "recall@100", "f1@5", "f1@20", "r-precision",
    "mrr", "mrr@3", "mrr@10", "map", "map@5", "map@100", "ndcg", "ndcg@3", "ndcg@10",
    "ndcg_burges@5", "ndcg_burges@10", "dcg@5", "dcg@10", "dcg_burges@5", "dcg_burges",
    "bpref", "rbp.95", "rbp.8", "rbp.5", "rbp@9",
    "hits@5-l2", "precision@5-l2", "recall@10-l2", "map@10-l2", "mrr-l2", "ndcg@10-l2",
    "ndcg_burges@10-l3", "dcg@5-l2", "f1@10-l2", "r-precision-l2", "bpref-l2", "rbp.9-l2",
]


def generated(seed, queries=12, docs=30):
    rng = random.Random(seed)
    qrels, run = {}, {}
    for q in range(queries):
        qid = f"q{q}"
        judged = rng.sample(range(docs), rng.randint(3, 15))
        grades = {f"d{d}": rng.choice((0, 1, 1, 2, 3)) for d in judged}
        grades[f"d{judged[0]}"] = 3  # relevant at every level asked for
        grades[f"d{judged[1]}"] = 0  # and a judged non-relevant one (ranx's bpref divides by it)
        qrels[qid] = grades
        ranked = rng.sample(range(docs + 10), rng.randint(1, 35))
        scores = rng.sample(range(1, 10_000), len(ranked))
        run[qid] = {f"d{d}": s / 100 for d, s in zip(ranked, scores)}
    return qrels, run


CASES = [generated(seed) for seed in (4, 5)]


@pytest.fixture(scope="module")
def expected():
    out = []
    for qrels, run in CASES:
        values = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), NAMES, return_mean=False)
        ids = list(ranx.Run(run).get_query_ids())  # ranx orders its queries by id
        out.append({name: dict(zip(ids, map(float, values[name]))) for name in NAMES})
    return out


@pytest.mark.parametrize("name", NAMES)
def test_per_query_and_mean_equal_ranx(name, expected):
    for (qrels, run), peer in zip(CASES, expected):
        got = ranking_metrics(qrels, run, [name], dialect="ranx", average=None)
        assert list(got) == [name]
        per_query = dict(zip(qrels, got[name]))
        for q in qrels:
            assert per_query[q] == pytest.approx(peer[name][q], rel=1e-12, abs=1e-12), (name, q)
        report = evaluate(qrels, run, metrics=[name], dialect="ranx")
        (key, mean), = report.mean.items()
        assert key == "ranx:" + name.replace("rbp@", "rbp.")  # ranx reads both as p
        values = list(peer[name].values())
        assert mean == pytest.approx(sum(values) / len(values), rel=1e-12, abs=1e-12)


def test_ir_measures_uncut_exp_log2_ndcg_is_ranx_ndcg_burges(expected):
    """ir_measures hands nDCG(dcg='exp-log2') without a cutoff to its ranx provider."""
    qrels, run = CASES[0]
    got = ranking_metrics(qrels, run, ["ir_measures:nDCG(dcg='exp-log2')"], average=None)
    peer = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), "ndcg_burges", return_mean=False)
    peer = dict(zip(ranx.Run(run).get_query_ids(), peer))
    ours = dict(zip(qrels, got["ir_measures:nDCG(dcg='exp-log2')"]))
    assert ours == pytest.approx({q: float(peer[q]) for q in ours}, rel=1e-12)


@pytest.mark.parametrize("name, needs", [
    ("hits@5", "ranx:hits@5 hit_rate@5"), ("hits", "ranx:hits@k"),
    ("rbp.95", "ranx:rbp.95 rbp(p=0.95) rbp@95"),
])
def test_names_tools_read_differently_are_refused_in_the_own_syntax(name, needs):
    with pytest.raises(OptionError) as caught:
        ranking_metrics(*CASES[0], [name])
    assert all(word in str(caught.value) for word in needs.split()), str(caught.value)


@pytest.mark.parametrize("name", ["rbp", "ndcg.5", "bpref@5", "foo@3", "map@5-l0"])
def test_what_ranx_does_not_read_is_refused(name):
    with pytest.raises(OptionError):
        ranking_metrics(*CASES[0], [name], dialect="ranx")
