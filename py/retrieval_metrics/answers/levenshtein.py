"""Levenshtein distance (insertions, deletions and substitutions, each costing 1), counted in
Unicode code points.

``rapidfuzz`` computes it in C when it is installed (the optional ``rapidfuzz`` extra); without
it, an exact pure-Python version of the same bit-parallel algorithm (Hyyrö, 2003) runs, which
handles a whole string of any length as one Python integer, so a pair of 1,000-character
strings costs about a thousand integer operations rather than a million table cells.

Code points, not grapheme clusters: ``"e\\u0301"`` (e + combining acute) is two code points and
``"\\u00e9"`` (é) is one, so they are at distance 2. rapidfuzz, Python's ``len`` and the ANLS and
SQuAD reference scripts all count code points; a caller who wants composed characters passes a
``normalize`` callable that applies ``unicodedata.normalize("NFC", ...)``.

>>> levenshtein_distance("kitten", "sitting")
3
>>> python_levenshtein_distance("kitten", "sitting")
3
"""

from __future__ import annotations

_BACKEND = None  # the distance function in use, chosen on first call


def levenshtein_distance(a: str, b: str) -> int:
    """The edit distance between two strings: rapidfuzz's when it is installed, else ours."""
    global _BACKEND
    if _BACKEND is None:
        _BACKEND = _choose_backend()
    return _BACKEND(a, b)


def distance_backend() -> str:
    """``"rapidfuzz"`` or ``"python"``: which implementation ``levenshtein_distance`` uses.

    >>> distance_backend() in ("rapidfuzz", "python")
    True
    """
    global _BACKEND
    if _BACKEND is None:
        _BACKEND = _choose_backend()
    return "python" if _BACKEND is python_levenshtein_distance else "rapidfuzz"


def _choose_backend():
    try:
        from rapidfuzz.distance import Levenshtein
    except ImportError:
        return python_levenshtein_distance
    return Levenshtein.distance


def python_levenshtein_distance(a: str, b: str) -> int:
    """The exact edit distance in pure Python: Hyyrö's bit-vector form of Myers' algorithm.

    Bit i of the vectors describes row i of the classic dynamic-programming table for the
    shorter string (the pattern); each character of the longer string updates every row at
    once. Python integers have no width limit, so no blocking into 64-bit words is needed.
    Vertical deltas: ``vp`` (+1) and ``vn`` (-1); horizontal ones ``hp`` and ``hn``; the score
    follows the last row. Reference: H. Hyyrö, "A bit-vector algorithm for computing
    Levenshtein and Damerau edit distances", Nordic Journal of Computing 10 (2003).

    >>> python_levenshtein_distance("", "abc"), python_levenshtein_distance("flaw", "lawn")
    (3, 2)
    """
    if a == b:
        return 0
    # A shared prefix and suffix never change the distance; strip them first.
    start = 0
    limit = min(len(a), len(b))
    while start < limit and a[start] == b[start]:
        start += 1
    end_a, end_b = len(a), len(b)
    while end_a > start and end_b > start and a[end_a - 1] == b[end_b - 1]:
        end_a -= 1
        end_b -= 1
    a, b = a[start:end_a], b[start:end_b]
    if len(a) > len(b):
        a, b = b, a
    m = len(a)
    if m == 0:
        return len(b)
    match: dict[str, int] = {}  # character -> the rows of the pattern that hold it
    bit = 1
    for char in a:
        match[char] = match.get(char, 0) | bit
        bit <<= 1
    mask = (1 << m) - 1
    last = 1 << (m - 1)
    vp, vn, score = mask, 0, m
    get = match.get
    # Every integer stays non-negative: ``mask ^ y`` stands for ``~y``, which is the same on
    # the m bits that count and twice as fast as Python's negative (sign-magnitude)
    # integers. Bits above the m-th never reach below it (shifts and carries only go up), so
    # only ``vp`` is masked, which keeps every value within m + 2 bits.
    for char in b:
        x = get(char, 0) | vn
        d0 = (((x & vp) + vp) ^ vp) | x
        hn = vp & d0
        hp = vn | (mask ^ (d0 | vp))
        if hp & last:
            score += 1
        elif hn & last:
            score -= 1
        hp = (hp << 1) | 1
        vp = ((hn << 1) | (mask ^ (d0 | hp))) & mask
        vn = hp & d0
    return score


__all__ = ["levenshtein_distance", "python_levenshtein_distance", "distance_backend"]
