"""Hostile inputs, one class of finding at a time, beyond the text cases of tests/cases/:
each ends in a clear error (InputError / OptionError naming the input, or exit 2 with one line
on stderr) or in numbers worked out by hand here; never a traceback, a hang or a silent case.

The text-format classes (a tab in TREC lines, headers naming the score column, UTF-16 and gzip,
a box holding the other box's content) are data files in tests/cases/; this module holds the
classes that need Python objects, files on disk, the CLI or a clock.
"""

from __future__ import annotations

import gzip
import json
import math
import os
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from retrieval_metrics import InputError, OptionError, Report, evaluate, evaluate_many
from retrieval_metrics.inputs.run_names import name_clashes, run_names
from retrieval_metrics.page import web
from retrieval_metrics.report import files

PY = str(Path(__file__).resolve().parents[1] / "py")
QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\n"
RUN = "q1 Q0 d2 1 2.0 t\nq1 Q0 d1 2 1.0 t\nq2 Q0 d3 1 1.0 t\n"  # mrr: q1 1/2, q2 1


def cli(*args, cwd=None):
    env = {**os.environ, "PYTHONPATH": PY}
    return subprocess.run([sys.executable, "-m", "retrieval_metrics", *map(str, args)],
                          capture_output=True, text=True, env=env, cwd=cwd, timeout=60)


def one_error_line(done):
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("retrieval-metrics: "), done.stderr
    assert "Traceback" not in done.stderr
    return lines[0]


@pytest.fixture
def inputs(tmp_path):
    (tmp_path / "q.txt").write_text(QRELS)
    (tmp_path / "run.trec").write_text(RUN)
    return tmp_path


# --- a box holding the other box's content: warnings through the engine ------------------------

@pytest.mark.slow
def test_grades_in_the_results_box_are_a_warning_in_the_api_the_cli_and_the_page(inputs):
    grades = "q1,d1,1\nq1,d2,0\nq1,d3,1\nq2,d3,2\nq2,d4,2\n"  # qrels rows, pasted as a run
    report = evaluate(QRELS, grades, k=1)
    assert "looks_like_judgements" in {n.code for n in report.notices}
    (inputs / "grades.csv").write_text(grades)
    done = cli(inputs / "q.txt", inputs / "grades.csv")
    assert done.returncode == 0 and "are judgements in the results box?" in done.stdout
    page = web.analyse(QRELS, grades, {"k": 1})
    assert "looks_like_judgements" in {n["code"] for n in page["report"]["notices"]}


def test_ranks_in_the_judgements_box_are_a_warning():
    ranks = "".join(f"q1\td{i}\t{i}\n" for i in range(1, 7))  # a run's ranks 1..6
    report = evaluate(ranks, "q1 Q0 d1 1 1 t\n", k=1)
    notice = next(n for n in report.notices if n.code == "looks_like_results")
    assert "up to 6" in notice.message
    graded = "q1\td1\t1\nq1\td2\t1\nq1\td3\t0\nq1\td4\t5\n"  # real grades repeat: no warning
    assert "looks_like_results" not in {n.code for n in evaluate(graded, "q1 Q0 d1 1 1 t\n").notices}


def test_ranks_that_are_ranks_are_no_warning():
    run = "q1,d1,1\nq1,d2,2\nq1,d3,3\nq2,d3,1\nq2,d1,2\n"
    assert "looks_like_judgements" not in {n.code for n in evaluate(QRELS, run).notices}


# --- files written atomically, never onto an input ------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("target", ["run.trec", "./run.trec", "hard.trec", "link.trec", "q.txt"])
def test_out_onto_an_input_is_refused_and_the_input_kept(inputs, target):
    os.link(inputs / "run.trec", inputs / "hard.trec")
    os.symlink(inputs / "run.trec", inputs / "link.trec")
    line = one_error_line(cli("q.txt", "run.trec", "--out", target, cwd=inputs))
    assert "is one of the inputs" in line
    assert (inputs / "run.trec").read_text() == RUN and (inputs / "q.txt").read_text() == QRELS


@pytest.mark.slow
def test_out_onto_a_baseline_or_one_of_many_runs_is_refused(inputs):
    (inputs / "b.trec").write_text(RUN)
    one_error_line(cli("q.txt", "run.trec", "--baseline", "b.trec", "--out", "b.trec", cwd=inputs))
    one_error_line(cli("q.txt", "run.trec", "b.trec", "--out", "b.trec", cwd=inputs))
    assert (inputs / "b.trec").read_text() == RUN


