"""Documents with equal scores: which order scores them, and how much that order matters.

A run that gives two documents the same score does not say which comes first, yet a cutoff
between them, or a relevant document among non-relevant ones, makes the numbers depend on it.
trec_eval breaks ties by document id (descending), an accident of naming. The policies:

- ``trec_eval`` (the default): that order, so every number matches trec_eval;
- ``optimistic`` / ``pessimistic``: within each run of equal scores, the best (highest grade)
  documents first / last: the highest / lowest value every measure here can take;
- ``average``: the expected value over every order of the tied documents, each equally likely
  (McSherry and Najork, "Computing information retrieval performance measures efficiently in
  the presence of tied scores", ECIR 2008), computed in closed form for the measures in
  ``AVERAGE_MEASURES`` and refused for the others.

Whatever the policy, ``tie_notice`` says how many queries have ties, how many straddle a
cutoff, and each mean's range from the pessimistic to the optimistic order.
"""

from __future__ import annotations

import math
from math import comb

from ..inputs.records import Notice
from ..measures.core import QueryGrades, gain_function, ideal_gains
from ..report.wording import counted, listed
from .query import mean_of, metric_specs, plan, score_query

TIES = ("trec_eval", "optimistic", "pessimistic", "average")
#: the measures whose expectation over tied orders is computed exactly
AVERAGE_MEASURES = ("recall", "precision", "rr", "ndcg", "hit_rate", "map", "rprec", "judged")
_UNJUDGED = -math.inf


def reorder(ranked: list, groups, judged: dict, best_first: bool) -> list:
    """The ranking with each tied run of documents sorted by grade, best first
    (``best_first``) or worst first; an unjudged document counts below every grade.

    >>> reorder([b"a", b"b", b"c", b"d"], ((1, 4),), {b"d": 2, b"b": 1}, True)
    [b'a', b'd', b'b', b'c']
    >>> reorder([b"a", b"b", b"c", b"d"], ((1, 4),), {b"d": 2, b"b": 1}, False)
    [b'a', b'c', b'b', b'd']
    """
    out = list(ranked)
    grade = judged.get
    for start, end in groups:
        out[start:end] = sorted(out[start:end], reverse=best_first,
                                key=lambda doc: _key(grade(doc)))
    return out


def _key(grade):
    return _UNJUDGED if grade is None else grade


def score_tied(ranked: list, groups, judged: dict, settings, policy: str) -> dict[str, float]:
    """One query's values under a tie policy other than trec_eval's."""
    if policy == "average":
        return expected_scores(ranked, groups, judged, settings)
    return score_query(reorder(ranked, groups, judged, policy == "optimistic"), judged, settings)


def expected_scores(ranked: list, groups, judged: dict, settings) -> dict[str, float]:
    """Each measure's expected value over every order of the tied documents.

    >>> from retrieval_metrics.scoring.query import Settings
    >>> s = Settings(k=(1,), metrics=("precision", "mrr"))
    >>> expected_scores([b"a", b"b", b"c"], ((0, 3),), {b"a": 1}, s)   # one relevant of 3 tied
    {'precision@1': 0.3333333333333333, 'mrr@1': 0.3333333333333333}
    """
    work = plan(settings)
    q = QueryGrades(ranked, judged, settings.relevance_threshold, settings.gain, None)
    blocks = _blocks(len(ranked), groups)
    binary = [1 if g is not None and g > 0 else 0 for g in q.binary]
    values = {}
    for (key, _compute, k, _params, undefined), spec in zip(work.steps, metric_specs(settings)):
        if undefined is not None and undefined(q):
            values[key] = work.undefined
        else:
            values[key] = _AVERAGE[spec.measure](q, binary, blocks, k)
    return values


def _blocks(n: int, groups) -> list[tuple[int, int]]:
    """Every position in a block: the tied runs, and each untied document alone."""
    blocks, at = [], 0
    for start, end in groups:
        blocks.extend((i, i + 1) for i in range(at, start))
        blocks.append((start, end))
        at = end
    blocks.extend((i, i + 1) for i in range(at, n))
    return blocks


def _expected_count(values, blocks, k) -> float:
    """E[sum of values over the top k]: a block straddling k gives its mean per position in it."""
    total = []
    for start, end in blocks:
        if k is not None and start >= k:
            break
        inside = (end if k is None else min(end, k)) - start
        total.append(math.fsum(values[start:end]) * inside / (end - start))
    return math.fsum(total)


def _precision(q, binary, blocks, k):
    return _expected_count(binary, blocks, k) / k


def _recall(q, binary, blocks, k):
    return _expected_count(binary, blocks, k) / q.num_relevant


def _rprec(q, binary, blocks, k):
    return _expected_count(binary, blocks, q.num_relevant) / q.num_relevant


def _judged(q, binary, blocks, k):
    shown = min(k, len(q.grades))
    if not shown:
        return 0.0
    return _expected_count([0 if g is None else 1 for g in q.grades], blocks, k) / shown


