"""trec_eval's other measures (measures.trec, interpolated, err, rbp, judged_only) against
trec_eval 10's printed outputs on its test collection, against pytrec_eval (trec_eval 9.0.8's C
code) and ir_measures on generated cases, and hand-worked cases where trec_eval 10 and 9.0.8
(or the papers) part ways.

The rankings are built here as trec_eval builds them: score descending, then document id
descending (bytes), in double precision; each document's grade from the qrels, None when the
qrels do not mention it. The expected numbers are trec_eval's, pytrec_eval's or ir_measures',
never the module's own.
"""

from __future__ import annotations

import functools
import math

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from retrieval_metrics.measures import aggregation, err, interpolated, judged_only, rbp
from retrieval_metrics.measures import trec_ranked as t
from retrieval_metrics.measures.core import average_precision, ndcg
from retrieval_metrics.measures.grades import QueryGrades, num_rel_ret
from retrieval_metrics.measures.trec_rel_list import Ranks
from support import agrees_with_printed, read_trec_eval_output, read_trec_qrels, trec_dir


def _r(grades, judged, level=1):
    """The query as trec_eval's RES_RELS, which trec_eval's measures read."""
    return t.RelList.of_grades(grades, judged, level)


def _query(grades, judged, level=1):
    """The same query as the calculator's measures read it: document i at rank i + 1, and a
    judged document nobody retrieved for each judged grade the ranking does not hold."""
    left = list(judged)
    documents = {}
    for i, g in enumerate(grades):
        if g is not None:
            documents[i] = g
            left.remove(g)
    documents.update({("unretrieved", n): g for n, g in enumerate(left)})
    return QueryGrades(list(range(len(grades))), documents, level)


def _iprec(grades, rel, level=1, points=interpolated.IPREC_RECALL_POINTS):
    return t.iprec_at_recall(Ranks.of_grades(grades, rel, level), points) if grades else [0.0] * len(points)


def _eleven(grades, rel, level=1, points=interpolated.IPREC_RECALL_POINTS):
    return t.eleven_point_average(Ranks.of_grades(grades, rel, level), points) if grades else 0.0


def _rprec_mult(grades, rel, level=1, multiples=interpolated.RPREC_MULTIPLES):
    if not rel:
        return [0.0] * len(multiples)
    return t.rprec_mult(Ranks.of_grades(grades, rel, level), multiples)


def _num_rel(judged, level=1):
    return sum(1 for g in judged if g >= level)


PROFILE = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# --- trec_eval's test collection --------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _ranked(run_name: str) -> dict[str, list[str]]:
    by_query: dict[str, list[tuple[float, str]]] = {}
    for line in (trec_dir() / run_name).read_text().splitlines():
        fields = line.split()
        if fields:
            by_query.setdefault(fields[0], []).append((float(fields[4]), fields[2]))
    return {q: [d for _s, d in sorted(rows, key=lambda r: (r[0], r[1].encode()), reverse=True)]
            for q, rows in by_query.items()}


@functools.lru_cache(maxsize=None)
def _qrels(name: str):
    return read_trec_qrels(trec_dir() / name)


@functools.lru_cache(maxsize=None)
def _out(name: str):
    return read_trec_eval_output(trec_dir() / name)


def _grades(qrels_name, run_name, query, depth=None):
    """A query's ranked grades; a judged query the run lacks is an empty ranking, as trec_eval
    -c evaluates it."""
    judged = _qrels(qrels_name)[query]
    ranked = _ranked(run_name).get(query, [])[:depth]
    return [judged.get(doc) for doc in ranked], list(judged.values())