@pytest.mark.slow
def test_out_is_written_whole_and_keeps_permissions(inputs):
    out = inputs / "report.json"
    out.write_text("old")
    os.chmod(out, 0o640)
    done = cli("q.txt", "run.trec", "-o", "json", "--out", "report.json", cwd=inputs)
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["mean"]["mrr@10"] == 0.75  # (1/2 + 1) / 2
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o640
    assert sorted(p.name for p in inputs.iterdir()) == ["q.txt", "report.json", "run.trec"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "report.json"
    path.write_text("the old report")

    def no_rename(*args):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", no_rename)
    with pytest.raises(OSError):
        evaluate(QRELS, RUN).write(path)
    assert path.read_text() == "the old report" and os.listdir(tmp_path) == ["report.json"]


@pytest.mark.parametrize("suffix, module", [(".yaml", "yaml"), (".toml", "tomli_w")])
def test_a_refused_yaml_or_toml_write_leaves_the_file(tmp_path, monkeypatch, suffix, module):
    from retrieval_metrics import evaluate_retrieval
    monkeypatch.setitem(sys.modules, module, None)  # as if the extra were not installed
    report = evaluate(QRELS, RUN)
    retrieval = evaluate_retrieval({"a": ["d1"]}.get, {"q1": "a"}, {"q1": ["d1"]}, ["mrr"],
                                   progress=False)
    for thing in (report, retrieval):
        path = tmp_path / f"report{suffix}"
        path.write_text("kept")
        with pytest.raises(files.MissingDependency):
            thing.write(path)
        assert path.read_text() == "kept"


# --- run names unique ------------------------------------------------------------------------------

@pytest.mark.slow
def test_runs_named_alike_are_told_apart_and_the_clash_is_said(inputs):
    (inputs / "x.trec").write_text(RUN)
    (inputs / "x.run").write_text("q1 Q0 d1 1 1 t\n")  # mrr q1 1, q2 0 (no results)
    assert run_names(["x.trec", "x.run", "x (2).trec", "x.trec"]) == [
        "x.trec", "x.run", "x (2)", "x.trec (2)"]
    done = cli("q.txt", "x.trec", "x.run", "-o", "json", cwd=inputs)
    data = json.loads(done.stdout)
    assert set(data["reports"]) == {"x.trec", "x.run"}
    assert data["reports"]["x.trec"]["mean"]["mrr@10"] == 0.75
    assert data["reports"]["x.run"]["mean"]["mrr@10"] == 0.5
    assert data["notices"] == ["Run names: x.trec and x.run would both be named x: named x.trec "
                               "and x.run."]
    table = cli("q.txt", "x.trec", "x.run", cwd=inputs).stdout
    assert "x.trec (baseline)" in table and "\nx.run " in table and "would both be named x" in table
    ev = evaluate_many(QRELS, [inputs / "x.trec", inputs / "x.run"], metrics=["mrr"])
    assert ev.names == ["x.trec", "x.run"] and ev.notices[0].code == "run_names"
    assert name_clashes(["a", "b"], ["a", "b"]) == []


# --- numpy arrays, DataFrames and Series by the rules of lists and dicts ------------------------

np = pytest.importorskip("numpy")
pd = pytest.importorskip("pandas")
JUDGED = {"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 2}}


@pytest.mark.parametrize("name, qrels, run, mrr", [
    ("dict of numpy str arrays", JUDGED, {"q1": np.array(["d2", "d1"]), "q2": np.array(["d3"])}, 0.75),
    ("dict of numpy object arrays", JUDGED,
     {"q1": np.array(["d2", "d1"], dtype=object), "q2": np.array(["d3"], dtype=object)}, 0.75),
    ("np.argsort as one query's ranking", {"q1": {1: 1}},
     {"q1": np.argsort(-np.array([0.1, 0.9, 0.3]))}, 1.0),  # [1, 2, 0]: doc 1 first
    ("one-element arrays are collections", {"q1": np.array(["d1"]), "q2": np.array(["d3"])},
     {"q1": ["d9", "d1"], "q2": ["d3"]}, 0.75),
    ("an empty array is an empty ranking", JUDGED, {"q1": np.array([]), "q2": ["d3"]}, 0.5),
    ("2-D array, one row per query", [{"d1": 1}, {"d4": 1}], np.array([["d2", "d1"], ["d4", "d5"]]), 0.75),
    ("PyTerrier frame: docno (not docid), by score", JUDGED,
     pd.DataFrame({"qid": ["q1", "q1", "q2"], "docid": [0, 1, 2], "docno": ["d1", "d2", "d3"],
                   "rank": [1, 0, 0], "score": [1.0, 2.0, 1.0],
                   "query": ["red car", "red car", "blue"]}), 0.75),
    ("PyTerrier qrels frame with label", pd.DataFrame({"qid": ["q1", "q2"], "docno": ["d1", "d3"],
                                                      "label": [1, 2]}),
     {"q1": ["d2", "d1"], "q2": ["d3"]}, 0.75),
    ("groupby().unique() Series against a list by position",
     pd.DataFrame({"qid": ["q1", "q1", "q2"], "docno": ["d1", "d2", "d3"]}).groupby("qid")["docno"].unique(),
     [["d2", "d1"], ["d3"]], 1.0),  # both listed documents relevant: d2 first, rr 1
])
def test_arrays_and_frames_read_as_lists_and_dicts(name, qrels, run, mrr):
    assert evaluate(qrels, run, metrics=["mrr"], k=10).mean["mrr@10"] == mrr, name


@pytest.mark.parametrize("name, qrels, run, words", [
    ("a flat array of ids is one query's ranking", [{"d1": 1}], np.array(["d2", "d1"]),
     ["flat numpy array", "one query's ranking", "{query_id: ids}"]),
    ("a flat list of ids too", [{"d1": 1}], ["d2", "d1"], ["flat list", "one query's ranking"]),
    ("(id, score) pairs are not ids", JUDGED, {"q1": [["d1", 0.5], ["d2", 0.9]]},
     ["pairs", "{doc_id: score}"]),
    ("a Series as one query's ranking", JUDGED, {"q1": pd.Series([0.5, 0.9], index=["d1", "d2"])},
     ["pandas Series", "to_dict()"]),
    ("bools are not ids", JUDGED, {"q1": np.array([True, False])}, ["str or an int"]),
    ("a groupby Series against a mapping",
     pd.DataFrame({"qid": ["q1"], "docno": ["d1"]}).groupby("qid")["docno"].unique(),
     {"q1": ["d1"]}, ["aligned by position", "series.to_dict()"]),
    ("two Series with different indexes", pd.Series([["d1"], ["d3"]], index=["q1", "q2"]),
     pd.Series([["d3"], ["d1"]], index=["q2", "q1"]), ["different indexes"]),
    ("a numpy scalar", JUDGED, np.float64(3.0), ["numpy scalar"]),
])
def test_arrays_and_frames_refused_clearly(name, qrels, run, words):
    with pytest.raises(InputError) as info:
        evaluate(qrels, run)
    for word in words:
        assert word in info.value.message, (name, info.value.message)


def test_answers_as_series_with_different_indexes_are_refused():
    from retrieval_metrics import exact_match_score
    refs = pd.Series(["paris", "rome"], index=[0, 1])
    assert exact_match_score(refs, pd.Series(["Paris", "Rome"], index=[0, 1])) == 1.0
    assert exact_match_score(np.array(["paris", "rome"]), np.array(["paris", "oslo"])) == 0.5
    with pytest.raises(InputError, match="different indexes"):
        exact_match_score(refs, pd.Series(["Rome", "Paris"], index=[1, 0]))


# --- a retriever's answers and its clock ----------------------------------------------------------

def test_search_returning_a_dataframe_is_read():
    from retrieval_metrics import evaluate_retrieval
    frames = {"a": pd.DataFrame({"qid": ["1", "1", "1"], "docid": [7, 3, 5],
                                 "docno": ["d7", "d3", "d5"], "rank": [1, 0, 2],
                                 "score": [2.0, 3.0, 1.0]}),
              "b": pd.DataFrame({"docno": ["d1", "d2"], "score": [1.0, 4.0]})}  # d2 first
    result = evaluate_retrieval(frames.get, {"q1": "a", "q2": "b"},
                                {"q1": ["d7"], "q2": ["d1"]}, ["mrr"], progress=False)
    assert result.per_query == {"q1": {"mrr": 0.5}, "q2": {"mrr": 0.5}}


@pytest.mark.parametrize("answer, words", [
    ([["d1", "d2"], ["d3"]], ["(id, score) pair", "one query"]),
    (pd.Series([0.5], index=["d1"]), ["pandas Series"]),
    (pd.DataFrame({"qid": ["1", "2"], "docno": ["a", "b"]}), ["2 queries"]),
    (pd.DataFrame({"title": ["a"]}), ["none of them is a document id"]),
])
def test_search_answers_that_cannot_be_read_are_refused(answer, words):
    from retrieval_metrics import evaluate_retrieval
    with pytest.raises(InputError) as info:
        evaluate_retrieval(lambda query: answer, {"q1": "x"}, {"q1": ["d1"]}, ["mrr"],
                           progress=False)
    assert info.value.source == "retriever"
    for word in words:
        assert word in info.value.message, info.value.message


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 3])
def test_a_retriever_that_never_answers_times_out_and_the_rest_is_kept(workers):
    from retrieval_metrics import RetrievalTimeoutWarning, evaluate_retrieval
    never = threading.Event()

    def search(query):
        if query == "hang":
            never.wait()
        return {"a": ["d1"], "b": ["d2", "d3"]}[query]

    started = time.perf_counter()
    with pytest.warns(RetrievalTimeoutWarning, match="'q2'"):
        result = evaluate_retrieval(search, {"q1": "a", "q2": "hang", "q3": "b"},
                                    {"q1": ["d1"], "q2": ["d1"], "q3": ["d3"]}, ["mrr"],
                                    timeout=0.3, max_workers=workers, progress=False)
    assert time.perf_counter() - started < 5
    assert result.statuses == {"q1": "success", "q2": "timeout", "q3": "success"}
    assert result.per_query == {"q1": {"mrr": 1.0}, "q2": {"mrr": 0.0}, "q3": {"mrr": 0.5}}
    assert "no answer within 0.3 s" in result.errors["q2"]
    never.set()


