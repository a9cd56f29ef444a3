"""retrieval_metrics.page.web.analyse_answers, the page's Answers mode: formats, detection lines,
notices, errors naming the box and the line, and the numbers of docs/measures.md."""

from __future__ import annotations

import csv
import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from retrieval_metrics.answers.metrics import (
    anls_score,
    edit_similarity_score,
    exact_match_score,
    token_f1_score,
)
from retrieval_metrics.inputs import source
from retrieval_metrics.page import web

SPEC_REFS_JSONL = ('{"id": "q1", "reference": "The Eiffel Tower"}\n'
                   '{"id": "q2", "references": ["Paris", "City of Paris"]}\n')
SPEC_ANSWERS_JSONL = ('{"id": "q1", "answer": "eiffel tower."}\n'
                      '{"id": "q2", "answer": "Paris, France"}\n')
# docs/measures.md's numbers, worked in test_answers.py: EM 1/2, F1 5/6, ANLS 11/32, ES (5/8 + 5/13)/2
SPEC_MEANS = {"exact_match": 0.5, "token_f1": 5 / 6, "anls": 11 / 32,
              "edit_similarity": (5 / 8 + 5 / 13) / 2}


def means(out):
    assert not any(out["errors"].values()), out["errors"]
    return out["report"]["mean"]


def codes(out):
    return [notice["code"] for notice in out["report"]["notices"]]


def assert_spec_means(out):
    mean = means(out)
    assert mean["exact_match"] == 0.5
    assert mean["token_f1"] == 5 / 6
    assert mean["anls"] == 0.34375
    assert mean["edit_similarity"] == pytest.approx(SPEC_MEANS["edit_similarity"], abs=1e-16)
    assert round(mean["edit_similarity"], 4) == 0.5048


# ---------------------------------------------------------------- every format gives the numbers

def test_jsonl_boxes():
    out = web.analyse_answers(SPEC_REFS_JSONL, SPEC_ANSWERS_JSONL, {})
    assert_spec_means(out)
    assert out["inputs"]["references"]["description"] == "JSONL: 2 lines, 2 items, 3 references"
    assert out["inputs"]["answers"]["description"] == "JSONL: 2 lines, 2 items, 2 answers"
    first, second = out["report"]["per_item"]
    assert first == {"id": "q1", "answer": "eiffel tower.", "references": ["The Eiffel Tower"],
                     "exact_match": 1.0, "token_f1": 1.0, "anls": 0.6875,
                     "edit_similarity": 0.625}
    assert second["references"] == ["Paris", "City of Paris"]
    assert second["token_f1"] == 2 / 3 and second["anls"] == 0.0
    assert out["report"]["notices"] == []
    json.dumps(out, allow_nan=False)


def test_csv_with_repeated_ids_and_quoted_commas():
    refs = "q1,The Eiffel Tower\nq2,Paris\nq2,City of Paris\n"
    answers = 'q1,eiffel tower.\nq2,"Paris, France"\n'
    out = web.analyse_answers(refs, answers, {})
    assert_spec_means(out)
    assert out["inputs"]["references"]["description"] == \
        "CSV: 2 columns (id, reference), 3 rows, 2 items, 3 references"


def test_tsv_and_json_mapping():
    refs = json.dumps({"q1": "The Eiffel Tower", "q2": ["Paris", "City of Paris"]}, indent=1)
    answers = "q1\teiffel tower.\nq2\tParis, France\n"
    out = web.analyse_answers(refs, answers, {})
    assert_spec_means(out)
    assert out["inputs"]["references"]["format"] == "json"
    assert out["inputs"]["references"]["description"] == "JSON: 2 entries, 2 items, 3 references"
    assert out["inputs"]["answers"]["description"] == \
        "TSV: 2 columns (id, answer), 2 rows, 2 items, 2 answers"


def test_json_answers_mapping_and_array_of_objects():
    refs = json.dumps([{"id": "q1", "reference": "The Eiffel Tower"},
                       {"id": "q2", "references": ["Paris", "City of Paris"]}])
    answers = json.dumps({"q1": "eiffel tower.", "q2": "Paris, France"})
    assert_spec_means(web.analyse_answers(refs, answers, {}))


