"""Judged-only scoring (ir_measures' ``judged_only=True``, trec_eval ``-J``): any measure
computed on the ranking without its unjudged documents, written ``name(judged_only=True)``
(``P(judged_only=True)@5``, ``map(judged_only=true)``, ``rbp(p=0.5, judged_only=1)``); and
``ndcg_judged@k``, its first form, kept with its own key.

A document is unjudged when the judgements do not mention it or grade it below 0 (trec_eval's
pool-but-unjudged), and it is taken out of the ranking before any cutoff, so the documents
below it move up (``QueryGrades.judged_only``); the judgements themselves, and so the ideal
rankings and the number of relevant documents, are unchanged. ir_measures' pyndeval and
pytrec_eval filters keep a document graded below 0; no other measure reads such grades
differently.
"""

from __future__ import annotations

import re

from ..errors import OptionError
from .core import ndcg
from .grades import QueryGrades, no_gain
from .grammar import parse_metric
from .registry import About, Measure, MetricSpec, Names, register, register_spelling


def ndcg_judged_only(q: QueryGrades, k: int) -> float:
    """nDCG@k over the judged documents only (ir_measures' nDCG(judged_only=True)@k, trec_eval
    -J): ``core.ndcg`` of the query without the documents the judgements do not mention (or
    grade below 0), taken out before cutting at k; the ideal is that of every judged document,
    as in ndcg@k. The unjudged rank 1 goes, so grade 1 rises to rank 1 of the judged list:

    >>> ndcg_judged_only(QueryGrades(["u", "a", "b"], {"a": 1, "b": 0}), k=1)
    1.0
    """
    return ndcg(q.judged_only, k)


register(Measure(
    "ndcg_judged", ndcg_judged_only, cutoff="required", undefined=no_gain, whole_ranking=True,
    binary=False,
    names=Names(aliases=("ndcg_judged_only",), label="nDCG (judged)",
                peers={"ir_measures": "nDCG(judged_only=True)"}),
    about=About(description="nDCG@k of the ranking without its unjudged documents", order=570)))

_JUDGED_ONLY = re.compile(r"\s*ndcg\s*\(\s*judged_only\s*=\s*(?:true|1)\s*\)\s*[@_]\s*(\d+)\s*",
                          re.IGNORECASE)


JUDGED_ONLY = "judged_only"
_FLAG = re.compile(r"(\(|,)\s*judged_only\s*=\s*([^,()]*?)\s*(?=,|\))", re.IGNORECASE)
_TRUE, _FALSE = ("true", "1", "yes"), ("false", "0", "no")


def judged_only_step(compute, undefined):
    """A measure's compute and undefined test, on the query without its unjudged documents.

    >>> from .core import precision
    >>> q = QueryGrades([b"u", b"a", b"b"], {b"a": 1, b"b": 0})
    >>> judged_only_step(precision, None)[0](q, 1)
    1.0
    """
    def on_judged(q, k, **params):
        return compute(q.judged_only, k, **params)

    def undefined_on_judged(q):
        return undefined(q.judged_only)

    return on_judged, (undefined_on_judged if undefined is not None else None)


def _judged_only_parameter(name: str):
    """``name(..., judged_only=True, ...)`` for any measure: the spec of the name without the
    flag, with ``("judged_only", True)`` among its parameters (``judged_only=False`` is the
    measure itself); None for a name without the flag.

    >>> _judged_only_parameter("P(judged_only=True)@5").key
    'precision(judged_only=True)@5'
    >>> _judged_only_parameter("rbp(p=0.5, judged_only=false)").key
    'rbp(p=0.5)'
    """
    if not isinstance(name, str) or "judged_only" not in name.lower():
        return None
    match = _FLAG.search(name)
    if not match:
        return None
    value = match.group(2).strip("'\"").lower()
    if value not in _TRUE + _FALSE:
        raise OptionError("metrics", f"{name!r}: judged_only must be True or False, found "
                          f"{match.group(2)!r}")
    opening = match.group(1) == "("
    rest = name[:match.start()] + ("(" if opening else "") + name[match.end():]
    rest = re.sub(r"\(\s*,", "(", rest)
    rest = re.sub(r"\(\s*\)", "", rest)
    spec = parse_metric(rest)
    if value in _FALSE:
        return spec
    return spec._replace(params=tuple(sorted(spec.params + ((JUDGED_ONLY, True),))))


@register_spelling
def _judged_only_spelling(name: str):
    """ir_measures' ``nDCG(judged_only=True)@10``; None for any other name.

    >>> _judged_only_spelling("nDCG(judged_only=True)@10").key
    'ndcg_judged@10'
    """
    match = _JUDGED_ONLY.fullmatch(name)
    if not match:
        return None
    k = int(match.group(1))
    if k < 1:
        raise OptionError("metrics", f"{name!r}: the cutoff must be at least 1")
    return MetricSpec("ndcg_judged", k)


register_spelling(_judged_only_parameter)  # after ndcg_judged's: nDCG(judged_only=True)@k stays its