@pytest.mark.parametrize("timeout", [0, -1, "5", float("nan"), True])
def test_a_timeout_that_is_not_a_duration_is_refused(timeout):
    from retrieval_metrics import evaluate_retrieval
    with pytest.raises(OptionError, match="timeout"):
        evaluate_retrieval(lambda q: [], {"q1": "x"}, {"q1": []}, ["mrr"], timeout=timeout)


# --- every report reader refuses a malformed or cut file ------------------------------------------

READERS = [".json", ".yaml", ".toml", ".jsonl", ".csv"]


@pytest.mark.slow
@pytest.mark.parametrize("suffix", READERS)
def test_a_report_file_cut_anywhere_is_refused_or_reads_the_same_numbers(tmp_path, suffix):
    """Every cut of the file, at every tenth character: an InputError naming the file, or (for
    YAML and TOML cut where only notices or input descriptions are lost, and JSONL cut at a
    line end, which is a shorter report) a report; never another exception."""
    report = evaluate(QRELS, RUN, k=[1, 2])
    whole = tmp_path / f"whole{suffix}"
    report.write(whole)
    text = whole.read_text(encoding="utf-8")
    cut = tmp_path / f"cut{suffix}"
    refused = 0
    for end in range(0, len(text.rstrip()), 10):
        cut.write_text(text[:end], encoding="utf-8")
        try:
            back = Report.read(cut)
        except InputError as error:
            assert error.message.startswith(str(cut)), error.message
            refused += 1
            continue
        if suffix == ".jsonl":
            assert list(back.per_query) == list(report.per_query)[:len(back.per_query)]
            continue
        assert suffix in (".yaml", ".toml") and back == report, (end, text[:end][-60:])
    assert refused > len(text) // 20


