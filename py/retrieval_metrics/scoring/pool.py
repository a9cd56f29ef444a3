"""How far the judgements can be trusted for each run: judged@k, condensed lists, pool bias.

- ``judged_at``: per query, the share of the top k that has a judgement (judged@k);
- ``condensed``: the run scored on its judged documents only (the condensed list, Sakai 2007):
  beside the normal value it shows how much the unjudged documents, counted as not relevant,
  pull a number down;
- ``leave_one_out``: with several runs, Zobel (1998)'s pool-bias test: each run scored with
  the judged documents that only it contributed to the pool (in its top ``pool_depth``, in no
  other run's) treated as unjudged (removed from the judgements), and the drop of each mean.
  A run that found many relevant documents no other run did would have scored that much lower
  had it not been pooled: what a new run, which was not pooled, can expect.
- ``diagnose``: all of them with ``checks.check_inputs``, from what ``evaluate`` takes.
"""

from __future__ import annotations

from typing import Any, Mapping, NamedTuple

from ..inputs.records import Judgements, Rankings, as_dict
from ..report.report import Report
from .checks import check_inputs
from .evaluate import load_qrels, load_run, score
from .query import Settings
from .settings import settings as make_settings

POOL_DEPTH = 100


def judged_at(judgements: Judgements, rankings: Rankings, ks) -> dict[str, dict[int, float]]:
    """``{query: {k: judged@k}}`` for every judged query the run returned.

    >>> from retrieval_metrics.scoring.evaluate import load
    >>> j, r = load("q1 0 a 1\\nq1 0 b 0\\n", "q1 Q0 a 1 3 t\\nq1 Q0 x 2 2 t\\nq1 Q0 b 3 1 t\\n")
    >>> judged_at(j, r, (1, 2, 3))
    {'q1': {1: 1.0, 2: 0.5, 3: 0.6666666666666666}}
    """
    out = {}
    for query, docs in sorted(rankings.ranked.items()):
        grades = judgements.grades.get(query)
        if grades is None:
            continue
        out[query] = {k: (sum(1 for d in docs[:k] if d in grades) / len(docs[:k]))
                      if docs[:k] else 0.0 for k in ks}
    return out


def condensed(judgements: Judgements, rankings: Rankings, settings: Settings) -> Report:
    """The run scored on its judged documents only (unjudged ones removed, the rest moving
    up), under the same counting rules and tie policy.

    >>> from retrieval_metrics.scoring.evaluate import load
    >>> from retrieval_metrics.scoring.settings import settings
    >>> j, r = load("q1 0 a 1\\n", "q1 x\\nq1 a\\n")
    >>> condensed(j, r, settings(k=1, metrics=["precision"])).mean
    {'precision@1': 1.0}
    """
    ranked, ties = {}, {}
    for query, docs in rankings.ranked.items():
        grades = judgements.grades.get(query, {})
        kept = [d for d in docs if d in grades]
        ranked[query] = kept
        if query in (rankings.ties or {}):
            groups = _kept_groups(docs, grades, rankings.ties[query])
            if groups:
                ties[query] = groups
    return score(judgements, rankings._replace(ranked=ranked, ties=ties, notices=[]), settings)


def _kept_groups(docs, grades, groups):
    """The tied runs' positions once the unjudged documents are gone."""
    position, new = {}, 0
    for i, doc in enumerate(docs):
        if doc in grades:
            position[i] = new
            new += 1
    out = []
    for start, end in groups:
        kept = [position[i] for i in range(start, end) if i in position]
        if len(kept) > 1:
            out.append((kept[0], kept[-1] + 1))
    return tuple(out)


class PoolBias(NamedTuple):
    """One run's leave-one-out result: how many judged (and relevant) documents only it
    contributed, its means with and without them, and the drop (normal - left out)."""

    unique_judged: int
    unique_relevant: int
    mean: dict
    left_out_mean: dict
    drop: dict

    to_dict = as_dict


