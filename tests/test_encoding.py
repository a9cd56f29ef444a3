"""Bytes that are not UTF-8 (issue 11, "never silently wrong"): every such line is read as
Windows-1252, so ids match what the person sees, and a warning counts those lines and names the
first. The same in the API, the CLI, the page's entry point and the fast reader of large files.

Expected values are worked by hand: the judgements say query q1 has one relevant document,
`café`; the run ranks `café` first, so every metric at k = 1 is 1. Before the fix, the run's
Latin-1 byte 0xE9 made the id differ from the judgements' UTF-8 `café` (or refused the file),
and every score was 0.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from retrieval_metrics import evaluate
from retrieval_metrics.inputs.runs import parse_run
from retrieval_metrics.inputs.source import decode_bytes
from retrieval_metrics.page.web import analyse

QRELS_UTF8 = "q1 0 café 1\nq1 0 other 0\n".encode("utf-8")
RUN_LATIN1 = "q1 Q0 café 1 2.0 t\nq1 Q0 other 2 1.0 t\n".encode("latin-1")
ONES = {"recall@1": 1.0, "precision@1": 1.0, "mrr@1": 1.0, "ndcg@1": 1.0}


def _not_utf8(notices):
    return [n for n in notices if (n["code"] if isinstance(n, dict) else n.code) == "not_utf8"]


def test_api_latin1_run_matches_utf8_qrels():
    report = evaluate(QRELS_UTF8, RUN_LATIN1, k=1)
    assert report.mean == ONES
    [notice] = _not_utf8(report.notices)
    assert notice.level == "warning" and notice.count == 1
    assert notice.message.startswith("Results: line 1 is not UTF-8 text")


def test_page_entry_point_reads_bytes_the_same_way():
    out = analyse(QRELS_UTF8, RUN_LATIN1, {"k": "1"})
    assert out["report"]["mean"] == ONES
    assert len(_not_utf8(out["report"]["notices"])) == 1


@pytest.mark.slow
def test_cli_reads_files_the_same_way(tmp_path):
    qrels, run = tmp_path / "q.txt", tmp_path / "r.txt"
    qrels.write_bytes(QRELS_UTF8)
    run.write_bytes(RUN_LATIN1)
    done = subprocess.run([sys.executable, "-m", "retrieval_metrics", qrels, run, "-k", "1", "-o", "json"],
                          capture_output=True, check=True)
    data = json.loads(done.stdout)
    assert data["mean"] == ONES
    assert len(_not_utf8(data["notices"])) == 1


def test_windows_1252_not_latin1_and_lines_counted():
    # 0x93/0x94 are curly quotes in Windows-1252 (C1 controls in ISO-8859-1); 0x81 is undefined
    # in Windows-1252 and stands for U+0081 as browsers read it. Line 2 is UTF-8 and stays so;
    # line 3 mixes a UTF-8 é (c3 a9) with a Latin-1 one: the whole line is Windows-1252.
    data = b"\x93q\x94 d 1\nq2 caf\xc3\xa9 1\nq3 caf\xc3\xa9 \xe9\x81\n"
    text, legacy = decode_bytes(data)
    assert text == "\u201cq\u201d d 1\nq2 café 1\nq3 caf\u00c3\u00a9 \u00e9\u0081\n"
    assert legacy == (2, 1)  # two lines, the first is line 1


def test_notice_counts_lines_and_names_the_first():
    qrels = b"q1 0 a 1\nq2 0 b 1\n"
    run = b"q1 Q0 a 1 1 t\nq1 Q0 x\xe9 2 0.5 t\nq2 Q0 b 1 1 t\nq2 Q0 y\xe8 2 0.5 t\n"
    [notice] = _not_utf8(evaluate(qrels, run, k=1).notices)
    assert notice.count == 2
    assert notice.message.startswith("Results: 2 lines are not UTF-8 text (the first is line 2)")


def test_utf8_files_get_no_notice():
    report = evaluate(QRELS_UTF8, "q1 Q0 café 1 2.0 t\n".encode("utf-8"), k=1)
    assert report.mean == ONES and not _not_utf8(report.notices)


def test_json_input_too():
    run = '{"q1": ["café", "other"]}'.encode("latin-1")
    report = evaluate(QRELS_UTF8, run, k=1)
    assert report.mean == ONES and len(_not_utf8(report.notices)) == 1


@pytest.mark.slow
@pytest.mark.parametrize("where", ["first block", "late block"])
def test_fast_reader_cannot_read_it_differently(tmp_path, where):
    """A run above a megabyte goes through the fast bytes reader a block at a time; a Latin-1
    line anywhere must give the same ids as the same file decoded line by line."""
    rows = [f"q{i % 50} Q0 d{i} {i // 50 + 1} {1 / (i + 1)!r} t\n".encode() for i in range(40_000)]
    bad = "q7 Q0 caf\xe9 0 99.0 t\n".encode("latin-1")
    rows.insert(3 if where == "first block" else len(rows) - 3, bad)
    data = b"".join(rows)
    assert len(data) > 1 << 20
    path = tmp_path / "run.txt"
    path.write_bytes(data)
    expected = parse_run(decode_bytes(data)[0])  # one str: the line-by-line reader
    for source in (data, path):
        from retrieval_metrics.inputs.source import InputFile
        got = parse_run(InputFile(source) if source is path else source)
        assert got.ranked == expected.ranked
        assert got.ranked["q7"][0] == "café".encode("utf-8")
        assert [n.count for n in _not_utf8(got.notices)] == [1]


def test_answers_box_not_utf8_is_read_as_windows_1252_with_the_warning():
    """The Answers mode reads a box the same way: Latin-1 'café' (0xE9) on line 2 matches the
    UTF-8 answer, and the warning names that line."""
    from retrieval_metrics.page import web
    out = web.analyse_answers("id,reference\n1,caf\xe9\n".encode("latin-1"),
                              "id,answer\n1,café\n".encode(), {})
    report = out["report"]
    assert report["mean"]["exact_match"] == 1.0
    warning = [n for n in report["notices"] if n["code"] == "not_utf8"]
    assert len(warning) == 1 and warning[0]["level"] == "warning"
    assert "line 2" in warning[0]["message"] and warning[0]["message"].startswith("references")
