"""Every input shape of tests/input_shapes/ (one file per shape; see its README.md): read by
ranking_metrics (and evaluate) into the reference values of docs/api.md, or refused with an
InputError naming the box and what to pass."""

from __future__ import annotations

import math
import runpy
from pathlib import Path

import pytest
from retrieval_metrics import InputError, evaluate, ranking_metrics

FOLDER = Path(__file__).parent / "input_shapes"
SHAPES = sorted(p for p in FOLDER.glob("*.py"))
METRICS = ["recall@2", "mrr", "ndcg@3"]
LOG3 = math.log2(3)
# docs/api.md: qrels q1 {d1: 2, d4: 1}, q2 [d3]; runs q1 [d4, d2, d1], q2 [d5, d3]
# recall@2: q1 d4 of {d1, d4} -> 1/2; q2 d3 of {d3} -> 1
# mrr: q1 d4 at rank 1 -> 1; q2 d3 at rank 2 -> 1/2
# ndcg@3: q1 (1/1 + 2/log2 4) / (2/1 + 1/log2 3) = 2 / (2 + 1/log2 3); q2 (1/log2 3) / 1
REFERENCE = {"recall@2": [0.5, 1.0], "mrr": [1.0, 0.5], "ndcg@3": [2 / (2 + 1 / LOG3), 1 / LOG3]}


def load(path: Path) -> dict:
    case = runpy.run_path(str(path))
    for module in case.get("NEEDS", []):
        pytest.importorskip(module)
    return case


def test_the_folder_has_every_shape():
    assert len(SHAPES) >= 30


@pytest.mark.parametrize("path", SHAPES, ids=[p.stem for p in SHAPES])
def test_shape(path):
    case = load(path)
    kwargs = dict(case.get("KWARGS", {}))
    metrics = case.get("METRICS", METRICS)
    if "ERROR" in case:
        source, words = case["ERROR"]
        with pytest.raises(InputError) as info:
            ranking_metrics(*case["inputs"](), metrics, average=None, **kwargs)
        assert info.value.source == source
        for word in words:
            assert word in info.value.message, (word, info.value.message)
        return
    expected = REFERENCE if case["EXPECTED"] == "reference" else case["EXPECTED"]
    got = ranking_metrics(*case["inputs"](), metrics, average=None, **kwargs)
    assert got == pytest.approx(expected, abs=1e-12)
    # evaluate reads the same shape to the same numbers
    report = evaluate(*case["inputs"](), metrics=["recall@2", "rr", "ndcg@3"], **kwargs)
    for name, key in zip(metrics, ["recall@2", "rr", "ndcg@3"]):
        assert report.mean[key] == pytest.approx(sum(expected[name]) / len(expected[name]), abs=1e-12)


@pytest.mark.slow
def test_numpy_and_pandas_are_not_imported_unless_given(tmp_path):
    import subprocess
    import sys
    code = ("import sys, retrieval_metrics as rm\n"
            "rm.ranking_metrics({'q': ['d']}, {'q': ['d']}, ['mrr'])\n"
            "rm.evaluate('q 0 d 1\\n', 'q Q0 d 1 1 t\\n')\n"
            "print(sorted(m for m in ('numpy', 'pandas', 'sklearn', 'yaml', 'tomli_w') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_one_line_text_is_still_text():
    assert ranking_metrics("q1 0 d1 1", "q1 d1", ["mrr"]) == {"mrr": 1.0}


def test_an_existing_path_is_read(tmp_path):
    path = tmp_path / "qrels"
    path.write_text("q1 0 d1 1\n")
    assert ranking_metrics(str(path), {"q1": ["d2", "d1"]}, ["mrr"]) == {"mrr": 0.5}
    assert ranking_metrics(path, {"q1": ["d2", "d1"]}, ["mrr"]) == {"mrr": 0.5}
    with pytest.raises(InputError, match="no such file"):
        ranking_metrics(tmp_path / "nothing", {"q1": ["d1"]}, ["mrr"])
