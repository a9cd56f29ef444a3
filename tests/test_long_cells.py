"""A cell of megabytes (a file with no line breaks) is quoted in an error only in part: the page
lays the message out, and a 10,000,000-character message froze it for seconds."""

from retrieval_metrics.page import web


def test_a_huge_cell_is_quoted_in_part():
    out = web.analyse("q1 0 d1 1\n", "q1 Q0 " + "d" * 1_000_000, {"k": "10"})
    error = out["errors"]["run"]
    assert error["line"] == 1
    assert len(error["problem"]) == 400 and error["problem"].endswith("\u2026")
    assert error["problem"].startswith("column 3 should be a finite number")
    assert len(error["message"]) < 450 and len(error["text"]) == 200
