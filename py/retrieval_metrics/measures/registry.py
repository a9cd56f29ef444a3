"""Metric names -> what to compute: one registry of measures and every spelling people use.

A name carries its own cutoff and parameters: ``"ndcg@3"``, ``"mrr"`` (no cutoff),
``"hit_rate@1"``; trec_eval's (``P_5``, ``ndcg_cut_10``, ``recip_rank``, ``map``, ``Rprec``,
``success_5``) and ir_measures' (``nDCG@10``, ``RR@10``, ``P@5``, ``R@100``, ``AP``) spellings
are aliases, matched without regard to case. ``parse_metric`` turns a name into a
``MetricSpec`` (measure, cutoff, parameters) whose ``key`` is the one spelling reports use
(``ndcg@10``, ``mrr@10``, ``rr``, ``map``, ``ap@10``, ...).

>>> parse_metric("ndcg_cut_10")
MetricSpec(measure='ndcg', cutoff=10, params=())
>>> parse_metric("RR@10").key, parse_metric("mrr").key, parse_metric("P_5").key
('mrr@10', 'rr', 'precision@5')

How to add a measure
--------------------
1. Write its function for one query: ``compute(q, k, **params) -> float``, where ``q`` is a
   ``metrics.QueryGrades`` (the ranked grades, their binary form under the relevance
   threshold, the judged grades, the number of relevant documents, the ideal gains) and ``k``
   the cutoff or None. Put the arithmetic in ``metrics.py`` (one function over plain lists,
   with a doctest worked by hand) and keep the ``compute`` adapter a line long.
2. Declare it with ``register(Measure(...))`` at the end of this module: its name, the
   function, whether it takes a cutoff (``"optional"``, ``"required"`` or ``"none"``), its
   parameters with their defaults (``params={"p": 0.8}``: then ``"rbp(p=0.5)@10"`` parses and
   ``compute`` receives ``p=0.5``), its aliases, when it is undefined for a query
   (``undefined=no_relevant``: ``zero_division`` then decides its value), and
   ``whole_ranking=True`` if it reads past the cutoff (or has none), so the scorer keeps
   every ranked grade.

Nothing else changes: ``evaluate``, ``ranking_metrics``, the CLI's ``-m`` and the page's metric
list all read this registry. Parameters are written ``name(p=0.5,q=2)`` before the cutoff;
a parameter at its default is left out of the key.
"""

from __future__ import annotations

import re
from typing import Callable, NamedTuple

from . import core as m
from ..errors import OptionError

CUTOFF_RULES = ("optional", "required", "none")


class Measure(NamedTuple):
    """One measure of the registry; see the module docstring."""

    name: str  # the key without a cutoff (or the only one): "ndcg", "rr", "map", "rprec"
    compute: Callable  # compute(q: QueryGrades, k: int | None, **params) -> float
    cutoff: str = "optional"  # "optional" | "required" | "none"
    params: dict = {}  # parameter name -> default value
    aliases: tuple[str, ...] = ()  # other spellings of the same measure (case does not matter)
    cut_name: str | None = None  # the key's name with a cutoff, if not ``name`` ("mrr", "ap")
    undefined: Callable | None = None  # undefined(q) -> True where the value is undefined
    whole_ranking: bool = False  # reads the ranking beyond its cutoff
    binary: bool = True  # relevant = grade >= relevance threshold (nDCG: False, every grade)
    description: str = ""
    aggregate: str = "mean"  # how per-query values become the report's mean: "mean" | "geometric"
    spell: Callable | None = None  # spell(cutoff, params dict) -> key, for trec_eval's spellings


class MetricSpec(NamedTuple):
    """What to compute: a registered measure, a cutoff (None: the whole ranking), parameters
    as sorted ``(name, value)`` pairs (only those not at their default)."""

    measure: str
    cutoff: int | None = None
    params: tuple = ()

    @property
    def key(self) -> str:
        """The name reports use: ``ndcg@10``, ``mrr@10`` but ``rr`` without a cutoff, ..."""
        measure = MEASURES[self.measure]
        if measure.spell is not None:
            return measure.spell(self.cutoff, dict(self.params))
        name = measure.name if self.cutoff is None else (measure.cut_name or measure.name)
        if self.params:
            name += "(" + ",".join(f"{p}={v!r}" if isinstance(v, str) else f"{p}={v}"
                                   for p, v in self.params) + ")"
        return name if self.cutoff is None else f"{name}@{self.cutoff}"

    @property
    def needs_whole_ranking(self) -> bool:
        return self.cutoff is None or MEASURES[self.measure].whole_ranking


