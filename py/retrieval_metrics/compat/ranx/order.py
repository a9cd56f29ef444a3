"""The order in which ranx ranks documents with equal scores.

ranx sorts each query's documents with numba's ``np.argsort``, whose default is an unstable
quicksort (median-of-three partitions, insertion sort below 15 items): documents with equal
scores come out in an order that depends on the sort's path, not on the order they were given
or on their ids. Every metric counted at a cutoff or by rank depends on that order, so scores
written to several decimals (or binary ones) tie and move ranx's numbers. ``argsort`` here is
numba's algorithm step for step (``numba/misc/quicksort.py``, argsort mode, NumPy's float
comparison that puts NaN last), so ties fall where ranx puts them.

ranx sorts at set moments (a Run built from a dict or a file, ``add``/``add_multi`` on every
query, ``make_comparable``, the first use after ``add_score``), and sorting an already sorted
list again can move ties once more, so ``compat.ranx`` sorts at exactly those moments.
"""

from __future__ import annotations

__all__ = ["argsort", "descending", "descending_dict_order"]

_SMALL_QUICKSORT = 15


def _less(a: float, b: float) -> bool:
    """NumPy's float order: NaN after every number."""
    return a < b or (b != b and a == a)


def argsort(values: list[float]) -> list[int]:
    """numba's ``np.argsort(values)`` (kind "quicksort"): the indices that sort ``values``."""
    order = list(range(len(values)))
    if len(values) < 2:
        return order
    stack = [(0, len(values) - 1)]
    while stack:
        low, high = stack.pop()
        while high - low >= _SMALL_QUICKSORT:
            i = _partition(values, order, low, high)
            if high - i > i - low:  # push the larger side, go on with the smaller
                if high > i:
                    stack.append((i + 1, high))
                high = i - 1
            else:
                if i > low:
                    stack.append((low, i - 1))
                low = i + 1
        _insertion_sort(values, order, low, high)
    return order


def _insertion_sort(values, order, low, high) -> None:
    for i in range(low + 1, high + 1):
        k = order[i]
        v = values[k]
        j = i
        while j > low and _less(v, values[order[j - 1]]):
            order[j] = order[j - 1]
            j -= 1
        order[j] = k


def _partition(values, order, low, high) -> int:
    mid = (low + high) >> 1
    if _less(values[order[mid]], values[order[low]]):
        order[low], order[mid] = order[mid], order[low]
    if _less(values[order[high]], values[order[mid]]):
        order[high], order[mid] = order[mid], order[high]
    if _less(values[order[mid]], values[order[low]]):
        order[low], order[mid] = order[mid], order[low]
    pivot = values[order[mid]]
    order[high], order[mid] = order[mid], order[high]
    i = low
    j = high - 1
    while True:
        while i < high and _less(values[order[i]], pivot):
            i += 1
        while j >= low and _less(pivot, values[order[j]]):
            j -= 1
        if i >= j:
            break
        order[i], order[j] = order[j], order[i]
        i += 1
        j -= 1
    order[i], order[high] = order[high], order[i]
    return i


def descending(docs: dict) -> dict:
    """One query's documents as a ranx ``Run`` or ``Qrels`` keeps them after a sort: by value,
    highest first (``argsort`` of the negated values). Without equal values (or NaN) every sort
    gives the one sorted order, so Python's (six times faster) is used there."""
    keys = list(docs)
    values = [float(v) for v in docs.values()]
    if len(set(values)) == len(values) and all(v == v for v in values):
        return dict(sorted(docs.items(), key=lambda item: -float(item[1])))
    return {keys[i]: docs[keys[i]] for i in argsort([-v for v in values])}


def descending_dict_order(docs: dict) -> list:
    """The documents of a plain dict handed to ranx's ``evaluate`` in the order it ranks them:
    ascending ``argsort`` of the scores, reversed."""
    keys = list(docs)
    return [keys[i] for i in reversed(argsort([float(v) for v in docs.values()]))]
