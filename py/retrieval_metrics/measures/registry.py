"""The registry of measures: one entry per measure holds every fact about it, and every other
part of the package (the scorer, the CLI's ``-m`` and ``--help``, the renderers, the many-run
tables, the page's measure chooser) reads it from here.

A name carries its own cutoff and parameters: ``"ndcg@3"``, ``"mrr"`` (no cutoff),
``"hit_rate@1"``, ``"rbp(p=0.5)"``; trec_eval's (``P_5``, ``ndcg_cut_10``, ``recip_rank``,
``map``, ``Rprec``, ``success_5``) and ir_measures' (``nDCG@10``, ``RR@10``, ``P@5``, ``R@100``,
``AP``) spellings are aliases, matched without regard to case. ``parse_metric`` turns a name
into a ``MetricSpec`` (measure, cutoff, parameters) whose ``key`` is the one spelling reports
use (``ndcg@10``, ``mrr@10``, ``rr``, ``map``, ``ap@10``, ...).

This module imports no measure: each measure module registers its own entries with
``register`` when it is imported, and the ``measures`` package imports every such module (see
``docs/adding-a-measure.md``). So ``from retrieval_metrics.measures.registry import
parse_metric`` always finds every measure.

>>> parse_metric("ndcg_cut_10")
MetricSpec(measure='ndcg', cutoff=10, params=())
>>> parse_metric("RR@10").key, parse_metric("mrr").key, parse_metric("P_5").key
('mrr@10', 'rr', 'precision@5')
>>> trec_name("precision@5"), trec_name("rr"), trec_name("mrr@10")
('P_5', 'recip_rank', None)
"""

from __future__ import annotations

import math
import re
from typing import Callable, NamedTuple

from ..errors import OptionError
from .aggregation import arithmetic_mean, geometric_mean

CUTOFF_RULES = ("optional", "required", "none")
#: the page's groups of measures, in the chooser's order
CHOOSER_GROUPS = {"cutoff": "at k", "whole": "whole ranking", "trec": "trec_eval's"}
AGGREGATES = ("mean", "geometric", "sum")
#: the calculator's own reading of names, the default (``dialect=None``)
OWN_DIALECT = "retrieval_metrics"