def test_one_box_holds_both():
    both = ('{"id": "q1", "reference": "The Eiffel Tower", "answer": "eiffel tower.", "question": "?"}\n'
            '{"id": "q2", "references": ["Paris", "City of Paris"], "answer": "Paris, France"}\n')
    out = web.analyse_answers(both, "", {})
    assert_spec_means(out)
    assert out["inputs"]["references"]["description"] == \
        "JSONL: 2 lines, 2 items, 3 references, 2 answers"
    assert out["inputs"]["answers"] is None
    # pasted into the answers box instead, it fills in for the empty references box
    assert_spec_means(web.analyse_answers("", both, {}))


def test_csv_with_a_header_naming_both_columns():
    both = ('question_id,question,reference,answer\n'
            'q1,Where?,The Eiffel Tower,eiffel tower.\n'
            'q2,Which city?,Paris,"Paris, France"\n'
            'q2,Which city?,City of Paris,"Paris, France"\n')
    out = web.analyse_answers(both, "", {})
    assert_spec_means(out)
    assert out["inputs"]["references"]["columns"] == ["id", "ignored", "reference", "answer"]
    # the header is reported; q2's answer on two rows (with its two references) is no repeat
    assert codes(out) == ["header_skipped"]


def test_both_boxes_filled_the_other_kind_is_ignored_with_a_notice():
    both = '{"id": "q1", "reference": "Paris", "answer": "Lyon"}\n'
    out = web.analyse_answers(both, "q1,paris\n", {})
    assert means(out)["exact_match"] == 1.0  # the answers box's "paris", not "Lyon"
    assert codes(out) == ["answers_ignored"]
    assert out["report"]["notices"][0]["message"] == \
        "references: 1 answer in this box ignored; the answers box gives the answers."


def test_formats_can_be_chosen():
    # "q1,a" read as TSV is one column: the error says what was expected
    out = web.analyse_answers("q1,a\n", "q1,a\n", {"references_format": "tsv"})
    assert out["errors"]["references"]["message"] == \
        "references, line 1: expected 2 columns (id <tab> reference), found 1"
    assert out["inputs"]["answers"]["format"] == "csv"
    out = web.analyse_answers("q1,a\n", "q1,a\n", {"answers_format": "xml"})
    assert out["errors"]["options"]["field"] == "answers_format"


# ---------------------------------------------------------------- notices

def test_missing_answers_score_zero_or_are_left_out():
    refs = "q1,Paris\nq2,Lyon\nq3,Nice\n"
    answers = "q1,paris\n"
    out = web.analyse_answers(refs, answers, {})
    # zero: q1 1, q2 0, q3 0 -> EM 1/3
    assert means(out)["exact_match"] == 1 / 3
    assert out["report"]["missing_items"] == ["q2", "q3"]
    assert out["report"]["per_item"][1] == {
        "id": "q2", "answer": None, "references": ["Lyon"], "exact_match": 0.0,
        "token_f1": 0.0, "anls": 0.0, "edit_similarity": 0.0}
    notice = out["report"]["notices"][0]
    assert notice["code"] == "missing_answers" and notice["queries"] == ["q2", "q3"]
    assert notice["message"] == \
        "2 items with a reference have no answer: scored 0 on every metric (q2, q3); " \
        "check that the answers' ids are the references' ones."
    out = web.analyse_answers(refs, answers, {"missing": "skip"})
    assert means(out)["exact_match"] == 1.0 and out["report"]["scored_items"] == 1
    assert "left out of the means" in out["report"]["notices"][0]["message"]


def test_answers_without_a_reference_are_not_scored():
    out = web.analyse_answers("q1,Paris\n", "q1,paris\nq9,Rome\n", {})
    assert means(out)["exact_match"] == 1.0 and out["report"]["scored_items"] == 1
    assert codes(out) == ["unreferenced_answers"]
    assert out["report"]["notices"][0]["message"] == \
        "1 answer has no reference and is not scored (q9); add its reference to score it."