#: every measure by name
MEASURES: dict[str, Measure] = {}
#: lower-case spelling -> (measure name, form): form "any" follows the measure; "cut" is a
#: spelling that needs a cutoff (trec_eval's ndcg_cut_10); "uncut" one that means the whole
#: ranking (trec_eval's recip_rank, map, Rprec)
ALIASES: dict[str, tuple[str, str]] = {}
#: other readers of a name, tried first: spelling(name) -> MetricSpec or None (trec_eval's
#: ``iprec_at_recall_0.10``, which the pattern below cannot read)
SPELLINGS: list[Callable] = []
#: names of several metrics (``official``, ``all_trec``), for evaluate() and the CLI:
#: lower-case name -> () -> the metric names or MetricSpecs, in order
GROUPS: dict[str, Callable] = {}
#: evaluate()'s metric families: measured at each k of its ``k`` list
CUTOFF_FAMILIES = ("recall", "precision", "mrr", "ndcg", "hit_rate", "ap", "judged")
#: evaluate()'s families over the whole ranking
WHOLE_FAMILIES = ("rr", "map", "rprec")
MAX_K = 1_000_000


def register(measure: Measure, *, uncut_aliases: tuple[str, ...] = (),
             cut_aliases: tuple[str, ...] = ()) -> Measure:
    """Adds a measure and its spellings (``uncut_aliases``: spellings that mean no cutoff;
    ``cut_aliases``: spellings that need one)."""
    if measure.cutoff not in CUTOFF_RULES:
        raise ValueError(f"cutoff must be one of {CUTOFF_RULES}, found {measure.cutoff!r}")
    spellings = [(measure.name, "any")]
    if measure.cut_name:
        spellings.append((measure.cut_name, "any"))
    spellings += [(a, "any") for a in measure.aliases]
    spellings += [(a, "uncut") for a in uncut_aliases] + [(a, "cut") for a in cut_aliases]
    for spelling, _form in spellings:
        taken = ALIASES.get(spelling.lower())
        if taken and taken[0] != measure.name:
            raise ValueError(f"{spelling!r} already names {taken[0]!r}")
    MEASURES[measure.name] = measure
    for spelling, form in spellings:
        ALIASES.setdefault(spelling.lower(), (measure.name, form))
    return measure


_NAME = re.compile(r"\s*([A-Za-z][A-Za-z0-9_\-]*?)\s*(?:\(([^()]*)\))?\s*(?:[@_.]\s*(\d+))?\s*")


def parse_metric(name: str, *, default_cutoff: str = "none") -> MetricSpec:
    """A metric name to its spec; OptionError naming the valid names if it is none of them.

    ``default_cutoff`` says what a name without a cutoff means for a measure that accepts one:
    ``"none"`` (the whole ranking, as ``ranking_metrics`` reads ``"mrr"``) or ``"family"``
    (return ``cutoff=-1`` for evaluate's families, measured at each of its k: the exact
    words ``recall``, ``precision``, ``mrr``, ``ndcg``, ``hit_rate``, ``ap``, ``judged``, and
    spellings that need a cutoff; other spellings such as ``R`` or ``nDCG`` stay uncut).

    >>> parse_metric("hit_rate@1"), parse_metric("Rprec")
    (MetricSpec(measure='hit_rate', cutoff=1, params=()), MetricSpec(measure='rprec', cutoff=None, params=()))
    """
    if not isinstance(name, str):
        raise OptionError("metrics", f"a metric name must be a string, found {_show(name)}; "
                          f"known: {known_names()}")
    for spelling in SPELLINGS:
        spec = spelling(name)
        if spec is not None:
            return spec
    match = _NAME.fullmatch(name)
    found = match and ALIASES.get(match.group(1).lower())
    if not found:
        raise OptionError("metrics", f"unknown metric {name!r}; known: {known_names()}")
    measure_name, form = found
    measure = MEASURES[measure_name]
    cutoff = _cutoff(name, match.group(3))
    params = _params(name, measure, match.group(2))
    word = match.group(1)  # evaluate's families are these exact lower-case words
    needs_cutoff = form == "cut" or measure.cutoff == "required"
    if cutoff is not None:
        if measure.cutoff == "none" or form == "uncut":
            raise OptionError("metrics", f"{name!r}: {match.group(1)} takes no cutoff; write "
                              f"{_bare(match.group(1), params)}")
    elif default_cutoff == "family" and measure.cutoff != "none" and (
            needs_cutoff or word in CUTOFF_FAMILIES):
        cutoff = -1
    elif needs_cutoff:
        raise OptionError("metrics", f"{name!r} needs a cutoff, such as "
                          f"{match.group(1)}@10")
    return MetricSpec(measure_name, cutoff, params)


def _cutoff(name: str, digits: str | None) -> int | None:
    if digits is None:
        return None
    k = int(digits)
    if not 1 <= k <= MAX_K:
        raise OptionError("metrics", f"{name!r}: the cutoff must be a whole number from 1 to "
                          f"{MAX_K:,}, found {k}")
    return k


def _params(name: str, measure: Measure, text: str | None) -> tuple:
    if text is None or not text.strip():
        return ()
    given = {}
    for part in text.split(","):
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or key not in measure.params:
            allowed = ", ".join(measure.params) or "none"
            raise OptionError("metrics", f"{name!r}: unknown parameter {part.strip()!r} "
                              f"(parameters of {measure.name}: {allowed})")
        given[key] = _param_value(name, key, value.strip(), measure.params[key])
    return tuple(sorted((k, v) for k, v in given.items() if v != measure.params[k]))


