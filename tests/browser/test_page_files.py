"""Files in and out of the page (issue 11): a file is read as bytes, exactly as the CLI reads it
(a Latin-1 line as Windows-1252, with a warning), and the page's CSV downloads are the CLI's
`-o csv`, byte for byte; JSON downloads record what made them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import expect

SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"  # git-ignored, for looking at

# Ids a spreadsheet would run as formulas, a query named all, a comma, a non-ASCII id.
QRELS = "all 0 d1 1\n'q 0 d1 1\n=1+1 0 d1 1\n@SUM(A1) 0 d2 2\n-1 0 d3 1\nq,1 0 d1 1\ncafé 0 d1 1\nall 0 d2 0\n"
RUN = ("all Q0 d2 1 9 t\nall Q0 d1 2 8 t\n'q Q0 d1 1 1 t\n=1+1 Q0 d1 1 5 t\n@SUM(A1) Q0 d9 1 3 t\n@SUM(A1) Q0 d2 2 2 t\n"
       "-1 Q0 d3 1 1 t\nq,1 Q0 d7 1 1 t\ncafé Q0 d1 1 1 t\n")
BASELINE = "all Q0 d1 1 9 t\n=1+1 Q0 d1 1 5 t\n@SUM(A1) Q0 d2 1 3 t\n-1 Q0 d4 1 1 t\nq,1 Q0 d1 1 1 t\ncafé Q0 d8 1 1 t\n"


def cli(*args) -> bytes:
    return subprocess.run([sys.executable, "-m", "retrieval_metrics", *map(str, args)],
                          capture_output=True, check=True).stdout


def download(app, kind: str, tmp_path) -> bytes:
    """The file's bytes as saved (pagekit's App.download reads text, which hides CRLF)."""
    app.page.get_by_test_id("download-kind").select_option(kind)
    with app.page.expect_download() as info:
        app.page.get_by_test_id("download-button").click()
    path = tmp_path / f"{kind}-{info.value.suggested_filename}"
    info.value.save_as(path)
    return path.read_bytes()


def load_files(app, qrels, run, baseline=None, k="1,3") -> None:
    page = app.page
    page.get_by_test_id("k-input").fill(k)
    # one file at a time, each scored before the next (else a result of the old text can pass)
    for name, path in (("qrels", qrels), ("run", run), ("baseline", baseline)):
        if path is None:
            continue
        before = app.renders()
        page.get_by_test_id(f"{name}-file").set_input_files(path)
        expect(page.get_by_test_id(f"{name}-input")).to_have_value(Path(path).read_bytes().decode("utf-8", "replace")
                                                                   if name != "run" or "latin1" not in str(path)
                                                                   else Path(path).read_bytes().decode("cp1252"))
        app.settle(before)


def test_csv_downloads_are_the_clis_byte_for_byte(app, tmp_path):
    qrels, run, baseline = tmp_path / "qrels.txt", tmp_path / "run.txt", tmp_path / "base.txt"
    qrels.write_text(QRELS, encoding="utf-8")
    run.write_text(RUN, encoding="utf-8")
    baseline.write_text(BASELINE, encoding="utf-8")
    load_files(app, qrels, run, baseline)
    expected = cli(qrels, run, "-k", "1,3", "-o", "csv")
    assert b"\r\nmean,," in expected and b"\r\nquery,'=1+1," in expected and b"\r\nquery,all," in expected
    assert download(app, "report-csv", tmp_path) == expected
    lines = expected.split(b"\r\n")  # the query rows alone: no scope column, no means row
    assert download(app, "per-query-csv", tmp_path) == b"\r\n".join(
        [lines[0].removeprefix(b"scope,")] + [line.removeprefix(b"query,") for line in lines[1:]
                                              if line.startswith(b"query,")]) + b"\r\n"
    assert download(app, "comparison-csv", tmp_path) == cli(qrels, run, "-k", "1,3", "--baseline", baseline, "-o", "csv")

    data = json.loads(download(app, "report-json", tmp_path))
    meta = data["meta"]
    assert meta["files"] == {"qrels": "qrels.txt", "run": "run.txt", "baseline": "base.txt"}
    assert meta["engine"].startswith("retrieval-metrics ") and meta["settings"]["k"] == [1, 3]
    assert meta["created"].endswith("+00:00")
    assert set(data["per_query"]) == {"all", "'q", "=1+1", "@SUM(A1)", "-1", "q,1", "café"}  # exact ids
    # the same keys as the CLI's -o json meta
    cli_meta = json.loads(cli(qrels, run, "-k", "1,3", "-o", "json"))["meta"]
    assert meta.keys() == cli_meta.keys() and meta["settings"].keys() == cli_meta["settings"].keys()


def test_a_latin1_file_matches_utf8_judgements(app, tmp_path):
    """Before: all-zero scores and "Nothing to report". Hand-worked: q1's one relevant document
    `café` is ranked first, so every metric at k = 1 is 1."""
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run-latin1.txt"
    qrels.write_bytes("q1 0 café 1\nq1 0 other 0\n".encode("utf-8"))
    run.write_bytes("q1 Q0 café 1 2.0 t\nq1 Q0 other 2 1.0 t\n".encode("latin-1"))
    app.page.locator("[data-clear=baseline]").click()
    load_files(app, qrels, run, k="1")
    assert app.means() == {"recall@1": 1.0, "precision@1": 1.0, "mrr@1": 1.0, "ndcg@1": 1.0}
    expect(app.page.get_by_test_id("run-input")).to_have_value("q1 Q0 café 1 2.0 t\nq1 Q0 other 2 1.0 t\n")
    notice = app.page.get_by_test_id("notices").locator("[data-code=not_utf8]")
    expect(notice).to_contain_text("Results: line 1 is not UTF-8 text and was read as Windows-1252")
    app.page.get_by_test_id("notices").screenshot(path=str(SCREENSHOTS / "not-utf8-notice.png"))
    # Edited, the box's text is what counts (the bytes are dropped): still café, now UTF-8.
    before = app.renders()
    app.page.get_by_test_id("run-input").press("End")
    app.page.get_by_test_id("run-input").type(" ")
    app.settle(before)
    assert app.means()["ndcg@1"] == 1.0
    expect(notice).to_have_count(0)
