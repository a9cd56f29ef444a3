"""Our numbers against trec_eval's printed outputs on trec_eval's own test collection.

The collection is read from tests/data/trec_eval/ (a copy of trec_eval's own, with its licence; see its
README.md). Expected values are trec_eval's printed 4-decimal values (out.*) or, where trec_eval
printed no per-query line, pytrec_eval (trec_eval 9.0.8's C code) on a tie-free copy of the run.
"""

from __future__ import annotations

import functools
import math

import pytest
from retrieval_metrics import evaluate
from support import (
    PRINTED_TOL,
    agrees_with_printed,
    notice_codes,
    read_trec_eval_output,
    read_trec_qrels,
    trec_dir,
)

KS = [5, 10, 15, 20, 30, 100, 200, 500, 1000]
MAIN_METRICS = ["recall", "precision", "mrr", "ndcg", "rr"]
EXTRA_METRICS = ["map", "rprec", "ap", "hit_rate", "judged"]


def _main_pairs():
    """(trec_eval measure, our key) for the four basic metrics; RR both as `rr` and as mrr@1000
    (>= depth 500)."""
    pairs = []
    for k in KS:
        pairs += [(f"P_{k}", f"precision@{k}"), (f"recall_{k}", f"recall@{k}"),
                  (f"ndcg_cut_{k}", f"ndcg@{k}")]
    pairs += [("recip_rank", "rr"), ("recip_rank", "mrr@1000")]
    return pairs


MAIN_PAIRS = _main_pairs()
EXTRA_PAIRS = ([("map", "map"), ("Rprec", "rprec")]
               + [(f"map_cut_{k}", f"ap@{k}") for k in KS]
               + [(f"success_{k}", f"hit_rate@{k}") for k in (1, 5, 10)])


@functools.lru_cache(maxsize=None)
def _report(qrels_name, run_name, missing, extra=False, path_type="path"):
    d = trec_dir()
    qrels, run = d / qrels_name, d / run_name
    if path_type == "str":
        qrels, run = str(qrels), str(run)
    metrics = MAIN_METRICS + (EXTRA_METRICS if extra else [])
    ks = KS + ([1] if extra else [])
    return evaluate(qrels, run, k=ks, metrics=metrics, missing=missing)


@functools.lru_cache(maxsize=None)
def _out(name):
    return read_trec_eval_output(trec_dir() / name)


def _mismatches(report, printed, pairs, qids=None):
    bad = []
    for measure, key in pairs:
        for qid, value in printed[measure].items():
            if qids is not None and qid not in qids:
                continue
            if qid == "all":
                ours = report.mean.get(key)
            else:
                ours = report.per_query.get(qid, {}).get(key)
            if ours is None or not agrees_with_printed(ours, value):
                bad.append(f"{measure}[{qid}]: trec_eval {value}, ours {ours!r} ({key})")
    return bad


# --- out.test.aq: qrels.test + results.test (no judged query missing, so -c makes no difference) --

@pytest.mark.slow
@pytest.mark.parametrize("missing", ["zero", "skip"])
@pytest.mark.parametrize("measure,key", MAIN_PAIRS, ids=[f"{m}-{k}" for m, k in MAIN_PAIRS])
def test_aq_main(measure, key, missing):
    report = _report("qrels.test", "results.test", missing)
    assert _mismatches(report, _out("out.test.aq"), [(measure, key)]) == []


def test_aq_counts():
    report = _report("qrels.test", "results.test", "zero")
    assert report.scored_queries == int(_out("out.test.aq")["num_q"]["all"]) == 3
    assert set(report.per_query) == {"301", "302", "303"}
    assert list(report.per_query) == sorted(report.per_query)
    assert list(report.missing_queries) == []
    assert "missing_queries" not in notice_codes(report)


@pytest.mark.parametrize("measure,key", EXTRA_PAIRS, ids=[f"{m}-{k}" for m, k in EXTRA_PAIRS])
def test_aq_extra_metrics(measure, key):
    report = _report("qrels.test", "results.test", "zero", extra=True)
    assert _mismatches(report, _out("out.test.aq"), [(measure, key)]) == []


