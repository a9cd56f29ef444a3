"""Checks before scoring, in one place: what in the inputs could make the numbers misleading.

Each check is a ``Notice`` (code ``check_...``) naming the run it concerns:

- ``check_not_retrieved``: queries with a relevant judgement that a run did not return;
- ``check_not_judged``: queries a run returned that have no judgements;
- ``check_few_topics``: a run covering under half of the judged queries;
- ``check_duplicates``: documents a run lists more than once for a query;
- ``check_relevance_level``: graded judgements (grades above 1) scored with every grade >= 1
  relevant by the binary measures, where TREC Deep Learning's binary measures use grade >= 2
  (trec_eval -l 2); or a level above every grade (nothing is relevant);
- ``check_score_ties``: documents with equal scores (see ``scoring.ties``);
- ``check_low_judged``: a run whose judged@10 (mean share of its top 10 with a judgement) is
  under one half: unjudged documents count as not relevant, so its numbers are doubtful.
"""

from __future__ import annotations

from ..inputs.records import Judgements, Notice, Rankings
from ..measures.core import judged_share
from ..measures.registry import BY_NAME
from ..report.wording import agreeing, counted, listed
from .query import JUDGED_WARNING_BELOW, Settings, has_relevant, mean, metric_specs

FEW_TOPICS_BELOW = 0.5
JUDGED_AT = 10


def check_inputs(judgements: Judgements, runs: dict[str, Rankings], settings: Settings
                 ) -> list[Notice]:
    """Every check for the judgements and each run of ``{name: Rankings}``.

    >>> from retrieval_metrics.scoring.evaluate import load
    >>> from retrieval_metrics.scoring.settings import settings
    >>> j, r = load("q1 0 a 2\\nq2 0 b 1\\n", "q1 Q0 a 1 1.0 t\\nq1 Q0 c 2 1.0 t\\n")
    >>> [n.code for n in check_inputs(j, {"run": r}, settings(k=10))]
    ['check_relevance_level', 'check_not_retrieved', 'check_score_ties']
    """
    grades = judgements.grades
    threshold = settings.relevance_threshold
    relevant = sorted(q for q, g in grades.items() if has_relevant(g, threshold))
    notices = _level_checks(grades, settings)
    several = len(runs) > 1
    for name, rankings in runs.items():
        who = f"{name}: " if several else ""
        ranked = rankings.ranked
        absent = [q for q in relevant if q not in ranked]
        if absent:
            notices.append(Notice.about(
                "check_not_retrieved", "warning",
                f"{who}{counted(len(absent), 'query')} with a relevant judgement "
                f"{agreeing(len(absent), 'is')} not in the results: {listed(absent)}; check "
                "that the run answers every topic and that its query ids are the judgements' "
                "ones.", absent))
        unjudged = sorted(q for q in ranked if q not in grades)
        if unjudged:
            notices.append(Notice.about(
                "check_not_judged", "info", f"{who}{counted(len(unjudged), 'query')} in the "
                f"results {agreeing(len(unjudged), 'has')} no judgements: {listed(unjudged)}.",
                unjudged))
        covered = sum(1 for q in relevant if q in ranked)
        if relevant and covered < FEW_TOPICS_BELOW * len(relevant):
            notices.append(Notice(
                "check_few_topics", "warning",
                f"{who}the results cover {covered:,} of the {len(relevant):,} judged queries "
                f"({covered / len(relevant):.0%}); its means are over few topics: run it on "
                "every judged query before comparing it with others.",
                covered, ()))
        for notice in rankings.notices:
            if notice.code == "duplicate_documents":
                notices.append(notice._replace(code="check_duplicates",
                                               message=who + notice.message))
        ties = rankings.ties or {}
        if ties:
            tied = sum(end - start for groups in ties.values() for start, end in groups)
            queries = sorted(ties)
            notices.append(Notice(
                "check_score_ties", "info",
                f"{who}{tied:,} documents share their score with another in "
                f"{counted(len(queries), 'query')} ({listed(queries)}); their order is "
                f"{_tie_wording(settings.ties)}.", len(queries), tuple(queries)))
        shares = [judged_share(list(map(grades[q].get, ranked[q][:JUDGED_AT])), JUDGED_AT)
                  for q in relevant if ranked.get(q)]
        if shares and mean(shares) < JUDGED_WARNING_BELOW:
            notices.append(Notice(
                "check_low_judged", "warning",
                f"{who}judged@{JUDGED_AT} is {mean(shares):.2f}: under half of its top "
                f"{JUDGED_AT} have a judgement, and unjudged documents count as not relevant, "
                "so its numbers are doubtful: judge more of its top documents, or read the "
                "condensed values (judged documents only).", len(shares), ()))
    return notices


def _tie_wording(policy: str) -> str:
    return {"trec_eval": "trec_eval's (document id, descending)",
            "optimistic": "the best grades first (optimistic)",
            "pessimistic": "the best grades last (pessimistic)",
            "average": "averaged over (the expectation over every order)"}[policy]


def _level_checks(grades: dict, settings: Settings) -> list[Notice]:
    """Graded judgements read with a level that the grades suggest is not the intended one."""
    top = max((g for judged in grades.values() for g in judged.values()), default=0)
    threshold = settings.relevance_threshold
    binary = [s for s in metric_specs(settings) if BY_NAME[s.measure].binary]
    if threshold > top and grades:
        return [Notice("check_relevance_level", "warning",
                       f"The relevance level {threshold} is above every grade (the highest is "
                       f"{top}): no document is relevant to the binary measures; lower the "
                       f"relevance level to {top} or less.", 0, ())]
    if top >= 2 and threshold == 1 and binary:
        return [Notice(
            "check_relevance_level", "info",
            f"The judgements are graded (0 to {top}) and the binary measures "
            f"({', '.join(dict.fromkeys(s.measure for s in binary))}) count every grade >= 1 "
            "as relevant. TREC Deep Learning's binary measures count grade >= 2 (trec_eval "
            "-l 2, relevance_threshold=2); nDCG reads every grade either way.", 0, ())]
    return []