def _hit(q, binary, blocks, k):
    """1 - P(no relevant document in the top k): hypergeometric in each block cut by k."""
    none = 1.0
    for start, end in blocks:
        if start >= k:
            break
        n, r = end - start, sum(binary[start:end])
        drawn = min(end, k) - start
        none *= comb(n - r, drawn) / comb(n, drawn)
        if not none:
            break
    return 1.0 - none


def _rr(q, binary, blocks, k):
    """In the first block holding a relevant document (n tied, r relevant), the first relevant
    one is at its j-th place with probability C(n - j, r - 1) / C(n, r)."""
    for start, end in blocks:
        if k is not None and start >= k:
            return 0.0
        n, r = end - start, sum(binary[start:end])
        if not r:
            continue
        total = comb(n, r)
        last = n - r + 1 if k is None else min(n - r + 1, k - start)
        return math.fsum(comb(n - j, r - 1) / total / (start + j) for j in range(1, last + 1))
    return 0.0


def _ap(q, binary, blocks, k):
    """Sum over places i <= k of P(relevant at i) * E[relevant in the top i | relevant at i] / i:
    in a block of n tied with r relevant after B relevant, place j gives
    (r / n) * (1 + B + (j - 1)(r - 1) / (n - 1)) / i."""
    terms, before = [], 0
    for start, end in blocks:
        if k is not None and start >= k:
            break
        n, r = end - start, sum(binary[start:end])
        if r:
            stop = end if k is None else min(end, k)
            for i in range(start + 1, stop + 1):
                j = i - start
                within = (j - 1) * (r - 1) / (n - 1) if n > 1 else 0.0
                terms.append(r / n * (1 + before + within) / i)
        before += r
    return math.fsum(terms) / q.num_relevant


def _ndcg(q, binary, blocks, k):
    """DCG is a sum over places, so its expectation spreads each block's mean gain over it."""
    to_gain = gain_function(q.gain)
    gains = [to_gain(g) if g is not None and g > 0 else 0 for g in q.grades]
    depth = len(gains) if k is None else min(k, len(gains))
    spread = list(gains)
    for start, end in blocks:
        if end - start > 1:
            spread[start:end] = [math.fsum(gains[start:end]) / (end - start)] * (end - start)
    best = _dcg(ideal_gains(q.judged.values(), q.gain), k)
    return _dcg(spread[:depth], k) / best if best else 0.0


def _dcg(gains, k):
    top = gains if k is None else gains[:k]
    return math.fsum(g / math.log2(i + 2) for i, g in enumerate(top))


_AVERAGE = {"precision": _precision, "recall": _recall, "rprec": _rprec, "judged": _judged,
            "hit_rate": _hit, "rr": _rr, "map": _ap, "ndcg": _ndcg}


def check_average(specs) -> list[str]:
    """The measures of ``specs`` that have no closed-form expectation over tied orders."""
    return list(dict.fromkeys(s.measure for s in specs if s.measure not in _AVERAGE))


def tie_notice(scored: dict[str, dict[str, float]], ranked: dict, ties: dict, grades: dict,
               settings, means: dict[str, float]) -> tuple[list[Notice], dict]:
    """How many scored queries have ties and what their order could do to each mean: the
    notice and ``{key: (pessimistic mean, optimistic mean)}`` for the keys that can move."""
    tied = sorted(q for q in scored if q in ties and q in ranked)
    if not tied:
        return [], {}
    cutoffs = sorted({s.cutoff for s in metric_specs(settings) if s.cutoff is not None})
    straddle = [q for q in tied if any(start < k < end for start, end in ties[q]
                                       for k in cutoffs)]
    low = {q: dict(v) for q, v in scored.items()}
    high = {q: dict(v) for q, v in scored.items()}
    for query in tied:
        low[query] = score_query(reorder(ranked[query], ties[query], grades[query], False),
                                 grades[query], settings)
        high[query] = score_query(reorder(ranked[query], ties[query], grades[query], True),
                                  grades[query], settings)
    ranges = {}
    for key in means:
        lo = mean_of(key, [v[key] for v in low.values()], settings)
        hi = mean_of(key, [v[key] for v in high.values()], settings)
        if lo != hi and not (lo != lo and hi != hi):
            ranges[key] = (lo, hi)
    policy = {"trec_eval": "ordered as trec_eval orders them (equal scores by document id, "
                           "descending)",
              "optimistic": "scored optimistically (the best-graded tied documents first)",
              "pessimistic": "scored pessimistically (the best-graded tied documents last)",
              "average": "scored as the expectation over every order of the tied documents"
                         }[settings.ties]
    has = "has" if len(tied) == 1 else "have"
    text = (f"{counted(len(tied), 'query')} {has} documents with equal scores"
            + (f"; in {counted(len(straddle), 'query')} a tie straddles a cutoff "
               f"({listed(straddle)})" if straddle else "")
            + f". They are {policy}. ")
    if ranges:
        text += ("Over every order of the tied documents the means range from pessimistic to "
                 "optimistic: " + "; ".join(f"{key} {lo:.4f}..{hi:.4f} (here {means[key]:.4f})"
                                             for key, (lo, hi) in ranges.items()) + ".")
    else:
        text += "No mean depends on their order."
    level = "warning" if ranges else "info"
    return [Notice("score_ties", level, text, len(tied), tuple(straddle or tied))], ranges
