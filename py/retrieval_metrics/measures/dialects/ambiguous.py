"""The names the calculator's own syntax refuses because tools read them as different
measures, and a guess would be a wrong number (docs/names.md); each refusal names both readings:

- ``hits@k``: ranx's count of relevant documents in the top k, elsewhere a hit rate;
- ``rbp.95``: ranx's RBP with persistence 0.95 (the dot is not a cutoff there).

>>> _ambiguous("hits@5")
Traceback (most recent call last):
...
retrieval_metrics.errors.OptionError: 'hits@5' is read differently by different tools: ranx's hits@5 counts the relevant documents in the top 5 (write ranx:hits@5, or dialect="ranx"); a hit rate (1 if any of the top 5 is relevant) is hit_rate@5
>>> _ambiguous("rbp@10") is None
True
"""

from __future__ import annotations

import re

from ...errors import OptionError
from ..registry import register_spelling

_HITS = re.compile(r"\s*hits\s*(?:[@_.]\s*(\d+))?\s*", re.IGNORECASE)
_RBP_DOT = re.compile(r"\s*rbp\s*\.\s*(\d+)\s*", re.IGNORECASE)


@register_spelling
def _ambiguous(name: str):
    match = _HITS.fullmatch(name)
    if match:
        k = match.group(1) or "k"
        raise OptionError("metrics", f"{name.strip()!r} is read differently by different tools: "
                          f"ranx's hits@{k} counts the relevant documents in the top {k} (write "
                          f"ranx:hits@{k}, or dialect=\"ranx\"); a hit rate (1 if any of the "
                          f"top {k} is relevant) is hit_rate@{k}")
    match = _RBP_DOT.fullmatch(name)
    if match:
        digits = match.group(1)
        raise OptionError("metrics", f"{name.strip()!r} is read differently by different tools: "
                          f"ranx reads it as RBP with persistence p=0.{digits} (write "
                          f"ranx:rbp.{digits}, or rbp(p=0.{digits})); RBP cut at rank "
                          f"{int(digits)} is rbp@{int(digits)}")
    return None
