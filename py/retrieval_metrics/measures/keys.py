"""What a report key means: the spec it names, the measure behind it, the label people read
(``ndcg@10`` -> ``nDCG@10``), trec_eval's name for it, and whether it is a count.

>>> trec_name("precision@5"), trec_name("rr"), trec_name("mrr@10")
('P_5', 'recip_rank', None)
"""

from __future__ import annotations

from ..errors import OptionError
from .grammar import parse_metric
from .registry import BY_NAME, Measure, MetricSpec


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
    if spec is None or spec.params or BY_NAME[spec.measure].names.spell is not None:
        return key
    measure = BY_NAME[spec.measure]
    if spec.cutoff is None:
        return measure.names.label or key
    names = measure.names
    return f"{names.cut_label or names.label or names.cut_name or measure.name}@{spec.cutoff}"


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
    return measure.trec.name(spec.cutoff, dict(spec.params)) if measure.trec.name else None


def trec_unlike(key: str) -> tuple[str, str] | None:
    """``(trec_eval's name, why)`` for a key that reads like a trec_eval measure but whose value
    is not trec_eval 10's on every input (so ``-o trec`` leaves it out and says why), else None.

    >>> trec_unlike("rbp(p=0.9)")[0], trec_unlike("ndcg@10")
    ('rbp', None)
    """
    spec = spec_of(key)
    if spec is None:
        return None
    unlike = BY_NAME[spec.measure].trec.unlike
    return unlike(spec.cutoff, dict(spec.params)) if unlike else None


def is_count(key: str) -> bool:
    """A count (num_ret, num_rel, ...): printed whole, summed on trec_eval's all line."""
    measure = measure_of(key)
    return bool(measure and measure.count)
