"""``retrieval-metrics trec_eval ARGS``, byte for byte against trec_eval 10 itself.

trec_eval 10's source is in tests/peer/ (public domain, NIST); conftest.py's session fixture builds it
with plain ``make`` (scripts/build_trec_eval.py: cached under build/, m_rbp.c's uninitialised
``min``/``max`` set to 0 as its own test outputs assume). Two kinds of checks:

- its own test collection: the 15 commands of its Makefile's ``quicktest`` target, against
  the ``test/out.*`` files shipped with the source (what trec_eval's authors printed);
- generated collections (tie-free, duplicate-free, graded with negative and missing
  judgements), each command run by the built trec_eval 10 and by this mode, outputs equal.
"""

from __future__ import annotations

import pytest
from retrieval_metrics.cli import main
from trec_eval_collections import graded_collection, ours, run_trec_eval

QUICKTEST = [
    ("qrels.test results.test", "out.test"),
    ("qrels.test.with-comments results.test", "out.test"),
    ("qrels.comment.test results.comment.test", "out.comment.test"),
    ("-m all_trec qrels.test results.test", "out.test.a"),
    ("-m all_trec -q qrels.test results.test", "out.test.aq"),
    ("-m all_trec -q -c qrels.test results.trunc", "out.test.aqc"),
    ("-m all_trec -q -c -M100 qrels.test results.trunc", "out.test.aqcM"),
    ("-m all_trec -mrelstring.20 -q -l2 qrels.rel_level results.test", "out.test.aql"),
    ("-m all_prefs -q -R prefs prefs.test prefs.results.test", "out.test.prefs"),
    ("-m all_prefs -q -R prefs prefs.comment.test prefs.results.test", "out.test.prefs"),
    ("-m all_prefs -q -R qrels_prefs qrels.test results.test", "out.test.qrels_prefs"),
    ("-m qrels_jg -q -R qrels_jg qrels.123 results.test", "out.test.qrels_jg"),
    ("-m qrels_jg -q -R qrels_jg qrels.comments.123 results.test", "out.test.qrels_jg"),
    ("-q -miprec_at_recall..10,.20,.25,.75,.50 -m P.5,7,3 -m recall.20,2000 "
     "-m Rprec_mult.5.0,0.2,0.35 -mutility.2,-1,0,0 -m 11pt_avg..25,.5,.75 "
     "-mndcg.1=3,2=9,4=4.5 -mndcg_cut.10,20,23.4 -msuccess.2,5,20 qrels.test results.test",
     "out.test.meas_params"),
    ("-q -m all_trec -Z zscores_file qrels.test results.test", "out.test.aqZ"),
]
_FILES = {"qrels.test", "qrels.test.with-comments", "qrels.comment.test", "qrels.rel_level",
          "prefs.test", "prefs.comment.test", "qrels.123", "qrels.comments.123", "zscores_file",
          "results.test", "results.comment.test", "results.trunc", "prefs.results.test"}


def test_quicktest_has_the_makefiles_15_commands(trec_eval_10):
    makefile = (trec_eval_10.parent / "Makefile").read_text()
    recipe = makefile.split("quicktest: trec_eval", 1)[1].split("\n\n", 1)[0]
    commands = [line for line in recipe.splitlines() if "./trec_eval" in line]
    assert len(commands) == len(QUICKTEST) == 15
    for line, (args, out) in zip(commands, QUICKTEST):
        command, expected = line.strip().split(" | diff - test/")
        assert expected == out
        assert command.replace("test/", "").split()[1:] == args.split()


@pytest.mark.slow
@pytest.mark.parametrize("args,out", QUICKTEST, ids=[f"{i + 1}-{o}" for i, (_a, o) in
                                                     enumerate(QUICKTEST)])
def test_quicktest(trec_eval_10, capsysbinary, args, out):
    folder = trec_eval_10.parent / "test"
    argv = [str(folder / a) if a in _FILES else a for a in args.split()]
    status, printed, err = ours(argv, capsysbinary)
    assert (status, err) == (0, b"")
    assert printed == (folder / out).read_bytes()


# --- generated collections ----------------------------------------------------------------

