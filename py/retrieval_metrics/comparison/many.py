"""Many runs against one set of judgements: score them all, then compare them with a baseline.

Researchers compare five systems with a baseline and put the table in a paper. The judgements
are parsed once and every run is scored against them (:func:`evaluate_many`); then
:func:`compare_many` gives the systems x metrics table of means with their t confidence
intervals and, for every other system, its paired difference from the baseline: the difference
and its confidence interval, wins / ties / losses, the paired effect size (mean difference /
standard deviation of the differences) and a p-value, corrected for multiple comparisons across
systems and metrics together. The statistics are in :mod:`.stats`; the tables for papers in
:mod:`.tables`.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from ..errors import OptionError
from ..inputs.records import InputSummary, Notice, as_dict
from ..inputs.run_names import name_clashes, run_names, run_source
from ..report.report import Report
from ..scoring.evaluate import load_qrels, load_run, paths_of, score
from ..scoring.settings import choice
from ..scoring.settings import settings as make_settings
from .labels import CI_NAMES, CORRECTION_NAMES, TEST_NAMES
from .paired import (
    check_options,
    defined_value,
    pair_reports,
    paired_randomisation_test,
    per_query_values,
    report_field,
)
from .power import power_analysis
from .stats import (
    BOOTSTRAP_METHODS,
    CORRECTIONS,
    adjust_p_values,
    effect_size_interval,
    paired_bootstrap,
    paired_t_test,
    sample_sd,
    t_interval,
)
from .tukey import randomised_tukey_hsd

__all__ = ["Difference", "Evaluations", "ManyComparison", "SystemMean", "TESTS",
           "compare_many", "evaluate_many", "with_topic_sets"]

TESTS = ("randomisation", "t", "bootstrap", "tukey")
PAIRS = ("baseline", "all")
DEFAULT_SAMPLES = {"randomisation": 100_000, "bootstrap": 10_000, "t": None, "tukey": 10_000}


def metric_range(key: str) -> tuple[float, float] | None:
    """The values a metric key can take (its measure's ``bounds`` in the registry): what
    intervals are clipped to; None for counts, utility and keys that name no known measure.

    >>> metric_range("ndcg@10"), metric_range("num_rel"), metric_range("my score")
    ((0.0, 1.0), None, None)
    >>> metric_range("inst"), metric_range("inst(quantity=ed)")
    ((0.0, 1.0), (1.0, 1000.0))
    """
    from ..measures.keys import spec_of
    from ..measures.registry import BY_NAME
    spec = spec_of(key)
    if spec is None:
        return None
    bounds = BY_NAME[spec.measure].bounds
    return bounds(dict(spec.params)) if callable(bounds) else bounds


def _clip(value, low, high):
    return None if value is None else min(high, max(low, value))


class Evaluations(Mapping):
    """Each run's :class:`~retrieval_metrics.Report`, by name, in the order given; the
    judgements' summary in ``qrels``. A mapping: ``evaluations["bm25"].mean["ndcg@10"]``."""

    def __init__(self, reports: Mapping[str, Report], qrels: InputSummary | None = None,
                 notices: list[Notice] | None = None):
        self.reports = dict(reports)
        self.qrels = qrels
        self.notices = list(notices or [])  # how clashing run names were told apart

    def __getitem__(self, name: str) -> Report:
        return self.reports[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.reports)

    def __len__(self) -> int:
        return len(self.reports)

    @property
    def names(self) -> list[str]:
        return list(self.reports)

    def compare(self, baseline: str | None = None, **options) -> ManyComparison:
        """``compare_many(self, baseline, **options)``."""
        return compare_many(self, baseline, **options)

    def to_dict(self) -> dict:
        return {"qrels": self.qrels.to_dict() if self.qrels else None,
                "reports": {name: report.to_dict() for name, report in self.reports.items()},
                "notices": [notice.to_dict() for notice in self.notices]}

    def __repr__(self) -> str:
        return f"<Evaluations {self.names}>"


def evaluate_many(qrels, runs: Mapping[str, Any], k=10, gain="linear", missing="zero", *,
                  qrels_format="auto", run_format="auto", third_column="auto", metrics=None,
                  zero_division="skip", relevance_threshold=1, duplicates="first",
                  ties="trec_eval") -> Evaluations:
    """Scores every run of ``{name: run}`` against the judgements, which are parsed once.

    Each run is anything :func:`~retrieval_metrics.scoring.evaluate` takes (text, bytes, a path, a
    dict); a list of file paths instead of the mapping names each run by ``inputs.run_names.run_names``; the settings are ``evaluate``'s and apply to every run, so the reports are
    comparable by construction. An unreadable run raises ``InputError`` whose ``source`` is
    ``"run <name>"``.

    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    >>> runs = {"bm25": {"q1": ["d1"], "q2": ["d3", "d2"]}, "dense": {"q1": ["d2", "d1"], "q2": ["d2"]}}
    >>> ev = evaluate_many(qrels, runs, k=2, metrics=["mrr"])
    >>> {name: report.mean["mrr@2"] for name, report in ev.items()}
    {'bm25': 0.75, 'dense': 0.75}
    """
    if isinstance(runs, (list, tuple)) and runs and all(isinstance(r, (str, os.PathLike))
                                                         for r in runs):
        if not all(os.path.isfile(r) for r in runs):
            missing = next(str(r) for r in runs if not os.path.isfile(r))
            raise OptionError("runs", f"a list of runs must be file paths; no such file: {missing}")
        paths = [os.fspath(r) for r in runs]
        names = run_names(paths)
        notices = [Notice("run_names", "info", f"Run names: {clash}")
                   for clash in name_clashes(paths, names)]
        runs = dict(zip(names, runs))
    else:
        notices = []
    if not isinstance(runs, Mapping) or not runs:
        raise OptionError("runs", "runs must be a non-empty mapping {name: run} (or a list of "
                          f"file paths), found {type(runs).__name__ if runs is not None else None}")
    settings = make_settings(k, gain, missing, metrics, zero_division, relevance_threshold,
                             ties=ties)
    judgements = load_qrels(qrels, qrels_format=qrels_format)
    reports = {}
    for name, run in runs.items():
        rankings = load_run(run, judgements, run_format=run_format, third_column=third_column,
                            run_source=run_source(name), duplicates=duplicates)
        reports[str(name)] = score(judgements, rankings, settings)
        reports[str(name)].read_from = paths_of(qrels, run)
    return Evaluations(reports, judgements.summary, notices)


class SystemMean(NamedTuple):
    """One system's mean of one metric over its ``n`` queries with a defined value, and the t
    confidence interval of that mean (``low``, ``high``; None with fewer than 2 queries)."""

    mean: float | None
    low: float | None
    high: float | None
    n: int

    to_dict = as_dict


class Difference(NamedTuple):
    """One system against another (the baseline, unless ``pairs="all"``) on one metric, over
    the ``n`` queries both scored.

    ``delta`` = mean(system - other); ``low``/``high`` its confidence interval (t interval
    of the differences; the bootstrap interval under the bootstrap test); ``effect_size`` =
    delta / sd(differences) (None when the differences have no spread or n < 2); ``p_value``
    the test's raw two-sided p, ``p_corrected`` after the correction over every tested pair
    and metric; ``significant``: ``p_corrected``'s hypothesis rejected at alpha (as
    statsmodels decides); ``marker``: "better" / "worse" when significant, else None.
    ``method`` says how p was found ("exact" or "sampled" randomisation, "t", "bootstrap");
    ``min_p`` is the smallest p the randomisation test could give (None otherwise).
    ``effect_low``/``effect_high``: the exact confidence interval of the effect size
    (noncentral t); ``mc_error``: the Monte Carlo standard error of a sampled p-value,
    sqrt(p (1 - p) / B) (0 when exact, None for the t-test). Intervals of differences are
    clipped to what a difference of the metric can be ([-1, 1] for rates).
    """

    delta: float | None
    low: float | None
    high: float | None
    wins: int
    ties: int
    losses: int
    effect_size: float | None
    p_value: float | None
    p_corrected: float | None
    significant: bool
    marker: str | None
    n: int
    method: str
    min_p: float | None
    effect_low: float | None = None
    effect_high: float | None = None
    mc_error: float | None = None

    to_dict = as_dict


class ManyComparison(NamedTuple):
    """What :func:`compare_many` found, as data: the CLI, the page and the exports render it.

    ``means[system][metric]`` is a :class:`SystemMean` for every system (the baseline too);
    ``differences[system][metric]`` a :class:`Difference` for every system but the baseline;
    with ``pairs="all"``, ``pairwise[a][b][metric]`` one for every pair (else empty).
    ``family_size`` is how many p-values the correction was over.
    """

    systems: tuple[str, ...]
    baseline: str
    metrics: tuple[str, ...]
    means: dict[str, dict[str, SystemMean]]
    differences: dict[str, dict[str, Difference]]
    test: str
    correction: str
    alpha: float
    confidence: float
    ci_method: str
    samples: int | None
    seed: int
    exact_max_n: int
    family_size: int
    notices: list[Notice]
    pairs: str = "baseline"
    pairwise: dict = {}
    power: dict = {}  # power[system][metric]: power.PowerAnalysis against the baseline
    power_settings: tuple = (0.8, None)  # (power, difference) the analysis used

    def beats(self) -> dict[str, dict[str, tuple[str, ...]]]:
        """``beats()[system][metric]``: the systems it is significantly better than. With the
        default pairs only comparisons with the baseline were tested: a system can beat the
        baseline, and the baseline can beat a system."""
        if self.pairs == "all":
            table = self.pairwise
        else:
            table = {name: ({self.baseline: row} if name != self.baseline else {})
                     for name, row in self.differences.items()}
            table[self.baseline] = {name: {m: _mirror(d) for m, d in row.items()}
                                    for name, row in self.differences.items()}
        return {name: {metric: tuple(other for other in self.systems
                                     if other in table.get(name, {})
                                     and table[name][other][metric].marker == "better")
                       for metric in self.metrics}
                for name in self.systems}

    def significant(self) -> list[tuple[str, str, str]]:
        """(system, metric, "better" | "worse") for every significant difference.

        "better": the system's mean is significantly higher than the baseline's."""
        return [(system, metric, d.marker) for system, row in self.differences.items()
                for metric, d in row.items() if d.marker]

    def describe(self) -> str:
        """One sentence: which test, which correction, which alpha (the tables' legend)."""
        test = TEST_NAMES[self.test]
        if self.test == "randomisation":
            test += (f" (exact up to {self.exact_max_n} queries, else {self.samples:,} seeded "
                     f"samples, seed {self.seed}; sampled p = (b + 1) / (B + 1), Monte Carlo "
                     f"standard error at most {0.5 / self.samples ** 0.5:.2g})")
        elif self.test == "tukey":
            test += (f" paired by topic ({self.samples:,} seeded permutations of each topic's "
                     f"scores, seed {self.seed}, or every permutation when there are fewer; "
                     f"p = (b + 1) / (B + 1), Monte Carlo standard error at most "
                     f"{0.5 / self.samples ** 0.5:.2g}; its p-values control the family-wise "
                     f"error over the pairs of systems of each metric)")
        elif self.test == "bootstrap":
            test += (f" ({self.samples:,} resamples, seed {self.seed}; "
                     f"{CI_NAMES[self.ci_method]} intervals of the differences)")
        correction = CORRECTION_NAMES[self.correction]
        if self.correction != "none":
            correction += f" correction over {self.family_size} comparisons"
        which = ("every pair of systems compared" if self.pairs == "all"
                 else f"baseline: {self.baseline}")
        return (f"Two-sided {test}, {correction}, alpha = {self.alpha:g}; {which}; "
                f"{self.confidence:.0%} confidence intervals (t intervals of means and "
                f"differences clipped to the measure's range; exact noncentral-t intervals "
                f"of effect sizes).")

    def to_dict(self) -> dict:
        """Strict JSON (undefined values are None)."""
        return {
            "systems": list(self.systems),
            "baseline": self.baseline,
            "metrics": list(self.metrics),
            "test": self.test,
            "correction": self.correction,
            "alpha": self.alpha,
            "confidence": self.confidence,
            "ci_method": self.ci_method,
            "samples": self.samples,
            "seed": self.seed,
            "exact_max_n": self.exact_max_n,
            "family_size": self.family_size,
            "description": self.describe(),
            "means": {s: {m: v.to_dict() for m, v in row.items()} for s, row in self.means.items()},
            "differences": {s: {m: v.to_dict() for m, v in row.items()}
                            for s, row in self.differences.items()},
            "significant": [list(item) for item in self.significant()],
            "pairs": self.pairs,
            "beats": {s: {m: list(v) for m, v in row.items()} for s, row in self.beats().items()},
            "pairwise": {a: {b: {m: d.to_dict() for m, d in row.items()} for b, row in by.items()}
                         for a, by in self.pairwise.items()},
            "power": {s: {m: v.to_dict() for m, v in row.items()} for s, row in self.power.items()},
            "power_settings": {"power": self.power_settings[0],
                               "difference": self.power_settings[1]},
            "notices": [notice.to_dict() for notice in self.notices],
        }

    def to_latex(self, **options) -> str:
        from .tables import to_latex
        return to_latex(self, **options)

    def to_markdown(self, **options) -> str:
        from .tables import to_markdown
        return to_markdown(self, **options)


def compare_many(reports: Mapping[str, Any], baseline: str | None = None, *,
                 test: str = "randomisation", correction: str | None = None,
                 alpha: float = 0.05,
                 confidence: float = 0.95, samples: int | None = None, seed: int = 0,
                 exact_max_n: int = 16, bootstrap_ci: str = "bca",
                 pairs: str = "baseline", metrics=None, power: float = 0.8,
                 difference: float | None = None, topic_sets: bool = False) -> ManyComparison:
    """The systems x metrics table with each system's paired comparison to the baseline.

    ``reports``: :func:`evaluate_many`'s result, or ``{name: Report}`` (a report's
    ``to_dict()`` too, e.g. a saved JSON report). ``baseline``: a name (default: the first).
    ``test``: "randomisation" (the paired sign-flip test of :func:`compare`: exact up to
    ``exact_max_n`` pairs, else ``samples`` seeded patterns, default 100,000), "t" (paired
    t-test) or "bootstrap" (``samples`` seeded resamples, default 10,000; ``bootstrap_ci``
    "bca" or "percentile" for the difference's interval). ``correction``: "holm" (default),
    "bonferroni", "bh" (Benjamini-Hochberg) or "none", over every (system, metric) p-value.
    ``pairs="all"`` tests every pair of systems instead (the correction then runs over every
    pair and metric) and ``beats()`` says which system is significantly better than which.
    ``metrics``: the metric keys to compare (default: every key all reports have); the
    correction runs over these only, so leaving out what the paper will not report keeps
    the family small. ``test="tukey"``: the randomised Tukey HSD test over every system at
    once (``tukey.py``; ``samples`` permutations, default 10,000), whose p-values need no
    correction (``correction`` must then be "none", its default there).
    ``topic_sets=True``: each comparison's topic-set analysis (``power.py``; the HTML report
    asks for it, and :func:`with_topic_sets` adds it later): the smallest difference its
    topics detect at ``alpha`` with ``power``, and how many topics ``difference`` (default:
    the observed one) needs. It is not computed unless asked for: some 30 ms a cell.

    >>> base = {"per_query": {"q1": {"p@1": 0.0}, "q2": {"p@1": 0.5}, "q3": {"p@1": 0.5}}}
    >>> better = {"per_query": {"q1": {"p@1": 1.0}, "q2": {"p@1": 1.0}, "q3": {"p@1": 0.5}}}
    >>> result = compare_many({"base": base, "better": better})
    >>> d = result.differences["better"]["p@1"]
    >>> d.delta, (d.wins, d.ties, d.losses), d.p_value   # +-1 +-0.5 +-0: 4 of 8 reach |1.5|
    (0.5, (2, 1, 0), 0.5)
    """
    systems = _systems(reports)
    if baseline is None:
        baseline = systems[0][0]
    names = [name for name, _ in systems]
    if baseline not in names:
        raise OptionError("baseline", f"baseline {baseline!r} is not one of the runs: "
                          f"{', '.join(names)}")
    choice("test", test, TESTS)
    if correction is None:
        correction = "none" if test == "tukey" else "holm"
    choice("correction", correction, CORRECTIONS)
    if test == "tukey" and correction != "none":
        raise OptionError("correction", "the randomised Tukey HSD test's p-values already "
                          "control the family-wise error over the pairs of systems; use "
                          "correction none with it")
    if difference is not None and (isinstance(difference, bool)
                                   or not isinstance(difference, (int, float))
                                   or not 0 < abs(difference) < math.inf):
        raise OptionError("difference", f"difference must be a non-zero number, found "
                          f"{difference!r}")
    choice("bootstrap_ci", bootstrap_ci, BOOTSTRAP_METHODS)
    choice("pairs", pairs, PAIRS)
    for field, value in (("alpha", alpha), ("confidence", confidence), ("power", power)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1:
            raise OptionError(field, f"{field} must be a number between 0 and 1, found {value!r}")
    if samples is None:
        samples = DEFAULT_SAMPLES[test]
    check_options(samples if samples is not None else 1, seed, exact_max_n)
    by_name = dict(systems)

    notices: list[Notice] = []
    shared = _shared_metrics(systems, notices)
    if metrics is None:
        metrics = shared
    else:
        metrics = [metrics] if isinstance(metrics, str) else list(dict.fromkeys(metrics))
        unknown = [key for key in metrics if key not in shared]
        if unknown or not metrics:
            raise OptionError("metrics", f"metrics to compare must be keys every report has "
                              f"({', '.join(shared)}), found {', '.join(map(repr, unknown)) or 'none'}")
    means = {name: {key: _system_mean(report, name, key, confidence) for key in metrics}
             for name, report in systems}

    if pairs == "baseline":
        tested = [(name, baseline) for name in names if name != baseline]
    else:  # every pair once, the later system as the candidate
        tested = [(b, a) for i, a in enumerate(names) for b in names[i + 1:]]
    raw: dict[tuple[str, str], dict[str, dict]] = {}
    for cand, against in tested:
        pairing = pair_reports(by_name[against], by_name[cand])
        notices.extend(n._replace(message=f"{cand} against {against}: {n.message}")
                       for n in pairing.notices)
        raw[cand, against] = {key: _difference(pairing.rows.get(key, []), test, samples, seed,
                                               exact_max_n, confidence, bootstrap_ci, key)
                              for key in metrics}
    if test == "tukey":
        notices.extend(_tukey(raw, systems, metrics, samples, seed))

    family = [(pair, key) for pair, row in raw.items() for key, d in row.items()
              if d["p_value"] is not None]
    corrected, rejected = adjust_p_values([raw[pair][key]["p_value"] for pair, key in family],
                                          correction, alpha)
    decided = {cell: (p, r) for cell, p, r in zip(family, corrected, rejected)}
    pairwise: dict[str, dict[str, dict[str, Difference]]] = {name: {} for name in names}
    for (cand, against), row in raw.items():
        pairwise[cand][against] = {}
        for key, d in row.items():
            p_corrected, significant = decided.get(((cand, against), key), (None, False))
            marker = None
            if significant and d["delta"]:
                marker = "better" if d["delta"] > 0 else "worse"
            pairwise[cand][against][key] = Difference(
                d["delta"], d["low"], d["high"], d["wins"], d["ties"], d["losses"],
                d["effect_size"], d["p_value"], p_corrected, bool(significant and marker),
                marker, d["n"], d["method"], d["min_p"], d["effect_low"], d["effect_high"],
                d["mc_error"])
        pairwise[against][cand] = {key: _mirror(d) for key, d in pairwise[cand][against].items()}
    differences = {name: pairwise[name][baseline] for name in names if name != baseline}
    notices.extend(small_n_notices(differences if pairs == "baseline" else
                                    {f"{c} vs {a}": pairwise[c][a] for c, a in tested}, test))
    ci_method = bootstrap_ci if test == "bootstrap" else "t"
    designs = _designs(systems, baseline, metrics, alpha, power, difference) if topic_sets else {}
    return ManyComparison(tuple(names), baseline, tuple(metrics), means, differences, test,
                          correction, float(alpha), float(confidence), ci_method, samples,
                          seed, exact_max_n, len(family), notices, pairs,
                          pairwise if pairs == "all" else {}, designs, (power, difference))


def with_topic_sets(comparison: ManyComparison, reports: Mapping[str, Any]) -> ManyComparison:
    """``comparison`` with the topic-set analysis ``compare_many(..., topic_sets=True)`` would
    have given it, from the same ``reports`` (its power and difference settings), without
    running the tests again: what the HTML report of an earlier comparison needs."""
    if comparison.power:
        return comparison
    power, difference = comparison.power_settings
    designs = _designs(_systems(reports), comparison.baseline, comparison.metrics,
                       comparison.alpha, power, difference)
    return comparison._replace(power=designs)


def _designs(systems, baseline: str, metrics, alpha: float, power: float, difference):
    """``power[system][metric]``: each system's topic-set analysis against the baseline."""
    by_name = dict(systems)
    designs = {}
    for name, _ in systems:
        if name == baseline:
            continue
        rows = pair_reports(by_name[baseline], by_name[name]).rows
        designs[name] = {key: power_analysis([row.delta for row in rows.get(key, [])], alpha,
                                             power, difference) for key in metrics}
    return designs


def _mirror(d: Difference) -> Difference:
    """The same comparison seen from the other system: every difference negated, wins and
    losses swapped; the (two-sided) p-values and the decision are the same."""
    def neg(v):
        return None if v is None else -v
    return Difference(neg(d.delta), neg(d.high), neg(d.low), d.losses, d.ties, d.wins,
                      neg(d.effect_size), d.p_value, d.p_corrected, d.significant,
                      {"better": "worse", "worse": "better"}.get(d.marker), d.n, d.method,
                      d.min_p, neg(d.effect_high), neg(d.effect_low), d.mc_error)


def _systems(reports: Any) -> list[tuple[str, Any]]:
    if isinstance(reports, Evaluations):
        return list(reports.reports.items())
    if not isinstance(reports, Mapping) or not reports:
        raise OptionError("runs", "compare_many needs a non-empty mapping {name: report} "
                          "(or evaluate_many's result)")
    systems = []
    for name, report in reports.items():
        per_query_values(report, run_source(name))  # refuses what is not a report, naming it
        systems.append((str(name), report))
    return systems


def _shared_metrics(systems, notices: list[Notice]) -> list[str]:
    """The metric keys every report has, in the first report's order."""
    key_lists = []
    for _, report in systems:
        listed = report_field(report, "keys")
        if not isinstance(listed, (list, tuple)):
            listed = list(dict.fromkeys(k for scores in per_query_values(report, "run").values()
                                        for k in scores))
        key_lists.append(list(listed))
    shared = [key for key in key_lists[0] if all(key in keys for keys in key_lists[1:])]
    left_out = [key for keys in key_lists for key in keys if key not in shared]
    left_out = list(dict.fromkeys(left_out))
    if left_out:
        notices.append(Notice(
            "metrics_not_compared", "warning",
            f"Not every run has {', '.join(left_out)}, so {'it is' if len(left_out) == 1 else 'they are'} "
            "left out of the table; score every run with the same metrics and cutoffs.",
            len(left_out), ()))
    return shared


def _system_mean(report: Any, name: str, key: str, confidence: float) -> SystemMean:
    values = []
    for qid, scores in per_query_values(report, run_source(name)).items():
        value = defined_value(scores.get(key), run_source(name), qid, key)
        if value is not None:
            values.append(value)
    if not values:
        return SystemMean(None, None, None, 0)
    interval = t_interval(values, confidence)
    if interval is None:
        return SystemMean(values[0], None, None, 1)
    bounds = metric_range(key)
    if bounds is not None:
        interval = (interval[0], _clip(interval[1], *bounds), _clip(interval[2], *bounds))
    return SystemMean(*interval, len(values))


def _difference(rows, test: str, samples, seed: int, exact_max_n: int, confidence: float,
                bootstrap_ci: str, key: str = "") -> dict:
    deltas = [row.delta for row in rows]
    n = len(deltas)
    wins = sum(row.candidate > row.baseline for row in rows)
    ties = sum(row.candidate == row.baseline for row in rows)
    out = {"delta": None, "low": None, "high": None, "wins": wins, "ties": ties,
           "losses": n - wins - ties, "effect_size": None, "p_value": None, "n": n,
           "method": test if test != "randomisation" else "exact", "min_p": None,
           "effect_low": None, "effect_high": None, "mc_error": None}
    if n == 0:
        return out
    # the difference of the two means over the paired queries, as compare() computes it
    base_mean = math.fsum(row.baseline for row in rows) / n
    cand_mean = math.fsum(row.candidate for row in rows) / n
    out["delta"] = cand_mean - base_mean
    if n >= 2:
        sd = sample_sd(deltas)
        if sd > 0:
            out["effect_size"] = math.fsum(deltas) / n / sd
            ends = effect_size_interval(out["effect_size"], n, confidence)
            if ends is not None:
                out["effect_low"], out["effect_high"] = ends
    interval = t_interval(deltas, confidence)
    if interval is not None:
        out["low"], out["high"] = interval[1], interval[2]
    if test == "randomisation":
        result = paired_randomisation_test(deltas, samples=samples, seed=seed,
                                           exact_max_n=exact_max_n)
        out.update(p_value=result.p_value, method=result.method, min_p=result.min_p,
                   mc_error=0.0 if result.method == "exact" else _mc(result.p_value, samples))
    elif test == "t":
        out["p_value"] = paired_t_test(deltas).p_value
    elif test == "bootstrap":
        result = paired_bootstrap(deltas, samples=samples, seed=seed, confidence=confidence,
                                  method=bootstrap_ci)
        out.update(p_value=result.p_value, low=result.low, high=result.high,
                   min_p=1 / (samples + 1), mc_error=_mc(result.p_value, samples))
    bounds = metric_range(key)
    if bounds is not None:
        width = bounds[1] - bounds[0]
        out["low"], out["high"] = _clip(out["low"], -width, width), _clip(out["high"], -width, width)
    return out


def _mc(p, samples: int):
    """The Monte Carlo standard error of a p-value sampled from ``samples`` draws."""
    return None if p is None else math.sqrt(p * (1.0 - p) / samples)


def _tukey(raw: dict, systems, metrics, samples: int, seed: int) -> list[Notice]:
    """The randomised Tukey HSD p-values of every tested pair, per metric, over the topics
    every system scored (a notice names those left out)."""
    names = [name for name, _ in systems]
    scores = [per_query_values(report, run_source(name)) for name, report in systems]
    notices = []
    for key in metrics:
        values = [{q: defined_value(v.get(key), run_source(name), q, key) for q, v in s.items()}
                  for name, s in zip(names, scores)]
        every = set.intersection(*({q for q, v in vs.items() if v is not None} for vs in values))
        topics = sorted(every)
        rows = [[vs[q] for vs in values] for q in topics]
        result = randomised_tukey_hsd(rows, samples=samples, seed=seed)
        for (cand, against), row in raw.items():
            i, j = sorted((names.index(cand), names.index(against)))
            p = result.p_values.get((i, j))
            method = "exact" if result.method == "exact" else "sampled"
            row[key].update(p_value=p, method=f"tukey {method}",
                            min_p=None if not result.permutations else
                            (1 / result.permutations if method == "exact"
                             else 1 / (result.permutations + 1)),
                            mc_error=None if p is None else result.mc_error(p))
        left = sorted(set().union(*(set(vs) for vs in values)) - every)
        if left:
            notices.append(Notice(
                "tukey_topics", "info",
                f"{key}: the Tukey HSD test is over the {len(topics):,} topics every run "
                f"scored; {len(left):,} scored by only some runs are left out of it (the "
                "differences and intervals are over each pair's own topics).",
                len(left), tuple(left)))
    return notices


def small_n_notices(differences: dict[str, dict[str, Difference]], test: str) -> list[Notice]:
    """compare()'s notices when no difference could be significant under the randomisation
    test (too few queries, or too few that differ), for all the table's cells at once; and
    which cells have no p-value at all."""
    notices = []
    if test == "randomisation":
        from types import SimpleNamespace

        from .paired import small_n_notices as randomisation_notices
        cells = [SimpleNamespace(metric=f"{system} {metric}", n=d.n, wins=d.wins, losses=d.losses)
                 for system, row in differences.items() for metric, d in row.items()]
        notices.extend(randomisation_notices(cells))
    undefined = [f"{system} {metric}" for system, row in differences.items()
                 for metric, d in row.items() if d.n and d.p_value is None]
    if undefined:
        why = ("the differences have no spread (all equal) or there are fewer than 2 queries"
               if test in ("t", "bootstrap") else "there are too few queries")
        notices.append(Notice(
            "p_value_undefined", "info",
            f"No p-value for {', '.join(undefined)}: {why}; left out of the correction and "
            "never marked significant.", len(undefined), ()))
    return notices
