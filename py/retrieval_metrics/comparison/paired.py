"""Compare a candidate run with a baseline: per-metric differences and a paired significance test.

People rarely score one run: they ask whether a candidate beats a baseline and whether the
difference is real or just the luck of which queries were judged. For every metric key the two
reports share, :func:`compare` pairs the queries scored in both and reports the means, the mean
difference, wins / ties / losses and the p-value of a two-sided paired sign-flip randomisation
test (exact up to 16 pairs, seeded sampling beyond, so every number can be reproduced).

The baseline may be a ``Report`` or the JSON dict an earlier ``report.to_dict()`` wrote, so last
week's numbers can be compared without last week's run file.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from ..errors import InputError, OptionError, did_you_mean
from ..inputs.records import Notice, as_dict
from ..report.wording import agreeing

__all__ = [
    "Comparison",
    "MetricComparison",
    "QueryDelta",
    "RandomisationResult",
    "Pairing",
    "compare",
    "pair_reports",
    "paired_randomisation_test",
]

# Two pattern sums closer than this share of sum(|d|) count as equal. Summation order differs
# between the observed sum and the enumerated ones, so without slack float noise could drop the
# observed pattern itself (or its mirror image) from the count. Rounding error is ~n * 2.2e-16.
_RELATIVE_SLACK = 1e-12
_SIGNIFICANCE = 0.05


class RandomisationResult(NamedTuple):
    """The outcome of :func:`paired_randomisation_test`, with what is needed to reproduce it.

    ``samples`` and ``seed`` are None for the exact test. ``min_p`` is the smallest p-value the
    test could have produced for n pairs: 2 / 2^n for the exact test (the observed pattern and its
    mirror image always count), 1 / (samples + 1) for the sampled one; it is capped at 1.
    """

    p_value: float
    n: int
    method: str  # "exact" | "sampled"
    samples: int | None
    seed: int | None
    min_p: float


class MetricComparison(NamedTuple):
    """One metric key ("ndcg@10", "map"): both means, the difference and its p-value.

    Means, delta and the test are over the ``n`` queries scored in both reports; ``delta`` is
    ``candidate_mean - baseline_mean``; a win is a query where the candidate scores higher, a tie
    one where the two values are exactly equal. With ``n == 0`` the means, delta and p-value are
    None (null in JSON). ``min_p`` is as in :class:`RandomisationResult`.
    """

    metric: str
    baseline_mean: float | None
    candidate_mean: float | None
    delta: float | None
    wins: int
    ties: int
    losses: int
    p_value: float | None
    n: int
    method: str
    samples: int | None
    seed: int | None
    min_p: float

    to_dict = as_dict


class QueryDelta(NamedTuple):
    """One bar of the per-query difference plot: ``delta = candidate - baseline``."""

    qid: str
    baseline: float
    candidate: float
    delta: float

    to_dict = as_dict


class Comparison(NamedTuple):
    """Everything :func:`compare` found, as data; the CLI and the page are two renderers of it.

    ``metrics`` holds one :class:`MetricComparison` per metric key both reports have, in the
    candidate's order; ``per_query[metric]`` the paired queries sorted by delta (then query id);
    ``paired_queries`` how many queries are scored in both reports.
    """

    metrics: tuple[MetricComparison, ...]
    per_query: dict[str, list[QueryDelta]]
    notices: list[Notice]
    paired_queries: int
    samples: int
    seed: int
    exact_max_n: int

    def metric(self, key: str) -> MetricComparison:
        """The record for one metric key, e.g. ``comparison.metric("ndcg@10").p_value``; an
        unknown key is refused with the keys there are (``UnknownMetric``: an OptionError and
        a KeyError)."""
        for record in self.metrics:
            if record.metric == key:
                return record
        known = [record.metric for record in self.metrics]
        raise UnknownMetric("metric", f"this comparison has no metric {key!r}"
                            + did_you_mean(key, known) + f"; it has {', '.join(known) or 'none'}")

    def to_dict(self) -> dict:
        """Strict JSON (no NaN or infinity; undefined values are None)."""
        return {
            "paired_queries": self.paired_queries,
            "samples": self.samples,
            "seed": self.seed,
            "exact_max_n": self.exact_max_n,
            "metrics": [record.to_dict() for record in self.metrics],
            "per_query": {key: [row.to_dict() for row in rows]
                          for key, rows in self.per_query.items()},
            "notices": [notice.to_dict() for notice in self.notices],
        }


def paired_randomisation_test(deltas: Iterable[float], *, samples: int = 100_000, seed: int = 0,
                              exact_max_n: int = 16) -> RandomisationResult:
    """Two-sided paired sign-flip test: could the mean difference be a coin toss per query?

    Under the null hypothesis the two systems are exchangeable on each query, so each per-query
    difference is as likely to have had the opposite sign. The p-value is the share of the 2^n
    sign patterns whose mean ``|mean(d * signs)|`` is at least the observed ``|mean(d)|`` (with
    a 1e-12 relative slack so floating-point noise cannot exclude the observed pattern itself).
    Zero differences stay in n; they flip to zero, as is standard.

    With ``n <= exact_max_n`` all 2^n patterns are counted (meet in the middle: two halves of
    2^(n/2) sums, so 2^16 patterns take about a millisecond). Beyond that, ``samples`` patterns
    are drawn from ``random.Random(seed)`` and, counting the observed pattern as one of them,
    ``p = (hits + 1) / (samples + 1)``, which is never 0 and is a valid p-value (Phipson and
    Smyth 2010). Same deltas, samples and seed give the same p.

    For two pairs the only possible p-values are 0.5 and 1:

    >>> paired_randomisation_test([0.2, 0.1]).p_value
    0.5
    >>> paired_randomisation_test([0.2, -0.2]).p_value
    1.0
    >>> paired_randomisation_test([1, 2, 3])
    RandomisationResult(p_value=0.25, n=3, method='exact', samples=None, seed=None, min_p=0.25)
    """
    values = [float(d) for d in deltas]
    for d in values:
        if not math.isfinite(d):
            raise ValueError(f"differences must be finite numbers, found {d!r}")
    check_options(samples, seed, exact_max_n)
    n = len(values)
    scale = math.fsum(abs(d) for d in values)
    threshold = abs(math.fsum(values)) - _RELATIVE_SLACK * scale
    if n <= exact_max_n:
        hits = _exact_hits(values, threshold)
        return RandomisationResult(hits / 2**n, n, "exact", None, None, min(1.0, 2 / 2**n))
    hits = _sampled_hits(values, threshold, samples, seed)
    return RandomisationResult((hits + 1) / (samples + 1), n, "sampled", samples, seed,
                               1 / (samples + 1))


def compare(baseline: Any, candidate: Any, *, samples: int = 100_000, seed: int = 0,
            exact_max_n: int = 16) -> Comparison:
    """Pairs the queries two reports both scored and tests each metric's mean difference.

    ``baseline`` and ``candidate`` are engine ``Report`` objects (anything with ``per_query``)
    or dicts in the shape of ``report.to_dict()`` (e.g. last week's JSON report), scored with the
    same judgements and settings. A query scored in only one of them is named in a notice, never
    silently dropped; so is a metric key only one of them has, and a value that is undefined
    (None or NaN) in either, which leaves that query out of that metric only.

    >>> base = {"per_query": {"q1": {"recall@10": 0.5}, "q2": {"recall@10": 1.0}}}
    >>> cand = {"per_query": {"q1": {"recall@10": 1.0}, "q2": {"recall@10": 1.0}}}
    >>> result = compare(base, cand)
    >>> record = result.metric("recall@10")
    >>> record.delta, (record.wins, record.ties, record.losses), record.p_value
    (0.25, (1, 1, 0), 1.0)
    >>> result.notices[0].code
    'too_few_queries'
    """
    check_options(samples, seed, exact_max_n)
    pairing = pair_reports(baseline, candidate)
    records = [_metric_record(key, pairing.rows[key], samples, seed, exact_max_n)
               for key in pairing.keys]
    per_query = {key: sorted(rows, key=lambda row: (row.delta, row.qid))
                 for key, rows in pairing.rows.items()}
    notices = pairing.notices + small_n_notices(records)
    return Comparison(tuple(records), per_query, _baseline_notices(baseline) + notices,
                      pairing.paired_queries, samples, seed, exact_max_n)


class Pairing(NamedTuple):
    """Two reports' queries paired: for each metric key both have (in the candidate's order),
    the rows of the queries scored in both with a defined value in both (in query order), and
    the notices about everything left out (queries, keys, undefined values, settings)."""

    keys: list[str]
    rows: dict[str, list[QueryDelta]]
    notices: list[Notice]
    paired_queries: int


def pair_reports(baseline: Any, candidate: Any) -> Pairing:
    """The pairing step of :func:`compare`, shared with ``compare_many``: no statistics."""
    base_scores = per_query_values(baseline, "baseline")
    cand_scores = per_query_values(candidate, "run")
    notices: list[Notice] = []

    differ = []
    for name in ("gain", "missing", "zero_division", "relevance_threshold", "ties"):
        ours, theirs = report_field(baseline, name), report_field(candidate, name)
        if ours is not None and theirs is not None and ours != theirs:
            differ.append(f"{name} ({ours} in the baseline, {theirs} in the candidate run)")
    if differ:
        notices.append(Notice(
            "settings_differ", "warning",
            f"The two reports were scored with different settings: {'; '.join(differ)}. Their "
            "numbers are not comparable; score both runs with the same settings.", len(differ),
            ()))

    paired = sorted(set(base_scores) & set(cand_scores))
    for qids, side, other in ((sorted(set(base_scores) - set(cand_scores)), "baseline", "run"),
                              (sorted(set(cand_scores) - set(base_scores)), "run", "baseline")):
        if qids:
            notices.append(Notice(
                f"only_in_{side}", "warning",
                f"{_count(len(qids), 'query', 'queries')} scored in the {_name(side)} but not "
                f"in the {_name(other)} {agreeing(len(qids), 'is')} left out of the comparison; means and "
                f"differences are over the {len(paired):,} queries scored in both; score both "
                f"runs on the same queries to compare them on all.",
                len(qids), tuple(qids)))

    base_keys = _keys(baseline, base_scores)
    cand_keys = _keys(candidate, cand_scores)
    keys = [key for key in cand_keys if key in base_keys]
    unmatched = [key for key in cand_keys if key not in base_keys] + [
        key for key in base_keys if key not in cand_keys]
    if unmatched:
        notices.append(Notice(
            "metrics_not_compared", "warning",
            f"Only one of the two reports has {', '.join(unmatched)}, so "
            f"{'it is' if len(unmatched) == 1 else 'they are'} not compared; score both runs "
            "with the same metrics and cutoffs.", len(unmatched), ()))

    rows_by_key: dict[str, list[QueryDelta]] = {}
    undefined: dict[str, list[str]] = {}
    for key in keys:
        rows: list[QueryDelta] = []
        for qid in paired:
            b = defined_value(base_scores[qid].get(key), "baseline", qid, key)
            c = defined_value(cand_scores[qid].get(key), "run", qid, key)
            if b is None or c is None:
                undefined.setdefault(key, []).append(qid)
                continue
            rows.append(QueryDelta(qid, b, c, c - b))
        rows_by_key[key] = rows

    if undefined:
        qids = sorted({qid for missing in undefined.values() for qid in missing})
        where = ", ".join(f"{key} ({len(missing)})" for key, missing in undefined.items())
        notices.append(Notice(
            "undefined_values", "info",
            f"Some queries have no defined value in one of the runs and are left out of that "
            f"metric's comparison: {where}.", len(qids), tuple(qids)))
    return Pairing(keys, rows_by_key, notices, len(paired))


_BASELINE_COUNTING = ("missing_queries", "unjudged_queries", "low_judged")


def _baseline_notices(baseline: Any) -> list[Notice]:
    """What changed the baseline's own numbers (its missing or unjudged queries, its repeated
    documents, ...), which the candidate's notices do not tell: the judgements' notices are
    the candidate's too and are not repeated."""
    found = []
    for notice in report_field(baseline, "notices") or ():
        if isinstance(notice, Mapping):
            notice = Notice(notice.get("code", ""), notice.get("level", "info"),
                            notice.get("message", ""), notice.get("count", 0),
                            tuple(notice.get("queries", ())))
        if notice.code in _BASELINE_COUNTING:
            found.append(notice._replace(code=f"baseline_{notice.code}",
                                         message=f"Baseline: {notice.message}"))
        elif notice.message.startswith("Baseline:"):
            found.append(notice)
    return found