def _param_value(name: str, key: str, text: str, default):
    if isinstance(default, str):
        return text.strip("'\"")
    try:
        value = int(text) if isinstance(default, int) and not isinstance(default, bool) else float(text)
    except ValueError:
        raise OptionError("metrics", f"{name!r}: {key} must be a number, found {text!r}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise OptionError("metrics", f"{name!r}: {key} must be a finite number, found {text!r}")
    return value


def _bare(word: str, params: tuple) -> str:
    return word + ("(" + ",".join(f"{p}={v}" for p, v in params) + ")" if params else "")


def _show(value) -> str:
    return repr(value)[:60]


def known_names() -> str:
    """The valid names, for error messages and ``--help``."""
    forms = []
    for measure in MEASURES.values():
        cut = measure.cut_name or measure.name
        if measure.cutoff == "none":
            forms.append(measure.name)
        elif measure.cutoff == "required":
            forms.append(f"{cut}@k")
        elif measure.cut_name:
            forms.append(f"{measure.name}, {cut}@k")
        else:
            forms.append(f"{measure.name}[@k]")
    groups = f"; groups: {', '.join(GROUPS)}" if GROUPS else ""
    return (", ".join(forms) + " (also trec_eval's and ir_measures' spellings, such as P_5, "
            "ndcg_cut_10, recip_rank, nDCG@10, RR@10, R@100, AP, iprec_at_recall_0.10)" + groups)


def family_specs(names, ks: tuple[int, ...]) -> tuple[MetricSpec, ...]:
    """evaluate()'s metric list: a name with its own cutoff is that one metric; a family name
    (``recall``, ``mrr``, ...) is measured at each k, and the whole-ranking ones (``rr``,
    ``map``, ``rprec``) come last, as the report's columns always have."""
    cut, whole, grouped = [], [], []
    for name in names:
        group = GROUPS.get(name.lower()) if isinstance(name, str) else None
        if group is not None:
            grouped.extend(item if isinstance(item, MetricSpec) else parse_metric(item)
                           for item in group())
            continue
        spec = parse_metric(name, default_cutoff="family")
        if spec.cutoff == -1:
            cut.extend(spec._replace(cutoff=k) for k in ks)
        elif spec.cutoff is None:
            whole.append(spec)
        else:
            cut.append(spec)
    return tuple(dict.fromkeys(cut + whole + grouped))


# --- the measures ---------------------------------------------------------------------------

def no_relevant(q: m.QueryGrades) -> bool:
    """Undefined when the query has no relevant document (the measure divides by |R|)."""
    return not q.num_relevant


def no_gain(q: m.QueryGrades) -> bool:
    """Undefined when no judged grade is positive (the ideal DCG is 0)."""
    return not q.ideal


register(Measure(
    "recall", lambda q, k: m.recall(q.binary, q.num_relevant, k),
    aliases=("r",), undefined=no_relevant,
    description="relevant documents in the top k over all relevant documents"))
register(Measure(
    "precision", lambda q, k: m.precision(q.binary, k), cutoff="required",
    aliases=("p",), description="relevant documents in the top k over k (trec_eval P_k)"))
register(Measure(
    "rr", lambda q, k: m.reciprocal_rank(q.binary, k), cut_name="mrr",
    aliases=("reciprocal_rank",), description="1 / rank of the first relevant document"),
    uncut_aliases=("recip_rank",))
register(Measure(
    "ndcg", lambda q, k: m.ndcg(q.grades, q.judged.values(), k, q.gain, q.ideal),
    undefined=no_gain, binary=False,
    description="DCG over the ideal DCG, gain = grade (every positive grade, whatever the "
                "relevance threshold, as trec_eval's ndcg_cut)"),
    cut_aliases=("ndcg_cut",))
register(Measure(
    "hit_rate", lambda q, k: m.hit_rate(q.binary, k),
    aliases=("hitrate", "hit", "hits"),
    description="1 if a relevant document is in the top k (trec_eval success_k)"),
    cut_aliases=("success",))
register(Measure(
    "map", lambda q, k: m.average_precision(q.binary, q.num_relevant, k), cut_name="ap",
    aliases=("average_precision",), undefined=no_relevant,
    description="average precision (trec_eval map; with a cutoff, map_cut_k)"),
    cut_aliases=("map_cut",))
register(Measure(
    "rprec", lambda q, k: m.r_precision(q.binary, q.num_relevant), cutoff="none",
    aliases=("r_precision", "r-precision", "r-prec"), undefined=no_relevant, whole_ranking=True,
    description="precision at rank |R|"))
register(Measure(
    "judged", lambda q, k: m.judged_share(q.grades, k), cutoff="required", binary=False,
    description="share of the top k that has a judgement"))


from . import trec as _trec_names  # noqa: E402  trec_eval's other measures

_trec_names.install(globals())
