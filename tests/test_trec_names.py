"""The trec_eval measures through evaluate(), ranking_metrics and the CLI: their names, the
official / all_trec groups, gm_map's geometric mean, and `-o trec` output that equals
trec_eval 10's own lines (tests/data/trec_eval/out.test*), line for line."""

from __future__ import annotations

import math

import pytest
from retrieval_metrics import InputError, OptionError, evaluate
from retrieval_metrics.cli import main
from retrieval_metrics.measures.grammar import parse_metric
from retrieval_metrics.scoring.functions import ranking_metrics
from support import read_trec_eval_output, trec_dir
from trec_eval_collections import graded_collection, run_trec_eval

#: trec_eval's all_trec lines that -o trec leaves out, naming each on stderr: its text lines,
#: and rbp / rbp_resid, whose values here are not trec_eval 10's on every input (binary rbp;
#: rbp_resid with the weight past the ranking). ``retrieval-metrics trec_eval`` prints them all.
NOT_COMPUTED = {"runid", "relstring", "rbp", "rbp_resid"}


def _named_on_stderr(err: str, names) -> None:
    for name in names:
        assert any(name in line and "leaves out" in line for line in err.splitlines()), (name, err)


def _cli_trec(capsys, *args, stderr: list | None = None) -> dict[tuple[str, str], str]:
    assert main([*args, "-o", "trec"]) == 0
    lines = {}
    out, err = capsys.readouterr()
    if stderr is not None:
        stderr.append(err)
    for line in out.splitlines():
        measure, query, value = line.split("\t")
        assert (measure.strip(), query) not in lines, line
        lines[(measure.strip(), query)] = value
    return lines


def _printed(name):
    return {(m, q): v for m, by_q in read_trec_eval_output(trec_dir() / name).items()
            for q, v in by_q.items()}


def _family(measure: str) -> str:
    for prefix in ("relstring", "relative_P", "unj", "P", "recall", "map_cut", "ndcg_cut", "success",
                   "iprec_at_recall", "Rprec_mult"):
        if measure.startswith(prefix + "_"):
            return prefix
    return measure


@pytest.mark.slow
def test_all_trec_lines_equal_trec_eval(capsys):
    d = trec_dir()
    err = []
    ours = _cli_trec(capsys, str(d / "qrels.test"), str(d / "results.test"), "-m", "all_trec",
                     stderr=err)
    theirs = _printed("out.test.aq")
    assert {k: v for k, v in ours.items() if theirs.get(k) != v} == {}
    left_out = {_family(m) for m, _q in theirs.keys() - ours.keys()}
    assert left_out == NOT_COMPUTED
    _named_on_stderr(err[0], NOT_COMPUTED)
    assert len(ours) == sum(1 for m, _q in theirs if _family(m) not in NOT_COMPUTED)


def test_all_trec_output_is_trec_evals_byte_for_byte(capsys):
    """In trec_eval's order and format, line for line: trec_eval -q -m all_trec's output less
    the lines it leaves out (NOT_COMPUTED)."""
    from retrieval_metrics import cli
    d = trec_dir()
    assert cli.main([str(d / "qrels.test"), str(d / "results.test"), "-m", "all_trec",
                     "-o", "trec"]) == 0
    printed = (d / "out.test.aq").read_text().splitlines(keepends=True)
    expected = "".join(line for line in printed if line.split()[0] not in NOT_COMPUTED)
    assert capsys.readouterr().out == expected


def test_all_trec_at_relevance_level_2(capsys):
    # -l2 on grades -1..4: every line printed equals trec_eval's (rbp, graded in trec_eval,
    # is left out)
    d = trec_dir()
    ours = _cli_trec(capsys, str(d / "qrels.rel_level"), str(d / "results.test"), "-m", "all_trec",
                     "-l", "2")
    theirs = _printed("out.test.aql")
    assert {k: (v, theirs.get(k)) for k, v in ours.items() if theirs.get(k) != v} == {}
    assert len(ours) == sum(1 for m, _q in theirs if _family(m) not in NOT_COMPUTED)