def leave_one_out(judgements: Judgements, runs: Mapping[str, Rankings], settings: Settings,
                  pool_depth: int = POOL_DEPTH) -> dict[str, PoolBias]:
    """Zobel's test for each run of ``{name: Rankings}`` (empty with fewer than two runs).

    >>> from retrieval_metrics.scoring.evaluate import load_qrels, load_run
    >>> from retrieval_metrics.scoring.settings import settings
    >>> j = load_qrels("q1 0 a 1\\nq1 0 b 1\\n")
    >>> runs = {"x": load_run("q1 a\\nq1 b\\n", j), "y": load_run("q1 b\\nq1 c\\n", j)}
    >>> bias = leave_one_out(j, runs, settings(k=2, metrics=["precision"]))
    >>> bias["x"].unique_relevant, bias["x"].drop, bias["y"].drop
    (1, {'precision@2': 0.5}, {'precision@2': 0.0})
    """
    if len(runs) < 2:
        return {}
    tops = {name: {q: set(docs[:pool_depth]) for q, docs in r.ranked.items()}
            for name, r in runs.items()}
    out = {}
    for name, rankings in runs.items():
        grades = {}
        judged = relevant = 0
        for query, judged_docs in judgements.grades.items():
            mine = tops[name].get(query, set())
            others = set().union(*(tops[o].get(query, set()) for o in runs if o != name))
            only = {d for d in mine - others if d in judged_docs}
            judged += len(only)
            relevant += sum(1 for d in only if judged_docs[d] >= settings.relevance_threshold)
            grades[query] = ({d: g for d, g in judged_docs.items() if d not in only}
                             if only else judged_docs)
        normal = score(judgements, rankings, settings).mean
        reduced = score(judgements._replace(grades=grades), rankings, settings).mean
        drop = {key: normal[key] - reduced[key] for key in normal if key in reduced}
        out[name] = PoolBias(judged, relevant, normal, reduced, drop)
    return out


class Diagnostics(NamedTuple):
    """``diagnose``'s result: the checks, and per run its judged@k by query, its condensed
    report and (several runs) its leave-one-out pool bias."""

    checks: list
    judged: dict
    condensed: dict
    pool_bias: dict
    pool_depth: int

    def to_dict(self) -> dict:
        return {"checks": [n.to_dict() for n in self.checks],
                "judged": {r: {q: {str(k): v for k, v in ks.items()} for q, ks in by.items()}
                           for r, by in self.judged.items()},
                "condensed": {r: {"mean": report.to_dict()["mean"],
                                  "per_query": report.to_dict()["per_query"]}
                              for r, report in self.condensed.items()},
                "pool_bias": {r: b.to_dict() for r, b in self.pool_bias.items()},
                "pool_depth": self.pool_depth}


def diagnose_parsed(judgements: Judgements, runs: Mapping[str, Rankings], settings: Settings,
                    pool_depth: int = POOL_DEPTH) -> Diagnostics:
    """``diagnose`` for inputs already read."""
    return Diagnostics(check_inputs(judgements, dict(runs), settings),
                       {n: judged_at(judgements, r, settings.k) for n, r in runs.items()},
                       {n: condensed(judgements, r, settings) for n, r in runs.items()},
                       leave_one_out(judgements, runs, settings, pool_depth), pool_depth)


def diagnose(qrels, runs: Any, k=10, gain="linear", missing="zero", *, metrics=None,
             zero_division="skip", relevance_threshold=1, ties="trec_eval",
             pool_depth: int = POOL_DEPTH, qrels_format="auto", run_format="auto",
             third_column="auto") -> Diagnostics:
    """The checks and judgement diagnostics of ``{name: run}`` (or one run's text or path),
    with ``evaluate``'s settings; ``pool_depth``: how deep each run is taken to have been
    pooled (leave-one-out needs two runs or more)."""
    from ..errors import OptionError
    if isinstance(pool_depth, bool) or not isinstance(pool_depth, int) or pool_depth < 1:
        raise OptionError("pool_depth", f"pool_depth must be a whole number >= 1, found "
                          f"{pool_depth!r}")
    settings = make_settings(k, gain, missing, metrics, zero_division, relevance_threshold,
                             ties=ties)
    judgements = load_qrels(qrels, qrels_format=qrels_format)
    if isinstance(runs, (str, bytes)) or hasattr(runs, "__fspath__"):
        runs = {"run": runs}
    if not isinstance(runs, Mapping) or not runs:
        raise OptionError("runs", "runs must be {name: run} (or one run's text or path)")
    parsed = {str(name): load_run(run, judgements, run_format=run_format,
                                  third_column=third_column, run_source=f"run {name}")
              for name, run in runs.items()}
    return diagnose_parsed(judgements, parsed, settings, pool_depth)
