"""The registry of measures: the record that holds every fact about one measure, and the store
of every registered measure, another tool's reading, spelling and group. Every other part of
the package (the scorer, the CLI's ``-m`` and ``--help``, the renderers, the many-run tables,
the page's measure chooser) reads the facts from here.

Reading a name is ``grammar.parse_metric``; what a report key means (its label, trec_eval's
name, its mean) is ``keys`` and ``aggregation``; the page's chooser is ``catalogue``. This
module imports no measure: each measure module registers its own entries with ``register``
when it is imported, and the ``measures`` package imports every such module (see
``docs/adding-a-measure.md``), so importing anything from ``retrieval_metrics.measures``
finds every measure.

>>> MEASURES["ndcg"].names.label, MEASURES["rbp"].params["p"].default
('nDCG', 0.8)
"""

from __future__ import annotations

from typing import Callable, NamedTuple

from .trec_eval_rows import register_trec_eval

CUTOFF_RULES = ("optional", "required", "none")
#: the page's groups of measures, in the chooser's order
CHOOSER_GROUPS = {"cutoff": "at k", "whole": "whole ranking", "trec": "trec_eval's"}
AGGREGATES = ("mean", "geometric", "sum")
#: where a measure without an explicit ``About.order`` goes: after every ordered one
LAST = 10_000


class Param(NamedTuple):
    """One parameter of a measure (``rbp(p=0.5)`` gives ``compute`` ``p=0.5``).

    ``bounds`` is an interval in the usual notation, ``"[0, 1)"`` or ``"(0, inf)"``: a value
    outside it is refused when the name is read, naming the name, the parameter and the
    interval in words, instead of giving a number with no meaning (rbp at p = 1.5).
    """

    default: object  # the value when the name does not give one; None: no default (the name
    # must give it, or it means "not set", as C/W/L's max_rel)
    choices: tuple[str, ...] = ()  # the words a string parameter takes, read without regard
    # to case (C/W/L's quantity: "eu", "etu", ...)
    bounds: str = ""  # the interval a number must lie in: "[0, 1)", "(0, inf)"; "" for any
    description: str = ""  # one phrase for people: "persistence: the chance of reading on"
    limits_grades: bool = False  # it bounds the grades the measure reads (ERR's max_grade):
    # evaluate() refuses judgements with a higher grade, naming the line

    def check(self, name: str, key: str, value) -> str | None:
        """Why ``value`` cannot be this parameter's (a sentence), or None when it can.

        >>> Param(0.8, bounds="[0, 1)").check("rbp(p=1.5)", "p", 1.5)
        "'rbp(p=1.5)': p must be at least 0 and below 1, found 1.5"
        >>> Param(1.0, bounds="(0, inf)").check("inst(T=2)", "T", 2.0) is None
        True
        """
        if self.choices and str(value).lower() not in self.choices:
            return f"{name!r}: {key} must be one of {', '.join(self.choices)}, found {value!r}"
        if not self.bounds or value is None or isinstance(value, str):
            return None
        low, high = (float(end) for end in self.ends())
        closed_low, closed_high = self.bounds[0] == "[", self.bounds[-1] == "]"
        inside = (low <= value if closed_low else low < value) and (
            value <= high if closed_high else value < high)
        return None if inside else f"{name!r}: {key} must be {self.bounds_words()}, found {value:g}"

    def ends(self) -> tuple[str, str]:
        """The interval's two ends as written (``"[0, 1)"`` -> ``("0", "1")``); ValueError when
        ``bounds`` does not read as an interval of two numbers (``inf`` allowed)."""
        inner = self.bounds[1:-1].split(",")
        try:
            if self.bounds[:1] in ("[", "(") and self.bounds[-1:] in ("]", ")") and len(inner) == 2:
                low, high = (end.strip() for end in inner)
                float(low), float(high)
                return low, high
        except ValueError:
            pass
        raise ValueError(f"bounds must read like '[0, 1)', found {self.bounds!r}")

    def bounds_words(self) -> str:
        """The interval as people say it: ``[0, 1)`` -> "at least 0 and below 1".

        >>> Param(0, bounds="(0, inf)").bounds_words(), Param(0, bounds="[0, 1]").bounds_words()
        ('above 0', 'from 0 to 1')
        """
        low, high = self.ends()
        if self.bounds[0] == "[" and self.bounds[-1] == "]":
            return f"from {low} to {high}"
        words = [] if low in ("-inf", "") else [("at least " if self.bounds[0] == "[" else
                                                  "above ") + low]
        if high not in ("inf", ""):
            words.append(("at most " if self.bounds[-1] == "]" else "below ") + high)
        return " and ".join(words)