@pytest.mark.parametrize("suffix, text, words", [
    (".json", '{"per_query": {"q1": {"mrr@10": "high"}}}', ["mrr@10", "a number or null"]),
    (".json", '[1, 2]', ["an object"]),
    (".json", '{"per_query": []}', ["per_query", "an object of queries"]),
    (".json", '{"per_query": {}, "k": "10"}', ["k", "whole numbers"]),
    (".json", '{"per_query": {"q1": {}}, "notices": [{"code": 1}]}', ["notice 1"]),
    (".json", "\xef\xbb", ["not valid JSON"]),
    (".jsonl", '{"query": "q1", "mrr@10": "x"}\n', ["a number or null"]),
    (".jsonl", '{"mrr@10": 1}\n', ['"query"']),
    (".jsonl", '{"query": "q1"\n', ["not valid JSON", "line 1"]),
    (".csv", "scope,query,mrr@10,missing\nquery,q1,abc,false\nmean,,1,\n", ["mrr@10", "abc"]),
    (".csv", "scope,query,mrr@10,missing\nquery,q1,1\n", ["cells"]),
    (".csv", "scope,query,mrr@10,missing\nquery,q1,1,false\n", ["no means row"]),
    (".csv", "scope,query,mrr@10,missing\nquery,q1,1,false\nmean,,0.5,\n", ["average"]),
    (".csv", "a,b\n1,2\n", ["not a report"]),
    (".yaml", "per_query: {q1: {mrr@10: [1]}}\n", ["mrr@10", "found a list"]),
    (".yaml", "per_query: {q1: {mrr@10: 1}}\n", ["no k", "cut short"]),
    (".yaml", "per_query: {q1: [\n", ["not valid YAML"]),
    (".toml", "per_query = [\n", ["not valid TOML"]),
])
def test_malformed_report_files_are_refused_with_their_name(tmp_path, suffix, text, words):
    path = tmp_path / f"report{suffix}"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        Report.read(path)
    assert info.value.message.startswith(str(path))
    for word in words:
        assert word in info.value.message, info.value.message