@pytest.mark.parametrize("k", [5, 10, 20])
def test_aq_judged_is_one_minus_unj(k):
    # trec_eval 10's unj_k = fraction of the top k that is unjudged; judged@k is its complement.
    report = _report("qrels.test", "results.test", "zero", extra=True)
    printed = _out("out.test.aq")[f"unj_{k}"]
    bad = []
    for qid, value in printed.items():
        ours = report.mean[f"judged@{k}"] if qid == "all" else report.per_query[qid][f"judged@{k}"]
        if not agrees_with_printed(1 - ours, value):
            bad.append((qid, value, ours))
    assert bad == []


def test_str_paths_give_the_same_report():
    a = _report("qrels.test", "results.test", "zero")
    b = _report("qrels.test", "results.test", "zero", path_type="str")
    assert a.per_query == b.per_query and a.mean == b.mean


def test_inputs_are_detected_as_trec():
    report = _report("qrels.test", "results.test", "zero")
    run, qrels = report.inputs["run"], report.inputs["qrels"]
    assert run.format == "trec" and qrels.format == "trec"
    assert run.rows == 1500 and run.queries == 3 and run.columns == 6
    n_qrels_lines = sum(1 for line in (trec_dir() / "qrels.test").read_text().splitlines() if line.strip())
    assert qrels.rows == n_qrels_lines and qrels.queries == 3 and qrels.columns == 4
    assert run.label == "TREC run"
    assert run.description == "TREC run: 6 columns, 1,500 rows, 3 queries"


# --- out.test.aqc: qrels.test + results.trunc (302 missing), with -c -------------------------

@pytest.mark.parametrize("measure,key", MAIN_PAIRS, ids=[f"{m}-{k}" for m, k in MAIN_PAIRS])
def test_aqc_with_c_is_missing_zero(measure, key):
    report = _report("qrels.test", "results.trunc", "zero")
    printed = _out("out.test.aqc")
    assert set(printed[measure]) == {"301", "302", "303", "all"}
    assert _mismatches(report, printed, [(measure, key)]) == []


@pytest.mark.parametrize("measure,key", EXTRA_PAIRS, ids=[f"{m}-{k}" for m, k in EXTRA_PAIRS])
def test_aqc_extra_metrics(measure, key):
    report = _report("qrels.test", "results.trunc", "zero", extra=True)
    assert _mismatches(report, _out("out.test.aqc"), [(measure, key)]) == []


def test_aqc_missing_query_is_reported():
    for missing in ("zero", "skip"):
        report = _report("qrels.test", "results.trunc", missing)
        assert list(report.missing_queries) == ["302"], missing
    report = _report("qrels.test", "results.trunc", "zero")
    assert report.scored_queries == 3
    assert set(report.per_query) == {"301", "302", "303"}
    assert all(v == 0 for v in report.per_query["302"].values())
    notice = notice_codes(report)["missing_queries"]
    assert notice.count == 1 and list(notice.queries) == ["302"]
    assert notice.level in ("info", "warning")


@pytest.mark.parametrize("measure,key", MAIN_PAIRS, ids=[f"{m}-{k}" for m, k in MAIN_PAIRS])
def test_aqc_without_c_is_missing_skip(measure, key):
    # Without -c trec_eval leaves 302 out: per-query values of the present queries are those of
    # out.test.aqc, and the mean is over 301 and 303 only = aqc's `all` (over 3, 302 = 0) * 3 / 2.
    report = _report("qrels.test", "results.trunc", "skip")
    printed = _out("out.test.aqc")
    assert "302" not in report.per_query
    assert set(report.per_query) == {"301", "303"}
    assert report.scored_queries == 2
    assert _mismatches(report, printed, [(measure, key)], qids={"301", "303"}) == []
    assert float(printed[measure]["302"]) == 0.0
    expected_mean = float(printed[measure]["all"]) * 3 / 2
    assert abs(report.mean[key] - expected_mean) <= PRINTED_TOL * 3 / 2
    # and exactly the mean of our own present per-query values
    assert report.mean[key] == pytest.approx(
        (report.per_query["301"][key] + report.per_query["303"][key]) / 2, abs=1e-12)


