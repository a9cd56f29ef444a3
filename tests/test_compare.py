"""Run comparison: exact p-values worked by hand, seeded sampling, W/T/L and deltas recomputed."""

from __future__ import annotations

import itertools
import json
import math
import random
import time
from fractions import Fraction
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from retrieval_metrics.comparison.paired import (
    Comparison,
    MetricComparison,
    QueryDelta,
    RandomisationResult,
    compare,
    paired_randomisation_test,
)
from retrieval_metrics.errors import InputError, OptionError


class StandIn(NamedTuple):
    """The part of the engine's Report that compare() reads, plus its to_dict() shape."""

    per_query: dict
    k: list
    metrics: list

    def to_dict(self) -> dict:
        keys = {key for scores in self.per_query.values() for key in scores}
        mean = {key: math.fsum(s[key] for s in self.per_query.values()) / len(self.per_query)
                for key in keys}
        return {"k": self.k, "metrics": self.metrics, "per_query": self.per_query,
                "mean": mean, "scored_queries": len(self.per_query), "missing_queries": 0,
                "notices": []}


def report(per_query: dict) -> StandIn:
    return StandIn(per_query, [10], ["recall"])


def brute_force_p(deltas: list[int]) -> Fraction:
    """Independent exact p for integer deltas: every pattern, exact integer sums, no slack."""
    observed = abs(sum(deltas))
    patterns = list(itertools.product((1, -1), repeat=len(deltas)))
    hits = sum(abs(sum(s * d for s, d in zip(signs, deltas))) >= observed for signs in patterns)
    return Fraction(hits, len(patterns))


# --- the exact test, worked by hand -------------------------------------------------------------

@pytest.mark.parametrize("deltas, expected", [
    # n = 2: sums of +-1 +-1 are 2, 0, 0, -2; |sum| >= 2 for 2 of 4 patterns.
    ([1, 1], 0.5),
    # n = 2: observed sum 0, every pattern reaches |sum| >= 0.
    ([1, -1], 1.0),
    # n = 2: +-2 +-1 gives 3, 1, -1, -3; only the observed and its mirror reach 3.
    ([2, 1], 0.5),
    # n = 2 with a zero: +-1 +-0 gives 1, 1, -1, -1; all reach 1.
    ([1, 0], 1.0),
    # n = 3: +-1 +-2 +-3 gives 6, 0, 2, -4, 4, -2, 0, -6; |sum| >= 6 for 2 of 8.
    ([1, 2, 3], 0.25),
    # n = 3: +-3 +-1 +-1 gives 5, 3, 3, 1, -1, -3, -3, -5; all 8 reach |sum| >= 1.
    ([3, -1, -1], 1.0),
    # n = 3: sums of +-2 +-1 +-1 are 4, 2, 2, 0, 0, -2, -2, -4; observed 2 (= 2 - 1 + 1): six of 8.
    ([2, -1, 1], 0.75),
    # n = 4 with a zero: (2, 1, 1) gives 4 for one pattern and -4 for one (2 of 8); the zero
    # doubles both counts: 4 of 16.
    ([2, 1, 1, 0], 0.25),
    # n = 4: observed 4 + 3 + 2 - 1 = 8. A pattern's sum is 10 - 2 * (sum of the flipped
    # magnitudes); >= 8 needs flipped sum <= 1: flip nothing or flip the 1 (2 patterns), and
    # the mirrors: 4 of 16.
    ([4, 3, 2, -1], 0.25),
    # n = 5, all the same sign: only the observed pattern and its mirror, 2 of 32.
    ([1, 1, 1, 1, 1], 0.0625),
    # n = 6 all positive: 2 of 64, the first n where p can be below 0.05.
    ([0.1, 0.2, 0.3, 0.1, 0.2, 0.3], 0.03125),
])
def test_exact_p_values_worked_by_hand(deltas, expected):
    result = paired_randomisation_test(deltas)
    assert result.p_value == expected
    assert result.method == "exact" and result.samples is None and result.seed is None
    assert result.n == len(deltas)
    assert brute_force_p([int(d * 10) for d in deltas]) == Fraction(expected)


def test_mean_statistic_scale_free():
    # The statistic is |mean|, so scaling every difference leaves p unchanged.
    assert paired_randomisation_test([0.01, 0.02, 0.03]).p_value == 0.25


