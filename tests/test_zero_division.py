"""The `zero_division` policy of `evaluate`: queries whose judgements hold no relevant document.

Expected values are worked by hand, read from trec_eval's printed output on its own collection
(`out.comment.test`, which counts the query without a relevant document as zeros in its `all`
line), or computed by pytrec_eval (trec_eval's C code) on generated inputs.
"""

from __future__ import annotations

import json
import math
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from retrieval_metrics import evaluate
from retrieval_metrics.errors import OptionError
from retrieval_metrics.scoring.evaluate import UndefinedMetricWarning
from support import agrees_with_printed, expected_row, read_trec_eval_output, read_trec_qrels, trec_dir

ALL_METRICS = ["recall", "precision", "mrr", "ndcg", "hit_rate", "ap", "judged", "map", "rprec", "rr"]
UNDEFINED = {"recall", "ndcg", "ap", "map", "rprec"}  # divide by the relevant count / ideal DCG
POLICIES = ["skip", "warn", 0, 1, "nan"]
LOG3 = math.log2(3)

# q1: one relevant document (d1) at rank 2 behind a judged non-relevant d2.
# q2: judged, nothing relevant (grades 0 and -1); its run has d3 (judged), d9 (unjudged), d4 (judged).
# q3: one relevant document at rank 1, only one document returned.
QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 0\nq2 0 d4 -1\nq3 0 d5 2\n"
RUN = ("q1 Q0 d2 1 9 t\nq1 Q0 d1 2 8 t\n"
       "q2 Q0 d3 1 9 t\nq2 Q0 d9 2 8 t\nq2 Q0 d4 3 7 t\n"
       "q3 Q0 d5 1 9 t\n")
K = [1, 2]

Q1 = {"recall@1": 0.0, "recall@2": 1.0, "precision@1": 0.0, "precision@2": 0.5,
      "mrr@1": 0.0, "mrr@2": 0.5, "ndcg@1": 0.0, "ndcg@2": (1 / LOG3) / 1.0,
      "hit_rate@1": 0.0, "hit_rate@2": 1.0, "ap@1": 0.0, "ap@2": 0.5,
      "judged@1": 1.0, "judged@2": 1.0, "map": 0.5, "rprec": 0.0, "rr": 0.5}
Q3 = {"recall@1": 1.0, "recall@2": 1.0, "precision@1": 1.0, "precision@2": 0.5,
      "mrr@1": 1.0, "mrr@2": 1.0, "ndcg@1": 1.0, "ndcg@2": 1.0,
      "hit_rate@1": 1.0, "hit_rate@2": 1.0, "ap@1": 1.0, "ap@2": 1.0,
      "judged@1": 1.0, "judged@2": 1.0, "map": 1.0, "rprec": 1.0, "rr": 1.0}
# q2's defined values: nothing relevant, so precision/RR/hit rate are 0; judged@1 = d3 judged
# (1/1), judged@2 = d3 judged, d9 not (1/2).
Q2_DEFINED = {"precision@1": 0.0, "precision@2": 0.0, "mrr@1": 0.0, "mrr@2": 0.0,
              "hit_rate@1": 0.0, "hit_rate@2": 0.0, "judged@1": 1.0, "judged@2": 0.5, "rr": 0.0}


def q2_expected(policy):
    value = {"warn": 0.0, 0: 0.0, 1: 1.0, "nan": math.nan}[policy]
    row = dict(Q2_DEFINED)
    for key in Q1:
        if key.partition("@")[0] in UNDEFINED:
            row[key] = value
    return row


def same(a, b):
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return a == pytest.approx(b, abs=1e-12)