def test_missing_and_unreadable_report_files_are_input_errors(tmp_path):
    with pytest.raises(InputError, match="cannot read it"):
        Report.read(tmp_path / "absent.json")
    (tmp_path / "latin.json").write_bytes(b'{"per_query": {"caf\xe9": {}}}')
    with pytest.raises(InputError, match="not UTF-8"):
        Report.read(tmp_path / "latin.json")


@pytest.mark.slow
def test_a_saved_baseline_with_wrong_values_is_refused_in_the_cli(inputs):
    saved = evaluate(QRELS, RUN).to_dict()
    saved["per_query"]["q1"]["mrr@10"] = "0.5"
    (inputs / "old.json").write_text(json.dumps(saved))
    line = one_error_line(cli("q.txt", "run.trec", "--baseline", "old.json", cwd=inputs))
    assert "baseline" in line and "a number or null" in line


def test_retrieval_evaluation_files_refused_with_their_name(tmp_path):
    from retrieval_metrics import RetrievalEvaluation
    for name, text in (("e.json", '{"names": ["mrr"], "query_ids": ["q1"], "per_query": {"q1": '
                                  '{"mrr": "x"}}, "statuses": {"q1": "success"}, '
                                  '"latencies": {"q1": 0.1}}'),
                       ("e.json", '{"names": '), ("e.jsonl", '{"x": 1}\n'),
                       ("e.csv", "query_id,status,latency,error,mrr\nq1,success,fast,,1\n")):
        path = tmp_path / name
        path.write_text(text)
        with pytest.raises(InputError) as info:
            RetrievalEvaluation.read(path)
        assert info.value.message.startswith(str(path)), info.value.message


# --- ids with control characters --------------------------------------------------------------------

@pytest.mark.slow
def test_terminal_escapes_in_ids_are_printed_escaped(inputs):
    (inputs / "esc.qrels").write_text("q\x1b[2J1 0 d1 1\n")
    (inputs / "esc.run").write_text("q\x1b[2J2 Q0 d1 1 1 t\n")
    done = cli("esc.qrels", "esc.run", cwd=inputs)
    assert done.returncode == 0 and "\x1b" not in done.stdout
    assert "q\\x1b[2J1" in done.stdout and "q\\x1b[2J2" in done.stdout
    (inputs / "esc.qrels").write_text("q1 0 d1 x\x1b[31m\n")
    line = one_error_line(cli("esc.qrels", "esc.run", cwd=inputs))
    assert "\x1b" not in line and "\\x1b[31m" in line


@pytest.mark.slow
@pytest.mark.parametrize("query", ["a\tb", "a\nb", "a\rb"])
def test_ids_that_would_break_trec_lines_are_refused(tmp_path, query):
    (tmp_path / "q.json").write_text(json.dumps({query: {"d1": 1}}))
    (tmp_path / "r.json").write_text(json.dumps({query: ["d1"]}))
    line = one_error_line(cli(tmp_path / "q.json", tmp_path / "r.json", "-o", "trec"))
    assert "tab or a line break" in line
    assert cli(tmp_path / "q.json", tmp_path / "r.json", "-o", "csv").returncode == 0