def test_all_trec_with_a_missing_query(capsys):
    # -c: 302 has no results and counts as an empty ranking (num_rel 77, the rest 0): every
    # line equals trec_eval's, num_q counting 302
    d = trec_dir()
    ours = _cli_trec(capsys, str(d / "qrels.test"), str(d / "results.trunc"), "-m", "all_trec")
    theirs = _printed("out.test.aqc")
    assert {k: (v, theirs.get(k)) for k, v in ours.items() if theirs.get(k) != v} == {}
    assert ours[("num_rel", "302")] == "77" and ours[("num_ret", "all")] == "584"
    assert ours[("num_q", "all")] == theirs[("num_q", "all")] == "3"


def test_official_is_trec_eval_without_m(capsys):
    d = trec_dir()
    ours = _cli_trec(capsys, str(d / "qrels.test"), str(d / "results.test"), "-m", "official")
    theirs = _printed("out.test")  # trec_eval qrels.test results.test: the all lines only
    ours_all = {k: v for k, v in ours.items() if k[1] == "all"}
    assert ours_all == {k: v for k, v in theirs.items() if k[0] != "runid"}
    assert ("gm_map", "301") not in ours  # trec_eval prints gm_map on the all line only


def test_gm_map_mean_is_geometric():
    # APs 0.5 and 0.125 (hand-worked: q1 relevant at rank 2 of R=1; q2 relevant at rank 8):
    # geometric mean sqrt(0.5 * 0.125) = 0.25, the arithmetic one 0.3125
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    run = {"q1": ["x", "a"], "q2": ["x1", "x2", "x3", "x4", "x5", "x6", "x7", "b"]}
    report = evaluate(qrels, run, metrics=["gm_map", "map"])
    assert report.per_query["q1"]["gm_map"] == 0.5 and report.per_query["q2"]["gm_map"] == 0.125
    assert report.mean["gm_map"] == pytest.approx(0.25)
    assert report.mean["map"] == pytest.approx(0.3125)
    assert ranking_metrics(qrels, run, ["gm_map"])["gm_map"] == pytest.approx(0.25)
    # a missing query (-c) is AP 0, floored at 0.00001: (0.5 * 0.125 * 1e-5) ** (1/3)
    report = evaluate({**qrels, "q3": {"c": 1}}, run, metrics=["gm_map"])
    assert report.mean["gm_map"] == pytest.approx((0.5 * 0.125 * 1e-5) ** (1 / 3))


@pytest.mark.parametrize("name,key", [
    ("iprec_at_recall_0.10", "iprec_at_recall_0.10"), ("iprec_at_recall@0.1", "iprec_at_recall_0.10"),
    ("IPREC_AT_RECALL_1", "iprec_at_recall_1.00"), ("Rprec_mult_0.20", "Rprec_mult_0.20"),
    ("11pt_avg", "11pt_avg"), ("infap", "infAP"), ("bpref", "bpref"), ("set_f", "set_F"),
    ("set_F(beta=0.5)", "set_F(beta=0.5)"), ("utility(a=2)", "utility(a=2.0)"),
    ("ERR@10", "err@10"), ("err", "err"), ("RBP", "rbp"), ("rbp(p=0.9)", "rbp(p=0.9)"),
    ("rbp_residual(p=0.5)", "rbp_resid(p=0.5)"), ("nDCG(judged_only=True)@10", "ndcg_judged@10"),
    ("ndcg_judged@5", "ndcg_judged@5"), ("ndcg_whole", "ndcg"), ("success_5", "hit_rate@5"),
    ("num_rel_ret", "num_rel_ret"), ("gm_map", "gm_map"),
])
def test_names(name, key):
    assert parse_metric(name).key == key


@pytest.mark.parametrize("name,words", [
    ("iprec_at_recall", "needs its level"), ("iprec_at_recall_1.5", "from 0 to 1"),
    ("Rprec_mult_0", "above 0"), ("ndcg_judged", "needs a cutoff"), ("bpref@10", "takes no cutoff"),
    ("rbp(q=1)", "unknown parameter"), ("all_trec", "group of metrics"),
])
def test_bad_names(name, words):
    with pytest.raises(OptionError, match=words):
        parse_metric(name)


