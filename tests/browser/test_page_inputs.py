"""The boxes on the page as a person uses them, in Chromium: a report never shown as current for
other input (an edit pending, Stop during a big file), Clear and its Undo, the boxes kept across a
reload (and "Forget"), gzip and UTF-16 files read as the plain files are, and an example's own
measures.

Numbers are the engine's under CPython for the same texts (`engine_numbers`), or pyndeval's.
"""

from __future__ import annotations

import gzip
import json
import math
import time
from pathlib import Path

import pytest
from pagekit import open_app, start_in_thread
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]

QRELS = "q1 0 d1 1\nq1 0 d2 2\nq1 0 d4 1\nq2 0 d3 1\nq2 0 d5 2\nq3 0 d9 1\n"
RUN = ("q1 Q0 d2 1 3.5 s\nq1 Q0 d1 2 2.5 s\nq1 Q0 d7 3 1.5 s\nq1 Q0 d4 4 1.0 s\n"
       "q2 Q0 d5 1 9 s\nq2 Q0 d8 2 8 s\nq2 Q0 d3 3 7 s\nq3 Q0 d1 1 1 s\nq3 Q0 d9 2 0.5 s\n")


def big_run(path: Path, queries: int = 300, depth: int = 1000) -> Path:
    with path.open("w") as out:
        for q in range(queries):
            out.writelines(f"q{q} Q0 d{q}-{i} {i} {depth - i}.5 s\n" for i in range(1, depth + 1))
    return path


def wait_running_big(page) -> None:
    for _ in range(800):
        if page.evaluate("() => (window.__calculator.engine.running || {}).size > 1e6"):
            return
        page.wait_for_timeout(25)
    raise AssertionError("the big file was never sent to the worker")


def reset(page) -> None:
    """Empties the boxes a previous test filled (a big file leaves its box read-only)."""
    for name in ("qrels", "run", "baseline"):
        page.locator(f"[data-clear={name}]").click()


def test_a_pending_edit_and_stop_never_show_the_old_report_as_current(app, tmp_path):
    page = app.page
    first = tmp_path / "first.qrels"
    first.write_text(QRELS)
    before = app.renders()
    page.get_by_test_id("run-input").fill(RUN)
    page.get_by_test_id("qrels-file").set_input_files(first)
    app.settle(before)
    report = page.locator("#report")
    expect(report).to_have_attribute("data-state", "current")
    saved = json.loads(app.download("report-json", tmp_path))
    assert saved["meta"]["files"] == {"qrels": "first.qrels", "run": "typed or pasted text", "baseline": None}

    # A big run replaces the typed one: from the moment it is loaded until its scores are drawn,
    # the report on the page is the previous input's, so it is marked and offers no file.
    qrels = "".join(f"q{q} 0 d{q}-{i} 1\n" for q in range(300) for i in (1, 50, 700))
    before = app.renders()
    page.get_by_test_id("qrels-input").fill(qrels)
    app.settle(before)
    old_means = app.means()
    before = app.renders()
    # 1,000 queries x 1,000 documents (about 30 MB): long enough to read in the page that the
    # Stop below lands while it is read, on a quiet machine too
    page.get_by_test_id("run-file").set_input_files(big_run(tmp_path / "big.run", queries=1000))
    wait_running_big(page)
    expect(report).to_have_attribute("data-state", "pending")
    expect(page.get_by_test_id("stale-note")).to_be_visible()
    expect(page.get_by_test_id("stale-note")).to_contain_text("Not current")
    expect(page.get_by_test_id("download-button")).to_be_disabled()

    page.get_by_test_id("cancel").click()
    expect(report).to_have_attribute("data-state", "stopped")
    note = page.get_by_test_id("stale-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Stopped. These scores are of the earlier input")
    expect(page.get_by_test_id("download-button")).to_be_disabled()
    page.wait_for_timeout(300)   # nothing drawn meanwhile makes it current again
    expect(report).to_have_attribute("data-state", "stopped")
    assert app.renders() == before
    assert app.means() == old_means   # the old numbers, shown only as the old ones

    # Score again: the big run's own report, and its download names the big file.
    page.get_by_test_id("score-again").click()
    app.settle(before, timeout=120)
    expect(report).to_have_attribute("data-state", "current")
    expect(page.get_by_test_id("stale-note")).to_be_hidden()
    saved = json.loads(app.download("report-json", tmp_path))
    assert saved["meta"]["files"]["run"] == "big.run"
    assert saved["meta"]["files"]["qrels"] == "first.qrels (edited)"
    assert saved["scored_queries"] == 300