def run_quietly(*args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = evaluate(*args, **kwargs)
    return report, [w for w in caught if issubclass(w.category, UndefinedMetricWarning)]


def test_hand_worked_rows_are_what_they_say():
    """The hand-worked rows cover every key the engine produces for these metrics."""
    report, _ = run_quietly(QRELS, RUN, k=K, metrics=ALL_METRICS)
    assert set(report.keys) == set(Q1) == set(Q3) == set(q2_expected(0))


@pytest.mark.parametrize("policy", POLICIES)
def test_which_queries_count_and_their_values(policy):
    report, caught = run_quietly(QRELS, RUN, k=K, metrics=ALL_METRICS, zero_division=policy)
    expected = {"q1": Q1, "q3": Q3}
    if policy != "skip":
        expected["q2"] = q2_expected(policy)
    assert sorted(report.per_query) == sorted(expected)
    assert report.scored_queries == len(expected)
    for q, row in expected.items():
        for key, want in row.items():
            assert same(report.per_query[q][key], want), (policy, q, key, report.per_query[q][key])
    # means: over every scored query, NaN left out of that metric's mean only
    for key in Q1:
        values = [row[key] for row in expected.values() if not math.isnan(row[key])]
        assert report.mean[key] == pytest.approx(sum(values) / len(values), abs=1e-12), (policy, key)
    notice = {n.code: n for n in report.notices}["no_relevant_queries"]
    assert notice.queries == ("q2",) and notice.count == 1
    assert len(caught) == (1 if policy == "warn" else 0)


def test_nan_means_in_numbers():
    """zero_division='nan': recall@2 mean over q1, q3 only = (1 + 1) / 2; precision@2 over all
    three = (0.5 + 0 + 0.5) / 3."""
    report, _ = run_quietly(QRELS, RUN, k=K, metrics=ALL_METRICS, zero_division="nan")
    assert report.mean["recall@2"] == 1.0
    assert report.mean["ndcg@1"] == 0.5
    assert report.mean["precision@2"] == pytest.approx(1 / 3, abs=1e-15)
    assert report.mean["map"] == 0.75
    assert report.mean["rr"] == pytest.approx(0.5, abs=1e-15)


def test_policy_one_moves_the_means_up():
    """zero_division=1: recall@1 = (0 + 1 + 1) / 3; with 0 it is (0 + 0 + 1) / 3."""
    one, _ = run_quietly(QRELS, RUN, k=K, metrics=ALL_METRICS, zero_division=1)
    zero, _ = run_quietly(QRELS, RUN, k=K, metrics=ALL_METRICS, zero_division=0)
    assert one.mean["recall@1"] == pytest.approx(2 / 3, abs=1e-15)
    assert zero.mean["recall@1"] == pytest.approx(1 / 3, abs=1e-15)
    assert one.mean["precision@1"] == zero.mean["precision@1"] == pytest.approx(1 / 3, abs=1e-15)


def test_nan_is_null_in_to_dict_and_json():
    report, _ = run_quietly(QRELS, RUN, k=K, metrics=ALL_METRICS, zero_division="nan")
    data = report.to_dict()
    for key in Q1:
        if key.partition("@")[0] in UNDEFINED:
            assert data["per_query"]["q2"][key] is None, key
        else:
            assert data["per_query"]["q2"][key] == Q2_DEFINED[key], key
    assert data["zero_division"] == "nan"
    text = json.dumps(data, allow_nan=False)  # raises on NaN / infinity
    assert "NaN" not in text


def test_nan_when_every_scored_query_is_undefined():
    """Only a query without a relevant document: recall's mean has no defined value (null), while
    precision@1 is 0 over that one query."""
    report, _ = run_quietly("q1 0 d1 0\n", "q1 Q0 d1 1 1 t\n", k=1, zero_division="nan")
    assert report.scored_queries == 1
    assert math.isnan(report.mean["recall@1"]) and math.isnan(report.mean["ndcg@1"])
    assert report.mean["precision@1"] == 0.0 and report.mean["mrr@1"] == 0.0
    data = json.loads(json.dumps(report.to_dict(), allow_nan=False))
    assert data["mean"]["recall@1"] is None and data["mean"]["precision@1"] == 0.0


def test_skip_scores_nothing_when_no_query_has_a_relevant_document():
    report, _ = run_quietly("q1 0 d1 0\n", "q1 Q0 d1 1 1 t\n", k=1)
    assert report.per_query == {} and report.mean == {} and report.scored_queries == 0
    assert "no_scored_queries" in {n.code for n in report.notices}
    scored, _ = run_quietly("q1 0 d1 0\n", "q1 Q0 d1 1 1 t\n", k=1, zero_division=0)
    assert scored.scored_queries == 1
    assert scored.per_query["q1"] == {"recall@1": 0.0, "precision@1": 0.0, "mrr@1": 0.0,
                                      "ndcg@1": 0.0}
    assert "no_scored_queries" not in {n.code for n in scored.notices}


@pytest.mark.parametrize("policy, undefined", [(0, 0.0), (1, 1.0), ("nan", math.nan)])
def test_no_relevant_query_missing_from_the_run(policy, undefined):
    """q4 is judged (grade 0 only) and absent from the run. missing='zero' (trec_eval -c)
    scores it: precision etc. 0, the undefined metrics by the policy; missing='skip' drops it."""
    qrels, run = QRELS + "q4 0 d7 0\n", RUN
    report, _ = run_quietly(qrels, run, k=K, metrics=ALL_METRICS, zero_division=policy)
    row = report.per_query["q4"]
    for key in Q1:
        name = key.partition("@")[0]
        assert same(row[key], undefined if name in UNDEFINED else 0.0), key
    assert report.scored_queries == 4
    assert "q4" in report.missing_queries
    skipped, _ = run_quietly(qrels, run, k=K, metrics=ALL_METRICS, zero_division=policy,
                             missing="skip")
    assert "q4" not in skipped.per_query and skipped.scored_queries == 3
    default, _ = run_quietly(qrels, run, k=K, metrics=ALL_METRICS)
    assert "q4" not in default.per_query and "q4" not in default.missing_queries


def test_warn_equals_zero_and_warns_once():
    warned, caught = run_quietly(QRELS, RUN, k=K, metrics=ALL_METRICS, zero_division="warn")
    zero, none = run_quietly(QRELS, RUN, k=K, metrics=ALL_METRICS, zero_division=0)
    assert warned.per_query == zero.per_query and warned.mean == zero.mean
    assert len(caught) == 1 and none == []
    assert issubclass(UndefinedMetricWarning, UserWarning)


def test_warn_is_silent_without_undefined_values():
    _, caught = run_quietly("q1 0 d1 1\n", "q1 Q0 d1 1 1 t\n", zero_division="warn")
    assert caught == []


def test_warn_can_be_turned_into_an_error():
    with warnings.catch_warnings():
        warnings.simplefilter("error", UndefinedMetricWarning)
        with pytest.raises(UndefinedMetricWarning):
            evaluate(QRELS, RUN, k=K, zero_division="warn")


@pytest.mark.parametrize("bad", [2, "zero", -1, 0.5, "", "NaN ", None, True, "skipped", [0]])
def test_bad_values_are_option_errors(bad):
    with pytest.raises(OptionError) as caught:
        evaluate(QRELS, RUN, zero_division=bad)
    assert caught.value.field == "zero_division"
    assert isinstance(caught.value, ValueError)


# --- trec_eval's own collection -------------------------------------------------------------

TREC_NAMES = {"P_5": "precision@5", "P_10": "precision@10", "P_15": "precision@15",
              "P_20": "precision@20", "P_30": "precision@30", "P_100": "precision@100",
              "P_200": "precision@200", "P_500": "precision@500", "P_1000": "precision@1000",
              "recip_rank": "rr", "map": "map", "Rprec": "rprec"}


@pytest.fixture(scope="module")
def comment_collection():
    folder = trec_dir()
    printed = read_trec_eval_output(folder / "out.comment.test")
    return folder, printed


@pytest.mark.slow
@pytest.mark.parametrize("policy", [0, "warn"])
def test_zero_reproduces_trec_eval_all_line(comment_collection, policy):
    folder, printed = comment_collection
    report, _ = run_quietly(folder / "qrels.comment.test", folder / "results.comment.test",
                            k=[5, 10, 15, 20, 30, 100, 200, 500, 1000],
                            metrics=["precision", "rr", "map", "rprec"], zero_division=policy)
    assert report.scored_queries == int(printed["num_q"]["all"]) == 31
    for name, key in TREC_NAMES.items():
        assert agrees_with_printed(report.mean[key], printed[name]["all"]), \
            (name, report.mean[key], printed[name]["all"])


@pytest.mark.slow
def test_default_skip_is_over_30_queries_there(comment_collection):
    """README: P_10 is 0.7710 over 31 queries in trec_eval and 0.7967 over 30 by default. The
    skipped query has no relevant document, so every metric is 0 on it and the skip mean is
    trec_eval's mean * 31 / 30."""
    folder, printed = comment_collection
    qrels = read_trec_qrels(folder / "qrels.comment.test")
    no_relevant = [q for q, docs in qrels.items() if not any(g > 0 for g in docs.values())]
    assert len(qrels) == 31 and len(no_relevant) == 1
    report = evaluate(folder / "qrels.comment.test", folder / "results.comment.test",
                      k=[5, 10, 1000], metrics=["precision", "rr", "map", "rprec"])
    assert report.scored_queries == 30 and no_relevant[0] not in report.per_query
    assert round(report.mean["precision@10"], 4) == 0.7967
    for name in ("P_5", "P_10", "P_1000", "recip_rank", "map", "Rprec"):
        # trec_eval's printed mean carries +-5e-5; times 31/30 it carries +-5.2e-5
        assert abs(report.mean[TREC_NAMES[name]] - float(printed[name]["all"]) * 31 / 30) <= 5.2e-5


# --- pytrec_eval on generated inputs --------------------------------------------------------

try:
    import pytrec_eval
except ImportError:  # the rest of this file still runs
    pytrec_eval = None

PLAIN = "abcdefgh0123"


@st.composite
def collections(draw):
    ident = st.text(PLAIN, min_size=1, max_size=3)
    qids = draw(st.lists(ident, min_size=1, max_size=6, unique=True))
    docs = draw(st.lists(ident, min_size=1, max_size=8, unique=True))
    qrels, run = {}, {}
    for q in qids:
        in_qrels, in_run = draw(st.sampled_from([(True, True), (True, True), (True, False),
                                                 (False, True)]))
        if in_qrels:
            zero_only = draw(st.booleans())  # often: the point of these tests
            grade = st.just(0) if zero_only else st.integers(0, 3)  # >= 0: pytrec_eval segfaults below
            qrels[q] = draw(st.dictionaries(st.sampled_from(docs), grade, min_size=1, max_size=6))
        if in_run:
            run[q] = draw(st.lists(st.tuples(st.sampled_from(docs), st.integers(-3, 3).map(float)),
                                   min_size=1, max_size=10))
    if not qrels:
        qrels[qids[0]] = {docs[0]: 0}
    ks = sorted(set(draw(st.lists(st.sampled_from([1, 2, 3, 5, 10]), min_size=1, max_size=3))))
    return qrels, run, ks


def tie_free(rows):
    """trec_eval's order, computed here: score descending, then doc id descending; the first
    (best) occurrence of a repeated document kept; scores n, n-1, ... so nothing ties."""
    seen, order = set(), []
    for doc, _s in sorted(rows, key=lambda r: (r[1], r[0].encode()), reverse=True):
        if doc not in seen:
            seen.add(doc)
            order.append(doc)
    return {d: float(len(order) - i) for i, d in enumerate(order)}


def pytrec_rows(qrels, run, ks):
    cut = ",".join(map(str, ks))
    measures = {f"P.{cut}", f"recall.{cut}", f"ndcg_cut.{cut}", f"map_cut.{cut}",
                f"success.{cut}", "recip_rank", "map", "Rprec"}
    out = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(
        {q: tie_free(rows) for q, rows in run.items()})
    rows = {q: expected_row(v, ks) for q, v in out.items()}
    return rows


PYTREC_METRICS = ["recall", "precision", "mrr", "ndcg", "hit_rate", "ap", "map", "rprec", "rr"]


@pytest.mark.slow
@settings(max_examples=150, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(collections(), st.sampled_from([0, 1, "nan"]), st.sampled_from(["zero", "skip"]))
def test_means_against_pytrec_eval(data, policy, missing):
    """zero_division=0 with missing='zero' is trec_eval -c's mean over every judged query; 1 and
    'nan' replace (or drop) the undefined values of the queries without a relevant document."""
    if pytrec_eval is None:
        pytest.skip("pytrec_eval is not installed")
    qrels, run, ks = data
    theirs = pytrec_rows(qrels, run, ks)
    run_input = "".join(f"{q} Q0 {d} {i + 1} {s!r} t\n"
                        for q, rows in run.items() for i, (d, s) in enumerate(rows))
    if not run_input:
        run_input = "zz Q0 d 1 1 t\n"  # a run with one unjudged query
    report, _ = run_quietly(qrels, run_input, k=ks, metrics=PYTREC_METRICS,
                            zero_division=policy, missing=missing)
    no_relevant = {q for q, docs in qrels.items() if not any(g > 0 for g in docs.values())}
    counted = set(qrels) if missing == "zero" else set(qrels) & set(run)
    assert sorted(report.per_query) == sorted(counted)
    assert report.scored_queries == len(counted)
    keys = ["rr", "map", "rprec"] + [f"{name}@{k}" for k in ks for name in
                                     ("precision", "recall", "ndcg", "ap", "hit_rate", "mrr")]
    if not counted:
        assert report.mean == {}
        return
    for key in keys:
        values = []
        for q in counted:
            if q in no_relevant and key.partition("@")[0] in UNDEFINED:
                if policy == "nan":
                    continue
                values.append(float(policy))
            elif q in theirs:
                values.append(theirs[q][key])
            else:
                values.append(0.0)  # missing from the run (trec_eval -c)
        got = report.mean.get(key)
        if values:
            assert got is not None and math.isclose(got, sum(values) / len(values),
                                                    rel_tol=0, abs_tol=1e-9), (key, got, values)
        else:
            assert got is not None and math.isnan(got), (key, got)
    # and per query where pytrec_eval scored the query and the value is defined
    for q in counted & set(theirs):
        for key in keys:
            if q in no_relevant and key.partition("@")[0] in UNDEFINED:
                assert same(report.per_query[q][key], math.nan if policy == "nan" else float(policy))
            else:
                assert math.isclose(report.per_query[q][key], theirs[q][key], abs_tol=1e-9), (q, key)
