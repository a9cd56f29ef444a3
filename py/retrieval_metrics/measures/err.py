"""Expected reciprocal rank (Chapelle et al., CIKM 2009) as gdeval.pl computes it (the TREC
Web track's script, which ir_measures runs for ``ERR@k``), with its registry entry.
"""

from __future__ import annotations

from ..errors import InputError
from .grades import Grades
from .registry import About, Measure, Names, Param, register

#: gdeval.pl's $MAX_JUDGMENT (ir_measures' ERR): the grade that stops every reader
ERR_MAX_GRADE = 4


def err(grades: Grades, k: int | None = None, max_grade: int = ERR_MAX_GRADE) -> float:
    """Expected reciprocal rank at k (Chapelle et al., CIKM 2009), as gdeval.pl computes it
    (the TREC Web track's script, which ir_measures runs for ERR@k): a reader stops at rank i
    with probability R_i = (2^grade - 1) / 2^max_grade, max_grade 4; ERR = sum of R_i / i
    times the chance of reaching rank i. Grades of 0 or less stop nobody.

    Grades 4 then 2: 15/16 + (1/16) * (3/16) / 2:

    >>> err([4, 2], k=10)
    0.943359375
    """
    top = grades[:k] if k else grades
    scale = 2.0 ** max_grade
    total = 0.0
    reach = 1.0
    for rank, g in enumerate(top, 1):
        r = (2.0 ** g - 1) / scale if g is not None and g > 0 else 0.0
        total += r * reach / rank
        reach *= 1 - r
    return total



def err_at(q, k, max_grade=ERR_MAX_GRADE):
    top = max(q.judged.values(), default=0)
    if top > max_grade:  # evaluate() names the line first; ranking_metrics gets here
        raise InputError("qrels", f"a grade of {top:,} is above ERR's max_grade {max_grade}",
                         expected=f"grades up to {max_grade}, or err(max_grade={top})")
    return err(q.grades, k, max_grade)


register(Measure(
    "err", err_at, binary=False,
    params={"max_grade": Param(ERR_MAX_GRADE, bounds="[1, inf)", limits_grades=True,
                               description="the grade that stops every reader")},
    names=Names(label="ERR", peers={"ir_measures": "ERR"}),
    about=About(citation="Chapelle, Metzler, Zhang and Grinspan, CIKM 2009",
                description="expected reciprocal rank, gdeval.pl's: a reader stops at each "
                            "rank with probability (2^grade - 1) / 2^max_grade", order=430)))