def test_repeated_answers():
    # q1 answered twice with different texts: the first ("paris") is scored
    out = web.analyse_answers("q1,Paris\nq2,Lyon\n", "q1,paris\nq1,rome\nq2,lyon\nq2,lyon\n", {})
    assert means(out)["exact_match"] == 1.0
    assert codes(out) == ["duplicate_answers", "repeated_answers"]
    assert out["report"]["notices"][0]["queries"] == ["q1"]
    assert out["report"]["notices"][1]["queries"] == ["q2"]


def test_no_item_can_be_scored():
    out = web.analyse_answers("q1,Paris\n", "q1,paris\n".replace("q1", "q2"), {"missing": "skip"})
    assert out["report"]["mean"] == {} and out["report"]["scored_items"] == 0
    assert codes(out) == ["missing_answers", "unreferenced_answers", "no_scored_items"]


# ---------------------------------------------------------------- errors name the box and line

def test_bad_jsonl_line_names_box_and_line():
    answers = '{"id": "q1", "answer": "a"}\n\n{"id": "q2", "answer": "b",}\n'
    out = web.analyse_answers(SPEC_REFS_JSONL, answers, {})
    err = out["errors"]["answers"]
    assert err["source"] == "answers" and err["line"] == 3
    assert err["message"].startswith("answers, line 3: this is not valid JSON")
    assert err["text"] == '{"id": "q2", "answer": "b",}'
    assert out["report"] is None
    assert out["errors"]["references"] is None  # the other box still says what it holds
    assert out["inputs"]["references"]["items"] == 2


@pytest.mark.parametrize("line, problem", [
    ('{"answer": "a"}', 'this object has no "id"'),
    ('{"id": "q1"}', 'this object has no "reference", "references" or "answer"'),
    ('{"id": true, "answer": "a"}', '"id" must be a string or a whole number, found true'),
    ('{"id": "q1", "answer": 1.5}', '"answer" must be a string, found the number 1.5'),
    ('{"id": "q1", "references": []}', "the list of references is empty"),
    ('{"id": "q1", "reference": "a", "references": ["b"]}', 'give "reference" or "references", not both'),
    ('["q1", "a"]', "expected a JSON object, found a list"),
])
def test_bad_jsonl_objects(line, problem):
    out = web.analyse_answers('{"id": "q0", "reference": "x"}\n' + line, "", {})
    assert out["errors"]["references"]["message"] == f"references, line 2: {problem}"


def test_bad_csv_row_names_line_and_hints_at_quotes():
    out = web.analyse_answers("q1,Paris\n", "q1,Paris\nq2,Paris, France\n", {})
    err = out["errors"]["answers"]
    assert err["line"] == 2 and err["text"] == "q2,Paris, France"
    assert err["message"] == ('answers, line 2: expected 2 columns (id, answer), found 3; put '
                              'text that holds commas in double quotes ("Paris, France"), or use TSV')


def test_csv_line_numbers_count_line_breaks_inside_quotes():
    answers = 'q1,"two\nlines"\nq2\n'
    out = web.analyse_answers("q1,a\n", answers, {})
    assert out["errors"]["answers"]["line"] == 3
    assert out["errors"]["answers"]["message"].startswith("answers, line 3: expected 2 columns")


def test_bad_json_value_names_the_item():
    out = web.analyse_answers('{"q1": "Paris", "q2": null}', "q1,a", {})
    assert out["errors"]["references"]["message"] == \
        "references: item 'q2': \"reference\" must be a string, found null"


def test_a_box_without_references_or_answers():
    only_answers = '{"id": "q1", "answer": "a"}\n'
    out = web.analyse_answers(only_answers, "q1,a\n", {})
    assert out["errors"]["references"]["message"] == "references: there are no references here"
    out = web.analyse_answers("q1,Paris\n", '{"id": "q1", "reference": "Paris"}\n', {})
    assert out["errors"]["answers"]["message"] == "answers: there are no answers here"


def test_empty_boxes_and_one_box_only():
    assert web.analyse_answers("", "", {})["report"] is None
    out = web.analyse_answers("q1,Paris\n", "  \n", {})
    assert out["report"] is None and out["errors"]["references"] is None
    assert out["inputs"]["references"]["description"] == \
        "CSV: 2 columns (id, reference), 1 row, 1 item, 1 reference"