class Measure(NamedTuple):
    """One measure: its arithmetic and every fact the rest of the package reads about it.

    ``compute(q, k, **params) -> float`` scores one query: ``q`` is a ``grades.QueryGrades``
    (the ranked grades, their binary form under the relevance threshold, the judged grades,
    the number of relevant documents, the ideal gains) and ``k`` the cutoff or None.
    """

    name: str  # the key without a cutoff (or the only one): "ndcg", "rr", "map", "rprec"
    compute: Callable  # compute(q: QueryGrades, k: int | None, **params) -> float
    cutoff: str = "optional"  # "optional" | "required" | "none"
    params: dict = {}  # parameter name -> default value ("rbp(p=0.5)" gives compute p=0.5)
    aliases: tuple[str, ...] = ()  # other spellings of the same measure (case does not matter)
    cut_name: str | None = None  # the key's name with a cutoff, if not ``name`` ("mrr", "ap")
    undefined: Callable | None = None  # undefined(q) -> True where the value is undefined
    whole_ranking: bool = False  # reads the ranking beyond its cutoff
    binary: bool = True  # relevant = grade >= relevance threshold (nDCG: False, every grade)
    description: str = ""  # one sentence for people: the CLI's help, the page's definition
    aggregate: str = "mean"  # per-query values -> the report's mean: "mean" | "geometric" |
    # "sum" (ir_measures' counts, whose aggregate is their total)
    spell: Callable | None = None  # spell(cutoff, params dict) -> key, for trec_eval's spellings
    label: str = ""  # the name people read in tables: "nDCG", "MAP" (default: ``name``)
    cut_label: str = ""  # the label with a cutoff, if not ``label`` ("MRR", "AP")
    groups: tuple[str, ...] = ("cutoff",)  # the page chooser's groups: "cutoff" (at k),
    # "whole" (the whole ranking), "trec" (trec_eval's other measures)
    whole_name: str = ""  # the spelling of the uncut form in evaluate()'s lists, when ``name``
    # is a family word read there as "at each k" (ndcg: "ndcg_whole")
    trec_eval: Callable | None = None  # trec_eval(cutoff, params) -> trec_eval's name, or None;
    # only where the value is trec_eval 10's on every input (``-o trec`` prints it under that name)
    trec_eval_unlike: Callable | None = None  # unlike(cutoff, params) -> (trec_eval's name, why
    # the value is not trec_eval's) for a key that looks like a trec_eval measure but is not it
    count: bool = False  # a count: printed whole and summed on trec_eval's ``all`` line
    citation: str = ""  # where the definition comes from
    uncut_aliases: tuple[str, ...] = ()  # spellings that mean the whole ranking (recip_rank)
    cut_aliases: tuple[str, ...] = ()  # spellings that need a cutoff (ndcg_cut: ndcg_cut_10)
    names: dict = {}  # other tools' spellings, tool -> name ({"ir_measures": "nDCG"})
    default: bool = False  # computed when no metric is asked for (recall, precision, mrr, ndcg)
    tie_average: Callable | None = None  # tie_average(q, binary, blocks, k): the expected value
    # over every order of tied documents (measures.tied), for ties="average"
    bounds: tuple | Callable | None = (0.0, 1.0)  # the values it can take (None: unbounded,
    # as counts), or bounds(params dict) -> them: confidence intervals are clipped to them
    grade_limit: str = ""  # the parameter bounding the grades it reads (ERR: "max_grade"):
    # evaluate() refuses judgements with a higher grade, naming the line
    choices: dict = {}  # parameter -> the words it takes (a string parameter), read without
    # regard to case and checked when the name is read (C/W/L: {"quantity": ("eu", ...)})


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
        if measure.spell is not None:
            return measure.spell(self.cutoff, dict(self.params))
        name = measure.name if self.cutoff is None else (measure.cut_name or measure.name)
        if self.params:
            name += "(" + ",".join(f"{p}={v!r}" if isinstance(v, str) else f"{p}={v}"
                                   for p, v in self.params) + ")"
        return name if self.cutoff is None else f"{name}@{self.cutoff}"

    @property
    def needs_whole_ranking(self) -> bool:
        return self.cutoff is None or BY_NAME[self.measure].whole_ranking


#: the calculator's own measures by name, in registration order (the chooser's and ``--help``'s
#: order)
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
MAX_K = 1_000_000


def register_reading(measure: Measure) -> Measure:
    """Adds another tool's reading of one of its names (``PREFIX:name``, no spellings of its own:
    its dialect's reader makes its MetricSpecs)."""
    if measure.name in BY_NAME:
        raise ValueError(f"{measure.name!r} is already registered")
    READINGS[measure.name] = BY_NAME[measure.name] = measure
    return measure


def register(measure: Measure) -> Measure:
    """Adds a measure and its spellings; refuses a spelling another measure already has."""
    if measure.cutoff not in CUTOFF_RULES:
        raise ValueError(f"cutoff must be one of {CUTOFF_RULES}, found {measure.cutoff!r}")
    if measure.aggregate not in AGGREGATES:
        raise ValueError(f"aggregate must be one of {AGGREGATES}, found {measure.aggregate!r}")
    if not set(measure.groups) <= set(CHOOSER_GROUPS):
        raise ValueError(f"groups must be among {tuple(CHOOSER_GROUPS)}, found {measure.groups!r}")
    spellings = [(measure.name, "any")]
    if measure.cut_name:
        spellings.append((measure.cut_name, "any"))
    spellings += [(a, "any") for a in measure.aliases]
    spellings += [(a, "uncut") for a in measure.uncut_aliases + ((measure.whole_name,)
                                                                  if measure.whole_name else ())]
    spellings += [(a, "cut") for a in measure.cut_aliases]
    for spelling, _form in spellings:
        taken = ALIASES.get(spelling.lower())
        if taken and taken[0] != measure.name:
            raise ValueError(f"{spelling!r} already names {taken[0]!r}")
    MEASURES[measure.name] = BY_NAME[measure.name] = measure
    for spelling, form in spellings:
        ALIASES.setdefault(spelling.lower(), (measure.name, form))
    return measure


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


def dialect_names() -> tuple[str, ...]:
    """The readings of names ``dialect=`` accepts: the calculator's own, then each tool's."""
    return (OWN_DIALECT,) + tuple(DIALECTS)