@pytest.mark.slow
@given(st.lists(st.floats(-1, 1, allow_nan=False), min_size=2, max_size=2))
def test_two_pairs_give_only_half_or_one(deltas):
    assert paired_randomisation_test(deltas).p_value in (0.5, 1.0)


@pytest.mark.slow
@given(st.lists(st.integers(-5, 5), min_size=0, max_size=10))
def test_exact_equals_brute_force(deltas):
    assert paired_randomisation_test(deltas).p_value == brute_force_p(deltas)


@pytest.mark.slow
@settings(max_examples=60)
@given(st.lists(st.floats(-1, 1, allow_nan=False), min_size=1, max_size=12), st.randoms())
def test_exact_is_invariant_under_order_and_sign(deltas, rnd):
    """Float summation order must not matter: the slack absorbs the noise."""
    p = paired_randomisation_test(deltas).p_value
    shuffled = list(deltas)
    rnd.shuffle(shuffled)
    assert paired_randomisation_test(shuffled).p_value == p
    assert paired_randomisation_test([-d for d in deltas]).p_value == p
    assert 0 < p <= 1


def test_float_noise_does_not_drop_the_observed_pattern():
    # 0.1 + 0.2 - 0.3 is 5.55e-17 in floats, 0 in exact arithmetic: every pattern ties.
    assert paired_randomisation_test([0.1, 0.2, -0.3]).p_value == 1.0
    # Metric-like values whose differences are equal in exact arithmetic but not in floats.
    deltas = [0.7 - 0.6, 0.1, 0.4 - 0.3, 0.2 - 0.1]
    assert paired_randomisation_test(deltas).p_value == 2 / 16


@pytest.mark.slow
@given(st.lists(st.integers(-6, 6), min_size=1, max_size=12))
def test_tenths_in_floats_give_the_exact_integer_answer(ints):
    """k * 0.1 carries rounding noise (3 * 0.1 != 0.3), so patterns that tie in exact
    arithmetic differ in the last bits; the slack must count them as ties."""
    deltas = [k * 0.1 for k in ints]
    assert paired_randomisation_test(deltas).p_value == brute_force_p(ints)
    shifted = [(0.6 + k * 0.1) - 0.6 for k in ints]
    assert paired_randomisation_test(shifted).p_value == brute_force_p(ints)


def test_all_zero_and_empty():
    assert paired_randomisation_test([0.0] * 7).p_value == 1.0
    assert paired_randomisation_test([0.0] * 7).min_p == 2 / 2**7
    empty = paired_randomisation_test([])
    assert (empty.p_value, empty.n, empty.min_p) == (1.0, 0, 1.0)


@pytest.mark.parametrize("n", range(1, 17))
def test_min_p_is_two_over_two_to_the_n(n):
    """min_p = 2/2^n, reached exactly when every difference has the same sign and size."""
    result = paired_randomisation_test([0.25] * n)
    assert result.min_p == min(1.0, 2 / 2**n)
    assert result.p_value == result.min_p
    # Any data: p is never below min_p.
    rng = random.Random(n)
    assert paired_randomisation_test([rng.uniform(-1, 1) for _ in range(n)]).p_value >= \
        result.min_p


def test_sixteen_pairs_are_fast():
    deltas = [random.Random(3).uniform(-1, 1) + 0.1 for _ in range(16)]
    best = math.inf
    for _ in range(3):
        start = time.perf_counter()
        result = paired_randomisation_test(deltas)
        best = min(best, time.perf_counter() - start)
    assert result.method == "exact"
    assert best < 0.1


# --- the sampled test ---------------------------------------------------------------------------

N16 = [0.31, -0.12, 0.05, 0.4, -0.22, 0.18, 0.0, 0.27, -0.05, 0.11, 0.09, -0.3, 0.2, 0.15,
       -0.08, 0.02]


@pytest.mark.slow
def test_sampling_is_reproducible_by_seed():
    first = paired_randomisation_test(N16, samples=5000, seed=42, exact_max_n=0)
    again = paired_randomisation_test(N16, samples=5000, seed=42, exact_max_n=0)
    assert first == again
    assert (first.method, first.samples, first.seed) == ("sampled", 5000, 42)
    others = {paired_randomisation_test(N16, samples=5000, seed=s, exact_max_n=0).p_value
              for s in range(5)}
    assert len(others) > 1  # the seed does change the draw