def _per_query(qrels_name, run_name, level, depth=None, params=None):
    """{trec_eval measure name: {query: value}} for every query of the qrels."""
    params = params or {}
    out: dict[str, dict[str, float]] = {}
    for query in _qrels(qrels_name):
        grades, judged = _grades(qrels_name, run_name, query, depth)
        rel = _num_rel(judged, level)
        r = _r(grades, judged, level)
        values = {
            "num_ret": len(grades),
            "num_rel": rel,
            "num_rel_ret": num_rel_ret(grades, level),
            "bpref": t.bpref(r),
            "infAP": t.inferred_ap(r),
            "ndcg": ndcg(_query(grades, judged)),
            "set_P": t.set_precision(r),
            "set_recall": t.set_recall(r),
            "set_F": t.set_f(r),
            "utility": t.utility(r, (1.0, -1.0, 0.0, 0.0)),
            "11pt_avg": _eleven(grades, rel, level),
            "rbp_resid": rbp.rbp_residual(grades, p=0.9),
            "rbp": rbp.rbp(grades, p=0.9, relevance_level=level),
            "gm_map": average_precision(_query(grades, judged, level)),
        }
        points = params.get("iprec", interpolated.IPREC_RECALL_POINTS)
        for p, v in zip(points, _iprec(grades, rel, level, points)):
            values[f"iprec_at_recall_{p:.2f}"] = v
        multiples = params.get("rprec_mult", interpolated.RPREC_MULTIPLES)
        for m, v in zip(multiples, _rprec_mult(grades, rel, level, multiples)):
            values[f"Rprec_mult_{m:.2f}"] = v
        for k in params.get("success", (1, 5, 10)):
            values[f"success_{k}"] = t.success_at(r, [k])[0]
        for name, value in values.items():
            out.setdefault(name, {})[query] = value
    return out


def _summary(name: str, per_query: dict[str, float]) -> float:
    """trec_eval's `all` line: sums for the counts, the geometric mean for gm_map, else the
    mean, all over every judged query (these runs leave none out)."""
    values = list(per_query.values())
    if name in ("num_ret", "num_rel", "num_rel_ret"):
        return sum(values)
    if name == "gm_map":
        return aggregation.geometric_mean(values)
    return math.fsum(values) / len(values)


def _mismatches(printed, ours, names):
    bad = []
    for name in names:
        assert name in printed, f"{name} is not in trec_eval's output"
        for query, text in printed[name].items():
            if query == "all":
                value = _summary(name, ours[name])
            elif name == "gm_map":
                continue
            else:
                value = ours[name][query]
            if not agrees_with_printed(float(value), text):
                bad.append(f"{name}[{query}]: trec_eval {text}, ours {value!r}")
    return bad


AQ_NAMES = (["num_ret", "num_rel", "num_rel_ret", "gm_map", "bpref", "infAP", "ndcg", "set_P",
             "set_recall", "set_F", "utility", "11pt_avg", "rbp", "rbp_resid", "success_1",
             "success_5", "success_10"]
            + [f"iprec_at_recall_{p:.2f}" for p in interpolated.IPREC_RECALL_POINTS]
            + [f"Rprec_mult_{m:.2f}" for m in interpolated.RPREC_MULTIPLES])


@pytest.mark.slow
@pytest.mark.parametrize("name", AQ_NAMES)
def test_out_test_aq(name):
    # trec_eval -m all_trec -q qrels.test results.test (grades 0/1, every query retrieved)
    ours = _per_query("qrels.test", "results.test", 1)
    assert _mismatches(_out("out.test.aq"), ours, [name]) == []


# qrels.rel_level grades -1..4 under -l2: bpref and infAP read the negative grades (in the pool,
# not judged) apart from the documents the qrels never mention; ndcg reads the grades
# themselves. trec_eval 10's rbp is left out here: with grades above 1 its m_rbp.c rescales the
# gains by a min and max it never initialises (see test_rbp_graded_is_not_trec_eval_10s).
AQL_NAMES = [n for n in AQ_NAMES if n != "rbp"]