def check_dialect(dialect) -> str | None:
    """``dialect`` as parse_metric reads it: None for the calculator's own syntax.

    >>> check_dialect(None), check_dialect("retrieval_metrics")
    (None, None)
    """
    if dialect is None or (isinstance(dialect, str) and dialect.strip().lower() == OWN_DIALECT):
        return None
    if not isinstance(dialect, str) or dialect.strip().lower() not in DIALECTS:
        raise OptionError("dialect", f"dialect must be one of {', '.join(dialect_names())}, "
                          f"found {_show(dialect)}")
    return dialect.strip().lower()


_PREFIX = re.compile(r"\s*([A-Za-z][A-Za-z0-9_]*)\s*:(.*)", re.DOTALL)


def _dialect_spec(name: str, dialect: str | None) -> MetricSpec | None:
    """The spec of a name another tool's reading takes (a ``tool:`` prefix, else
    ``dialect``), or None for the calculator's own syntax."""
    prefixed = _PREFIX.fullmatch(name)
    if prefixed:
        tool = prefixed.group(1).lower()
        if tool == OWN_DIALECT:
            return parse_metric(prefixed.group(2))
        if tool in DIALECTS:
            return DIALECTS[tool](prefixed.group(2))
        raise OptionError("metrics", f"{name!r}: unknown reading {prefixed.group(1)!r}; "
                          f"prefixes: {', '.join(t + ':' for t in dialect_names())}")
    if dialect is not None:
        return DIALECTS[dialect](name)
    return None


def register_group(name: str, members: Callable) -> None:
    """Adds a name for several metrics (``official``): ``members()`` lists their names."""
    GROUPS[name.lower()] = members


class trec_names(NamedTuple):  # named as the function it replaced: trec_names("P_{k}")
    """``Measure.trec_eval`` for a measure whose trec_eval name depends only on the cutoff:
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


_NAME = re.compile(r"\s*([A-Za-z][A-Za-z0-9_\-]*?)\s*(?:\(([^()]*)\))?\s*(?:[@_.]\s*(\d+))?\s*")


def parse_metric(name: str, *, default_cutoff: str = "none", dialect: str | None = None) -> MetricSpec:
    """A metric name to its spec; OptionError naming the valid names if it is none of them.

    ``default_cutoff`` says what a name without a cutoff means for a measure that accepts one:
    ``"none"`` (the whole ranking, as ``ranking_metrics`` reads ``"mrr"``) or ``"family"``
    (return ``cutoff=-1`` for evaluate's families, measured at each of its k: the exact
    words of ``family_words()`` (``recall``, ``precision``, ``mrr``, ``ndcg``, ...), and
    spellings that need a cutoff; other spellings such as ``R`` or ``nDCG`` stay uncut).

    ``dialect`` reads a name as another tool does (``"ir_measures"``, ``"ranx"``; see
    ``register_dialect`` and docs/names.md); a ``tool:`` prefix does the same for one name.

    >>> parse_metric("hit_rate@1"), parse_metric("Rprec")
    (MetricSpec(measure='hit_rate', cutoff=1, params=()), MetricSpec(measure='rprec', cutoff=None, params=()))
    """
    if not isinstance(name, str):
        raise OptionError("metrics", f"a metric name must be a string, found {_show(name)}; "
                          f"known: {known_names()}")
    dialect = check_dialect(dialect)
    spec = _dialect_spec(name, dialect)
    if spec is not None:
        return spec
    for spelling in SPELLINGS:  # each returns a spec, None, or its own worded refusal
        spec = spelling(name)
        if spec is not None:
            return spec
    try:
        return _own_spec(name, default_cutoff)
    except OptionError as exc:
        peers = _peer_readings(name)
        if not peers:
            raise
        tools = [tool for tool, _ in peers]
        raise OptionError("metrics", f"{name.strip()!r} is {_tools(tools)} name: write "
                          f"{' or '.join(f'{t}:{name.strip()}' for t in tools)} (or pass "
                          f"{' or '.join(f'dialect={t!r}' for t in tools)}) for "
                          f"that reading ({_reading(peers)}). In this calculator's "
                          f"own names: {exc.message}") from None


def _peer_readings(name: str) -> list[tuple[str, MetricSpec]]:
    """The other tools whose reading takes ``name`` as written, with their specs."""
    found = []
    for tool, reader in DIALECTS.items():
        try:
            found.append((tool, reader(name)))
        except (OptionError, ValueError, KeyError):
            pass
    return found


def _tools(tools: list[str]) -> str:
    """``ir_measures'``, ``ranx's``, ``ir_measures' and ranx's``."""
    return " and ".join(t + ("'" if t.endswith("s") else "'s") for t in tools)


def _reading(peers) -> str:
    """What the tools' readings compute, by their measures' descriptions."""
    return "; ".join(getattr(BY_NAME.get(spec.measure), "description", "") or spec.measure
                     for _, spec in peers)


def _own_spec(name: str, default_cutoff: str) -> MetricSpec:
    """``parse_metric`` in the calculator's own grammar (``name[(params)][@k]``)."""
    if name.strip().lower() in GROUPS:
        raise OptionError("metrics", f"{name.strip()!r} names a group of metrics, which "
                          "evaluate() and the CLI's -m expand; here, list the metrics themselves")
    match = _NAME.fullmatch(name)
    found = match and ALIASES.get(match.group(1).lower())
    if not found:
        raise OptionError("metrics", f"unknown metric {name!r}; known: {known_names()}")
    measure_name, form = found
    measure = BY_NAME[measure_name]
    cutoff = _cutoff(name, match.group(3))
    params = _params(name, measure, match.group(2))
    word = match.group(1)  # evaluate's families are these exact lower-case words
    needs_cutoff = form == "cut" or measure.cutoff == "required"
    if cutoff is not None:
        if measure.cutoff == "none" or form == "uncut":
            raise OptionError("metrics", f"{name!r}: {match.group(1)} takes no cutoff; write "
                              f"{_bare(match.group(1), params)}")
    elif default_cutoff == "family" and measure.cutoff != "none" and (
            needs_cutoff or word in family_words()):
        cutoff = -1
    elif needs_cutoff:
        raise OptionError("metrics", f"{name!r} needs a cutoff, such as "
                          f"{match.group(1)}@10")
    return MetricSpec(measure_name, cutoff, params)


