"""Data-driven parser cases, in the style of tomli's tests: adding a case is adding files.

tests/cases/valid/<name>.qrels + <name>.run (+ optional <name>.options.json, keyword arguments
for evaluate) with <name>.expected.json:
    {"per_query": {qid: {metric key: value}},   # values: numbers or hand-worked expressions
                                                # such as "(1/log2(3) + 1/2) / (1 + 1/log2(3))"
     "absent": [qid, ...],                      # queries that must not be in per_query
     "mean": {...}, "scored_queries": n,
     "formats": {"qrels": fmt, "run": fmt},
     "notices": {code: count or null},          # null: present, any count
     "no_notices": [code, ...]}
Every key but per_query is optional. Each case is run twice: files passed as bytes and as paths.

tests/cases/invalid/<name>.qrels + <name>.run (+ optional options) with <name>.error.json:
    {"source": "qrels"|"run", "line": n (omit when not fixed), "message_contains": [...]}
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from retrieval_metrics import InputError, evaluate

CASES = Path(__file__).parent / "cases"
VALID = sorted(p.name[: -len(".expected.json")] for p in (CASES / "valid").glob("*.expected.json"))
INVALID = sorted(p.name[: -len(".error.json")] for p in (CASES / "invalid").glob("*.error.json"))


def _value(v):
    if isinstance(v, str):
        return float(eval(v, {"__builtins__": {}}, {"log2": math.log2}))  # our own hand-worked formulas
    return float(v)


def _options(folder: Path, name: str) -> dict:
    p = folder / f"{name}.options.json"
    return json.loads(p.read_text()) if p.exists() else {"k": [1, 2, 3]}


def _inputs(folder: Path, name: str, how: str):
    q, r = folder / f"{name}.qrels", folder / f"{name}.run"
    return (q.read_bytes(), r.read_bytes()) if how == "bytes" else (q, r)


def test_case_folders_are_complete():
    assert len(VALID) >= 20 and len(INVALID) >= 15
    for folder, names in ((CASES / "valid", VALID), (CASES / "invalid", INVALID)):
        for name in names:
            assert (folder / f"{name}.qrels").exists() and (folder / f"{name}.run").exists(), name


@pytest.mark.parametrize("how", ["bytes", "path"])
@pytest.mark.parametrize("name", VALID)
def test_valid_case(name, how):
    folder = CASES / "valid"
    expected = json.loads((folder / f"{name}.expected.json").read_text())
    report = evaluate(*_inputs(folder, name, how), **_options(folder, name))
    problems = []
    for qid, row in expected["per_query"].items():
        if qid not in report.per_query:
            problems.append(f"query {qid!r} missing from per_query {sorted(report.per_query)}")
            continue
        for key, want in row.items():
            got = report.per_query[qid].get(key)
            if got is None or not math.isclose(got, _value(want), rel_tol=0, abs_tol=1e-12):
                problems.append(f"{qid} {key}: expected {want} = {_value(want)!r}, got {got!r}")
    for qid in expected.get("absent", []):
        if qid in report.per_query:
            problems.append(f"query {qid!r} should not be in per_query")
    for key, want in expected.get("mean", {}).items():
        got = report.mean.get(key)
        if got is None or not math.isclose(got, _value(want), rel_tol=0, abs_tol=1e-12):
            problems.append(f"mean {key}: expected {want}, got {got!r}")
    if "scored_queries" in expected and report.scored_queries != expected["scored_queries"]:
        problems.append(f"scored_queries {report.scored_queries} != {expected['scored_queries']}")
    for box, fmt in expected.get("formats", {}).items():
        if report.inputs[box].format != fmt:
            problems.append(f"{box} detected as {report.inputs[box].format!r}, expected {fmt!r}")
    notices = {n.code: n for n in report.notices}
    for code, count in expected.get("notices", {}).items():
        if code not in notices:
            problems.append(f"notice {code} missing (have {sorted(notices)})")
        elif count is not None and notices[code].count != count:
            problems.append(f"notice {code} count {notices[code].count} != {count}")
    for code in expected.get("no_notices", []):
        if code in notices:
            problems.append(f"unexpected notice {code}: {notices[code].message}")
    assert problems == []


@pytest.mark.parametrize("how", ["bytes", "path"])
@pytest.mark.parametrize("name", INVALID)
def test_invalid_case(name, how):
    folder = CASES / "invalid"
    expected = json.loads((folder / f"{name}.error.json").read_text())
    with pytest.raises(InputError) as info:
        evaluate(*_inputs(folder, name, how), **_options(folder, name))
    err = info.value
    assert type(err) is InputError
    assert err.source == expected["source"], err.message
    if "line" in expected:
        assert err.line == expected["line"], err.message
    for part in expected.get("message_contains", []):
        assert part in err.message, err.message
    assert err.message.startswith({"qrels": "judgements", "run": "results"}[err.source])
    d = err.to_dict()
    assert d["source"] == err.source and d["line"] == err.line and d["message"] == err.message
    json.dumps(d)
