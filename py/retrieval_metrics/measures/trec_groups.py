"""trec_eval's ``-m`` nicknames as the calculator's groups, made from the one definition of each
(``trec_eval_rows.NICKNAMES``) and the rows each measure registers: ``official`` (what trec_eval
prints without ``-m``), ``set`` and ``all_trec`` hold, in trec_eval 10's order, every measure
of that nickname with trec_eval's default parameters: each row's owner (``ROW_OWNERS``) at the
row's default cutoffs (``P``: P_5 ... P_1000), recall levels (``iprec_at_recall``) or
parameters (``rbp``: p = 0.9). What is not a number (runid, relstring) is left out; the
``-o trec`` output says so.

A nickname whose measures only the ``trec_eval`` mode computes (``prefs``, ``all_prefs``,
``qrels_jg``: they read preference judgements or judgement groups) is refused by name, pointing
to the mode, rather than read as an unknown metric.

>>> from retrieval_metrics.measures.grammar import family_specs
>>> [spec.key for spec in family_specs(["set"], (10,))][:3]
['num_q', 'num_ret', 'num_rel']
>>> [spec.key for spec in family_specs(["official"], (10,))][-2:]
['precision@500', 'precision@1000']
"""

from __future__ import annotations

from ..errors import OptionError
from .registry import BY_NAME, MetricSpec, register_group, register_spelling
from .trec_eval_rows import NICKNAMES, ROW_OWNERS, ROWS, TREC_CUTOFFS, TREC_EVAL_ORDER, TrecMeasure  # noqa: F401 (TREC_CUTOFFS: read from here too)

#: trec_eval's measures that are text, not numbers: in a nickname, left out of its group
TEXT = ("runid", "relstring")


def specs_of_row(row: TrecMeasure) -> list[MetricSpec]:
    """The calculator's metrics that print what the row prints with its default parameters:
    one per default cutoff or level, else one (the owner's defaults, or the row's
    ``calculator_params``)."""
    owner = ROW_OWNERS[row.name]
    if row.kind == "cut_long":
        return [MetricSpec(owner, k) for k in row.default]
    if row.kind == "cut_double":
        (param,) = BY_NAME[owner].params
        return [MetricSpec(owner, None, ((param, level),)) for level in row.default]
    return [MetricSpec(owner, None, tuple(sorted(row.calculator_params)))]


def mode_only(nickname: str) -> list[str]:
    """The measures of a nickname the calculator does not compute (no row with an owner)."""
    return [name for name in NICKNAMES[nickname] if name not in ROW_OWNERS and name not in TEXT]


def nickname_group(nickname: str):
    """The ``members()`` of a nickname's group: its measures in trec_eval's order, each as the
    metrics that print it."""
    def members() -> list[MetricSpec]:
        wanted = set(NICKNAMES[nickname])
        return [spec for name in TREC_EVAL_ORDER if name in wanted and name in ROW_OWNERS
                for spec in specs_of_row(ROWS[name])]
    return members


@register_spelling
def _mode_only_nickname(name: str):
    """A nickname of measures only the ``trec_eval`` mode computes: refused, naming them."""
    nickname = name.strip()
    missing = mode_only(nickname) if nickname in NICKNAMES else []
    if not missing:
        return None
    raise OptionError("metrics", f"{nickname!r} is trec_eval's group of {', '.join(missing)}, "
                      "which read judgements this calculator does not read (preference "
                      "judgements or judgement groups); the trec_eval mode computes them: "
                      f"retrieval-metrics trec_eval -m {nickname} [-R qrels_prefs|prefs|"
                      "qrels_jg] QRELS RUN")


for _nickname in NICKNAMES:
    if not mode_only(_nickname):
        register_group(_nickname, nickname_group(_nickname))