def test_groups_expand_in_evaluate():
    d = trec_dir()
    report = evaluate(d / "qrels.test", d / "results.test", metrics=["iprec_at_recall", "Rprec_mult"])
    assert report.keys[0] == "iprec_at_recall_0.00" and len(report.keys) == 21
    printed = read_trec_eval_output(d / "out.test.aq")
    assert f"{report.mean['Rprec_mult_2.00']:.4f}" == printed["Rprec_mult_2.00"]["all"]


def test_new_measures_through_ranking_metrics():
    # hand-worked: relevant a (2), b (1); c judged 0; ranking x (unjudged), b, c, a
    # bpref: b has 0 non-relevant above -> 1; a has c above -> 1 - 1/min(1, 2) = 0; / 2 = 0.5
    # set_P 2/4; iprec_at_recall_0.50 (1 relevant) = max precision at or below rank 2 = 1/2
    # (rank 4: 2/4); err@3: grades None, 1, 0 -> (1/16) / 2; rbp(p=0.5): 0.5 * (0.5 + 0.125)
    qrels = {"q": {"a": 2, "b": 1, "c": 0}}
    run = {"q": ["x", "b", "c", "a"]}
    got = ranking_metrics(qrels, run, ["bpref", "set_P", "iprec_at_recall_0.5", "err@3",
                                       "rbp(p=0.5)", "num_rel", "utility"])
    assert got == {"bpref": 0.5, "set_P": 0.5, "iprec_at_recall_0.5": 0.5, "err@3": 1 / 32,
                   "rbp(p=0.5)": 0.3125, "num_rel": 2.0, "utility": 0.0}
    # -l 2: only a is relevant; bpref: b and c are judged non-relevant above a -> 1 - 1/1 = 0
    assert ranking_metrics(qrels, run, ["bpref", "num_rel"], relevance_threshold=2) == \
        {"bpref": 0.0, "num_rel": 1.0}


def test_err_refuses_grades_above_its_scale():
    with pytest.raises(InputError) as info:
        evaluate("q 0 a 5\nq 0 b 1\n", "q Q0 a 1 1 t\n", metrics=["err@10"])
    assert info.value.line == 1 and "max_grade" in info.value.message
    with pytest.raises(InputError, match="max_grade"):
        ranking_metrics({"q": {"a": 5}}, {"q": ["a"]}, ["ERR@10"])
    report = evaluate("q 0 a 5\nq 0 b 1\n", "q Q0 a 1 1 t\n", metrics=["err(max_grade=5)@10"])
    assert report.mean["err(max_grade=5)@10"] == 31 / 32


def test_table_lists_the_new_measures(capsys):
    d = trec_dir()
    assert main([str(d / "qrels.test"), str(d / "results.test"), "-m", "ndcg,bpref,gm_map"]) == 0
    out = capsys.readouterr().out
    assert "bpref: 0.1981" in out and "gm_map: 0.1051" in out  # out.test.aq's all lines
    assert "nDCG" in out


def test_undefined_without_relevant_follows_zero_division():
    report = evaluate({"q": {"a": 0}, "r": {"b": 1}}, {"q": ["a"], "r": ["b"]},
                      metrics=["bpref", "set_P"], zero_division="nan")
    assert math.isnan(report.per_query["q"]["bpref"]) and report.per_query["q"]["set_P"] == 0.0


# --- evaluate() against pytrec_eval on generated cases (the registry's adapters, the level) ---

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from test_trec_measures import rankings  # noqa: E402

ENGINE_VS_PYTREC = {  # our name -> pytrec_eval's key (9.0.8: iprec points whose cutoff agrees)
    "num_ret": "num_ret", "num_rel": "num_rel", "num_rel_ret": "num_rel_ret", "bpref": "bpref",
    "infAP": "infAP", "ndcg_whole": "ndcg", "set_P": "set_P", "set_recall": "set_recall",
    "set_F": "set_F", "utility": "utility", "success_1": "success_1", "success_5": "success_5",
    "Rprec_mult_0.20": "Rprec_mult_0.20", "Rprec_mult_1.80": "Rprec_mult_1.80",
    "iprec_at_recall_0.00": "iprec_at_recall_0.00", "iprec_at_recall_1.00": "iprec_at_recall_1.00",
}