class Names(NamedTuple):
    """How people and other tools write a measure: every spelling the grammar reads, the label
    tables show, and each other tool's name for it."""

    label: str = ""  # the name people read in tables: "nDCG", "MAP" (default: the name)
    cut_name: str | None = None  # the key's name with a cutoff, if not the name ("mrr", "ap")
    cut_label: str = ""  # the label with a cutoff, if not ``label`` ("MRR", "AP")
    whole_name: str = ""  # the spelling of the uncut form in evaluate()'s lists, when the name
    # is a family word read there as "at each k" (ndcg: "ndcg_whole")
    aliases: tuple[str, ...] = ()  # other spellings of the same measure (case does not matter)
    uncut_aliases: tuple[str, ...] = ()  # spellings that mean the whole ranking (recip_rank)
    cut_aliases: tuple[str, ...] = ()  # spellings that need a cutoff (ndcg_cut: ndcg_cut_10)
    peers: dict = {}  # other tools' spellings, tool -> name ({"ir_measures": "nDCG"})
    spell: Callable | None = None  # spell(cutoff, params dict) -> key, for a key the usual
    # ``name(params)@k`` cannot write (trec_eval's iprec_at_recall_0.10)


class About(NamedTuple):
    """What the page and ``--help`` tell people about a measure, and where they offer it."""

    description: str = ""  # one sentence: the CLI's help, the page's definition
    citation: str = ""  # where the definition comes from
    groups: tuple[str, ...] = ("cutoff",)  # the page chooser's groups: "cutoff" (at k),
    # "whole" (the whole ranking), "trec" (trec_eval's other measures); () for none
    order: int = LAST  # the position in the chooser, ``--help`` and every list of measures
    default: bool = False  # computed when no metric is asked for (recall, precision, mrr, ndcg)


class TrecEval(NamedTuple):
    """How a measure meets trec_eval 10: its name under ``-o trec`` and, for a measure trec_eval
    also has, trec_eval's rows of it (``trec_eval_rows.TrecMeasure``: what the ``trec_eval``
    mode prints), so the measure is one registration."""

    name: Callable | None = None  # name(cutoff, params) -> trec_eval's name, or None; only
    # where the value is trec_eval 10's on every input (``-o trec`` prints it under that name)
    unlike: Callable | None = None  # unlike(cutoff, params) -> (trec_eval's name, why the value
    # is not trec_eval's) for a key that looks like a trec_eval measure but is not it
    rows: tuple = ()  # trec_eval's rows of this measure (TrecMeasure), for the trec_eval mode


