"""What every measure reads of one query, and the gains and discounts several share.

``QueryGrades`` is handed to each registered measure's ``compute``: a new measure needs no
change here. Relevant means grade > 0 (or >= the relevance threshold, in ``binary``); a grade
at or below 0 is judged but adds nothing, as in trec_eval.
"""

from __future__ import annotations

from typing import Callable, Sequence

Grades = Sequence["int | None"]

GAINS = ("linear", "exponential")
MAX_EXPONENTIAL_GRADE = 1000


def gain_function(gain: str) -> Callable[[int], float]:
    """trec_eval's gain (the grade) or Burges et al. (2005)'s 2^grade - 1.

    >>> gain_function("linear")(3), gain_function("exponential")(3)
    (3, 7)
    """
    return (lambda g: g) if gain == "linear" else (lambda g: 2 ** g - 1)


def ideal_gains(judged_grades: Sequence[int], gain: str = "linear") -> list[float]:
    """The gains of the best possible order: every relevant judged document, best first."""
    relevant = filter(_positive, judged_grades)
    if gain != "linear":
        relevant = map(gain_function(gain), relevant)
    return sorted(relevant, reverse=True)


_positive = (0).__lt__  # g > 0, at C speed


def no_relevant(q: "QueryGrades") -> bool:
    """Undefined when the query has no relevant document (the measure divides by |R|)."""
    return not q.num_relevant


def no_gain(q: "QueryGrades") -> bool:
    """Undefined when no judged grade is positive (the ideal DCG is 0)."""
    return not q.ideal


class QueryGrades:
    """What every measure may read of one query: passed to each registered measure's function
    (``Measure.compute`` in ``registry``), so a new measure needs no change here.

    - ``grades``: the grades of the ranked documents, best first (None = not judged), as deep as
      any asked-for measure needs (``depth``; None = the whole ranking);
    - ``binary``: the same with each grade as 1 (grade >= ``threshold``), 0 or None: the binary
      measures read it, so ``> 0`` means relevant in all of them;
    - ``judged``: every judged document's grade; ``num_relevant``: how many are >= threshold;
    - ``ranked``: the document ids, best first (the whole ranking);
    - ``ideal``: the gains of the best possible order (every positive grade), for nDCG;
    - ``subtopics``: ``{doc: ((subtopic, grade), ...)}``, the positive grades, what the
      diversity measures read: the judgements' own (``SubtopicGrades``, from diversity qrels)
      or else one subtopic per query, ``""``, holding each document's grade (as ndeval reads
      qrels whose second column is always 0); built when first read;
    - ``judged_only``: the same query with the unjudged documents (not in the judgements, or
      graded below 0) taken out of the ranking, as trec_eval -J and ir_measures'
      ``judged_only=True`` score it; built when first read.

    >>> q = QueryGrades([b"d4", b"d2", b"d1"], {b"d1": 2, b"d4": 1}, threshold=2)
    >>> q.grades, q.binary, q.num_relevant, q.ideal, q.relevant
    ([1, None, 2], [0, None, 1], 1, [2, 1], [2])
    >>> q.judged_only.ranked, q.subtopics[b"d1"]
    ([b'd4', b'd1'], (('', 2),))
    """

    __slots__ = ("ranked", "judged", "threshold", "gain", "grades", "num_relevant", "_binary",
                 "_ideal", "_subtopics", "_judged_only", "_relevant")

    def __init__(self, ranked, judged, threshold: int = 1, gain: str = "linear",
                 depth: int | None = None):
        self.ranked = ranked
        self.judged = judged
        self.threshold = threshold
        self.gain = gain
        self.grades = list(map(judged.get, ranked[:depth] if depth else ranked))
        if threshold == 1:
            self.num_relevant = sum(map(_positive, judged.values()))
            self._binary = self.grades
        else:
            self.num_relevant = sum(1 for g in judged.values() if g >= threshold)
            self._binary = None
        self._ideal = None
        self._subtopics = None
        self._judged_only = None
        self._relevant = None

    @property
    def binary(self) -> list:
        if self._binary is None:
            t = self.threshold
            self._binary = [g if g is None else int(g >= t) for g in self.grades]
        return self._binary

    @property
    def relevant(self) -> list[int]:
        """The rank indices (0 = the top) of the relevant documents, best first: with
        ``num_rel``, ``num_ret`` and ``num_rel_ret``, what trec_eval's ranked measures read
        (``trec_ranked``'s functions take a QueryGrades as they take a RelList)."""
        if self._relevant is None:
            self._relevant = [i for i, g in enumerate(self.binary) if g and g > 0]
        return self._relevant

    @property
    def num_rel(self) -> int:
        return self.num_relevant

    @property
    def num_ret(self) -> int:
        return len(self.grades)

    @property
    def num_rel_ret(self) -> int:
        return len(self.relevant)

    @property
    def ideal(self) -> list[float]:
        if self._ideal is None:
            self._ideal = ideal_gains(self.judged.values(), self.gain)
        return self._ideal

    @property
    def subtopics(self) -> dict:
        if self._subtopics is None:
            own = getattr(self.judged, "subtopics", None)
            self._subtopics = own if own is not None else {
                doc: (("", grade),) for doc, grade in self.judged.items() if grade > 0}
        return self._subtopics

    @property
    def judged_only(self) -> "QueryGrades":
        if self._judged_only is None:
            judged = self.judged
            kept = [doc for doc, g in zip(self.ranked, map(judged.get, self.ranked))
                    if g is not None and g >= 0]
            self._judged_only = QueryGrades(kept, judged, self.threshold, self.gain)
        return self._judged_only


def num_rel_ret(grades: Grades, relevance_level: int = 1) -> int:
    """Relevant documents in ``grades`` (trec_eval's num_rel_ret of a ranking or of its top k).

    >>> num_rel_ret([1, None, 0, 2]), num_rel_ret([1, None, 0, 2], 2)
    (2, 1)
    """
    if relevance_level >= 1:  # at C speed: filter(None) drops None and 0, neither relevant
        return sum(map(relevance_level.__le__, filter(None, grades)))
    return sum(1 for g in grades if g is not None and g >= relevance_level)