def test_clear_has_undo_in_every_box(app, engine_numbers, tmp_path):
    reset(app.page)
    page = app.page
    app.score(QRELS, RUN, k="3")
    means = app.means()
    assert means == pytest.approx(engine_numbers(QRELS, RUN, k="3")["mean"], abs=1e-12)
    before = app.renders()
    page.locator("[data-clear=run]").click()
    expect(page.get_by_test_id("run-input")).to_have_value("")
    undo = page.get_by_test_id("run-undo-clear")
    expect(undo).to_be_visible()
    expect(page.get_by_test_id("run-cleared")).to_contain_text("Cleared.")
    app.settle(before)
    expect(page.locator("#report")).to_be_hidden()
    before = app.renders()
    undo.click()
    expect(page.get_by_test_id("run-input")).to_have_value(RUN)
    expect(undo).to_be_hidden()
    app.settle(before)
    assert app.means() == means

    # A file's box: its file (name and bytes) comes back too.
    path = tmp_path / "judged.qrels"
    path.write_bytes(QRELS.encode("utf-16"))
    before = app.renders()
    page.get_by_test_id("qrels-file").set_input_files(path)
    app.settle(before)
    page.locator("[data-clear=qrels]").click()
    expect(page.get_by_test_id("qrels-input")).to_have_value("")
    before = app.renders()
    page.get_by_test_id("qrels-undo-clear").click()
    expect(page.get_by_test_id("qrels-input")).to_have_value(QRELS)
    app.settle(before)
    assert app.means() == means
    assert "decoded from UTF-16" in page.get_by_test_id("notices").inner_text()

    # Typing after Clear takes the Undo away (it would replace what was typed).
    page.locator("[data-clear=baseline]").click()   # an empty box: nothing to undo
    expect(page.get_by_test_id("baseline-undo-clear")).to_have_count(0)
    page.locator("[data-clear=run]").click()
    page.get_by_test_id("run-input").fill("q1 Q0 d1 1 1 s\n")
    expect(page.get_by_test_id("run-undo-clear")).to_have_count(0)

    # The Answers boxes.
    page.get_by_test_id("mode-answers").click()
    refs = '{"id": "a", "references": ["Paris"]}\n'
    page.get_by_test_id("references-input").fill(refs)
    page.get_by_test_id("references-clear").click()
    expect(page.get_by_test_id("references-input")).to_have_value("")
    page.get_by_test_id("references-undo-clear").click()
    expect(page.get_by_test_id("references-input")).to_have_value(refs)
    page.get_by_test_id("references-input").fill("")
    page.get_by_test_id("mode-rankings").click()


