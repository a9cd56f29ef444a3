"""Settings as people give them ("1,5,10", "exponential") to a validated ``Settings``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..errors import OptionError, did_you_mean
from ..measures.grades import GAINS
from ..measures.grammar import check_dialect, default_metrics, family_specs, parse_metric, split_names
from .query import Settings
from .ties import TIES, average_measures, check_average

MISSING = ("zero", "skip")
MAX_K = 1_000_000


K_EXPECTED = f"whole numbers from 1 to {MAX_K:,}, each once, such as 1,5,10"


def parse_k(k) -> tuple[int, ...]:
    """Cutoffs from an int, an iterable of ints, or text such as ``"1, 5,10"``, sorted.

    Commas and spaces both separate. Every refusal reads ``k ...: give <K_EXPECTED>``, so the
    page, the CLI and the API say the same thing: an empty entry (``"5,,10"``, a half-typed
    ``"5,"``) and a cutoff given twice (``"10,5,5"``) are refused rather than passed over.

    >>> parse_k("10,1, 5")
    (1, 5, 10)
    >>> parse_k("5,,10")
    Traceback (most recent call last):
    ...
    retrieval_metrics.errors.OptionError: k has an empty entry between commas in '5,,10': give whole numbers from 1 to 1,000,000, each once, such as 1,5,10
    >>> parse_k([10, 5, 5])
    Traceback (most recent call last):
    ...
    retrieval_metrics.errors.OptionError: k gives 5 twice: give whole numbers from 1 to 1,000,000, each once, such as 1,5,10
    """
    values = _k_values(k)
    if not values:
        raise OptionError("k", f"k is empty: give {K_EXPECTED}")
    seen = set()
    for value in values:
        if value in seen:
            raise OptionError("k", f"k gives {value} twice: give {K_EXPECTED}")
        seen.add(value)
    return tuple(sorted(values))


def _k_values(k) -> list[int]:
    if isinstance(k, str):
        if "," in k and any(not part.strip() for part in k.strip().split(",")):
            raise OptionError("k", f"k has an empty entry between commas in {k.strip()!r}: give {K_EXPECTED}")
        values = []
        for part in k.replace(",", " ").split():
            try:
                values.append(_one_k(int(part), part))
            except ValueError:
                raise OptionError("k", f"k cannot be {part!r}: give {K_EXPECTED}") from None
        return values
    if isinstance(k, bool):
        raise OptionError("k", f"k cannot be {k!r}: give {K_EXPECTED}")
    if isinstance(k, int) or (isinstance(k, float) and k.is_integer()):
        return [_one_k(int(k), k)]
    if hasattr(k, "__index__"):  # numpy integers
        return [_one_k(int(k.__index__()), k)]
    if isinstance(k, Iterable):
        values = []
        for item in k:
            values.extend(_k_values(item))
        return values
    raise OptionError("k", f"k cannot be {k!r}: give {K_EXPECTED}")


def _one_k(value: int, given) -> int:
    if value < 1 or value > MAX_K:
        raise OptionError("k", f"k cannot be {given!r}: give {K_EXPECTED}")
    return value


ZERO_DIVISION = ("skip", "warn", 0, 1, "nan")


def settings(k=10, gain="linear", missing="zero", metrics=None, zero_division="skip",
             relevance_threshold=1, ties="trec_eval", dialect=None) -> Settings:
    """Validated settings; every refusal is an OptionError naming the setting.

    ``ties``: how documents with equal scores are ordered (``scoring.ties``); "average"
    is refused, naming them, for measures without a closed-form expectation.

    ``metrics``: evaluate()'s families (``recall``, measured at each k) and names with their
    own cutoff (``hit_rate@1``, ``P_5``), as ``measures.grammar.parse_metric`` reads them;
    ``dialect`` (``"ir_measures"``, ``"ranx"``) reads every name as that tool does
    (docs/names.md). With
    ``k=None`` there are no families: each name is one metric (``"mrr"``: no cutoff), keyed in
    the report as written.
    """
    zero_division = parse_zero_division(zero_division, ZERO_DIVISION)
    if gain not in GAINS:
        raise OptionError("gain", f"gain must be one of {', '.join(GAINS)}, found {gain!r}")
    if missing not in MISSING:
        raise OptionError("missing", f"missing must be one of {', '.join(MISSING)}, found {missing!r}")
    threshold = parse_threshold(relevance_threshold)
    if k is None:  # names carry their own cutoffs, and are the report's keys as written
        names = tuple(dict.fromkeys(metric_names(metrics if metrics is not None
                                                 else NAMED_DEFAULT)))
        specs = tuple(parse_metric(name, dialect=dialect) for name in names)
        ks = tuple(sorted({s.cutoff for s in specs if s.cutoff is not None})) or (10,)
        return _with_ties(Settings(ks, names, gain, missing, zero_division, threshold, specs,
                                   names), ties)
    ks = parse_k(k)
    if metrics is None:
        if check_dialect(dialect) is not None:
            raise OptionError("metrics", f"dialect={dialect!r} reads the names given: list them")
        names = default_metrics()
    else:
        names = tuple(metric_names(metrics))
    specs = family_specs(names, ks, dialect)
    return _with_ties(Settings(ks, names, gain, missing, zero_division, threshold, specs), ties)


def _with_ties(made: Settings, ties) -> Settings:
    choice("ties", ties, TIES)
    if ties == "average":
        refused = check_average(made.specs)
        if refused:
            raise OptionError("ties", f"ties=average (the expectation over tied orders) has no "
                              f"exact form here for {', '.join(refused)}; it is computed for "
                              f"{', '.join(average_measures())}. Choose trec_eval, optimistic or "
                              f"pessimistic, or leave those measures out")
    return made._replace(ties=ties) if ties != "trec_eval" else made


NAMED_DEFAULT = ("recall@10", "precision@10", "mrr@10", "ndcg@10")


def metric_names(metrics) -> list[str]:
    """A list of metric names from a list or a comma-separated str; at least one."""
    if isinstance(metrics, str):
        metrics = split_names(metrics)
    try:
        names = list(dict.fromkeys(metrics))
    except TypeError:
        raise OptionError("metrics", f"metrics must be a list of names, found {metrics!r}") from None
    for name in names:
        if not isinstance(name, str):
            raise OptionError("metrics", f"metrics must be a list of names, found {name!r} "
                              f"({type(name).__name__}) in it")
    if not names:
        raise OptionError("metrics", "choose at least one metric")
    return names


def parse_zero_division(value, allowed=ZERO_DIVISION):
    """``skip``, ``warn``, 0, 1 or ``nan`` (also ``"0"``, ``0.0``, ``float("nan")``,
    ``numpy.nan``), as the one spelling the engine uses.

    >>> parse_zero_division(0.0), parse_zero_division(float("nan")), parse_zero_division("1")
    (0, 'nan', 1)
    """
    if isinstance(value, str) and value in ("0", "1"):
        value = int(value)
    elif isinstance(value, str) and value.lower() == "nan":
        value = "nan"
    elif isinstance(value, float) or type(value).__module__ == "numpy":
        try:
            number = float(value)
        except (TypeError, ValueError):
            number = None
        if number is not None and number != number:
            value = "nan"
        elif number in (0.0, 1.0):
            value = int(number)
    if isinstance(value, bool) or value not in allowed:
        shown = ", ".join(str(a) for a in allowed)
        raise OptionError("zero_division", f"zero_division must be one of {shown}, "
                          f"found {value!r}")
    return value


def parse_threshold(value) -> int:
    """The relevance threshold: a whole number >= 1 (a grade at or above it is relevant).

    >>> parse_threshold("2"), parse_threshold(3.0)
    (2, 3)
    """
    number = None
    if isinstance(value, str):
        try:
            number = int(value.strip())
        except ValueError:
            pass
    elif not isinstance(value, bool):
        try:
            as_float = float(value)
            if as_float.is_integer():
                number = int(as_float)
        except (TypeError, ValueError, OverflowError):
            pass
    if number is None or number < 1:
        raise OptionError("relevance_threshold", "relevance_threshold must be a whole number "
                          f">= 1 (a grade at or above it is relevant), found {value!r}")
    return number


def choice(field: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise OptionError(field, f"{field} must be one of {', '.join(allowed)}, found {value!r}")
    return value


#: the option names of the page's requests (``page.analysis``, ``page.parts``,
#: ``answers.report``): what each reads, so that any other name is refused, not ignored
SETTING_OPTIONS = frozenset({"k", "gain", "missing", "metrics", "metrics_extra",
                             "relevance_threshold", "zero_division", "ties"})
READING_OPTIONS = frozenset({"qrels_format", "run_format", "third_column", "baseline_format",
                             "baseline_third_column"})
ANALYSE_OPTIONS = SETTING_OPTIONS | READING_OPTIONS | {"samples", "seed"}
INSPECT_OPTIONS = ANALYSE_OPTIONS | {"depth"}
ANALYSE_MANY_OPTIONS = ANALYSE_OPTIONS | {"baseline", "test", "correction", "alpha", "confidence",
                                          "bootstrap_ci", "pairs", "compare_metrics",
                                          "topic_sets", "digits", "intervals", "fuse"}
ANSWERS_OPTIONS = frozenset({"references_format", "answers_format", "missing"})


def request_options(options, known: frozenset, request: str) -> dict:
    """A page request's options as a dict, refusing what is not one and a name the request
    does not read (a typo such as ``metric`` would otherwise leave the default in place
    without a word), naming it and the nearest known name.

    >>> request_options({"k": "5"}, ANALYSE_OPTIONS, "analyse")
    {'k': '5'}
    >>> request_options({"metric": ["map"]}, ANALYSE_OPTIONS, "analyse")
    Traceback (most recent call last):
    ...
    retrieval_metrics.errors.OptionError: analyse has no option 'metric' (did you mean 'metrics'?)
    >>> request_options(["k"], ANALYSE_OPTIONS, "analyse")
    Traceback (most recent call last):
    ...
    retrieval_metrics.errors.OptionError: options must be an object of names and values, found list
    """
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise OptionError("options", "options must be an object of names and values, found "
                          f"{type(options).__name__}")
    for name in options:
        if name not in known:
            near = did_you_mean(name, known)
            raise OptionError("options", f"{request} has no option {name!r}" + (
                near or f"; its options are {', '.join(sorted(known))}"))
    return dict(options)


def settings_record(made: Settings) -> dict:
    """The settings a report was made with, as the JSON reports' ``meta.settings`` records
    them: one place for the CLI's ``-o json`` and the page's downloads, so both write the same
    keys.

    >>> sorted(settings_record(settings(k=5)))
    ['gain', 'k', 'metrics', 'missing', 'relevance_threshold', 'ties', 'zero_division']
    """
    return {"k": list(made.k), "gain": made.gain, "missing": made.missing,
            "metrics": list(made.metrics), "zero_division": made.zero_division,
            "relevance_threshold": made.relevance_threshold, "ties": made.ties}