@pytest.mark.parametrize("name", AQL_NAMES)
def test_out_test_aql_relevance_level_2(name):
    ours = _per_query("qrels.rel_level", "results.test", 2)
    assert _mismatches(_out("out.test.aql"), ours, [name]) == []


def test_rel_level_reaches_the_three_kinds_of_not_relevant():
    # the aql test means something only if the run retrieves negative-graded, zero-graded and
    # unmentioned documents above relevant ones
    kinds = set()
    for query in _qrels("qrels.rel_level"):
        grades, _ = _grades("qrels.rel_level", "results.test", query)
        kinds |= {"none" if g is None else "negative" if g < 0 else "zero" if g == 0 else "rel"
                  for g in grades[:100]}
    assert kinds == {"none", "negative", "zero", "rel"}


# -c with results.trunc: 302 has no results and is evaluated as an empty ranking (its num_rel
# stays 77); -M100 keeps the first 100 documents of each ranking.
@pytest.mark.parametrize("out_name,depth", [("out.test.aqc", None), ("out.test.aqcM", 100)])
@pytest.mark.parametrize("name", [n for n in AQ_NAMES if n not in ("rbp_resid",)])
def test_out_test_aqc_missing_query_and_depth(out_name, depth, name):
    ours = _per_query("qrels.test", "results.trunc", 1, depth=depth)
    assert _mismatches(_out(out_name), ours, [name]) == []


def test_rbp_resid_of_an_empty_ranking():
    # trec_eval 10 prints rbp_resid 0 for 302, which -c evaluates with nothing retrieved (no
    # unjudged document, so its m_rbp_resid.c leaves the value at 0); by Moffat and Zobel the
    # whole of RBP is still unknown: p^0 = 1.
    assert _out("out.test.aqc")["rbp_resid"]["302"] == "0.0000"
    assert rbp.rbp_residual([], p=0.9) == 1.0
    # 301 and 303 (retrieved, some unjudged) agree with trec_eval
    ours = _per_query("qrels.test", "results.trunc", 1)["rbp_resid"]
    for q in ("301", "303"):
        assert agrees_with_printed(ours[q], _out("out.test.aqc")["rbp_resid"][q])


def test_out_test_meas_params():
    # trec_eval -q -miprec_at_recall..10,.20,.25,.75,.50 -m Rprec_mult.5.0,0.2,0.35
    # -mutility.2,-1,0,0 -m 11pt_avg..25,.5,.75 -mndcg.1=3,2=9,4=4.5 -msuccess.2,5,20
    points = (0.10, 0.20, 0.25, 0.50, 0.75)  # trec_eval sorts them
    multiples = (0.2, 0.35, 5.0)
    ours = _per_query("qrels.test", "results.test", 1,
                      params={"iprec": points, "rprec_mult": multiples, "success": (2, 5, 20)})
    for query in _qrels("qrels.test"):
        grades, judged = _grades("qrels.test", "results.test", query)
        rel = _num_rel(judged)
        ours.setdefault("utility_2,-1,0,0", {})[query] = t.utility(_r(grades, judged), (2, -1, 0, 0))
        ours.setdefault("11pt_avg_.25,.5,.75", {})[query] = _eleven(
            grades, rel, points=(0.25, 0.5, 0.75))
    printed = _out("out.test.meas_params")
    names = ([f"iprec_at_recall_{p:.2f}" for p in points] + [f"Rprec_mult_{m:.2f}" for m in multiples]
             + ["success_2", "success_5", "success_20", "utility_2,-1,0,0", "11pt_avg_.25,.5,.75"])
    assert _mismatches(printed, ours, names) == []


def test_collection_has_unjudged_and_short_rankings():
    # results.trunc's 303 has 84 documents: the -M100 and Rprec_mult tests cross the end
    assert len(_ranked("results.trunc")["303"]) == 84
    assert "302" not in _ranked("results.trunc")


# --- trec_eval 10 against 9.0.8, and other deliberate differences, by hand ----------------------

