"""trec_eval 9.0.8's arithmetic where trec_eval 10 changed it: what pytrec_eval (which embeds
9.0.8) and so ir_measures' pytrec_eval provider compute, with hand-worked doctests.
"""

from __future__ import annotations

import math

from ..grades import Grades
from ..trec_ranked import iprec_at_counts
from ..trec_rel_list import Ranks


def iprec_at_recall_908(grades: Grades, num_relevant: int, point: float, level: int = 1) -> float:
    """Interpolated precision at a recall level as trec_eval 9.0.8 computes it (pytrec_eval,
    so ir_measures' IPrec): the level means ``(long)(point * R + 0.9)`` relevant documents
    (trec_eval 10 rounds instead), and the value is the best precision at any rank at or
    below the one where that many relevant documents have been seen; 0 if never reached.

    The walk is trec_eval 10's (``trec_ranked.iprec_at_counts``); only the count differs.
    R = 7, recall 0.2: 9.0.8 needs int(1.4 + 0.9) = 2 relevant documents (trec_eval 10: 1);
    relevant at ranks 1 and 4, so the best precision from rank 4 down is 2/4:

    >>> iprec_at_recall_908([1, 0, 0, 1, 0], 7, 0.2)
    0.5

    An empty ranking (every document left out by judged_only) gives 9.0.8's 0/0 at recall 0:

    >>> iprec_at_recall_908([], 3, 0.0), iprec_at_recall_908([], 3, 0.5)
    (nan, 0.0)
    """
    needed = int(point * num_relevant + 0.9)
    if not grades:  # trec_eval 9.0.8 divides 0 by 0 retrieved for a level needing none
        return math.nan if needed == 0 else 0.0
    return iprec_at_counts(Ranks.of_grades(grades, num_relevant, level), [needed])[0]