def test_bytes_are_read_as_the_rankings_read_them():
    # UTF-8 bytes, with a byte-order mark
    data = "\ufeffq1,Café\n".encode()
    out = web.analyse_answers(data, "q1,café".encode(), {})
    assert means(out)["exact_match"] == 1.0
    # bytes that are not UTF-8 go through the same source.decode as the rankings' boxes
    latin = "q1,Caf\u00e9\n".encode("cp1252")
    try:
        expected = source.decode(latin, "references")
    except Exception as exc:  # noqa: BLE001 - either way the Answers box must behave alike
        out = web.analyse_answers(latin, "q1,x", {})
        assert out["errors"]["references"]["message"] == exc.message
    else:
        out = web.analyse_answers(latin, "q1,Caf\u00e9", {})
        assert expected == "q1,Caf\u00e9\n" and means(out)["exact_match"] == 1.0


# ---------------------------------------------------------------- generated round trips


_ids = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\x00\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\u2028\u2029"),
               min_size=1, max_size=6).filter(lambda s: s.strip() == s and s.strip())
_texts = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\x00"), max_size=20)
_texts = st.one_of(_texts, _texts.map(lambda t: " " + t), st.sampled_from(["", " ", "a, b", 'say "hi"']))
_items = st.dictionaries(_ids, st.tuples(st.lists(_texts, min_size=1, max_size=3), _texts),
                         min_size=1, max_size=5)


def _csv(rows) -> str:
    buffer = io.StringIO()
    # the default line end (CRLF) makes the writer quote a lone CR or LF inside a cell; with "\n"
    # alone it would leave a CR unquoted, which every CSV reader takes as a line end
    csv.writer(buffer).writerows(rows)
    return buffer.getvalue()


def _write(items: dict, fmt: str) -> tuple[str, str]:
    if fmt == "jsonl":
        return ("".join(json.dumps({"id": i, "references": refs}) + "\n" for i, (refs, _) in items.items()),
                "".join(json.dumps({"id": i, "answer": answer}) + "\n" for i, (_, answer) in items.items()))
    if fmt == "json":
        return (json.dumps({i: refs for i, (refs, _) in items.items()}),
                json.dumps({i: answer for i, (_, answer) in items.items()}))
    rows = [(i, ref) for i, (refs, _) in items.items() for ref in refs]
    return (_csv([("id", "reference"), *rows]), _csv([("id", "answer"), *((i, a) for i, (_, a) in items.items())]))


@pytest.mark.slow
@given(_items, st.sampled_from(["jsonl", "json", "csv"]))
def test_written_items_read_back_and_score_as_the_library_does(items, fmt):
    references, answers = _write(items, fmt)
    out = web.analyse_answers(references, answers, {})
    assert not any(out["errors"].values()), (out["errors"], references, answers)
    report = out["report"]
    ids = list(items)
    assert [row["id"] for row in report["per_item"]] == ids
    for row in report["per_item"]:
        refs, answer = items[row["id"]]
        assert row["answer"] == answer
        assert row["references"] == list(dict.fromkeys(refs))  # repeats counted once
    refs_list = [items[i][0] for i in ids]
    answer_list = [items[i][1] for i in ids]
    assert report["mean"] == {
        "exact_match": exact_match_score(refs_list, answer_list),
        "token_f1": token_f1_score(refs_list, answer_list),
        "anls": anls_score(refs_list, answer_list),
        "edit_similarity": edit_similarity_score(refs_list, answer_list)}
    assert report["notices"] == ([] if fmt != "csv" else
                                 [n for n in report["notices"] if n["code"] == "header_skipped"])


def test_csv_cells_keep_their_spaces():
    # " Paris" (a leading space, as generated answers often have) is the answer as written:
    # edit similarity against "Paris" is 5/6; the other metrics collapse the space
    out = web.analyse_answers("q1,Paris\n", "q1, Paris\n", {})
    row = out["report"]["per_item"][0]
    assert row["answer"] == " Paris" and row["edit_similarity"] == 5 / 6 and row["exact_match"] == 1.0
    # a space before a quote is not CSV quoting: the row has three cells and says so
    out = web.analyse_answers("q1,Paris\n", 'q1, "Paris, France"\n', {})
    assert out["errors"]["answers"]["message"].startswith("answers, line 1: expected 2 columns (id, answer), found 3")