# --- UTF-16 and gzip through the CLI and the page's entry -----------------------------------------

@pytest.mark.slow
def test_utf16_and_gzip_files_in_the_cli_and_the_page(inputs):
    (inputs / "q16.txt").write_bytes(QRELS.replace("\n", "\r\n").encode("utf-16"))
    (inputs / "run.gz").write_bytes(gzip.compress(RUN.encode()))
    done = cli("q16.txt", "run.gz", "-m", "mrr", cwd=inputs)
    assert done.returncode == 0, done.stderr
    assert "0.7500" in done.stdout  # (1/2 + 1) / 2
    assert "decoded from UTF-16" in done.stdout and "decompressed (gzip)" in done.stdout
    out = web.analyse((inputs / "q16.txt").read_bytes(), (inputs / "run.gz").read_bytes(),
                      {"k": 10, "metrics": ["mrr"]})
    assert out["report"]["mean"]["mrr@10"] == 0.75
    assert [n["code"] for n in out["report"]["notices"]].count("decoded") == 2
    stdin = subprocess.run([sys.executable, "-m", "retrieval_metrics", "q.txt", "-", "-m", "mrr"],
                           input=gzip.compress(RUN.encode()), capture_output=True, cwd=inputs,
                           env={**os.environ, "PYTHONPATH": PY}, timeout=60)
    assert stdin.returncode == 0 and b"0.7500" in stdin.stdout


@pytest.mark.parametrize("qrels", ['{"q1": {"d1": 0.87}}', {"q1": {"d1": 0.87}}, "q1\td1\t0.87\n"])
def test_scores_given_as_judgements_name_the_likely_swap(qrels):
    with pytest.raises(InputError, match="is a score: are results in the judgements"):
        evaluate(qrels, {"q1": ["d1"]} if isinstance(qrels, dict) else "q1 Q0 d1 1 1 t\n")


# --- nesting, NaN, lone surrogates, huge ints, mixed id types (the client-paths issue) -----------

DEEP = "[" * 100_000 + "]" * 100_000


def test_a_deeply_nested_baseline_is_one_error_in_the_cli_the_api_and_the_page(inputs):
    (inputs / "deep.json").write_text(DEEP)
    line = one_error_line(cli("q.txt", "run.trec", "--baseline", "deep.json", cwd=inputs))
    assert line == "retrieval-metrics: baseline: the JSON is nested too deeply"
    out = web.analyse(QRELS, RUN, {}, DEEP)
    assert "nested too deeply" in out["errors"]["baseline"]["message"]
    assert out["report"]["mean"]["mrr@10"] == 0.75  # the run itself is still scored


def test_nan_in_a_saved_report_is_an_undefined_value_and_infinity_is_refused():
    # the baseline's q1 is NaN (as a tool writing JSON with NaN would save it): undefined, so
    # left out of the baseline's mean, as the report's own null is
    saved = json.dumps({"per_query": {"q1": {"mrr@10": float("nan")}, "q2": {"mrr@10": 0.5}},
                        "mean": {"mrr@10": 0.5}})
    assert "NaN" in saved
    out = web.analyse(QRELS, RUN, {"metrics": "mrr"}, saved)
    assert out["errors"]["baseline"] is None
    (row,) = out["comparison"]["metrics"]
    assert (row["n"], row["baseline_mean"], row["candidate_mean"]) == (1, 0.5, 1.0)  # q2: 1/1
    assert out["comparison"]["notices"][0]["queries"] == ["q1"]  # undefined in the baseline
    out = web.analyse(QRELS, RUN, {"metrics": "mrr"}, saved.replace("0.5}}", "Infinity}}", 1))
    assert out["errors"]["baseline"]["message"] == (
        "baseline: per_query, query 'q2', mrr@10: expected a finite number or null, found inf")


def test_a_lone_surrogate_in_an_id_is_refused_by_name_and_nothing_is_written(tmp_path):
    report = evaluate({"q\udcff1": {"d1": 1}}, {"q\udcff1": {"d1": 1.0}})
    for suffix in ("csv", "json", "tsv"):
        path = tmp_path / f"r.{suffix}"
        with pytest.raises(OptionError, match=r"U\+DCFF, a lone surrogate") as caught:
            report.write(path)
        assert f"r.{suffix}: line " in str(caught.value)
    assert os.listdir(tmp_path) == []  # no file, no temporary left