@pytest.mark.slow
def test_sampled_p_is_near_exact_p():
    exact = paired_randomisation_test(N16).p_value
    assert 0.05 < exact < 0.5  # a case where sampling error is visible
    samples = 20_000
    sampled = paired_randomisation_test(N16, samples=samples, seed=1, exact_max_n=0)
    standard_error = math.sqrt(exact * (1 - exact) / samples)
    assert abs(sampled.p_value - exact) < 4 * standard_error


def test_sampled_p_formula_and_min_p():
    samples = 999
    result = paired_randomisation_test([1.0] * 30, samples=samples, seed=0)
    # (hits + 1) / (samples + 1): all 30 differences equal, so a random pattern hits only if it
    # is all + or all - (chance 2/2^30): almost surely no hits, p = 1/1000.
    assert result.p_value == 1 / (samples + 1) == result.min_p
    assert result.method == "sampled" and result.n == 30
    mixed = paired_randomisation_test(N16 + N16, samples=samples, seed=5)
    hits_plus_one = mixed.p_value * (samples + 1)
    assert abs(hits_plus_one - round(hits_plus_one)) < 1e-9 and 0 < mixed.p_value <= 1


def test_sampled_counts_match_a_plain_loop():
    """Same random bits read one sign at a time, without the byte tables."""
    deltas = [random.Random(9).uniform(-1, 1) + 0.05 for _ in range(21)]
    samples, seed = 3000, 7
    rng = random.Random(seed)
    observed = abs(sum(deltas))
    hits = 0
    for _ in range(samples):
        bits = rng.getrandbits(len(deltas))
        total = sum(d if bits >> i & 1 else -d for i, d in enumerate(deltas))
        hits += abs(total) >= observed - 1e-9
    result = paired_randomisation_test(deltas, samples=samples, seed=seed)
    assert result.p_value == (hits + 1) / (samples + 1)


@pytest.mark.parametrize("options, field", [
    ({"samples": 0}, "samples"), ({"samples": 1.5}, "samples"), ({"seed": -1}, "seed"),
    ({"seed": True}, "seed"), ({"exact_max_n": -1}, "exact_max_n"),
])
def test_bad_options(options, field):
    with pytest.raises(OptionError) as caught:
        paired_randomisation_test([1, 2], **options)
    assert caught.value.field == field


def test_non_finite_deltas_are_refused():
    with pytest.raises(ValueError):
        paired_randomisation_test([1.0, math.nan])


# --- compare ------------------------------------------------------------------------------------

def random_reports(seed: int, queries: int = 12):
    rng = random.Random(seed)
    grid = [0.0, 0.25, 0.5, 0.75, 1.0]  # coarse values, so ties happen
    base, cand = {}, {}
    for i in range(queries):
        qid = f"q{i:02d}"
        base[qid] = {"recall@10": rng.choice(grid), "ndcg@10": rng.random()}
        cand[qid] = {"recall@10": rng.choice(grid), "ndcg@10": rng.random()}
    return report(base), report(cand)


@pytest.mark.parametrize("seed", range(5))
def test_wins_ties_losses_and_delta_match_independent_computation(seed):
    baseline, candidate = random_reports(seed)
    result = compare(baseline, candidate)
    assert [r.metric for r in result.metrics] == ["recall@10", "ndcg@10"]
    for record in result.metrics:
        b = [baseline.per_query[q][record.metric] for q in sorted(baseline.per_query)]
        c = [candidate.per_query[q][record.metric] for q in sorted(candidate.per_query)]
        assert record.n == len(b) == 12
        assert record.wins == sum(y > x for x, y in zip(b, c))
        assert record.ties == sum(y == x for x, y in zip(b, c))
        assert record.losses == sum(y < x for x, y in zip(b, c))
        assert record.baseline_mean == pytest.approx(sum(b) / len(b), abs=1e-12)
        assert record.candidate_mean == pytest.approx(sum(c) / len(c), abs=1e-12)
        assert record.delta == pytest.approx(sum(y - x for x, y in zip(b, c)) / len(b),
                                             abs=1e-12)
        assert record.p_value == paired_randomisation_test(
            [y - x for x, y in zip(b, c)]).p_value
        assert (record.method, record.samples, record.seed) == ("exact", None, None)
        rows = result.per_query[record.metric]
        assert [row.delta for row in rows] == sorted(row.delta for row in rows)
        assert all(row.delta == row.candidate - row.baseline for row in rows)
        assert all(isinstance(row, QueryDelta) for row in rows)


