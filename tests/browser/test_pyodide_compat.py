"""The drop-ins run in the page's Python: the built wheel unpacked into the Pyodide the page
ships (no worker, no page), code written for ranx, pytrec_eval and ir_measures run there, and
its numbers compared with the tools themselves run here in CPython on the same inputs.
Pyodide boots once for the module."""

from __future__ import annotations

import json
import math
import random

import pytest

CODE = r"""
import json
from retrieval_metrics.compat import ranx, pytrec_eval, ir_measures
data = json.loads(DATA)
qrels, runs = data["qrels"], data["runs"]
report = ranx.compare(ranx.Qrels(qrels), [ranx.Run(r, name=n) for n, r in runs.items()],
                      ["ndcg@10", "map@100", "mrr", "hits@5", "rbp.95"], max_p=0.05)
evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg_cut.10", "P.5", "recip_rank"})
out = {
    "ranx_evaluate": ranx.evaluate(ranx.Qrels(qrels), ranx.Run(runs["bm25"]), ["ndcg@10", "recall@5", "bpref"]),
    "ranx_table": str(report),
    "ranx_latex": report.to_latex(),
    "ranx_dict": report.to_dict(),
    "pytrec_eval": evaluator.evaluate(runs["bm25"]),
    "ir_measures": {str(k): v for k, v in ir_measures.calc_aggregate(
        [ir_measures.nDCG @ 10, ir_measures.P(rel=2) @ 5, ir_measures.AP], qrels, runs["dense"]).items()},
}
json.dumps(out)
"""


def generated(seed=11, queries=30):
    rng = random.Random(seed)
    qrels = {f"q{i}": {f"d{j}": rng.choice([0, 1, 1, 2, 3]) for j in rng.sample(range(25), rng.randint(2, 7))}
             for i in range(queries)}
    runs = {}
    for name in ("bm25", "dense"):
        runs[name] = {}
        for q in qrels:  # tie-free scores (pytrec_eval ranks by float32 scores)
            docs = rng.sample(range(25), rng.randint(1, 12))
            scores = rng.sample(range(1, 10_000), len(docs))
            runs[name][q] = {f"d{d}": s / 1000 for d, s in zip(docs, scores)}
    return qrels, runs


@pytest.fixture(scope="module")
def in_pyodide(browser, server_url, dist):
    """Runs Python in the page's Pyodide with the engine's wheel unpacked; returns its JSON."""
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(server_url + "manifest.webmanifest")  # any file of the page's origin
    wheel = next((dist / "wheels").glob("*/*.whl")).relative_to(dist).as_posix()
    page.evaluate("""async (wheel) => {
        const { loadPyodide } = await import(new URL("pyodide/pyodide.mjs", location.href).href);
        const py = await loadPyodide({ indexURL: new URL("pyodide/", location.href).href });
        const bytes = new Uint8Array(await (await fetch(new URL(wheel, location.href))).arrayBuffer());
        const site = py.runPython("import sys; [p for p in sys.path if p.endswith('site-packages')][0]");
        py.unpackArchive(bytes, "wheel", { extractDir: site });
        window.py = py;
    }""", wheel)

    def run(code: str, data) -> dict:
        page.evaluate("(data) => window.py.globals.set('DATA', data)", json.dumps(data))
        return json.loads(page.evaluate("(code) => window.py.runPython(code)", code))
    yield run
    context.close()


def within_ulps(got: float, expected: float, ulps: int) -> bool:
    if got != got or expected != expected:
        return got != got and expected != expected
    return abs(got - expected) <= ulps * math.ulp(expected)


STDTR = r"""
import json
from retrieval_metrics.compat.ranx.student_t import stdtr
json.dumps([stdtr(df, t) for df, t in json.loads(DATA)])
"""


def test_student_t_equals_scipy_in_pyodide(in_pyodide):
    """scipy's Student's t, bit for bit, from the page's Python (every branch of the port)."""
    special = pytest.importorskip("scipy.special")
    rng = random.Random(5)
    pairs = [(float(rng.choice([rng.randint(1, 12), rng.randint(1, 60), rng.randint(1, 5000)])),
              rng.choice([rng.uniform(-6.0, 6.0), rng.uniform(-0.7, 0.7), -10 ** rng.uniform(-8, 2)]))
             for _ in range(3000)]
    got = in_pyodide(STDTR, pairs)
    expected = [float(special.stdtr(df, t)) for df, t in pairs]
    # Under CPython on glibc every value is scipy's to the last bit (tests/test_student_t.py).
    # Pyodide's C library (musl-based) rounds asin, log1p or pow differently on a few arguments,
    # measured at 8 of these 3,000 values, each 1 or 2 units in the last place away.
    assert all(within_ulps(g, e, 4) for g, e in zip(got, expected))
    assert sum(g == e for g, e in zip(got, expected)) >= 0.99 * len(pairs)