def test_iprec_rounding_trec_eval_10_not_9():
    # Relevant at ranks 2 and 3 of 4, R = 4. Recall 0.6 is 0.6 * 4 = 2.4 relevant documents:
    # trec_eval 10 rounds to 2 (lround), 9.0.8 truncated 2.4 + 0.9 = 3.3 to 3. The run has 2
    # relevant: at 2 the interpolated precision is max(2/3 at rank 3, 2/4 at rank 4) = 2/3;
    # 3 is never reached, so 9.0.8 says 0.
    grades, rel = [0, 1, 1, 0], 4
    values = dict(zip(interpolated.IPREC_RECALL_POINTS, _iprec(grades, rel)))
    assert values[0.6] == pytest.approx(2 / 3)
    pytrec_eval = pytest.importorskip("pytrec_eval")
    theirs = pytrec_eval.RelevanceEvaluator(
        {"q": {"a": 0, "b": 1, "c": 1, "d": 0, "e": 1, "f": 1}}, {"iprec_at_recall", "11pt_avg"}
    ).evaluate({"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}})["q"]
    assert theirs["iprec_at_recall_0.60"] == 0.0  # 9.0.8
    # 11pt_avg: 10 has 2/3 at the 7 points 0.0-0.6 (cutoffs 0,0,1,1,2,2,2), 9.0.8 at 6 of them
    assert _eleven(grades, rel) == pytest.approx(7 * (2 / 3) / 11)
    assert theirs["11pt_avg"] == pytest.approx(6 * (2 / 3) / 11)


def test_recall_cutoffs_round_half_away_from_zero():
    # 0.5 * 5 = 2.5 relevant: lround gives 3 (Python's round would give 2); 9.0.8 gave 3 too
    assert [t.lround(p * 5) for p in (0.5, 0.3, 0.7)] == [3, 2, 4]  # 2.5, 1.5, 3.5


def test_rprec_mult_still_truncates_in_trec_eval_10():
    # 0.6 * R with R = 4 is 2.4: rank int(2.4 + 0.9) = 3, not 2. Relevant at 2 and 3: 2/3.
    assert _rprec_mult([0, 1, 1, 0], 4, multiples=(0.6,)) == [pytest.approx(2 / 3)]


def test_rbp_residual_counts_the_tail_when_all_is_judged():
    # Every retrieved document judged, p = 0.5, 2 documents: RBP can still gain the weight of
    # ranks 3, 4, ...: 0.5^2 = 0.25 (Moffat and Zobel 2008). trec_eval 10's m_rbp_resid.c
    # returns 0 when no retrieved document is unjudged.
    assert rbp.rbp_residual([1, 0], p=0.5) == 0.25
    # with an unjudged one at rank 2: 0.5 * 0.5 + 0.25, as trec_eval 10 computes it
    assert rbp.rbp_residual([1, None], p=0.5) == 0.5


def test_rbp_graded_is_not_trec_eval_10s():
    # On graded qrels trec_eval 10's rbp is undefined behaviour (m_rbp.c compares gains with an
    # uninitialised min and max): on out.test.aql, 301 matches gains grade/4 but 302 matches
    # binary relevance. Ours is binary at the relevance level, as ir_measures' RBP(rel=...).
    printed = _out("out.test.aql")["rbp"]
    grades, _ = _grades("qrels.rel_level", "results.test", "302")
    assert agrees_with_printed(rbp.rbp(grades, 0.9, 2), printed["302"])
    grades, _ = _grades("qrels.rel_level", "results.test", "301")
    assert not agrees_with_printed(rbp.rbp(grades, 0.9, 2), printed["301"])


def test_set_f_weight_is_not_squared():
    # P = 1/2, R = 1/4, x = 4: (5 * 1/8) / (2 + 1/4) = 0.2777...; F-beta with beta^2 = 16 would
    # be 17/8 / (8 + 1/4) = 0.2575...
    assert t.set_f(_r([1, 0], [1, 0, 1, 1, 1]), beta=4.0) == pytest.approx((5 / 8) / (9 / 4))


def test_bpref_with_more_nonrelevant_than_relevant():
    # R = 1, 3 judged non-relevant: each denominator is min(3, 1) = 1 and nonrel_so_far caps at
    # R, so one non-relevant above the relevant one already gives 0.
    assert t.bpref(_r([0, 1], [1, 0, 0, 0])) == 0.0
    assert t.bpref(_r([None, -1, 1, 0], [1, 0, 0, 0, -1])) == 1.0  # unjudged above: no penalty


def test_err_gdeval_by_hand():
    # grades 1, 0, 3 at k = 2: R = 1/16, 0: ERR = 1/16; at k = 3 add (7/16)(15/16)/3
    assert err.err([1, 0, 3], 2) == 1 / 16
    assert err.err([1, 0, 3], 3) == pytest.approx(1 / 16 + (15 / 16) * (7 / 16) / 3)


# --- pytrec_eval (trec_eval 9.0.8) on generated cases ------------------------------------------

PLAIN = "abcdefgh"


@st.composite
def rankings(draw, max_grade=3, numeric_ids=False):
    """A few queries: qrels (grades 0..max_grade: pytrec_eval crashes on negative ones) and a
    tie-free ranking drawn from the same documents and others nobody judged."""
    docs = [f"d{i}" for i in range(draw(st.integers(1, 12)))]
    queries = {}
    for i in range(draw(st.integers(1, 4))):
        qid = str(100 + i) if numeric_ids else f"q{i}"
        judged = draw(st.dictionaries(st.sampled_from(docs), st.integers(0, max_grade),
                                      min_size=1, max_size=10))
        pool = docs + [f"u{j}" for j in range(5)]
        ranked = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=15, unique=True))
        queries[qid] = (judged, ranked)
    return queries