DIFFERENTIAL = [
    "-c -q -m all_trec",
    "-q -m official -l 2",
    "-c -q -M 50 -m all_trec",
    "-q -J -m official",
    "-c -N 260 -m official",
    "-q -m P.1,3,7,12,200",
    "-q -m ndcg_cut.3,8,15,1000",
    "-q -m set_F.0.5 -m set_F.3",
    "-q -m iprec_at_recall.0.15,.33,.5,1",
    "-q -m map_cut.2,9,50",
    "-q -m success.1,3,11",
    "-q -m ndcg -m rbp",
    "-q -c -m ndcg.1=0.5,3=7 -m rbp.p=0.5 -m rbp_resid.p=0.8 -m G -m utility.2,-1,-0.5,0.1 -N 500",
    "-q -c -m all_trec -l 3 -J",
    "-c -n -m all_trec",
    "-q -c -m yaap -m dcg -m ideal_dcg -m relstring.15 -m unj.1,2,50",
]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("command", DIFFERENTIAL)
def test_generated_runs_match_trec_eval_10(trec_eval_10, tmp_path, capsysbinary, command, seed):
    qrels, run = graded_collection(seed, tmp_path, missing="-c" in command.split())
    args = [*command.split(), str(qrels), str(run)]
    expected = run_trec_eval(trec_eval_10, args)
    assert expected.returncode == 0, expected.stderr
    status, printed, err = ours(args, capsysbinary)
    assert (status, err) == (0, b"")
    assert printed == expected.stdout


def test_judged_query_without_results_is_left_out_with_a_notice(trec_eval_10, tmp_path,
                                                                capsysbinary):
    """trec_eval 10.0 stops (status 4) on a judged query without results when -c is not
    given; this mode averages over the queries with both, as trec_eval's usage text says:
    exactly what trec_eval 10 prints when that query's judgements are removed."""
    qrels, run = graded_collection(4, tmp_path, missing=True)
    stopped = run_trec_eval(trec_eval_10, ["-q", str(qrels), str(run)])
    assert stopped.returncode == 4 and b"not found" in stopped.stderr
    status, printed, err = ours(["-q", "-m", "all_trec", str(qrels), str(run)], capsysbinary)
    assert status == 0
    notice = err.decode().strip()
    assert len(notice.splitlines()) == 1 and "2 judged queries have no results" in notice
    with_results = {line.split()[0] for line in run.read_text().splitlines()}
    kept = tmp_path / "kept"
    kept.write_text("".join(line + "\n" for line in qrels.read_text().splitlines()
                            if line.split()[0] in with_results))
    expected = run_trec_eval(trec_eval_10, ["-q", "-m", "all_trec", str(kept), str(run)])
    assert expected.returncode == 0
    assert printed == expected.stdout


# --- refusals: one line, exit 2 ------------------------------------------------------------

@pytest.mark.parametrize("args,words", [
    (["-m", "nosuch"], "illegal measure 'nosuch'"),
    (["-m", "P.0,5"], "cutoffs must be above 0"),
    (["-m", "P.5,5"], "given twice"),
    (["-m", "ndcg.1"], "malformed name=value"),
    (["-m", "utility.1,2"], "exactly 4 parameters"),
    (["-m", "P."], "must be followed by parameters"),
    (["-R", "nosuch"], "illegal rel_format"),
    (["-T", "nosuch"], "illegal retrieval results format"),
    (["-m", "map_avgjg"], "needs -R qrels_jg"),
    (["-R", "prefs"], "line 1: malformed line (found 4 fields, expected 5"),
    (["-R", "qrels_prefs", "-m", "map"], "needs -R qrels judgements"),
    (["-x"], "invalid option"),
])
def test_refusals_are_one_line_and_exit_2(tmp_path, capsysbinary, args, words):
    qrels, run = graded_collection(1, tmp_path, missing=False)
    status, printed, err = ours([*args, str(qrels), str(run)], capsysbinary)
    assert status == 2 and printed == b""
    assert words in err.decode().splitlines()[0]