def test_per_query_rows_sorted_by_delta_then_query():
    baseline = report({"a": {"m": 0.5}, "b": {"m": 0.5}, "c": {"m": 0.0}, "d": {"m": 1.0}})
    candidate = report({"a": {"m": 0.5}, "b": {"m": 1.0}, "c": {"m": 0.5}, "d": {"m": 0.0}})
    rows = compare(baseline, candidate).per_query["m"]
    assert rows == [QueryDelta("d", 1.0, 0.0, -1.0), QueryDelta("a", 0.5, 0.5, 0.0),
                    QueryDelta("b", 0.5, 1.0, 0.5), QueryDelta("c", 0.0, 0.5, 0.5)]


def test_large_comparison_samples_and_records_the_seed():
    baseline, candidate = random_reports(11, queries=40)
    result = compare(baseline, candidate, samples=2000, seed=3)
    record = result.metric("ndcg@10")
    assert (record.method, record.samples, record.seed, record.n) == ("sampled", 2000, 3, 40)
    assert compare(baseline, candidate, samples=2000, seed=3) == result
    assert (result.samples, result.seed) == (2000, 3)


def test_queries_in_one_report_only_are_notices():
    baseline = report({"q1": {"m": 0.2}, "q2": {"m": 0.4}, "q3": {"m": 0.1}})
    candidate = report({"q2": {"m": 0.5}, "q3": {"m": 0.3}, "q4": {"m": 1.0}, "q5": {"m": 0.0}})
    result = compare(baseline, candidate)
    notices = {n.code: n for n in result.notices}
    assert notices["only_in_baseline"].queries == ("q1",)
    assert notices["only_in_run"].queries == ("q4", "q5")
    assert notices["only_in_run"].count == 2 and notices["only_in_run"].level == "warning"
    assert result.paired_queries == 2
    record = result.metric("m")
    assert record.n == 2 and record.wins == 2
    assert record.delta == pytest.approx(0.15)


def test_metric_keys_in_one_report_only_are_a_notice():
    baseline = report({"q1": {"recall@10": 0.5, "map": 0.3}})
    candidate = report({"q1": {"recall@10": 0.5, "ndcg@10": 0.4}})
    result = compare(baseline, candidate)
    assert [r.metric for r in result.metrics] == ["recall@10"]
    notice = next(n for n in result.notices if n.code == "metrics_not_compared")
    assert "ndcg@10" in notice.message and "map" in notice.message


def test_undefined_values_leave_that_query_out_of_that_metric():
    baseline = report({f"q{i}": {"m": 0.1 * i, "r": 0.5} for i in range(8)})
    candidate = report({f"q{i}": {"m": 0.1 * i + 0.05, "r": 0.7} for i in range(8)})
    baseline.per_query["q3"]["m"] = None
    candidate.per_query["q5"]["m"] = math.nan
    result = compare(baseline, candidate)
    assert result.metric("m").n == 6 and result.metric("r").n == 8
    notice = next(n for n in result.notices if n.code == "undefined_values")
    assert notice.queries == ("q3", "q5")


def test_too_few_queries_is_said_plainly():
    five = {f"q{i}": {"m": 0.0} for i in range(5)}
    result = compare(report(five), report({q: {"m": 1.0} for q in five}))
    assert result.metric("m").p_value == 2 / 32 > 0.05
    notice = next(n for n in result.notices if n.code == "too_few_queries")
    assert "2/2^5" in notice.message and "0.05" in notice.message
    six = {f"q{i}": {"m": 0.0} for i in range(6)}
    result = compare(report(six), report({q: {"m": 1.0} for q in six}))
    assert result.metric("m").p_value == 2 / 64 < 0.05
    assert not any(n.code.startswith("too_few") for n in result.notices)


def test_too_few_differences_is_said_plainly():
    base = {f"q{i}": {"m": 0.5} for i in range(10)}
    cand = {q: dict(s) for q, s in base.items()}
    for q in ("q1", "q2", "q3"):
        cand[q]["m"] = 1.0
    result = compare(report(base), report(cand))
    assert (result.metric("m").wins, result.metric("m").ties) == (3, 7)
    assert result.metric("m").p_value == 2 / 8
    assert [n.code for n in result.notices] == ["too_few_differences"]


