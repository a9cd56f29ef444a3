"""The page has one ``Session``: ``page.web``'s functions and the worker's requests are answered
by the same object (``page.web.SESSION``), so a question about the last result is answered
from what was last scored, whichever way it was asked, and nothing goes around it."""

import ast
from pathlib import Path

from retrieval_metrics.page import web

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "py" / "retrieval_metrics"


def test_the_worker_answers_with_page_webs_session():
    worker = (ROOT / "worker.js").read_text()
    assert 'runPython("from retrieval_metrics.page.web import SESSION; SESSION")' in worker
    assert "Session()" not in worker


def test_no_module_makes_a_second_session():
    made = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Session":
                made.append(str(path.relative_to(PACKAGE)))
    assert made == ["page/web.py"]


def test_a_comparison_asked_of_the_session_is_the_one_web_answers_about():
    """The worker's way in (a Session method with a request id) and web's way out agree:
    run b finds d1 at rank 2 of its ranking, so its precision at recall 0 is 1/2 (a: 1)."""
    web.SESSION.analyse_many(7, "q1 0 d1 1", [("a", "q1 d1"), ("b", "q1 d2\nq1 d1")], {"k": "2"})
    curves = web.precision_recall_many()
    assert [(r["name"], r["precision"][0]) for r in curves["runs"]] == [("a", 1.0), ("b", 0.5)]
    assert web.SESSION.precision_recall_many(None, of=7) == curves
