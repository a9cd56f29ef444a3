"""The page's protocol has one owner: a Python Session keeps every result by request id, and the
worker's dispatch table names exactly its methods, with fields that are their parameters."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import pytest
from retrieval_metrics.page.session import Session, StaleRequest, plain, text

ROOT = Path(__file__).resolve().parents[1]
QRELS = "q1 0 d1 1\nq1 0 d2 1\nq2 0 d3 1"
RUN = "q1 Q0 d1 1 3 r\nq1 Q0 d9 2 2 r\nq2 Q0 d3 1 1 r"


def worker_requests() -> dict:
    """worker.js's REQUESTS table, read from its source as the page ships it."""
    source = (ROOT / "worker.js").read_text(encoding="utf-8")
    body = re.search(r"const REQUESTS = \{(.*?)\n\};", source, re.S).group(1)
    table = {}
    for name, spec in re.findall(r"^\s*(\w+): (\{.*?\}),?\s*(?://.*)?$", body, re.M):
        spec = re.sub(r"(\w+):", r'"\1":', spec)
        table[name] = json.loads(spec)
    return table


def test_the_worker_dispatches_every_request_to_the_session_method_of_its_name():
    table = worker_requests()
    methods = {name for name, value in vars(Session).items()
               if callable(value) and not name.startswith("_") and name not in ("kept", "has")}
    steps = set(re.findall(r'"(\w+)"', re.search(r"const STEPS = \[(.*?)\];", (ROOT / "worker.js").read_text(encoding="utf-8")).group(1)))
    assert set(table) | steps == methods and not set(table) & steps
    for name, spec in table.items():
        parameters = inspect.signature(getattr(Session, name)).parameters
        wanted = {"request", *spec["fields"], *spec.get("texts", ()),
                  *(["progress"] if spec.get("progress") else ())}
        assert wanted <= set(parameters), (name, wanted - set(parameters))


def test_the_pages_messages_are_the_tables_names():
    """Every `type: "..."` the page's scripts send is a request of the table (or init)."""
    sent = set()
    for path in [ROOT / "app.js", *sorted((ROOT / "views").glob("*.js"))]:
        for line in path.read_text(encoding="utf-8").splitlines():
            if "el(" not in line and "observe(" not in line and "new Worker" not in line:
                sent |= set(re.findall(r'\{ type: "(\w+)"', line))
    assert {"analyse", "analyse_many", "download", "precision_recall"} <= sent
    assert sent <= set(worker_requests()) | {"init", "start_helpers"}, sent - set(worker_requests())


def test_results_are_kept_by_request_id_and_older_ids_are_stale():
    session = Session()
    first = session.analyse(1, qrels=QRELS, run=RUN, options={"k": "2"})
    assert first["report"]["mean"]["recall@2"] == 0.75  # q1: 1 of 2, q2: 1 of 1
    assert session.inspect(2, of=1, query="q1")["run"]["ranking"][1]["doc"] == "d9"
    assert session.download(3, of=1, kind="report-csv")["text"].startswith("scope,query")
    session.analyse(4, qrels=QRELS, run="q1 Q0 d2 1 1 r", options={"k": "2"})
    for ask in (lambda: session.inspect(5, of=1, query="q1"),
                lambda: session.precision_recall(5, of=1),
                lambda: session.download(5, of=1, kind="report-csv")):
        with pytest.raises(StaleRequest):
            ask()
    assert session.precision_recall(6, of=4)["runs"][0]["queries"] == 2


def test_a_failed_analysis_keeps_nothing_and_each_kind_is_kept_apart():
    session = Session()
    session.analyse(1, qrels=QRELS, run=RUN, options={})
    session.analyse_answers(2, references='{"id": "q1", "reference": "Paris"}', answers="q1,paris")
    session.analyse(3, qrels=QRELS, run="", options={})  # nothing scored: the old inputs are gone
    with pytest.raises(StaleRequest):
        session.inspect(4, of=1, query="q1")
    assert session.download(5, of=2, kind="answers-csv")["text"].startswith("id,")


def test_many_runs_come_with_their_curves_and_their_downloads():
    session = Session()
    out = session.analyse_many(7, qrels=QRELS, runs=[["a", RUN], ["b", b"q1 d2\nq2 d3"]],
                               options={"k": "2", "metrics": "recall"})
    assert [r["name"] for r in out["curves"]["runs"]] == ["a", "b"]
    assert out["curves"]["runs"][1]["precision"][0] == 1.0  # b ranks a relevant document first
    assert "a (baseline)" in session.download(8, of=7, kind="many-markdown")["text"]
    with pytest.raises(StaleRequest):
        session.download(9, of=6, kind="many-csv")


class FakeJsArray:
    """What Pyodide hands Python for a JavaScript array: ``to_py`` copies it (to ``depth``)."""

    def __init__(self, items):
        self.items = items

    def to_py(self, depth=-1):
        if depth == 0:
            return self
        return [plain(item, depth - 1 if depth > 0 else -1) for item in self.items]


class FakeUint8Array(FakeJsArray):
    def to_bytes(self):
        return bytes(self.items)


def test_javascript_values_are_made_plain_python():
    assert text(FakeUint8Array(list(b"q1 d1"))) == b"q1 d1"
    assert text(None) == ""
    session = Session()
    runs = FakeJsArray([FakeJsArray(["a", FakeUint8Array(list(b"q1 Q0 d1 1 3 r"))])])
    out = session.analyse_many(1, qrels=FakeUint8Array(list(QRELS.encode())), runs=runs,
                               options={"k": "1", "metrics": "recall"})
    assert out["reports"]["a"]["mean"]["recall@1"] == 0.25  # q1: 1 of 2; q2: nothing retrieved
