"""Rank-biased precision (Moffat and Zobel, TOIS 2008) and its residual, with their registry
entries. ``rbp`` is binary, as ir_measures' ``RBP(rel=level)``: trec_eval 10's graded rbp
reads uninitialised bounds (docs/measures.md).
"""

from __future__ import annotations

from . import trec_gains
from .grades import Grades
from .registry import About, Measure, Names, Param, TrecEval, register
from .trec_eval_rows import TrecMeasure, with_pairs

#: trec_eval's rbp persistence (ir_measures' RBP, and so ``rbp``, defaults to 0.8)
TREC_RBP_P = 0.9
_P = Param(0.8, bounds="[0, 1)", description="persistence: the chance of reading on to the next document")


def _relevant(g, level: int) -> bool:
    return g is not None and g >= level


def rbp(grades: Grades, p: float = 0.8, relevance_level: int = 1) -> float:
    """Rank-biased precision (Moffat and Zobel, TOIS 2008): (1 - p) * sum of p^(i-1) over the
    relevant ranks i; a reader goes on to the next document with persistence ``p``. Binary
    relevance, as ir_measures' RBP(rel=relevance_level) (default p 0.8 as there; trec_eval's
    rbp defaults to 0.9).

    >>> rbp([1, 0, 1], p=0.5)  # 0.5 * (1 + 0.25)
    0.625
    """
    total = 0.0
    weight = 1.0
    for g in grades:
        if _relevant(g, relevance_level):
            total += weight
        weight *= p
    return (1.0 - p) * total


def rbp_residual(grades: Grades, p: float = 0.8) -> float:
    """How much RBP could still rise (Moffat and Zobel 2008, section 5): the weight of the
    unjudged documents in the ranking (not in the judgements, or graded below 0), (1 - p) *
    p^(i-1) each, plus the weight of everything past the end of the ranking, p^n. As
    trec_eval 10's rbp_resid (m_rbp_resid.c), except that trec_eval gives 0 when every
    retrieved document is judged, leaving out p^n.

    >>> rbp_residual([1, None, 0], p=0.5)  # 0.5 * 0.5 + 0.5^3
    0.375
    """
    total = 0.0
    weight = 1.0
    for g in grades:
        if g is None or g < 0:
            total += weight
        weight *= p
    return weight + (1.0 - p) * total



def _cut(q, k):
    return q.grades[:k] if k else q.grades


def _unlike_trec(name: str, why: str):
    """trec_eval 10 has ``name`` too, but not with these values on every input: that name and
    why (its arithmetic, and where the key's persistence or cutoff is not trec_eval's 0.9 over
    the whole ranking, that too), so ``-o trec`` says the true reason it leaves the key out
    (``retrieval-metrics trec_eval`` prints trec_eval's)."""
    def unlike(k, p):
        persistence = p.get("p", 0.8)
        more = [f"persistence {persistence:g} (trec_eval's is {TREC_RBP_P:g})"
                if persistence != TREC_RBP_P else "",
                f"cut at {k} (trec_eval's takes the whole ranking)" if k else ""]
        more = [m for m in more if m]
        return name, why + (f"; and this key has {' and '.join(more)}" if more else "")
    return unlike


register(Measure(
    "rbp", lambda q, k, p=0.8: rbp(_cut(q, k), p, q.threshold), params={"p": _P},
    names=Names(label="RBP", peers={"ir_measures": "RBP"}),
    about=About(groups=("whole",), citation="Moffat and Zobel, TOIS 2008",
                description="rank-biased precision: (1 - p) times the sum of p^(i-1) over the "
                            "relevant ranks i, persistence p", order=440),
    trec=TrecEval(unlike=_unlike_trec(
                         "rbp", "this rbp is binary; trec_eval 10's is graded (each grade over the "
                         "highest one)"),
                 rows=(TrecMeasure("rbp", "pairs", with_pairs(trec_gains.graded_rbp),
                                   calculator_params=(("p", TREC_RBP_P),)),))))
register(Measure(
    "rbp_resid", lambda q, k, p=0.8: rbp_residual(_cut(q, k), p), params={"p": _P}, binary=False,
    names=Names(aliases=("rbp_residual",)),
    about=About(groups=("whole",),
                description="how much rbp could still rise: unjudged documents and the rest "
                            "of the ranking", order=450),
    trec=TrecEval(unlike=_unlike_trec(
                         "rbp_resid", "this rbp_resid always adds the weight past the end of the "
                         "ranking; trec_eval 10's is 0 when every retrieved document "
                         "is judged"),
                 rows=(TrecMeasure("rbp_resid", "pairs", with_pairs(trec_gains.rbp_residual),
                                   calculator_params=(("p", TREC_RBP_P),)),))))