@pytest.mark.slow
@settings(max_examples=100, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(rankings(), st.sampled_from([1, 2, 3]))
def test_evaluate_against_pytrec_eval(queries, level):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = {q: judged for q, (judged, _r) in queries.items()}
    run = {q: {d: float(len(ranked) - i) for i, d in enumerate(ranked)}
           for q, (_j, ranked) in queries.items()}
    measures = {"num_ret", "num_rel", "num_rel_ret", "bpref", "infAP", "ndcg", "set_P",
                "set_recall", "set_F", "utility", "success", "Rprec_mult", "iprec_at_recall",
                "gm_map"}
    theirs = pytrec_eval.RelevanceEvaluator(qrels, measures, relevance_level=level).evaluate(run)
    names = [*ENGINE_VS_PYTREC, "gm_map"]
    report = evaluate(qrels, {q: ranked for q, (_j, ranked) in queries.items()}, metrics=names,
                      relevance_threshold=level, zero_division=0)
    problems = []
    for q, want in theirs.items():
        got = report.per_query[q]
        for name, their_key in ENGINE_VS_PYTREC.items():
            key = parse_metric(name).key
            if not math.isclose(got[key], want[their_key], rel_tol=0, abs_tol=1e-9):
                problems.append((q, name, got[key], want[their_key]))
        if not math.isclose(math.log(max(got["gm_map"], 1e-5)), want["gm_map"], abs_tol=1e-9):
            problems.append((q, "gm_map", got["gm_map"], want["gm_map"]))
    assert problems == []
    logs = [theirs[q]["gm_map"] for q in theirs]
    assert report.mean["gm_map"] == pytest.approx(math.exp(sum(logs) / len(logs)), abs=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("ours_args,theirs_args", [([], []), (["-l", "2"], ["-l", "2"]),
                                                   (["--missing", "skip"], None)])
def test_all_trec_lines_on_graded_judgements_are_trec_eval_10s(trec_eval_10, tmp_path, capsys,
                                                               seed, ours_args, theirs_args):
    """Graded judgements (0-3, some -1, a query without relevant documents, judged queries
    without results): each line -o trec prints under a trec_eval name is trec_eval 10's own
    (the built reference, ``-q -c -m all_trec``, or without -c for --missing skip, where
    trec_eval 10 would stop, so the judgements of the missing queries are dropped for it), and
    every trec_eval line it leaves out is named on stderr."""
    skip = theirs_args is None
    qrels, run = graded_collection(seed, tmp_path, missing=True)
    err = []
    ours = _cli_trec(capsys, str(qrels), str(run), "-m", "all_trec", *ours_args, stderr=err)
    if skip:
        retrieved = {line.split()[0] for line in run.read_text().splitlines()}
        qrels = tmp_path / "kept"
        qrels.write_text("".join(line + "\n" for line in (tmp_path / f"qrels{seed}").read_text()
                                 .splitlines() if line.split()[0] in retrieved))
    printed = run_trec_eval(trec_eval_10, ["-q", *(() if skip else ("-c",)), "-m", "all_trec",
                                           *(theirs_args or ()), str(qrels), str(run)])
    assert printed.returncode == 0, printed.stderr
    theirs = {}
    for line in printed.stdout.decode().splitlines():
        measure, query, value = line.split("\t")
        theirs[(measure.strip(), query)] = value
    assert {k: (v, theirs.get(k)) for k, v in ours.items() if theirs.get(k) != v} == {}
    left_out = {_family(m) for m, _q in theirs.keys() - ours.keys()}
    if ours_args == ["-l", "2"]:  # -c's num_rel all line counts grades above 0, whatever -l
        assert ("num_rel", "all") not in ours and "num_rel's all line" in err[0]
        left_out.discard("num_rel")
    assert left_out == NOT_COMPUTED
    _named_on_stderr(err[0], left_out)
    assert ("num_q", "all") in ours and ("301", "all") not in ours


def test_trec_output_says_which_options_move_its_numbers(capsys):
    d = trec_dir()
    err = []
    _cli_trec(capsys, str(d / "qrels.test"), str(d / "results.test"), "-m", "P_5",
              "--gain", "exponential", "--zero-division", "skip", stderr=err)
    assert "--gain exponential, --zero-division skip" in err[0]
    _cli_trec(capsys, str(d / "qrels.test"), str(d / "results.test"), "-m", "P_5", stderr=err)
    assert err[1] == ""
