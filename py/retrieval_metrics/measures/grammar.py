"""The name grammar: a metric name as people write it (``ndcg@10``, ``rbp(p=0.5)``, trec_eval's
``P_5``, ``ir_measures:P(rel=2)@5``) read into a ``MetricSpec``, with one clear refusal for a
name that is none of them; and evaluate()'s lists of names, where a family word (``recall``)
means "at each k".

A name carries its own cutoff and parameters: ``"ndcg@3"``, ``"mrr"`` (no cutoff),
``"hit_rate@1"``, ``"rbp(p=0.5)"``; trec_eval's (``P_5``, ``ndcg_cut_10``, ``recip_rank``,
``map``, ``Rprec``, ``success_5``) and ir_measures' (``nDCG@10``, ``RR@10``, ``P@5``, ``R@100``,
``AP``) spellings are aliases, matched without regard to case. A parameter's value is checked
against its ``Param`` (its words, its interval) here, once, for every measure.

>>> parse_metric("ndcg_cut_10")
MetricSpec(measure='ndcg', cutoff=10, params=())
>>> parse_metric("RR@10").key, parse_metric("mrr").key, parse_metric("P_5").key
('mrr@10', 'rr', 'precision@5')
"""

from __future__ import annotations

import re

from ..errors import OptionError
from .registry import ALIASES, BY_NAME, DIALECTS, GROUPS, MEASURES, SPELLINGS, Measure, MetricSpec

#: the calculator's own reading of names, the default (``dialect=None``)
OWN_DIALECT = "retrieval_metrics"
MAX_K = 1_000_000


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
    return "; ".join((BY_NAME[spec.measure].about.description if spec.measure in BY_NAME else "") or spec.measure
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
        param = measure.params[key]
        given[key] = _param_value(name, key, value.strip(), param.default)
        refused = param.check(name, key, given[key])
        if refused:
            raise OptionError("metrics", refused)
        if param.choices:
            given[key] = str(given[key]).lower()
    return tuple(sorted((k, v) for k, v in given.items() if v != measure.params[k].default))


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
        cut = measure.names.cut_name or measure.name
        if measure.cutoff == "none":
            forms.append(measure.name)
        elif measure.cutoff == "required":
            forms.append(f"{cut}@k")
        elif measure.names.cut_name:
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
    return tuple(m.names.cut_name or m.name for m in MEASURES.values() if "cutoff" in m.about.groups)


def default_metrics() -> tuple[str, ...]:
    """What evaluate() computes when no metric is asked for: the families marked default."""
    return tuple(m.names.cut_name or m.name for m in MEASURES.values() if m.about.default)