def test_no_common_queries_gives_nulls():
    result = compare(report({"a": {"m": 1.0}}), report({"b": {"m": 0.0}}))
    record = result.metric("m")
    assert (record.n, record.baseline_mean, record.delta, record.p_value) == (0, None, None, None)
    json.dumps(result.to_dict(), allow_nan=False)


def test_dict_baseline_equals_report_baseline():
    baseline, candidate = random_reports(4, queries=20)
    from_report = compare(baseline, candidate, samples=500)
    # Through JSON text, as a file written last week would be.
    from_json = compare(json.loads(json.dumps(baseline.to_dict())), candidate, samples=500)
    assert from_json == from_report
    # The page's analyse() result wraps the report.
    assert compare({"report": baseline.to_dict()}, candidate, samples=500) == from_report
    # Both sides as dicts.
    assert compare(baseline.to_dict(), candidate.to_dict(), samples=500) == from_report


def test_to_dict_is_strict_json():
    baseline, candidate = random_reports(2, queries=4)
    result = compare(baseline, candidate)
    data = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert set(data) == {"paired_queries", "samples", "seed", "exact_max_n", "metrics",
                         "per_query", "notices"}
    assert set(data["metrics"][0]) == set(MetricComparison._fields)
    assert set(data["per_query"]["recall@10"][0]) == {"qid", "baseline", "candidate", "delta"}
    assert data["notices"][0]["code"] == "too_few_queries"
    assert isinstance(result, Comparison)
    assert isinstance(paired_randomisation_test([1]), RandomisationResult)


@pytest.mark.slow
@pytest.mark.parametrize("bad", [
    {}, {"per_query": [1, 2]}, {"per_query": {"q1": 0.5}}, object(),
])
def test_a_baseline_that_is_not_a_report_is_an_input_error(bad):
    with pytest.raises(InputError) as caught:
        compare(bad, report({"q1": {"m": 1.0}}))
    assert caught.value.source == "baseline"


def test_a_value_that_is_not_a_number_is_an_input_error():
    with pytest.raises(InputError) as caught:
        compare({"per_query": {"q1": {"m": "0.5"}}}, report({"q1": {"m": 1.0}}))
    assert "q1" in caught.value.message


def test_different_settings_are_a_notice():
    baseline = {"gain": "exponential", "missing": "zero", "per_query": {"q1": {"ndcg@10": 0.5}}}
    candidate = {"gain": "linear", "missing": "zero", "per_query": {"q1": {"ndcg@10": 0.6}}}
    notice = next(n for n in compare(baseline, candidate).notices if n.code == "settings_differ")
    assert notice.level == "warning" and "gain (exponential" in notice.message
    assert "missing" not in notice.message


def test_metric_order_follows_the_reports_keys():
    per_query = {"q1": {"ndcg@10": 0.5, "recall@5": 0.1, "recall@10": 0.2}}
    candidate = {"keys": ["recall@5", "recall@10", "ndcg@10"], "per_query": per_query}
    result = compare({"per_query": per_query}, candidate)
    assert [r.metric for r in result.metrics] == ["recall@5", "recall@10", "ndcg@10"]


# --- end to end through the engine --------------------------------------------------------------

def engine_inputs(seed: int, queries: int = 20):
    """Judgements and two runs as dicts: the candidate ranks the relevant documents a bit higher."""
    rng = random.Random(seed)
    qrels, base, cand = {}, {}, {}
    for i in range(queries):
        qid = f"q{i:02d}"
        docs = [f"d{j}" for j in range(15)]
        qrels[qid] = {doc: rng.choice([0, 0, 1, 2]) for doc in docs[:8]}
        base[qid] = {doc: rng.random() for doc in docs}
        cand[qid] = {doc: score + 0.3 * qrels[qid].get(doc, 0)
                     for doc, score in base[qid].items()}
    return qrels, base, cand