class Measure(NamedTuple):
    """One measure: its arithmetic (the fields below), how it is written (``names``), what
    people are told about it (``about``) and how it meets trec_eval (``trec``).

    ``compute(q, k, **params) -> float`` scores one query: ``q`` is a ``grades.QueryGrades``
    (the ranked grades, their binary form under the relevance threshold, the judged grades,
    the number of relevant documents, the ideal gains) and ``k`` the cutoff or None.
    """

    name: str  # the key without a cutoff (or the only one): "ndcg", "rr", "map", "rprec"
    compute: Callable  # compute(q: QueryGrades, k: int | None, **params) -> float
    cutoff: str = "optional"  # "optional" | "required" | "none"
    params: dict = {}  # parameter name -> Param
    undefined: Callable | None = None  # undefined(q) -> True where the value is undefined
    whole_ranking: bool = False  # reads the ranking beyond its cutoff
    binary: bool = True  # relevant = grade >= relevance threshold (nDCG: False, every grade)
    aggregate: str = "mean"  # per-query values -> the report's mean: "mean" | "geometric" |
    # "sum" (ir_measures' counts, whose aggregate is their total)
    count: bool = False  # a count: printed whole and summed on trec_eval's ``all`` line
    bounds: tuple | Callable | None = (0.0, 1.0)  # the values it can take (None: unbounded,
    # as counts), or bounds(params dict) -> them: confidence intervals are clipped to them
    tie_average: Callable | None = None  # tie_average(q, binary, blocks, k): the expected value
    # over every order of tied documents (measures.tied), for ties="average"
    names: Names = Names()
    about: About = About()
    trec: TrecEval = TrecEval()

    def defaults(self) -> dict:
        """Each parameter's default: ``{"p": 0.8}``."""
        return {key: param.default for key, param in self.params.items()}


class MetricSpec(NamedTuple):
    """What to compute: a registered measure, a cutoff (None: the whole ranking), parameters
    as sorted ``(name, value)`` pairs (only those not at their default)."""

    measure: str
    cutoff: int | None = None
    params: tuple = ()

    @property
    def key(self) -> str:
        """The name reports use: ``ndcg@10``, ``mrr@10`` but ``rr`` without a cutoff, ..."""
        measure = BY_NAME[self.measure]
        if measure.names.spell is not None:
            return measure.names.spell(self.cutoff, dict(self.params))
        name = measure.name if self.cutoff is None else (measure.names.cut_name or measure.name)
        if self.params:
            name += "(" + ",".join(f"{p}={v!r}" if isinstance(v, str) else f"{p}={v}"
                                   for p, v in self.params) + ")"
        return name if self.cutoff is None else f"{name}@{self.cutoff}"

    @property
    def needs_whole_ranking(self) -> bool:
        return self.cutoff is None or BY_NAME[self.measure].whole_ranking


#: the calculator's own measures by name, in ``About.order`` (the chooser's and ``--help``'s order)
MEASURES: dict[str, Measure] = {}
#: other tools' readings of their own names (``ranx:hits``, ``ir_measures:SetF``), reached only
#: by their prefix or a dialect: never in MEASURES, so no list of measures meets them
READINGS: dict[str, Measure] = {}
#: every measure and reading by name: what a MetricSpec's ``measure`` is looked up in
BY_NAME: dict[str, Measure] = {}
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
#: other tools' readings of names: tool -> reader(name) -> MetricSpec (or raises OptionError);
#: reached by a prefix (``ranx:hits@5``) or ``parse_metric(name, dialect="ranx")``
DIALECTS: dict[str, Callable] = {}


def register_reading(measure: Measure) -> Measure:
    """Adds another tool's reading of one of its names (``PREFIX:name``, no spellings of its own:
    its dialect's reader makes its MetricSpecs)."""
    if measure.name in BY_NAME:
        raise ValueError(f"{measure.name!r} is already registered")
    READINGS[measure.name] = BY_NAME[measure.name] = measure
    return measure