def test_duplicate_document_and_malformed_line_are_refused(tmp_path, capsysbinary):
    qrels = tmp_path / "q"
    qrels.write_text("1 0 a 1\n1 0 b 0\n")
    run = tmp_path / "r"
    run.write_text("1 Q0 a 1 2 x\n1 Q0 a 2 1 x\n")
    status, _out, err = ours([str(qrels), str(run)], capsysbinary)
    assert status == 2 and "listed twice" in err.decode()
    qrels.write_text("1 0 a 1\n\n1 0 b 0\n")
    status, _out, err = ours([str(qrels), str(run)], capsysbinary)
    assert status == 2 and "line 2: malformed line" in err.decode()
    assert len(err.decode().strip().splitlines()) == 1


# --- rbp on graded judgements: trec_eval 10's bug and the intended value ---------------------

def test_graded_rbp_is_the_intended_value(trec_eval_10, tmp_path, capsysbinary):
    """trec_eval 10's m_rbp.c reads min and max uninitialised; meant (and as its own test
    outputs were made): gains scaled by the largest grade when it exceeds 1. Grades 3, 0, 2
    at ranks 1-3, p = 0.9: 0.1 * (3/3 + 0.81 * 2/3) = 0.154, where binary rbp (relevant =
    grade >= 1) is 0.1 * (1 + 0.81) = 0.181."""
    qrels = tmp_path / "q"
    qrels.write_text("1 0 a 3\n1 0 b 0\n1 0 c 2\n1 0 d 1\n")
    run = tmp_path / "r"
    run.write_text("1 Q0 a 1 3 x\n1 Q0 b 2 2 x\n1 Q0 c 3 1 x\n")
    status, printed, _err = ours(["-q", "-m", "rbp", str(qrels), str(run)], capsysbinary)
    assert status == 0
    assert printed.splitlines()[0] == b"rbp                   \t1\t0.1540"
    assert printed == run_trec_eval(trec_eval_10, ["-q", "-m", "rbp", str(qrels), str(run)]).stdout
    from retrieval_metrics import evaluate
    binary = evaluate({"1": {"a": 3, "b": 0, "c": 2, "d": 1}}, {"1": ["a", "b", "c"]},
                      metrics=["rbp(p=0.9)"])
    assert round(binary.mean["rbp(p=0.9)"], 4) == 0.181


# --- the calculator's own command line -------------------------------------------------------

def test_calculator_trec_output_names_what_it_leaves_out(tmp_path, capsys):
    qrels = tmp_path / "q"
    qrels.write_text("1 0 a 1\n1 0 b 0\n")
    run = tmp_path / "r"
    run.write_text("1 Q0 a 1 2 x\n1 Q0 b 2 1 x\n")
    assert main([str(qrels), str(run), "-o", "trec", "-m", "P_5", "-m", "mrr@10,judged@2"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0].split("\t") == ["P_5                   ", "1", "0.2000"]
    assert "mrr@10, judged@2" in err and len(err.strip().splitlines()) == 1


# --- the new registry entries, per query, against trec_eval 10 -------------------------------

REGISTERED = {"gm_bpref": None, "relative_P@5": "relative_P_5", "set_relative_P": None,
              "set_map": None, "ndcg_rel": None, "Rndcg": None, "binG": None, "G": None,
              "num_nonrel_judged_ret": None, "unj@10": "unj_10", "yaap": None, "dcg": None,
              "ideal_dcg": None}


def test_registered_measures_agree_with_trec_eval_10_per_query(trec_eval_10, tmp_path):
    from retrieval_metrics import evaluate
    qrels, run = graded_collection(2, tmp_path, missing=False)
    names = [key for key, trec in REGISTERED.items() if trec is None] + ["relative_P", "unj"]
    args = ["-q", *[a for n in names for a in ("-m", n)], str(qrels), str(run)]
    printed = {}
    for line in run_trec_eval(trec_eval_10, args).stdout.decode().splitlines():
        name, qid, value = (part.strip() for part in line.split("\t"))
        printed[(name, qid)] = value
    report = evaluate(str(qrels), str(run), metrics=list(REGISTERED), zero_division="0")
    checked = 0
    for key, trec in REGISTERED.items():
        for qid, values in report.per_query.items():
            expected = printed.get((trec or key, qid))
            if expected is None or key == "gm_bpref":  # gm_bpref: the all line only
                continue
            got = values[key]
            assert (f"{got:.4f}" if "." in expected else str(int(got))) == expected, (key, qid)
            checked += 1
    assert checked > 80  # 12 measures x the scored queries
