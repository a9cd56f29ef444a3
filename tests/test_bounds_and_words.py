"""Inputs that were accepted without a word or never answered (issue 36, "Bounds and words"):
each is now one clear refusal naming what is wrong, or the true reason.

- ``samples`` has a stated maximum (1,000,000) in the API, the CLI and the page's requests;
- ``Comparison.metric`` refuses an unknown metric with the ones there are (and the near one);
- the page's inspect refuses a depth of -5, 1.5 or true; a box that is not text is one error;
- the ``trec_eval`` mode refuses ``-M`` below 0 (trec_eval 10 prints -nan there);
- ``-o trec`` gives the true reason it leaves out ``rbp`` (trec_eval has one: graded, p = 0.9).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from retrieval_metrics import compare, evaluate
from retrieval_metrics.comparison.paired import MAX_SAMPLES, UnknownMetric
from retrieval_metrics.errors import InputError, OptionError
from retrieval_metrics.page import web
from retrieval_metrics.page.session import Session

ROOT = Path(__file__).resolve().parents[1]
QRELS = "q1 0 d1 1\nq2 0 d2 1\nq3 0 d3 1\n"
RUN = "q1 Q0 d1 1 3 r\nq2 Q0 d9 1 3 r\nq2 Q0 d2 2 2 r\nq3 Q0 d3 1 1 r\n"
BASE = "q1 Q0 d9 1 3 b\nq1 Q0 d1 2 2 b\nq2 Q0 d2 1 3 b\nq3 Q0 d9 1 1 b\n"


def cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "retrieval_metrics", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "py")})


def test_samples_above_the_maximum_are_refused_by_the_api():
    base, run = evaluate(QRELS, BASE, k=10), evaluate(QRELS, RUN, k=10)
    with pytest.raises(OptionError, match="samples must be a whole number from 1 to 1,000,000, "
                                          "found 1000000000000"):
        compare(base, run, samples=10 ** 12)
    assert compare(base, run, samples=MAX_SAMPLES // 1000).samples == 1000  # in range: used


@pytest.mark.slow
def test_samples_above_the_maximum_are_one_line_from_the_cli(tmp_path):
    for name, text in (("q.txt", QRELS), ("r.trec", RUN), ("b.trec", BASE)):
        (tmp_path / name).write_text(text)
    done = cli("q.txt", "r.trec", "--baseline", "b.trec", "--samples", "1000000000000", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == ("retrieval-metrics: samples must be a whole number from 1 to "
                                   "1,000,000, found 1000000000000")
    done = cli("q.txt", "r.trec", "b.trec", "--samples", "2000000", cwd=tmp_path)  # many runs
    assert done.returncode == 2 and "from 1 to 1,000,000" in done.stderr


def test_samples_above_the_maximum_are_refused_in_the_pages_requests():
    out = web.analyse(QRELS, RUN, {"samples": 10 ** 12}, BASE)
    assert out["errors"]["options"]["field"] == "samples"
    assert "from 1 to 1,000,000" in out["errors"]["options"]["message"]
    out = web.analyse_many(QRELS, {"a": RUN, "b": BASE}, {"samples": "5000000"})
    assert out["errors"]["options"]["field"] == "samples"


def test_comparison_metric_refuses_an_unknown_key_with_the_list():
    comparison = compare(evaluate(QRELS, BASE, k=10), evaluate(QRELS, RUN, k=10), samples=100)
    assert comparison.metric("ndcg@10").metric == "ndcg@10"
    with pytest.raises(UnknownMetric) as refused:
        comparison.metric("ndcg@5")
    words = str(refused.value)
    assert words.startswith("this comparison has no metric 'ndcg@5' (did you mean 'ndcg@10'?)")
    assert "recall@10, precision@10, mrr@10, ndcg@10" in words
    assert isinstance(refused.value, KeyError) and isinstance(refused.value, OptionError)


@pytest.mark.parametrize("depth", [-5, 1.5, True, "abc"])
def test_inspect_refuses_a_depth_that_is_not_a_count(depth):
    out = web.inspect(QRELS, RUN, "q1", {"depth": depth})
    assert out["error"]["field"] == "depth"
    assert "depth must be a whole number from 0 to 1,000,000" in out["error"]["message"]


@pytest.mark.parametrize("box, kind", [(12, "a number"), (["q1 0 d1 1"], "a list"), ({"q1": 1}, "an object")])
def test_a_box_that_is_not_text_is_one_error_naming_it(box, kind):
    with pytest.raises(InputError) as refused:
        Session().analyse(request=1, qrels=box, run=RUN)
    assert str(refused.value) == f"judgements: the box holds {kind}, not text"
    with pytest.raises(InputError, match="results: the box holds"):
        Session().analyse(request=1, qrels=QRELS, run=box)


@pytest.mark.slow
@pytest.mark.parametrize("value", ["-1", "-100"])
def test_the_trec_eval_mode_refuses_a_negative_max_docs(tmp_path, value):
    (tmp_path / "q.txt").write_text(QRELS)
    (tmp_path / "r.trec").write_text(RUN)
    done = cli("trec_eval", "-M", value, "q.txt", "r.trec", cwd=tmp_path)
    assert done.returncode != 0 and done.stdout == ""
    assert f"-M{value}: the most documents per query must be 0 or more" in done.stderr
    assert "nan" not in done.stdout + done.stderr


@pytest.mark.slow
def test_o_trec_gives_the_true_reason_for_rbp(tmp_path):
    (tmp_path / "q.txt").write_text(QRELS)
    (tmp_path / "r.trec").write_text(RUN)
    done = cli("q.txt", "r.trec", "-m", "rbp,rbp(p=0.9),ndcg", "-o", "trec", cwd=tmp_path)
    assert done.returncode == 0
    assert "has no measure of that name" not in done.stderr
    lines = done.stderr.splitlines()
    default = next(line for line in lines if "leaves out rbp," in line)
    assert "this rbp is binary; trec_eval 10's is graded" in default
    assert "persistence 0.8 (trec_eval's is 0.9)" in default
    assert "retrieval-metrics trec_eval -m rbp prints trec_eval's" in default
    at_trec_p = next(line for line in lines if "leaves out rbp(p=0.9)" in line)
    assert "persistence" not in at_trec_p
    assert "ndcg_cut_10" in done.stdout  # what trec_eval has is still printed


# ---- the page's requests: unknown option names and options that are not an object ----------

@pytest.mark.parametrize("call, typo, near", [
    (lambda o: web.analyse(QRELS, RUN, o), "metric", "metrics"),
    (lambda o: web.analyse(QRELS, RUN, o), "relevance_treshold", "relevance_threshold"),
    (lambda o: web.analyse_many(QRELS, {"a": RUN, "b": BASE}, o), "corection", "correction"),
    (lambda o: web.analyse_answers("id,reference\n1,a\n", "1,a\n", o), "answer_format",
     "answers_format"),
])
def test_an_unknown_option_name_is_refused_with_the_near_one(call, typo, near):
    """A typo would otherwise leave the default in place without a word: the page's metric
    list (``metric``) would silently be the default measures."""
    out = call({typo: "x"})
    error = out["errors"]["options"]
    assert error["field"] == "options"
    assert f"no option {typo!r} (did you mean {near!r}?)" in error["message"]


def test_an_option_name_unlike_any_lists_the_requests_options():
    out = web.analyse(QRELS, RUN, {"zzz": 1})
    assert "its options are" in out["errors"]["options"]["message"]
    assert "relevance_threshold" in out["errors"]["options"]["message"]


def test_inspect_refuses_an_option_it_does_not_read_and_reads_the_ones_it_does():
    session = Session()
    session.analyse(1, qrels=QRELS, run=RUN, options={"k": "2"})
    error = session.inspect(2, of=1, query="q1", options={"dpeth": 3})["error"]
    assert "no option 'dpeth' (did you mean 'depth'?)" in error["message"]
    ranking = session.inspect(3, of=1, query="q2", options={"depth": 1})["run"]["ranking"]
    assert [row["doc"] for row in ranking] == ["d9"]


@pytest.mark.parametrize("options", [["k", "5"], "k=5", 5])
def test_options_that_are_not_an_object_are_one_error(options):
    out = web.analyse(QRELS, RUN, options)
    assert out["errors"]["options"]["message"].startswith(
        "options must be an object of names and values, found ")
    assert out["report"] is None


def test_every_option_the_pages_scripts_send_is_one_the_request_reads():
    """The names in views/settings.js's settingsOptions, views/many-runs.js's request and
    views/answers.js's request: each is read by the request it goes with (else every request
    from the page would now be refused)."""
    import re

    from retrieval_metrics.scoring.settings import (
        ANALYSE_MANY_OPTIONS,
        ANALYSE_OPTIONS,
        ANSWERS_OPTIONS,
    )

    def names(path, start, end):
        text = (ROOT / "views" / path).read_text(encoding="utf-8")
        body = text[text.index(start) + len(start):]
        body = body[:body.index(end)]
        return set(re.findall(r"^\s*(\w+):", body, re.M)) | set(re.findall(r"[{,]\s*(\w+):", body))

    settings = names("settings.js", "export function settingsOptions", "\n}\n")
    assert {"k", "metrics", "relevance_threshold", "qrels_format"} <= settings
    assert settings <= ANALYSE_OPTIONS
    many = names("many-runs.js", "const options = {", "};")
    assert {"baseline", "test", "correction", "alpha"} <= many
    assert many <= ANALYSE_MANY_OPTIONS
    answers = names("answers.js", "    options: {", "    },")
    assert answers == ANSWERS_OPTIONS