def test_int_ids_longer_than_pythons_4300_digits_work():
    long_id = 10 ** 5000 + 7
    text = "1" + "0" * 4999 + "7"
    report = evaluate({long_id: {"d1": 1}}, {long_id: {"d1": 1.0, "d2": 0.5}}, k=1)
    assert list(report.per_query) == [text] and report.mean["mrr@1"] == 1.0
    report = evaluate({"q1": {long_id: 1}}, {"q1": [7, long_id]}, k=2)
    assert report.mean["mrr@2"] == 0.5


@pytest.mark.parametrize("qrels, run, source, words", [
    ({1: {"d1": 1}, "q2": {"d1": 1}}, {"q2": {"d1": 1.0}}, "qrels", "within the judgements"),
    ({"q1": {"d1": 1}}, {1: {"d1": 1.0}, "q1": {}}, "run", "within the results"),
    ({"q1": {"d1": 1}}, {1: {"d1": 1.0}}, "run", "(int, in the results) and 'q1' (str, in the judgements)"),
])
def test_mixed_int_and_str_ids_are_laid_at_the_input_that_mixes_them(qrels, run, source, words):
    with pytest.raises(InputError) as caught:
        evaluate(qrels, run)
    assert caught.value.source == source and words in str(caught.value)


@pytest.mark.parametrize("options, field, words", [
    ({"metrics": 5}, "metrics", "metrics must be a list of names, found 5"),
    ({"metrics": ["mrr", 5]}, "metrics", "found 5 (int) in it"),
    ({"samples": "abc"}, "samples", "samples must be a whole number from 1 to 1,000,000, found 'abc'"),
    ({"samples": 0}, "samples", "samples must be a whole number from 1 to 1,000,000, found 0"),
    ({"seed": "1.5"}, "seed", "seed must be a whole number >= 0, found '1.5'"),
])
def test_the_pages_options_of_the_wrong_type_are_refused_in_the_clis_words(options, field, words):
    out = web.analyse(QRELS, RUN, options, RUN)
    assert out["errors"]["options"] == {"field": field, "message": out["errors"]["options"]["message"]}
    assert words in out["errors"]["options"]["message"] and out["report"] is None


@pytest.mark.parametrize("options, words", [
    ({"digits": 99}, "digits must be a whole number from 0 to 15, found 99"),
    ({"digits": "abc"}, "digits must be a whole number from 0 to 15, found 'abc'"),
    ({"alpha": "x"}, "alpha must be a number between 0 and 1, found 'x'"),
    ({"confidence": 1.5}, "confidence must be a number between 0 and 1, found 1.5"),
    ({"seed": "1.5"}, "seed must be a whole number >= 0, found '1.5'"),
])
def test_many_runs_options_are_checked_before_anything_is_compared(options, words):
    out = web.analyse_many(QRELS, [("a", RUN), ("b", RUN)], options)
    assert out["errors"]["options"]["message"] == words and out["comparison"] is None


def test_the_pages_options_as_text_read_as_the_numbers_they_are():
    out = web.analyse(QRELS, RUN, {"samples": "200", "seed": "7"}, RUN)
    assert (out["comparison"]["samples"], out["comparison"]["seed"]) == (200, 7)
    out = web.analyse_many(QRELS, [("a", RUN), ("b", RUN)], {"digits": "2"})
    assert "1.00" in out["exports"]["markdown"] and "1.000" not in out["exports"]["markdown"]


@pytest.mark.slow
def test_zero_division_warn_is_one_line_in_the_clis_voice(inputs):
    (inputs / "q0.txt").write_text("q1 0 d1 1\nq2 0 d5 0\n")  # q2: no relevant document
    done = cli("q0.txt", "run.trec", "--zero-division", "warn", cwd=inputs)
    assert done.returncode == 0
    assert done.stderr.splitlines() == [
        "retrieval-metrics: warning: 1 query without a relevant document: recall, nDCG and AP "
        "are undefined there and were set to 0"]


def test_evaluate_retrieval_with_metrics_none_uses_the_defaults():
    from retrieval_metrics import evaluate_retrieval
    result = evaluate_retrieval({"a": ["d2", "d1"]}.get, {"q1": "a"}, {"q1": ["d1"]},
                                metrics=None, progress=False)
    assert result.mean == {"recall@10": 1.0, "mrr": 0.5, "ndcg@10": pytest.approx(1 / math.log2(3))}