def _pytrec(queries, measures, level=1):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = {q: judged for q, (judged, _r) in queries.items()}
    run = {q: {d: float(len(ranked) - i) for i, d in enumerate(ranked)}
           for q, (_j, ranked) in queries.items()}
    return pytrec_eval.RelevanceEvaluator(qrels, measures, relevance_level=level).evaluate(run)


def _v9_cutoff(p, rel):
    return int(p * rel + 0.9)


@pytest.mark.slow
@PROFILE
@given(rankings(), st.sampled_from([1, 1, 2, 3]))
def test_against_pytrec_eval(queries, level):
    measures = {"num_ret", "num_rel", "num_rel_ret", "gm_map", "bpref", "infAP", "ndcg", "set_P",
                "set_recall", "set_F", "utility", "success", "Rprec_mult", "iprec_at_recall",
                "11pt_avg"}
    theirs = _pytrec(queries, measures, level)
    problems = []
    for q, (judged, ranked) in queries.items():
        grades = [judged.get(d) for d in ranked]
        rel = _num_rel(judged.values(), level)
        r = _r(grades, judged.values(), level)
        want = theirs[q]
        ours = {
            "num_ret": len(grades), "num_rel": rel,
            "num_rel_ret": num_rel_ret(grades, level),
            "bpref": t.bpref(r),
            "infAP": t.inferred_ap(r),
            "ndcg": ndcg(_query(grades, judged.values())),
            "set_P": t.set_precision(r), "set_recall": t.set_recall(r),
            "set_F": t.set_f(r), "utility": t.utility(r, (1.0, -1.0, 0.0, 0.0)),
            # per query, trec_eval's gm_map is log(max(AP, 0.00001))
            "gm_map": math.log(aggregation.geometric_mean([average_precision(
                _query(grades, judged.values(), level))])),
        }
        for k in (1, 5, 10):
            ours[f"success_{k}"] = t.success_at(r, [k])[0]
        for m, v in zip(interpolated.RPREC_MULTIPLES, _rprec_mult(grades, rel, level)):
            ours[f"Rprec_mult_{m:.2f}"] = v
        same_cutoffs = True
        for p, v, cut in zip(interpolated.IPREC_RECALL_POINTS, _iprec(grades, rel, level),
                             [t.lround(p * rel) for p in interpolated.IPREC_RECALL_POINTS]):
            # 9.0.8 truncates p * R + 0.9 where 10 rounds; cutoffs 0 and 1 give the same value
            if max(cut, 1) == max(_v9_cutoff(p, rel), 1):
                ours[f"iprec_at_recall_{p:.2f}"] = v
            else:
                same_cutoffs = False
                event("iprec cutoff differs from 9.0.8")
        if same_cutoffs:
            ours["11pt_avg"] = _eleven(grades, rel, level)
        if not rel:
            event("query without relevant document")
        for name, value in ours.items():
            if not math.isclose(value, want[name], rel_tol=0, abs_tol=1e-9):
                problems.append(f"{q} {name}: pytrec_eval {want[name]!r}, ours {value!r} "
                                f"(grades {grades}, judged {judged}, level {level})")
    assert problems == []