# --- qrels.test.with-comments: same output as qrels.test (out.test) ---------------------------

def test_qrels_with_comments_same_as_plain():
    plain = _report("qrels.test", "results.test", "zero")
    commented = _report("qrels.test.with-comments", "results.test", "zero")
    assert commented.per_query == plain.per_query
    assert commented.mean == plain.mean
    assert "comments_skipped" in notice_codes(commented)
    # `#` inside the docno CR#93E-1860 is data (a judged row), the three `#` lines are comments
    assert commented.inputs["qrels"].rows == plain.inputs["qrels"].rows


@pytest.mark.parametrize("measure,key", [(f"P_{k}", f"precision@{k}") for k in KS] + [("recip_rank", "rr")])
def test_qrels_with_comments_matches_out_test(measure, key):
    report = _report("qrels.test.with-comments", "results.test", "zero")
    assert _mismatches(report, _out("out.test"), [(measure, key)]) == []


# --- qrels.comment.test + results.comment.test: out.comment.test (trec_eval 10) ---------------

COMMENT_KS = [5, 10, 15, 20, 30, 100, 200, 500, 1000]
COMMENT_PAIRS = ([(f"P_{k}", f"precision@{k}") for k in COMMENT_KS]
                 + [("recip_rank", "rr"), ("map", "map"), ("Rprec", "rprec")])


def _comment_report():
    return _report("qrels.comment.test", "results.comment.test", "zero", extra=True)


def _no_relevant_queries():
    qrels = read_trec_qrels(trec_dir() / "qrels.comment.test")
    return sorted(q for q, docs in qrels.items() if not any(g > 0 for g in docs.values())), len(qrels)


@pytest.mark.slow
def test_comment_pair_exactly_one_query_without_relevant():
    no_rel, n = _no_relevant_queries()
    assert n == 31 and no_rel == ["2024-36302"]
    report = _comment_report()
    assert report.scored_queries == 30
    notice = notice_codes(report)["no_relevant_queries"]
    assert notice.count == 1 and list(notice.queries) == no_rel
    # docs/counting.md: the notice says that trec_eval counts such queries as zeros in its means
    assert "trec_eval" in notice.message and "2024-36302" in notice.message


@pytest.mark.slow
@pytest.mark.parametrize("measure,key", COMMENT_PAIRS, ids=[m for m, _ in COMMENT_PAIRS])
def test_comment_pair_means_rescale_to_trec_eval(measure, key):
    # trec_eval counts the query without relevant documents as a zero in its mean over 31; we
    # leave it out (mean over 30). Rescaled, the two agree to trec_eval's 4 decimals.
    no_rel, n = _no_relevant_queries()
    assert len(no_rel) == 1
    report = _comment_report()
    printed = _out("out.comment.test")[measure]["all"]
    scored = n - len(no_rel)
    assert agrees_with_printed(report.mean[key] * scored / n, printed), (report.mean[key], printed)


def test_comment_pair_spec_numbers():
    # docs/counting.md: P_10 0.7710 over 31 queries against 0.7967 over 30.
    report = _comment_report()
    assert _out("out.comment.test")["P_10"]["all"] == "0.7710"
    assert round(report.mean["precision@10"], 4) == 0.7967
    assert not agrees_with_printed(report.mean["precision@10"], "0.7710")


@pytest.mark.slow
def test_comment_pair_unjudged_run_queries():
    report = _comment_report()
    run_queries = {line.split()[0] for line in
                   (trec_dir() / "results.comment.test").read_text().splitlines() if line.strip()}
    assert len(run_queries) == 301
    notice = notice_codes(report)["unjudged_queries"]
    assert notice.count == 301 - 31
    assert report.inputs["run"].queries == 301
    assert report.inputs["run"].rows == 30100
    # docnos contain `#` (msmarco_v2.1_doc_50_2286987788#13_3087841662): data, not comments
    assert "comments_skipped" not in notice_codes(report)