def test_end_to_end_with_evaluate():
    from retrieval_metrics import evaluate

    qrels, base_run, cand_run = engine_inputs(1)
    baseline = evaluate(qrels, base_run, k=[5, 10])
    candidate = evaluate(qrels, cand_run, k=[5, 10])
    result = compare(baseline, candidate, samples=2000, seed=5)
    assert [r.metric for r in result.metrics] == list(candidate.keys)
    assert result.paired_queries == 20
    # The comparison itself has nothing to say; the baseline's own counting notices are passed on.
    assert [n for n in result.notices if not n.code.startswith("baseline_")] == []
    assert [(n.code, n.message) for n in result.notices] == [
        ("baseline_" + n.code, "Baseline: " + n.message) for n in baseline.notices
        if n.code in ("missing_queries", "unjudged_queries", "low_judged")]
    for record in result.metrics:
        b = [baseline.per_query[q][record.metric] for q in sorted(baseline.per_query)]
        c = [candidate.per_query[q][record.metric] for q in sorted(candidate.per_query)]
        assert (record.wins, record.ties, record.losses) == (
            sum(y > x for x, y in zip(b, c)), sum(y == x for x, y in zip(b, c)),
            sum(y < x for x, y in zip(b, c)))
        assert record.baseline_mean == pytest.approx(baseline.mean[record.metric], abs=1e-12)
        assert record.delta == pytest.approx(
            candidate.mean[record.metric] - baseline.mean[record.metric], abs=1e-12)
        assert (record.method, record.samples, record.seed) == ("sampled", 2000, 5)
    assert result.metric("ndcg@10").delta > 0 and result.metric("ndcg@10").p_value < 0.01
    # Last week's JSON report as the baseline gives the same comparison.
    last_week = json.loads(json.dumps(baseline.to_dict(), allow_nan=False))
    assert compare(last_week, candidate, samples=2000, seed=5) == result
    json.dumps(result.to_dict(), allow_nan=False)


def test_end_to_end_query_missing_from_one_run():
    from retrieval_metrics import evaluate

    qrels, base_run, cand_run = engine_inputs(2, queries=8)
    del cand_run["q03"]
    baseline = evaluate(qrels, base_run, k=10, missing="skip")
    candidate = evaluate(qrels, cand_run, k=10, missing="skip")
    result = compare(baseline, candidate)
    notice = next(n for n in result.notices if n.code == "only_in_baseline")
    assert notice.queries == ("q03",)
    assert result.paired_queries == 7 and result.metric("recall@10").n == 7
    # Scored with missing="zero", the query counts as all zeros in the candidate instead.
    zero = evaluate(qrels, cand_run, k=10, missing="zero")
    mixed = compare(baseline, zero)
    assert "settings_differ" in [n.code for n in mixed.notices]


# --- the sampled test counts the patterns of getrandbits(n), exactly ------------------------

def _reference_hits(deltas, samples, seed):
    """The sampled test's count written out: one getrandbits(n) per pattern (bit i set: the
    i-th difference keeps its sign), each pattern's sum in exact fractions, the threshold as
    paired_randomisation_test states it (|sum(d)| less a 1e-12 relative slack)."""
    import math
    import random
    from fractions import Fraction
    values = [Fraction(d) for d in deltas]
    threshold = Fraction(abs(math.fsum(deltas)) - 1e-12 * math.fsum(abs(d) for d in deltas))
    rng = random.Random(seed)
    hits = 0
    for _ in range(samples):
        bits = rng.getrandbits(len(values))
        total = sum(v if bits >> i & 1 else -v for i, v in enumerate(values))
        hits += abs(total) >= threshold
    return hits


@pytest.mark.parametrize("n,seed", [(17, 0), (24, 3), (32, 1), (33, 7), (40, 0), (41, 2),
                                    (64, 5), (100, 9)])
def test_sampled_p_value_counts_the_seeded_patterns_exactly(n, seed, monkeypatch):
    import random

    from retrieval_metrics.comparison import paired
    rng = random.Random(n * 31 + seed)
    # ties, zeros and precision@10-like steps (many patterns land exactly on the observed sum)
    deltas = [rng.choice([0.0, 0.1, -0.1, 0.2, -0.3, rng.random() - 0.45, 1e-9])
              for _ in range(n)]
    monkeypatch.setattr(paired, "_CHUNK", 700)  # several chunks: the stream continues across them
    samples = 2000
    result = paired.paired_randomisation_test(deltas, samples=samples, seed=seed)
    assert result.method == "sampled"
    assert result.p_value == (_reference_hits(deltas, samples, seed) + 1) / (samples + 1)


def test_sampled_test_falls_back_to_one_pattern_at_a_time_for_huge_ranges():
    from retrieval_metrics.comparison import paired
    deltas = [1e-300, 1.0, -0.5] + [0.25] * 17
    assert paired._whole_numbers(deltas, 0.1) is None
    result = paired.paired_randomisation_test(deltas, samples=500, seed=4)
    assert result.p_value == (_reference_hits(deltas, 500, 4) + 1) / 501