def register(measure: Measure) -> Measure:
    """Adds a measure and its spellings, in ``About.order``; refuses a malformed record and a
    spelling another measure already has."""
    if measure.cutoff not in CUTOFF_RULES:
        raise ValueError(f"cutoff must be one of {CUTOFF_RULES}, found {measure.cutoff!r}")
    if measure.aggregate not in AGGREGATES:
        raise ValueError(f"aggregate must be one of {AGGREGATES}, found {measure.aggregate!r}")
    if not set(measure.about.groups) <= set(CHOOSER_GROUPS):
        raise ValueError(f"groups must be among {tuple(CHOOSER_GROUPS)}, "
                         f"found {measure.about.groups!r}")
    _check_record(measure)
    names = measure.names
    spellings = [(measure.name, "any")]
    if names.cut_name:
        spellings.append((names.cut_name, "any"))
    spellings += [(a, "any") for a in names.aliases]
    spellings += [(a, "uncut") for a in names.uncut_aliases + ((names.whole_name,)
                                                                if names.whole_name else ())]
    spellings += [(a, "cut") for a in names.cut_aliases]
    for spelling, _form in spellings:
        taken = ALIASES.get(spelling.lower())
        if taken and taken[0] != measure.name:
            raise ValueError(f"{spelling!r} already names {taken[0]!r}")
    for row in measure.trec.rows if measure.trec else ():
        register_trec_eval(row, owner=measure.name)
    MEASURES[measure.name] = BY_NAME[measure.name] = measure
    ordered = sorted(MEASURES.values(), key=lambda m: m.about.order)  # stable: ties keep
    MEASURES.clear()  # their registration order
    MEASURES.update((m.name, m) for m in ordered)
    for spelling, form in spellings:
        ALIASES.setdefault(spelling.lower(), (measure.name, form))
    return measure


def _check_record(measure: Measure) -> None:
    """The grouped fields hold their records (a flat ``label=`` is a TypeError already)."""
    for field, kind in (("names", Names), ("about", About), ("trec", TrecEval)):
        if not isinstance(getattr(measure, field), kind):
            raise ValueError(f"{measure.name}: {field} must be a {kind.__name__}(...)")
    for key, param in measure.params.items():
        if not isinstance(param, Param):
            raise ValueError(f"{measure.name}: parameter {key!r} must be a Param(default, ...), "
                             f"found {param!r}")
        if param.bounds:
            try:
                param.ends()
            except ValueError as exc:
                raise ValueError(f"{measure.name}: {key}'s {exc}") from None


def register_spelling(reader: Callable) -> Callable:
    """Adds a reader of names the common pattern cannot read: ``reader(name)`` returns a
    MetricSpec, None (not its name), or raises OptionError (its name, but wrong)."""
    SPELLINGS.append(reader)
    return reader


def register_dialect(tool: str, reader: Callable) -> None:
    """Adds another tool's reading of names: ``reader(name)`` returns the MetricSpec that gives
    that tool's number for ``name`` or raises OptionError naming the reading it would need.
    ``tool:name`` (``ranx:hits@5``) and ``parse_metric(name, dialect=tool)`` reach it."""
    DIALECTS[tool.lower()] = reader


def register_group(name: str, members: Callable) -> None:
    """Adds a name for several metrics (``official``): ``members()`` lists their names."""
    GROUPS[name.lower()] = members


class trec_names(NamedTuple):  # named as the function it replaced: trec_names("P_{k}")
    """``TrecEval.name`` for a measure whose trec_eval name depends only on the cutoff:
    ``cut`` with ``{k}`` for the cutoff (``"P_{k}"``), ``whole`` without one (``"map"``); a
    measure with parameters at their default only. The patterns stay readable, so the page's
    chooser shows ``P_k`` from ``cut``.

    >>> trec_names("P_{k}")(5, {}), trec_names("P_{k}")(None, {}), trec_names(whole="map")(None, {})
    ('P_5', None, 'map')
    """

    cut: str | None = None
    whole: str | None = None

    def __call__(self, cutoff, params) -> str | None:
        if params:
            return None
        if cutoff is None:
            return self.whole
        return self.cut.format(k=cutoff) if self.cut else None




#: names that lived here before the grammar and the keys had their own modules, still found
#: here (``from retrieval_metrics.measures.registry import parse_metric``, as docs/api.md once
#: wrote it) without this module importing the modules that import it
_MOVED = {"grammar": ("parse_metric", "split_names", "known_names", "family_specs",
                      "family_words", "default_metrics", "check_dialect", "dialect_names",
                      "OWN_DIALECT", "MAX_K"),
          "keys": ("spec_of", "measure_of", "label", "trec_name", "trec_unlike", "is_count"),
          "aggregation": ("aggregate",)}


def __getattr__(name: str):
    for module, names in _MOVED.items():
        if name in names:
            import importlib
            return getattr(importlib.import_module(f"{__package__}.{module}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