# --- ir_measures on generated cases ------------------------------------------------------------

def _ir_measures_values(queries, measure):
    ir_measures = pytest.importorskip("ir_measures")
    qrels = [ir_measures.Qrel(q, d, g) for q, (judged, _r) in queries.items() for d, g in judged.items()]
    run = [ir_measures.ScoredDoc(q, d, float(len(ranked) - i))
           for q, (_j, ranked) in queries.items() for i, d in enumerate(ranked)]
    return {m.query_id: m.value for m in ir_measures.iter_calc([measure], qrels, run)}


@pytest.mark.slow
@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(rankings(max_grade=4, numeric_ids=True), st.sampled_from([1, 3, 5, 10, 20]))
def test_err_against_ir_measures(queries, k):
    ir_measures = pytest.importorskip("ir_measures")
    theirs = _ir_measures_values(queries, ir_measures.ERR @ k)
    for q, (judged, ranked) in queries.items():
        ours = err.err([judged.get(d) for d in ranked], k)
        if not any(g > 0 for g in judged.values()):
            # gdeval.pl prints nothing for such a query; ir_measures fills in 0
            assert ours == 0.0 and theirs.get(q, 0.0) == 0.0
            continue
        # gdeval.pl prints 5 decimals
        assert abs(ours - theirs[q]) <= 5e-6 + 1e-12, (q, ours, theirs[q])


@pytest.mark.slow
@PROFILE
@given(rankings(), st.sampled_from([0.5, 0.8, 0.9, 0.95]), st.sampled_from([1, 2]))
def test_rbp_against_ir_measures(queries, p, level):
    ir_measures = pytest.importorskip("ir_measures")
    theirs = _ir_measures_values(queries, ir_measures.RBP(p=p, rel=level))
    for q, (judged, ranked) in queries.items():
        ours = rbp.rbp([judged.get(d) for d in ranked], p, level)
        assert math.isclose(ours, theirs[q], rel_tol=0, abs_tol=1e-9), (q, ours, theirs[q])


@pytest.mark.slow
@PROFILE
@given(rankings(), st.sampled_from([1, 3, 5, 10]))
def test_judged_only_ndcg_against_ir_measures(queries, k):
    ir_measures = pytest.importorskip("ir_measures")
    theirs = _ir_measures_values(queries, ir_measures.nDCG(judged_only=True) @ k)
    for q, (judged, ranked) in queries.items():
        if None in [judged.get(d) for d in ranked][:k]:
            event("unjudged document in the top k")
        ours = judged_only.ndcg_judged_only(QueryGrades(ranked, judged), k)
        assert math.isclose(ours, theirs[q], rel_tol=0, abs_tol=1e-9), (q, ours, theirs[q])