def _metric_record(key: str, rows: list[QueryDelta], samples: int, seed: int,
                   exact_max_n: int) -> MetricComparison:
    """Means, W/T/L and the test for one metric key over its paired rows."""
    test = paired_randomisation_test([row.delta for row in rows], samples=samples, seed=seed,
                                     exact_max_n=exact_max_n)
    n = len(rows)
    wins = sum(row.candidate > row.baseline for row in rows)
    ties = sum(row.candidate == row.baseline for row in rows)
    if n == 0:
        return MetricComparison(key, None, None, None, 0, 0, 0, None, 0, test.method,
                                test.samples, test.seed, test.min_p)
    base_mean = math.fsum(row.baseline for row in rows) / n
    cand_mean = math.fsum(row.candidate for row in rows) / n
    return MetricComparison(key, base_mean, cand_mean, cand_mean - base_mean, wins, ties,
                            n - wins - ties, test.p_value, n, test.method, test.samples,
                            test.seed, test.min_p)


def small_n_notices(records: list[MetricComparison]) -> list[Notice]:
    """Says plainly when no difference could reach p < 0.05, whatever the runs did.

    With n pairs the smallest exact two-sided p is 2 / 2^n, above 0.05 for n <= 5. Ties flip to
    themselves, so with only m queries that differ it is 2 / 2^m: also worth saying.
    """
    notices = []
    few_pairs = [r for r in records if 0 < r.n and 2 / 2**r.n > _SIGNIFICANCE]
    for n in sorted({r.n for r in few_pairs}):
        affected = [r.metric for r in few_pairs if r.n == n]
        which = "" if len(affected) == len(records) else f" ({', '.join(affected)})"
        notices.append(Notice(
            "too_few_queries", "info",
            f"Only {_count(n, 'query is', 'queries are')} scored in both runs{which}: the "
            f"smallest possible two-sided p-value is 2/2^{n} = {2 / 2**n:.4g}, so no difference "
            f"can be significant at {_SIGNIFICANCE}.", n, ()))
    few_differences = [r for r in records
                       if r.n and 2 / 2**r.n <= _SIGNIFICANCE and 2 / 2**(r.wins + r.losses)
                       > _SIGNIFICANCE]
    if few_differences:
        parts = ", ".join(f"{r.metric} ({r.wins + r.losses} of {r.n})" for r in few_differences)
        notices.append(Notice(
            "too_few_differences", "info",
            f"Too few queries score differently for any difference to be significant at "
            f"{_SIGNIFICANCE} (ties cannot count as evidence): {parts}.",
            len(few_differences), ()))
    return notices


