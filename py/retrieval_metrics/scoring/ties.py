"""Documents with equal scores: which order scores them, and how much that order matters.

A run that gives two documents the same score does not say which comes first, yet a cutoff
between them, or a relevant document among non-relevant ones, makes the numbers depend on it.
trec_eval breaks ties by document id (descending), an accident of naming. The policies:

- ``trec_eval`` (the default): that order, so every number matches trec_eval;
- ``optimistic`` / ``pessimistic``: within each run of equal scores, the best (highest grade)
  documents first / last: the highest / lowest value every measure here can take;
- ``average``: the expected value over every order of the tied documents, each equally likely
  (McSherry and Najork, "Computing information retrieval performance measures efficiently in
  the presence of tied scores", ECIR 2008), computed in closed form (``measures.tied``) for
  the measures whose registry entry has a ``tie_average``, and refused for the others.

Whatever the policy, ``tie_notice_of`` gives each mean's range from the pessimistic to the
optimistic order (``Report.tie_ranges``), and a warning only when some mean moves by a unit of
the fourth decimal or more: it names those means, by how much, and what settles it.
"""

from __future__ import annotations

import math

from ..inputs.records import Notice
from ..measures.grades import QueryGrades
from ..measures.registry import BY_NAME, MEASURES
from ..measures.tied import blocks_of
from ..report.wording import agreeing, counted, listed
from .query import mean_of, metric_specs, plan, score_query

TIES = ("trec_eval", "optimistic", "pessimistic", "average")
# A mean "moves" with the order of tied documents when its pessimistic and optimistic values are
# at least a unit of the fourth decimal apart, the digits the page and the tables show: a smaller
# range (0.39161..0.39162 on trec_eval's own test run) changes no number anyone reads.
VISIBLE_MOVE = 0.0001
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
    blocks = blocks_of(len(ranked), groups)
    binary = [1 if g is not None and g > 0 else 0 for g in q.binary]
    values = {}
    for (key, _compute, k, _params, undefined), spec in zip(work.steps, metric_specs(settings)):
        if undefined is not None and undefined(q):
            values[key] = work.undefined
        else:
            values[key] = BY_NAME[spec.measure].tie_average(q, binary, blocks, k)
    return values


def average_measures() -> list[str]:
    """The measures with a closed-form expectation over tied orders (``Measure.tie_average``)."""
    return [m.name for m in MEASURES.values() if m.tie_average is not None]


def check_average(specs) -> list[str]:
    """The measures of ``specs`` that have no closed-form expectation over tied orders."""
    return list(dict.fromkeys(s.measure for s in specs if BY_NAME[s.measure].tie_average is None))


def tie_extremes(ranking: list, groups, judged: dict, settings,
                 scored: dict | None = None) -> tuple[dict, dict]:
    """One tied query's values with its tied documents in the worst and in the best order.
    When no tie mixes grades (every tied document unjudged, say, as in most runs), the order
    cannot matter: both are ``scored`` (its values as scored), and nothing is scored again.

    >>> from retrieval_metrics.scoring.query import Settings
    >>> s = Settings(k=(1,), metrics=("precision",))
    >>> tie_extremes([b"a", b"b"], ((0, 2),), {b"a": 1}, s)
    ({'precision@1': 0.0}, {'precision@1': 1.0})
    >>> tie_extremes([b"x", b"y"], ((0, 2),), {b"a": 1}, s, {"precision@1": 0.0})
    ({'precision@1': 0.0}, {'precision@1': 0.0})
    """
    if scored is not None and not any(len({judged.get(doc) for doc in ranking[start:end]}) > 1
                                      for start, end in groups):
        return scored, scored
    return (score_query(reorder(ranking, groups, judged, False), judged, settings),
            score_query(reorder(ranking, groups, judged, True), judged, settings))


def tie_notice_of(scored: dict[str, dict[str, float]], ties: dict, extremes: dict, settings,
                  means: dict[str, float]) -> tuple[list[Notice], dict]:
    """What the order of tied documents could do to each mean (``{key: (pessimistic mean,
    optimistic mean)}`` for the keys that can move at all) and the warning when one moves by
    ``VISIBLE_MOVE`` or more, from each tied query's ``tie_extremes`` (computed where its
    ranking was: the split reader's processes hand back only these)."""
    tied = sorted(q for q in scored if q in extremes)
    if not tied:
        return [], {}
    low = {q: dict(v) for q, v in scored.items()}
    high = {q: dict(v) for q, v in scored.items()}
    for query in tied:
        low[query], high[query] = extremes[query]
    ranges = {}
    for key in means:
        lo = mean_of(key, [v[key] for v in low.values()], settings)
        hi = mean_of(key, [v[key] for v in high.values()], settings)
        if lo != hi and not (lo != lo and hi != hi):
            ranges[key] = (lo, hi)
    moving = {key: pair for key, pair in ranges.items() if abs(pair[1] - pair[0]) >= VISIBLE_MOVE}
    if not moving:
        return [], ranges
    cutoffs = sorted({s.cutoff for s in metric_specs(settings) if s.cutoff is not None})
    straddle = [q for q in tied if any(start < k < end for start, end in ties[q]
                                       for k in cutoffs)]
    policy = {"trec_eval": "ordered as trec_eval orders them (equal scores by document id, "
                           "descending)",
              "optimistic": "scored optimistically (the best-graded tied documents first)",
              "pessimistic": "scored pessimistically (the best-graded tied documents last)",
              "average": "scored as the expectation over every order of the tied documents"
                         }[settings.ties]
    text = (f"Equal scores can move {counted(len(moving), 'mean')}: "
            + "; ".join(f"{key} from {lo:.4f} to {hi:.4f} (here {means[key]:.4f})" for key, (lo, hi) in moving.items())
            + f", from the pessimistic to the optimistic order. {counted(len(tied), 'query')} "
            + f"{agreeing(len(tied), 'has')} documents with equal scores"
            + (f", in {counted(len(straddle), 'query')} across a cutoff ({listed(straddle)})"
               if straddle else "")
            + f"; they are {policy}. To settle it, give the run distinct scores, or choose the "
            "expectation over every order of the tied documents (the \"average\" tie policy).")
    return [Notice("score_ties", "warning", text, len(tied), tuple(straddle or tied))], ranges