def _tie_free(run_path, qids):
    """A pytrec_eval-ready copy of a TREC run: ordered by (score desc, docno desc) in double
    precision, as trec_eval orders it, then given integer scores n, n-1, ... (no ties, no
    float32 rounding)."""
    by_q = {}
    for line in run_path.read_text().splitlines():
        f = line.split()
        if not f or f[0] not in qids:
            continue
        by_q.setdefault(f[0], []).append((float(f[4]), f[2]))
    out = {}
    for q, rows in by_q.items():
        rows.sort(key=lambda r: (r[0], r[1].encode()), reverse=True)
        out[q] = {doc: float(len(rows) - i) for i, (_s, doc) in enumerate(rows)}
    return out


@pytest.mark.slow
def test_comment_pair_per_query_against_pytrec_eval():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = read_trec_qrels(trec_dir() / "qrels.comment.test")
    run = _tie_free(trec_dir() / "results.comment.test", set(qrels))
    measures = {"P.5,10,20,100", "recall.5,10,20,100", "ndcg_cut.5,10,20,100", "recip_rank", "map", "Rprec"}
    theirs = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
    report = _comment_report()
    no_rel, _ = _no_relevant_queries()
    bad = []
    for q, vals in theirs.items():
        if q in no_rel:
            continue
        ours = report.per_query[q]
        for k in (5, 10, 20, 100):
            for t, o in ((f"P_{k}", f"precision@{k}"), (f"recall_{k}", f"recall@{k}"),
                         (f"ndcg_cut_{k}", f"ndcg@{k}")):
                if not math.isclose(ours[o], vals[t], abs_tol=1e-9):
                    bad.append((q, o, ours[o], vals[t]))
        for t, o in (("recip_rank", "rr"), ("map", "map"), ("Rprec", "rprec")):
            if not math.isclose(ours[o], vals[t], abs_tol=1e-9):
                bad.append((q, o, ours[o], vals[t]))
    assert len(theirs) == 31
    assert bad == []


# --- qrels.rel_level (grades -1..4) vs out.test.aql (-l2) --------------------------------------
# ndcg_cut uses the grades themselves (negative = no gain), not -l's threshold, so our nDCG on
# the file as it is equals aql's ndcg_cut_k. P, recall, recip_rank and map under -l2 equal ours on
# a copy binarised at grade >= 2.

AQL_NDCG = [(f"ndcg_cut_{k}", f"ndcg@{k}") for k in KS]
AQL_THRESHOLDED = ([(f"P_{k}", f"precision@{k}") for k in KS]
                   + [(f"recall_{k}", f"recall@{k}") for k in KS]
                   + [("recip_rank", "rr"), ("map", "map")])


def test_rel_level_has_negative_grades():
    grades = {g for docs in read_trec_qrels(trec_dir() / "qrels.rel_level").values() for g in docs.values()}
    assert min(grades) == -1 and max(grades) == 4


@pytest.mark.parametrize("measure,key", AQL_NDCG, ids=[m for m, _ in AQL_NDCG])
def test_rel_level_ndcg_matches_aql(measure, key):
    report = _report("qrels.rel_level", "results.test", "zero")
    assert _mismatches(report, _out("out.test.aql"), [(measure, key)]) == []


@functools.lru_cache(maxsize=None)
def _thresholded_report():
    qrels = read_trec_qrels(trec_dir() / "qrels.rel_level")
    text = "".join(f"{q} 0 {doc} {1 if g >= 2 else 0}\n" for q, docs in qrels.items() for doc, g in docs.items())
    return evaluate(text, trec_dir() / "results.test", k=KS, metrics=["recall", "precision", "rr", "map"])


@pytest.mark.parametrize("measure,key", AQL_THRESHOLDED, ids=[m for m, _ in AQL_THRESHOLDED])
def test_rel_level_threshold_2_matches_aql(measure, key):
    assert _mismatches(_thresholded_report(), _out("out.test.aql"), [(measure, key)]) == []