def split_names(text: str) -> list[str]:
    """A list of metric names as people type it: separated by commas or spaces, except inside
    a name's parentheses (``utility(a=2,b=-1)`` is one name).

    >>> split_names("P_5, ndcg_cut_10 utility(a=2, b=-1),,bpref")
    ['P_5', 'ndcg_cut_10', 'utility(a=2, b=-1)', 'bpref']
    """
    names, current, depth = [], [], 0
    for char in text:
        if char in "([":
            depth += 1
        elif char in ")]" and depth:
            depth -= 1
        if depth == 0 and (char == "," or char.isspace()):
            if current:
                names.append("".join(current))
            current = []
        else:
            current.append(char)
    if current:
        names.append("".join(current))
    return names


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
        if key in measure.choices:
            given[key] = str(given[key]).lower()
            if given[key] not in measure.choices[key]:
                raise OptionError("metrics", f"{name!r}: {key} must be one of "
                                  f"{', '.join(measure.choices[key])}, found {value.strip()!r}")
    return tuple(sorted((k, v) for k, v in given.items() if v != measure.params[k]))


def _param_value(name: str, key: str, text: str, default):
    if isinstance(default, str):
        return text.strip("'\"")
    whole = (isinstance(default, int) and not isinstance(default, bool)) or (
        default is None and text.lstrip("+-").isdigit())  # no default: as written (max_rel=3)
    try:
        value = int(text) if whole else float(text)
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
            "ndcg_cut_10, recip_rank, nDCG@10, RR@10, R@100, AP, iprec_at_recall_0.10)" + groups
            + (f"; other tools' readings: {', '.join(t + ':name' for t in DIALECTS)}"
               if DIALECTS else ""))


def family_specs(names, ks: tuple[int, ...], dialect: str | None = None) -> tuple[MetricSpec, ...]:
    """evaluate()'s metric list: a name with its own cutoff is that one metric; a family name
    (``recall``, ``mrr``, ...) is measured at each k, and the whole-ranking ones (``rr``,
    ``map``, ``rprec``) come last, as the report's columns always have. Under another tool's
    reading (``dialect``, or a ``tool:`` prefix) a name is one metric, as that tool reads it."""
    cut, whole, grouped = [], [], []
    dialect = check_dialect(dialect)
    for name in names:
        if dialect is not None or (isinstance(name, str) and _PREFIX.fullmatch(name)):
            spec = parse_metric(name, dialect=dialect)
            (whole if spec.cutoff is None else cut).append(spec)
            continue
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