def _exact_hits(values: list[float], threshold: float) -> int:
    """How many of the 2^n sign patterns reach ``|sum| >= threshold``, by meet in the middle.

    Each pattern sum is a sum from the left half plus one from the right half; for each left sum
    the right sums that reach the threshold on either side are two bisections of a sorted list.
    """
    n = len(values)
    if threshold <= 0:
        return 2**n
    left = _pattern_sums(values[: n // 2])
    right = sorted(_pattern_sums(values[n // 2:]))
    size = len(right)
    hits = 0
    for a in left:
        hits += size - bisect_left(right, threshold - a) + bisect_right(right, -threshold - a)
    return hits


def _pattern_sums(values: list[float]) -> list[float]:
    """All 2^len sums ``sum(s_i * v_i)``; bit i of the index set means ``s_i = +1``.

    >>> _pattern_sums([1.0, 2.0])
    [-3.0, -1.0, 1.0, 3.0]
    """
    sums = [0.0]
    for v in values:
        sums = [s - v for s in sums] + [s + v for s in sums]
    return sums


def _sampled_hits(values: list[float], threshold: float, samples: int, seed: int) -> int:
    """How many of ``samples`` random sign patterns reach ``|sum| >= threshold``.

    The patterns are those of one ``getrandbits(n)`` per pattern from ``random.Random(seed)``
    (bit i set: difference i keeps its sign), counted many at a time (:func:`_lane_hits`);
    where the differences need more than 256 bits as whole numbers (values spanning an
    enormous range of magnitudes) one pattern at a time (:func:`_looped_hits`).
    """
    scaled = _whole_numbers(values, threshold)
    if scaled is None:
        return _looped_hits(values, threshold, samples, seed)
    return _lane_hits(*scaled, samples, seed)


def _looped_hits(values: list[float], threshold: float, samples: int, seed: int) -> int:
    """:func:`_sampled_hits` one pattern at a time, in floating point.

    One ``getrandbits(n)`` per pattern; its bytes index tables of the 256 pattern sums of each
    block of 8 differences, so a pattern costs n / 8 look-ups instead of n multiplications.
    """
    n = len(values)
    tables = [_pattern_sums(values[i: i + 8]) for i in range(0, n, 8)]
    width = len(tables)
    getrandbits = random.Random(seed).getrandbits
    lookup = list.__getitem__
    hits = 0
    for _ in range(samples):
        signs = getrandbits(n).to_bytes(width, "little")
        if abs(sum(map(lookup, tables, signs))) >= threshold:
            hits += 1
    return hits


_MAX_LANE_BITS = 256
_CHUNK = 1 << 17  # patterns counted at once: bounds the memory (a few MB) whatever samples is


def _whole_numbers(values: list[float], threshold: float):
    """The differences and the threshold as whole numbers in one unit (floats are dyadic
    rationals, so ``x * 2**shift`` is exact for a large enough shift), or None when their
    pattern sums would need more than ``_MAX_LANE_BITS`` bits.

    >>> _whole_numbers([0.5, -0.25], 0.125)
    ([4, -2], 1)
    """
    ratios = [v.as_integer_ratio() for v in values] + [threshold.as_integer_ratio()]
    shift = max(den.bit_length() - 1 for _, den in ratios)  # denominators are powers of two
    ints = [num << (shift - den.bit_length() + 1) for num, den in ratios]
    limit = ints.pop()
    if sum(map(abs, ints)).bit_length() + 2 > _MAX_LANE_BITS:
        return None
    return ints, limit


def _lane_hits(ints: list[int], limit: int, samples: int, seed: int) -> int:
    """How many random sign patterns reach ``|sum(s_i * m_i)| >= limit``, exactly, counted in
    whole-number lanes: one big integer holds the pattern sums of up to ``_CHUNK`` patterns,
    each in a lane of its own, so the work per pattern is done by C loops over bytes and ints.

    ``getrandbits(32 * w * B)`` yields the same 32-bit words as B calls of ``getrandbits(n)``
    (w = ceil(n / 32) words each, the last one shifted right by 32 - n % 32), so the patterns
    are exactly those of :func:`_looped_hits`. For each block of 8 differences, the block's
    byte of every pattern indexes a table of its 256 partial sums: ``bytes.translate`` looks
    them up byte plane by byte plane into the lanes; the blocks' lanes are added as integers.
    With the sums offset to be >= 0 (``y = (sum + total) / 2``, total = sum |m_i|), a pattern
    reaches the limit when ``y >= high`` or ``y <= low``, and adding a constant to every lane
    puts each answer in the lane's top bit, which ``int.bit_count`` counts.
    """
    n = len(ints)
    if limit <= 0:
        return samples
    total = sum(map(abs, ints))
    dsum = sum(ints)
    offset = (total - dsum) // 2  # sum of |m| over the negative m: y = x + offset >= 0
    high = -(-(dsum + limit) // 2) + offset  # 2x - dsum >= limit  <=>  x >= ceil(...)
    low = (dsum - limit) // 2 + offset  # 2x - dsum <= -limit  <=>  x <= floor(...)
    lane = (total.bit_length() + 2 + 7) // 8  # bytes per lane, the top bit kept free
    bits = 8 * lane
    half = 1 << (bits - 1)
    blocks = []
    for start in range(0, n, 8):
        block = ints[start: start + 8]
        sums = [sum(-m for m in block if m < 0)]
        for m in block:
            sums = sums + [s + m for s in sums]
        sums += [0] * (256 - len(sums))
        table = b"".join([value.to_bytes(lane, "little") for value in sums])
        blocks.append([table[k::lane] for k in range((max(sums).bit_length() + 7) // 8)])
    hits = 0
    done = 0
    rng = random.Random(seed)
    while done < samples:
        count = min(_CHUNK, samples - done)
        columns = _pattern_bytes(rng, n, count, seed if done == 0 else None)
        tops, ones = _lane_constants(lane, count)
        lanes = 0
        buffer = bytearray(lane * count)
        written = 0  # byte planes of the buffer a block wrote: a later block clears the rest
        for planes, column in zip(blocks, columns):
            for k, plane in enumerate(planes):
                buffer[k::lane] = column.translate(plane)
            for k in range(len(planes), written):
                buffer[k::lane] = bytes(count)
            written = max(written, len(planes))
            lanes += int.from_bytes(buffer, "little")
        if high <= 0:
            hits += count
        elif high <= total:
            hits += ((lanes + (half - high) * ones) & tops).bit_count()
        if low >= total:
            hits += count
        elif low >= 0:
            hits += (((low + half) * ones - lanes) & tops).bit_count()
        done += count
    return hits


_patterns_cache: list = [None, None]  # [(seed, n, count), columns]: compare_many's cells share it


def _pattern_bytes(rng: random.Random, n: int, count: int, seed: int | None) -> list[bytes]:
    """The next ``count`` patterns of ``getrandbits(n)`` from ``rng``, as one ``bytes`` per
    block of 8 differences (byte b of every pattern, pattern after pattern). The first chunk
    of a seed is kept: every cell of a comparison with the same number of queries draws the
    same patterns (``seed`` None: a later chunk, not kept)."""
    key = (seed, n, count)
    if seed is not None and _patterns_cache[0] == key:
        return _patterns_cache[1]
    words = (n + 31) // 32
    rest = n % 32
    step = 4 * words
    raw = rng.getrandbits(32 * words * count).to_bytes(step * count, "little")
    full = 4 * (words - 1) if rest else step  # bytes of the whole words of each pattern
    columns = [raw[b::step] for b in range(min(full, (n + 7) // 8))]
    if rest:  # the last word of each pattern keeps its top ``rest`` bits, shifted down
        last = bytearray(4 * count)
        for m in range(4):
            last[m::4] = raw[full + m::step]
        mask = int.from_bytes(((1 << rest) - 1).to_bytes(4, "little") * count, "little")
        shifted = ((int.from_bytes(last, "little") >> (32 - rest)) & mask).to_bytes(
            4 * count, "little")
        columns += [shifted[m::4] for m in range((rest + 7) // 8)]
    if seed is not None:
        _patterns_cache[:] = [key, columns]
    return columns


_constants_cache: dict = {}


def _lane_constants(lane: int, count: int) -> tuple[int, int]:
    """(every lane's top bit, every lane = 1) for ``count`` lanes of ``lane`` bytes."""
    key = (lane, count)
    if key not in _constants_cache:
        if len(_constants_cache) > 4:
            _constants_cache.clear()
        ones = int.from_bytes((1).to_bytes(lane, "little") * count, "little")
        _constants_cache[key] = (ones << (8 * lane - 1), ones)
    return _constants_cache[key]


#: The most random sign patterns or bootstrap resamples one comparison draws: a million keeps
#: the Monte Carlo error of a p-value near 0.05 below 0.0003 and takes seconds; a typo of
#: 10^12 would run for hours with no way to know, so it is refused, by name.
MAX_SAMPLES = 1_000_000


class UnknownMetric(OptionError, KeyError):
    """A metric key a comparison does not have (a KeyError too, for code that caught that)."""

    def __str__(self) -> str:
        return self.message


def check_options(samples: Any, seed: Any, exact_max_n: Any) -> None:
    """OptionError naming the field for a samples, seed or exact_max_n that is not a whole
    number in range.

    >>> check_options(10 ** 12, 0, 16)
    Traceback (most recent call last):
    ...
    retrieval_metrics.errors.OptionError: samples must be a whole number from 1 to 1,000,000, found 1000000000000
    """
    for field, value, low, high in (("samples", samples, 1, MAX_SAMPLES), ("seed", seed, 0, None),
                                    ("exact_max_n", exact_max_n, 0, None)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low \
                or (high is not None and value > high):
            bounds = f"from {low:,} to {high:,}" if high is not None else f">= {low}"
            raise OptionError(field, f"{field} must be a whole number {bounds}, found {value!r}")


def per_query_values(report: Any, source: str) -> Mapping[str, Mapping[str, Any]]:
    """``{qid: {metric key: value}}`` from a Report, its ``to_dict()`` or the page's result."""
    per_query = report_field(report, "per_query")
    if not isinstance(per_query, Mapping):
        raise InputError(source, "not a report: no per-query scores found",
                         expected='a report or its JSON: {"per_query": {query: {metric: value}}}')
    for qid, scores in per_query.items():
        if not isinstance(scores, Mapping):
            raise InputError(source, f"not a report: the scores of query {qid!r} are not an "
                             "object of metric values",
                             expected='{"per_query": {query: {metric: value}}}')
    return {str(qid): scores for qid, scores in per_query.items()}


def report_field(report: Any, name: str) -> Any:
    """One top-level field (``per_query``, ``gain``, ``keys``...) of a Report or its dict, or None.

    The page's ``analyse()`` result wraps the report dict in ``{"report": ...}``: accepted too.
    """
    if isinstance(report, Mapping):
        if "per_query" not in report and isinstance(report.get("report"), Mapping):
            report = report["report"]
        return report.get(name)
    return getattr(report, name, None)


def _keys(report: Any, per_query: Mapping[str, Mapping[str, Any]]) -> dict[str, None]:
    """Metric keys as an ordered set: the report's ``keys`` order, then first appearance."""
    listed = report_field(report, "keys")
    keys: dict[str, None] = dict.fromkeys(listed) if isinstance(listed, (list, tuple)) else {}
    for scores in per_query.values():
        for key in scores:
            keys.setdefault(key, None)
    return keys


def defined_value(value: Any, source: str, qid: str, key: str) -> float | None:
    """A finite float, or None for a value the report left undefined (None / NaN)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(source, f"not a report: {key} of query {qid!r} is {value!r}, "
                         "not a number", expected="a number or null")
    value = float(value)
    return value if math.isfinite(value) else None


def _name(source: str) -> str:
    return "baseline" if source == "baseline" else "candidate run"


def _count(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"