def test_gzip_run_and_utf16_qrels_give_the_plain_files_numbers(app, engine_numbers, tmp_path):
    reset(app.page)
    page = app.page
    plain = engine_numbers(QRELS, RUN, k="1,3,10")["mean"]
    app.score(QRELS, RUN, k="1,3,10")
    assert app.means() == pytest.approx(plain, abs=1e-12)
    files = {
        "run.trec.gz": gzip.compress(RUN.encode()),
        "qrels-bom.txt": QRELS.replace("\n", "\r\n").encode("utf-16"),   # PowerShell's Out-File
        "qrels-le.txt": QRELS.encode("utf-16-le"),                        # no byte-order mark
        "qrels-be.txt": QRELS.encode("utf-16-be"),
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    before = app.renders()
    page.get_by_test_id("run-file").set_input_files(tmp_path / "run.trec.gz")
    app.settle(before)
    expect(page.get_by_test_id("run-input")).to_have_value(RUN)   # readable, never the gzip bytes
    assert app.means() == pytest.approx(plain, abs=1e-12)
    assert "decompressed (gzip)" in page.get_by_test_id("notices").inner_text()
    for name in ("qrels-bom.txt", "qrels-le.txt", "qrels-be.txt"):
        before = app.renders()
        page.get_by_test_id("qrels-file").set_input_files(tmp_path / name)
        app.settle(before)
        shown = page.get_by_test_id("qrels-input").input_value()
        assert shown.replace("\r\n", "\n") == QRELS, name
        assert app.means() == pytest.approx(plain, abs=1e-12), name
        assert "decoded from UTF-16" in page.get_by_test_id("notices").inner_text(), name


def test_many_runs_read_bytes_and_are_named_as_the_command_line_names_them(app, tmp_path):
    reset(app.page)
    from retrieval_metrics.inputs.run_names import name_clashes, run_names
    from retrieval_metrics.page import web

    page = app.page
    app.score(QRELS, RUN, k="3")
    other = RUN.replace("q1 Q0 d2 1", "q1 Q0 d9 1")
    (tmp_path / "x.trec").write_text(RUN)
    (tmp_path / "x.run").write_bytes(gzip.compress(other.encode()))
    (tmp_path / "y.trec").write_bytes(RUN.encode("utf-16"))
    renders = page.evaluate("() => window.__calculator.many.renders()")
    page.get_by_test_id("many-file").set_input_files([tmp_path / "x.trec", tmp_path / "x.run", tmp_path / "y.trec"])
    deadline = time.monotonic() + 60
    while page.evaluate("() => window.__calculator.many.renders()") <= renders or page.evaluate("() => window.__calculator.many.busy()"):
        assert time.monotonic() < deadline, app.console_errors[-3:]
        time.sleep(0.05)
    names = run_names(["x.trec", "x.run", "y.trec"])
    assert names == ["x.trec", "x.run", "y"]
    expect(page.get_by_test_id("many-name")).to_have_count(3)
    assert [page.get_by_test_id("many-name").nth(i).input_value() for i in range(3)] == names
    expect(page.get_by_test_id("many-names")).to_contain_text(name_clashes(["x.trec", "x.run", "y.trec"], names)[0])
    expected = web.analyse_many(QRELS, [("x.trec", RUN), ("x.run", other), ("y", RUN)],
                                {"k": "3", "metrics": page.evaluate("() => [...document.querySelectorAll('input[name=metric]:checked')].map(b => b.value)")})
    shown = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('[data-testid=many-table] tbody tr')].map(
        (tr) => [tr.dataset.run, Object.fromEntries([...tr.querySelectorAll('td[data-metric]')].map((td) => [td.dataset.metric, Number(td.dataset.value)]))]))""")
    means = expected["comparison"]["means"]
    assert shown.keys() == means.keys()
    for run, values in shown.items():
        for metric, value in values.items():
            assert value == pytest.approx(means[run][metric]["mean"], abs=1e-12), (run, metric)
    assert shown["x.run"] != shown["x.trec"]   # the gzip run is its own text, not garbage or the other's
    page.get_by_test_id("many-clear").click()


def test_the_subtopic_example_applies_its_measures(app):
    pyndeval = pytest.importorskip("pyndeval")
    page = app.page
    folder = ROOT / "examples" / "subtopics-alpha-ndcg"
    settings = json.loads((folder / "settings.json").read_text())
    before = app.renders()
    page.get_by_test_id("examples-select").select_option("subtopics-alpha-ndcg")
    app.settle(before)
    means = app.means()
    qrels_text = (folder / settings["qrels"]).read_text()
    run_text = (folder / settings["run"]).read_text()
    qrels = sorted(((q, s, d, int(g)) for q, s, d, g in (line.split() for line in qrels_text.splitlines())),
                   key=lambda row: int(row[1]))
    run = [(f[0], f[2], float(f[4])) for f in (line.split() for line in run_text.splitlines())]
    theirs = pyndeval.ndeval([pyndeval.SubtopicQrel(*row) for row in qrels],
                             [pyndeval.ScoredDoc(*r) for r in run], ["alpha-nDCG@20", "alpha-nDCG@5"])
    assert len(theirs) == 3
    for k in (20, 5):
        expected = math.fsum(v[f"alpha-nDCG@{k}"] for v in theirs.values()) / 3
        assert means[f"alpha_ndcg@{k}"] == pytest.approx(expected, rel=1e-15)
    cell = page.locator("[data-testid=means-table] td[data-key='alpha_ndcg@20']")
    expect(cell).to_have_count(1)


@pytest.fixture()
def own_page(browser, dist):
    """A page in its own browser context (its own IndexedDB), for reloads."""
    server, url = start_in_thread(dist)
    app = open_app(browser, url, viewport={"width": 1280, "height": 900})
    yield app
    app.page.context.close()
    server.shutdown()


def test_the_boxes_survive_a_reload_until_forgotten(own_page, engine_numbers, tmp_path):
    app, page = own_page, own_page.page
    # A big file (tens of megabytes) and a typed box; kept as the file's bytes and the text.
    big = big_run(tmp_path / "big.trec", queries=800, depth=1000)
    assert big.stat().st_size > 20_000_000
    qrels = "".join(f"q{q} 0 d{q}-{i} 1\n" for q in range(800) for i in (1, 50, 700))
    (tmp_path / "judged.qrels").write_text(qrels)
    before = app.renders()
    page.get_by_test_id("qrels-file").set_input_files(tmp_path / "judged.qrels")
    app.settle(before)
    page.get_by_test_id("qrels-input").press("Control+End")
    page.keyboard.type("\n")   # typed into: kept as text now, not as the file's bytes
    qrels += "\n"
    before = app.renders()
    page.get_by_test_id("run-file").set_input_files(big)
    expect(page.locator("#run-big")).to_contain_text("big.trec")   # read: its score is scheduled
    app.settle(before, timeout=120)
    means = app.means()
    assert means and means["recall@10"] > 0
    expect(page.get_by_test_id("keep-note")).to_contain_text("kept in this browser only")
    # The write waits for the boxes to be still, and does not hold the page: the main thread
    # answers within a frame or two meanwhile.
    lag = page.evaluate("""async () => {
        const writing = window.__calculator.keep.flush();
        let worst = 0, last = performance.now(), done = false;
        writing.then(() => { done = true; });
        while (!done) {
            await new Promise((r) => setTimeout(r, 0));
            const now = performance.now();
            worst = Math.max(worst, now - last);
            last = now;
        }
        return worst;
    }""")
    assert lag < 250, lag
    page.reload()
    app.wait_ready()
    app.settle(0, timeout=120)
    expect(page.get_by_test_id("qrels-input")).to_have_value(qrels)
    expect(page.locator("#run-big")).to_contain_text("big.trec")
    assert app.means() == means

    # Forget: what is kept is deleted (the boxes on the page stay), and a reload is empty.
    page.get_by_test_id("keep-note-forget").click()
    expect(page.get_by_test_id("keep-note")).to_contain_text("not kept")
    expect(page.get_by_test_id("qrels-input")).to_have_value(qrels)
    assert page.evaluate("""() => new Promise((resolve) => {
        const open = indexedDB.open("retrieval-metrics");
        open.onsuccess = () => {
            const req = open.result.transaction("boxes").objectStore("boxes").count();
            req.onsuccess = () => resolve(req.result);
        };
    })""") == 0
    page.reload()
    app.wait_ready()
    expect(page.get_by_test_id("qrels-input")).to_have_value("")
    expect(page.get_by_test_id("run-input")).to_have_value("")
    # Keeping again, from the note.
    page.get_by_test_id("keep-note-keep").click()
    page.get_by_test_id("qrels-input").fill(QRELS)
    page.evaluate("() => window.__calculator.keep.flush()")
    page.reload()
    app.wait_ready()
    expect(page.get_by_test_id("qrels-input")).to_have_value(QRELS)
    assert not [u for u in app.requests if not u.startswith(app.url) and not u.startswith("blob:")]