def test_the_drop_ins_give_the_tools_numbers_in_pyodide(in_pyodide):
    ranx = pytest.importorskip("ranx")
    pytrec_eval = pytest.importorskip("pytrec_eval")
    ir_measures = pytest.importorskip("ir_measures")
    qrels, runs = generated()
    got = in_pyodide(CODE, {"qrels": qrels, "runs": runs})

    expected = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(runs["bm25"]), ["ndcg@10", "recall@5", "bpref"])
    # to the last bit (compared as JSON: ranx's bpref mean is NaN on this case, and so is ours)
    assert json.dumps(got["ranx_evaluate"]) == json.dumps({k: float(v) for k, v in expected.items()})
    report = ranx.compare(ranx.Qrels(qrels), [ranx.Run(r, name=n) for n, r in runs.items()],
                          ["ndcg@10", "map@100", "mrr", "hits@5", "rbp.95"], max_p=0.05)
    assert got["ranx_table"] == str(report)
    assert got["ranx_latex"] == report.to_latex()
    theirs = report.to_dict()
    for model in runs:
        assert json.dumps(got["ranx_dict"][model]["scores"]) == json.dumps(theirs[model]["scores"])
        assert got["ranx_dict"][model]["win_tie_loss"] == theirs[model]["win_tie_loss"]
        for other, p_values in theirs[model]["comparisons"].items():
            for metric, p in p_values.items():
                # scipy's algorithm; Pyodide's C library may move the last bit or two (below)
                assert within_ulps(got["ranx_dict"][model]["comparisons"][other][metric], p, 4)

    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg_cut.10", "P.5", "recip_rank"})
    assert got["pytrec_eval"].keys() == evaluator.evaluate(runs["bm25"]).keys()
    for query, values in evaluator.evaluate(runs["bm25"]).items():
        for name, value in values.items():
            assert got["pytrec_eval"][query][name] == pytest.approx(value, abs=1e-12), (query, name)

    means = ir_measures.calc_aggregate([ir_measures.nDCG @ 10, ir_measures.P(rel=2) @ 5, ir_measures.AP],
                                       qrels, runs["dense"])
    assert got["ir_measures"].keys() == {str(k) for k in means}
    for measure, value in means.items():
        assert got["ir_measures"][str(measure)] == pytest.approx(value, abs=1e-12), measure


FUSE_AND_PROVIDER = r"""
import json
from retrieval_metrics.compat import ranx, ir_measures
data = json.loads(DATA)
qrels, runs = data["qrels"], data["runs"]
fused = {}
for method, norm in (("rrf", None), ("sum", "min-max"), ("mnz", "zmuv"), ("rbc", "rank")):
    params = {"phi": 0.8} if method == "rbc" else {}
    run = ranx.fuse([ranx.Run(r) for r in runs.values()], norm=norm, method=method, params=params)
    fused[f"{method} {norm}"] = [[q, list(map(list, docs.items()))] for q, docs in run.to_dict().items()]
provider = {str(k): v for k, v in ir_measures.pytrec_eval.calc_aggregate(
    [ir_measures.nDCG @ 10, ir_measures.AP, ir_measures.NumRel], qrels, runs["bm25"]).items()}
json.dumps({"fused": fused, "provider": provider,
            "gdeval": {str(k): v for k, v in ir_measures.gdeval.calc_aggregate(
                [ir_measures.ERR @ 10], qrels, runs["dense"]).items()},
            "accuracy": {str(k): v for k, v in ir_measures.accuracy.calc_aggregate(
                [ir_measures.Accuracy @ 10], qrels, runs["dense"]).items()}})
"""


def test_fuse_and_an_ir_measures_provider_run_in_pyodide_with_ranxs_and_ir_measures_numbers(in_pyodide):
    """ranx's fusion (four methods and normalisations) and ir_measures' pytrec_eval, gdeval and
    accuracy providers in the page's Python: equal to ranx and ir_measures themselves run here."""
    import ir_measures
    import ranx
    qrels, runs = generated(seed=23, queries=12)
    # gdeval.pl, which ir_measures runs for ERR@k, needs query ids that are numbers
    qrels = {q[1:]: docs for q, docs in qrels.items()}
    runs = {name: {q[1:]: docs for q, docs in run.items()} for name, run in runs.items()}
    got = in_pyodide(FUSE_AND_PROVIDER, {"qrels": qrels, "runs": runs})
    for key in got["fused"]:
        method, norm = key.split()
        params = {"phi": 0.8} if method == "rbc" else {}
        theirs = ranx.fuse([ranx.Run(r) for r in runs.values()], norm=None if norm == "None" else norm,
                           method=method, params=params)
        assert got["fused"][key] == [[q, [[d, float(s)] for d, s in docs.items()]]
                                     for q, docs in theirs.to_dict().items()], key
    expected = ir_measures.pytrec_eval.calc_aggregate(
        [ir_measures.nDCG @ 10, ir_measures.AP, ir_measures.NumRel], qrels, runs["bm25"])
    assert got["provider"] == {str(k): v for k, v in expected.items()}
    err = ir_measures.gdeval.calc_aggregate([ir_measures.ERR @ 10], qrels, runs["dense"])
    assert got["gdeval"] == {str(k): v for k, v in err.items()}
    accuracy = ir_measures.accuracy.calc_aggregate([ir_measures.Accuracy @ 10], qrels, runs["dense"])
    assert got["accuracy"] == pytest.approx({str(k): v for k, v in accuracy.items()}, abs=1e-15)