def family_words() -> tuple[str, ...]:
    """evaluate()'s families: the names of the measures the chooser offers at k (``recall``,
    ``mrr``, ``ap``, ...), which, alone and in these exact lower-case letters, mean "at each k".

    >>> family_words()[:4]
    ('recall', 'precision', 'mrr', 'ndcg')
    """
    return tuple(m.cut_name or m.name for m in MEASURES.values() if "cutoff" in m.groups)


def default_metrics() -> tuple[str, ...]:
    """What evaluate() computes when no metric is asked for: the families marked default."""
    return tuple(m.cut_name or m.name for m in MEASURES.values() if m.default)


# --- what a report key means ---------------------------------------------------------------

def spec_of(key: str) -> MetricSpec | None:
    """The spec a report key names (keys are names ``parse_metric`` reads), or None."""
    try:
        spec = parse_metric(key)
    except OptionError:
        return None
    return spec if spec.cutoff != -1 else None


def measure_of(key: str) -> Measure | None:
    spec = spec_of(key)
    return BY_NAME[spec.measure] if spec else None


def label(key: str) -> str:
    """A report key as people read it: ``ndcg@10`` -> ``nDCG@10``, ``map`` -> ``MAP``,
    ``mrr@10`` -> ``MRR@10``; a key with parameters, or an unknown one, as it is.

    >>> label("ndcg@10"), label("rr"), label("ap@5"), label("rbp(p=0.5)"), label("bpref")
    ('nDCG@10', 'RR', 'AP@5', 'rbp(p=0.5)', 'bpref')
    """
    spec = spec_of(key)
    if spec is None or spec.params or BY_NAME[spec.measure].spell is not None:
        return key
    measure = BY_NAME[spec.measure]
    if spec.cutoff is None:
        return measure.label or key
    return f"{measure.cut_label or measure.label or measure.cut_name or measure.name}@{spec.cutoff}"


def trec_name(key: str) -> str | None:
    """trec_eval's name for a report key, or None when trec_eval has no such measure.

    >>> trec_name("precision@5"), trec_name("iprec_at_recall_0.10"), trec_name("rbp(p=0.9)")
    ('P_5', 'iprec_at_recall_0.10', None)
    >>> trec_name("ndcg"), trec_name("ndcg@10"), trec_name("mrr@10")
    ('ndcg', 'ndcg_cut_10', None)
    """
    spec = spec_of(key)
    if spec is None:
        return None
    measure = BY_NAME[spec.measure]
    return measure.trec_eval(spec.cutoff, dict(spec.params)) if measure.trec_eval else None


def trec_unlike(key: str) -> tuple[str, str] | None:
    """``(trec_eval's name, why)`` for a key that reads like a trec_eval measure but whose value
    is not trec_eval 10's on every input (so ``-o trec`` leaves it out and says why), else None.

    >>> trec_unlike("rbp(p=0.9)")[0], trec_unlike("ndcg@10")
    ('rbp', None)
    """
    spec = spec_of(key)
    if spec is None:
        return None
    unlike = BY_NAME[spec.measure].trec_eval_unlike
    return unlike(spec.cutoff, dict(spec.params)) if unlike else None


def is_count(key: str) -> bool:
    """A count (num_ret, num_rel, ...): printed whole, summed on trec_eval's all line."""
    measure = measure_of(key)
    return bool(measure and measure.count)


def aggregate(key: str, values: list[float]) -> float:
    """The mean over queries that the key's measure declares (NaN values are undefined and
    left out; NaN when none is left): the arithmetic mean, summed exactly so that the order of
    queries cannot move the last digit, or the geometric mean (gm_map)."""
    measure = measure_of(key)
    if measure is not None and measure.aggregate == "geometric":
        return geometric_mean(values)
    if measure is not None and measure.aggregate == "sum":  # ir_measures' NumRel, NumQ, ...
        defined = [v for v in values if v == v]
        return math.fsum(defined) if defined else math.nan
    return arithmetic_mean(values)
