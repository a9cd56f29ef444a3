"""ranx's metric names (``hits@5``, ``f1@5``, ``dcg_burges@5``, ``ndcg@10``, ``rbp.95``,
``map@100``, ``mrr``, ``r-precision``, ``bpref``, and ``-l2`` for a relevance level), read as
ranx 0.3's ``extract_metric_and_params`` reads them and computed as its metrics compute them.

ranx's readings differ from this calculator's own in places: ``hits@k`` is a count of relevant
documents (not a hit rate); ``rbp.95`` is RBP with persistence 0.95 (and ``rbp@95`` too: ranx
reads the digits after either mark as the decimals of p), graded (gain = the grade);
``ndcg``/``dcg`` count only documents graded at least the level, in the ranking and the ideal.
Without ``-l``, the level is the evaluation's ``relevance_threshold`` (default 1, ranx's).
Report keys are ``ranx:`` and the name.

>>> from retrieval_metrics.measures.grammar import parse_metric
>>> parse_metric("hits@5", dialect="ranx").key, parse_metric("ranx:rbp.95").key
('ranx:hits@5', 'ranx:rbp.95')
>>> parse_metric("ranx:ndcg_burges@10-l2").key
'ranx:ndcg_burges@10-l2'
"""

from __future__ import annotations

import re

from ...errors import OptionError
from ..core import average_precision, hit_rate, precision, r_precision, recall, reciprocal_rank
from ..grades import num_rel_ret
from ..registry import About, Measure, MetricSpec, Names, Param, register_dialect, register_reading
from .ranx_arith import f1_at_k, ranx_bpref, ranx_dcg, ranx_ndcg, ranx_rbp
from .regrade import regraded

TOOL = "ranx"
PREFIX = TOOL + ":"
_NAME = re.compile(r"\s*([a-z][a-z0-9_\-]*?)(?:([@.])(\d+))?(?:-l(-?\d+))?\s*")


def _qq(q, level):
    return q if level is None or level == q.threshold else regraded(q, level)


def _level(q, level):
    return q.threshold if level is None else level


COMPUTE = {
    "hits": lambda q, k, level=None: float(num_rel_ret(q.grades[:k] if k else q.grades, _level(q, level))),
    "hit_rate": lambda q, k, level=None: (lambda qq: hit_rate(qq, k or len(qq.ranked)) if qq.num_relevant else 0.0)(_qq(q, level)),
    "precision": lambda q, k, level=None: (lambda qq: precision(qq, k or len(qq.ranked)) if (k or qq.ranked) else 0.0)(_qq(q, level)),
    "recall": lambda q, k, level=None: (lambda qq: recall(qq, k or len(qq.ranked)) if qq.num_relevant and (k or qq.ranked) else 0.0)(_qq(q, level)),
    "f1": lambda q, k, level=None: (lambda qq: f1_at_k(qq.grades, qq.num_relevant, k, qq.threshold))(_qq(q, level)),
    "r-precision": lambda q, k, level=None: (lambda qq: r_precision(qq) if qq.num_relevant else 0.0)(_qq(q, level)),
    "mrr": lambda q, k, level=None: (lambda qq: reciprocal_rank(qq, k) if qq.num_relevant else 0.0)(_qq(q, level)),
    "map": lambda q, k, level=None: (lambda qq: average_precision(qq, k) if qq.num_relevant else 0.0)(_qq(q, level)),
    "dcg": lambda q, k, level=None: ranx_dcg(q.grades, k, _level(q, level)),
    "dcg_burges": lambda q, k, level=None: ranx_dcg(q.grades, k, _level(q, level), burges=True),
    "ndcg": lambda q, k, level=None: ranx_ndcg(q.grades, q.judged.values(), k, _level(q, level)),
    "ndcg_burges": lambda q, k, level=None: ranx_ndcg(q.grades, q.judged.values(), k, _level(q, level), burges=True),
    "bpref": lambda q, k, level=None: ranx_bpref(q.grades, q.judged.values(), _level(q, level)),
    "rbp": lambda q, k, p, level=None: ranx_rbp(q.grades, p, _level(q, level)),
}
DESCRIPTIONS = {
    "hits": "ranx's hits@k: the number of relevant documents in the top k (a count, not a rate)",
    "hit_rate": "ranx's hit_rate@k: 1 if a relevant document is in the top k",
    "precision": "ranx's precision@k", "recall": "ranx's recall@k",
    "f1": "ranx's f1@k: 2PR / (P + R) at k", "r-precision": "ranx's r-precision",
    "mrr": "ranx's mrr@k: reciprocal rank within k", "map": "ranx's map@k: AP over all relevant",
    "dcg": "ranx's dcg@k: gain = grade (graded at least the level)",
    "dcg_burges": "ranx's dcg_burges@k: gain = 2^grade - 1",
    "ndcg": "ranx's ndcg@k: Jarvelin's gain = grade; grades below the level gain nothing",
    "ndcg_burges": "ranx's ndcg_burges@k: gain = 2^grade - 1",
    "bpref": "ranx's bpref: unjudged documents removed; negative grades count as non-relevant",
    "rbp": "ranx's rbp.P: graded RBP with persistence 0.P over the whole ranking",
}
_UNCUT = ("r-precision", "bpref")


def read(text: str) -> MetricSpec:
    """A ranx metric name to the spec of the entry computing it."""
    if not isinstance(text, str):
        raise OptionError("metrics", f"a ranx metric name must be a string, found {text!r}")
    match = _NAME.fullmatch(text)
    if not match or match.group(1) not in COMPUTE:
        raise OptionError("metrics", f"{text!r} is not a ranx metric; ranx's metrics: "
                          f"{', '.join(COMPUTE)} (such as ndcg@10, hits@5, rbp.95, map@100-l2)")
    name, mark, digits, level = match.groups()
    params = []
    if level is not None:
        if int(level) < 1:
            raise OptionError("metrics", f"{text!r}: the relevance level after -l must be at least 1")
        params.append(("level", int(level)))
    if name == "rbp":
        if digits is None:
            raise OptionError("metrics", f"{text!r}: ranx's rbp needs its persistence, such as "
                              "rbp.95 (p = 0.95)")
        return MetricSpec(PREFIX + name, None, tuple(sorted(params + [("p", float("0." + digits))])))
    if mark == ".":
        raise OptionError("metrics", f"{text!r}: ranx writes a cutoff after @, such as {name}@{digits}")
    if digits is not None and name in _UNCUT:
        raise OptionError("metrics", f"{text!r}: ranx's {name} takes no cutoff")
    k = int(digits) if digits is not None else None
    if k == 0:
        k = None  # ranx reads @0 as the whole ranking
    return MetricSpec(PREFIX + name, k, tuple(params))


register_dialect(TOOL, read)


def _spell(name):
    def spell(cutoff, params):
        level = f"-l{params['level']}" if "level" in params else ""
        if name == "rbp":
            return f"{PREFIX}rbp.{repr(params['p'])[2:]}{level}"
        return f"{PREFIX}{name}{'' if cutoff is None else f'@{cutoff}'}{level}"
    return spell


for _name in COMPUTE:
    register_reading(Measure(
        PREFIX + _name, COMPUTE[_name], cutoff="none" if _name in _UNCUT + ("rbp",) else "optional",
        params={"p": Param(0.0), "level": Param(None)} if _name == "rbp" else {"level": Param(None)}, binary=False,
        whole_ranking=True, count=_name == "hits",
        names=Names(spell=_spell(_name), label=PREFIX + _name, peers={TOOL: _name}),
        about=About(groups=(), description=DESCRIPTIONS[_name])))
