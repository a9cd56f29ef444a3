"""Parser fuzzing: whatever is typed into either box gives a Report or exactly InputError, naming
that box; plus specific bad inputs, each with the right error, source and line."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from retrieval_metrics import InputError, OptionError, evaluate
from retrieval_metrics.report.report import Report

FUZZ = settings(max_examples=200, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

GOOD_QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\n"
GOOD_RUN = "q1 Q0 d1 1 2.5 t\nq1 Q0 d2 2 1.5 t\nq2 Q0 d3 1 1 t\n"
BLANK = "\ufeff \t\r\n\v\f"
SOURCE_WORD = {"qrels": "judgements", "run": "results"}

TOKENS = ["q1", "q2", "Q0", "0", "d1", "d2", "1", "2", "-1", "0.5", "1.5", "1e-3", "1e400", "nan",
          "inf", "-inf", "NaN", "query", "QID", "topic", "query-id", "#", "#x", "doc#1", "{", "}",
          "[", "]", '"', '"a,b"', "'", ",", ":", "null", "true", "\u00a0", "é", "\ufeff", "\x85",
          "\x1c", "\u2028", "", "tag", "9" * 30, "-0", "+1", "0x10", "1_000", "٣"]
SEPS = [" ", "\t", ",", "  ", " , ", "\v", "\f", "\r", ";", "\t\t"]


@st.composite
def token_lines(draw):
    lines = draw(st.lists(
        st.tuples(st.lists(st.sampled_from(TOKENS), min_size=0, max_size=7), st.sampled_from(SEPS)),
        min_size=0, max_size=8))
    eol = draw(st.sampled_from(["\n", "\r\n", "\r", "\n\n"]))
    return eol.join(sep.join(tokens) for tokens, sep in lines)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 5) | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=5),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=4),
    max_leaves=12).map(lambda v: json.dumps(v))

ANY_BOX = st.one_of(st.text(max_size=300), st.binary(max_size=300), token_lines(), JSONISH,
                    st.text(st.characters(codec="utf-8"), max_size=100).map(lambda s: s.encode("utf-8", "surrogatepass")))


def _assert_outcome(qrels, run, fuzzed_box):
    try:
        report = evaluate(qrels, run, k=[1, 3], metrics=["recall", "precision", "mrr", "ndcg", "map", "rr"])
    except InputError as err:
        assert type(err) is InputError
        assert err.source == fuzzed_box, err.message
        assert err.line is None or (isinstance(err.line, int) and err.line >= 1)
        assert isinstance(err.message, str) and err.message.startswith(SOURCE_WORD[err.source])
        json.dumps(err.to_dict(), allow_nan=False)
        return
    assert isinstance(report, Report)
    for row in list(report.per_query.values()) + [report.mean]:
        for v in row.values():
            assert isinstance(v, float) or isinstance(v, int)
            assert math.isfinite(v) and 0 <= v <= 1
    json.dumps(report.to_dict(), allow_nan=False)


@pytest.mark.slow
@FUZZ
@given(ANY_BOX)
def test_fuzz_qrels_box(text):
    _assert_outcome(text, GOOD_RUN, "qrels")


@pytest.mark.slow
@FUZZ
@given(ANY_BOX)
def test_fuzz_run_box(text):
    _assert_outcome(GOOD_QRELS, text, "run")


@pytest.mark.slow
@FUZZ
@given(token_lines(), token_lines())
def test_fuzz_both_boxes(qrels, run):
    try:
        evaluate(qrels, run, k=5)
    except InputError as err:
        assert type(err) is InputError and err.source in ("qrels", "run")


@pytest.mark.slow
@FUZZ
@given(ANY_BOX.map(lambda v: v.decode("utf-8", "replace") if isinstance(v, bytes) else v),
       ANY_BOX.map(lambda v: v.decode("utf-8", "replace") if isinstance(v, bytes) else v))
def test_fuzz_web_analyse_never_raises(qrels, run):
    from retrieval_metrics.page import web
    out = web.analyse(qrels, run, {})
    assert set(out) >= {"inputs", "errors", "report"}
    json.dumps(out, allow_nan=False)
    if out["report"] is None:
        # no numbers: an error names a box, unless a box is simply still empty
        assert any(out["errors"][box] for box in ("qrels", "run", "options")) \
            or not qrels.strip(BLANK) or not run.strip(BLANK)
    for box in ("qrels", "run"):
        if out["errors"][box]:
            assert out["errors"][box]["source"] == box


# --- specific bad inputs -------------------------------------------------------------------

def _error(qrels, run, **options):
    with pytest.raises(InputError) as info:
        evaluate(qrels, run, **options)
    assert type(info.value) is InputError
    return info.value


@pytest.mark.parametrize("empty", ["", b"", "\n\n", "  \t \r\n", "\ufeff", b"\xef\xbb\xbf\n"])
def test_empty_input(empty):
    assert _error(empty, GOOD_RUN).source == "qrels"
    assert _error(GOOD_QRELS, empty).source == "run"


@pytest.mark.parametrize("garbage", [bytes(range(256)), b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
                                     b"PK\x03\x04\x14\x00\x00\x00\x08\x00", b"\xff\xfe\x00\x00"])
def test_binary_garbage(garbage):
    assert _error(garbage, GOOD_RUN).source == "qrels"
    assert _error(GOOD_QRELS, garbage).source == "run"


def test_nul_bytes_in_text():
    assert _error("q1 0 d1 1\nq1 0 d\x002 1\n", GOOD_RUN).source == "qrels"


def test_not_utf8_is_read_and_named():
    """Not an error any more (issue 11): each such line is read as Windows-1252, and a warning
    names the first (tests/test_encoding.py has the rest)."""
    report = evaluate("q1 0 d1 1\nq1 0 d\xe9 1\n".encode("latin-1"), GOOD_RUN, k=1)
    assert [(n.code, n.count) for n in report.notices if n.code == "not_utf8"] == [("not_utf8", 1)]
    assert "Judgements: line 2 " in report.notices[0].message
    report = evaluate(GOOD_QRELS, b"q1 Q0 d1 1 2 t\nq1 Q0 d2 2 1 t\nq1 Q0 \xc3 3 0 t\n", k=1)
    assert "Results: line 3 " in report.notices[0].message


@pytest.mark.parametrize("as_bytes", [False, True])
def test_bom_parses(as_bytes):
    qrels, run = "\ufeff" + GOOD_QRELS, "\ufeff" + GOOD_RUN
    if as_bytes:
        qrels, run = qrels.encode(), run.encode()
    report = evaluate(qrels, run, k=1)
    assert set(report.per_query) == {"q1", "q2"}
    assert report.per_query["q1"]["precision@1"] == 1.0
    assert report.per_query["q2"]["precision@1"] == 1.0


def test_bom_json_parses():
    report = evaluate('\ufeff{"q1": {"d1": 1}}', b'\xef\xbb\xbf{"q1": ["d1"]}', k=1)
    assert report.per_query["q1"]["precision@1"] == 1.0


@pytest.mark.parametrize("fmt", ["trec", "csv", "json"])
def test_crlf_parses(fmt):
    if fmt == "trec":
        qrels, run = GOOD_QRELS, GOOD_RUN
    elif fmt == "csv":
        qrels, run = "q1,d1,1\nq1,d2,0\nq2,d3,2\n", "q1,d1\nq1,d2\nq2,d3\n"
    else:
        qrels, run = '{"q1": {"d1": 1, "d2": 0},\n "q2": {"d3": 2}}\n', '{"q1": ["d1", "d2"],\n "q2": ["d3"]}\n'
    report = evaluate(qrels.replace("\n", "\r\n"), run.replace("\n", "\r\n"), k=1)
    # the last column must not keep a "\r": d1 and d3 (grades "1\r", "2\r") are relevant, found at rank 1
    assert report.per_query["q1"]["precision@1"] == 1.0
    assert report.per_query["q2"]["ndcg@1"] == 1.0
    assert report.scored_queries == 2


@pytest.mark.parametrize("score", ["nan", "NaN", "-nan", "inf", "-inf", "Infinity", "-Infinity", "INF", "1e400"])
def test_non_finite_scores_are_errors(score):
    err = _error(GOOD_QRELS, f"q1 Q0 d1 1 2.5 t\nq1 Q0 d2 2 {score} t\n")
    assert err.source == "run" and err.line == 2
    assert err.text is not None and score in err.text
    err = _error(GOOD_QRELS, f"q1 d1 0.5\nq1 d2 {score}\n")
    assert err.source == "run" and err.line == 2


@pytest.mark.parametrize("score", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_non_finite_json_scores_are_errors(score):
    err = _error(GOOD_QRELS, '{"q1": {"d1": 1.5, "d2": %s}}' % score)
    assert err.source == "run"


def test_non_finite_dict_scores_are_errors():
    for bad in (math.nan, math.inf, -math.inf):
        with pytest.raises(InputError):
            evaluate({"q1": {"d1": 1}}, {"q1": {"d1": 1.0, "d2": bad}})


@pytest.mark.parametrize("grade", ["1.5", "0.5", "-0.5", "one", "1/2"])
def test_non_integer_grade_names_its_line(grade):
    err = _error(f"q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 {grade}\n", GOOD_RUN)
    assert err.source == "qrels" and err.line == 3
    assert "line 3" in err.message and err.message.startswith("judgements, line 3")
    assert err.text == f"q1 0 d3 {grade}"


def test_non_integer_grade_in_json_and_dict():
    assert _error('{"q1": {"d1": 1.5}}', GOOD_RUN).source == "qrels"
    with pytest.raises(InputError) as info:
        evaluate({"q1": {"d1": 1.5}}, {"q1": ["d1"]})
    assert info.value.source == "qrels"


@pytest.mark.parametrize("k", [0, -1, "0", [1, 0], "1,0", "x", "", 1.5, [], "1,,x"])
def test_bad_k_is_option_error(k):
    with pytest.raises(OptionError) as info:
        evaluate(GOOD_QRELS, GOOD_RUN, k=k)
    assert type(info.value) is OptionError and info.value.field == "k"
    assert not isinstance(info.value, InputError)


@pytest.mark.parametrize("field,value", [("gain", "quadratic"), ("missing", "maybe"),
                                         ("qrels_format", "xml"), ("run_format", "parquet"),
                                         ("third_column", "grade"), ("metrics", ["recall", "bleu"])])
def test_bad_options_are_option_errors(field, value):
    with pytest.raises(OptionError) as info:
        evaluate(GOOD_QRELS, GOOD_RUN, **{field: value})
    assert info.value.field == field
    json.dumps(info.value.to_dict())


def test_column_count_message():
    err = _error(GOOD_QRELS, "q1 Q0 d1 1 2.5 t\nq1 Q0 d2 2 1.5\n")
    assert err.source == "run" and err.line == 2
    assert err.message == "results, line 2: expected 6 columns (query Q0 doc rank score tag) as in line 1, found 5"
    assert err.text == "q1 Q0 d2 2 1.5"
    assert err.expected


def test_column_count_message_qrels_later_line():
    err = _error("q1 0 d1 1\n\n# note\nq1 0 d2 0\nq1 d3 1\n", GOOD_RUN)
    assert err.source == "qrels" and err.line == 5
    assert err.message.startswith("judgements, line 5: expected 4 columns")
    assert "found 3" in err.message and "line 1" in err.message


def test_the_other_box_is_not_blamed():
    # a bad run with good qrels names the run, and vice versa, whatever the order of checks
    assert _error("q1 0 d1 x\n", "q1 Q0 d1 1 nan t\n").source in ("qrels", "run")
    assert _error(GOOD_QRELS, "q1 Q0 d1 1 nan t\n").source == "run"
    assert _error("q1 0 d1 x\n", GOOD_RUN).source == "qrels"


def unicode_spaces() -> list[str]:
    """Every character str.split() takes for a separator but trec_eval does not (computed when
    the test runs: walking all of Unicode costs half a second, too much for every collection)."""
    return [chr(c) for c in range(0x110000)
            if (chr(c).isspace() or chr(c) in "\x1c\x1d\x1e\x1f") and chr(c) not in " \t\n\r\x0b\x0c"]


@pytest.mark.slow
def test_every_non_ascii_space_is_part_of_an_id():
    spaces = unicode_spaces()
    # str.split() and str.splitlines() treat these as separators / line ends; docs/formats.md does not.
    assert len(spaces) >= 20 and "\u00a0" in spaces and "\x85" in spaces
    bad = []
    for c in spaces:
        for doc in (f"{c}d", f"d{c}", c, f"{c}{c}"):
            for qid in ("q1", f"{c}q1", f"q1{c}"):
                # doc is relevant, "other" is not, "{c}other" is another (relevant, unretrieved) doc
                qrels = f"{qid} 0 {doc} 1\n{qid} 0 other 0\n{qid} 0 {c}other 1\n"
                run = f"{qid} Q0 other 1 2 t\n{qid} Q0 {doc} 2 1 t\n"
                for qq, rr in ((qrels, run), (qrels.encode(), run.encode())):
                    try:
                        row = evaluate(qq, rr, k=2).per_query.get(qid, {})
                    except InputError as err:
                        bad.append((hex(ord(c)), doc, qid, err.message))
                        continue
                    if row.get("mrr@2") != 0.5 or row.get("recall@2") != 0.5:
                        bad.append((hex(ord(c)), doc, qid, row))
    assert bad == []
