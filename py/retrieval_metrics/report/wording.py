"""How notices and summaries word counts and lists of ids, one way for every input."""

from __future__ import annotations

SHOWN_IDS = 10


def counted(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless n is 1 (query -> queries).

    >>> counted(1, "query"), counted(1200, "query"), counted(2, "entry"), counted(0, "item")
    ('1 query', '1,200 queries', '2 entries', '0 items')
    """
    if n == 1:
        return f"{n:,} {noun}"
    plural = noun[:-1] + "ies" if noun.endswith("y") and noun[-2:-1] not in "aeiou" else noun + "s"
    return f"{n:,} {plural}"


_PLURAL_VERBS = {"is": "are", "has": "have", "was": "were"}


def agreeing(n: int, verb: str) -> str:
    """The verb (given in the singular: is, has, was) agreeing with ``n`` things.

    >>> agreeing(1, "has"), agreeing(3, "is")
    ('has', 'are')
    """
    return verb if n == 1 else _PLURAL_VERBS[verb]


def listed(ids: list[str]) -> str:
    """The first ten ids, then how many more.

    >>> listed([f"q{i}" for i in range(12)])
    'q0, q1, q2, q3, q4, q5, q6, q7, q8, q9 and 2 more'
    """
    shown = ", ".join(ids[:SHOWN_IDS])
    more = len(ids) - SHOWN_IDS
    return shown + (f" and {more:,} more" if more > 0 else "")
