"""Other tools' names: their readings, registered here with the measures, and the names the
calculator's own syntax refuses because tools read them differently.

ir_measures' reading (its measure strings, ``P(rel=2)@5``) is ``compat/ir_measures/names.py``,
ranx's (``hits@5``, ``rbp.95``) ``compat/ranx/names.py``: importing them registers each
reading (``registry.register_dialect``) and the entries its names compute, hidden from the
page's chooser. Refused in the own syntax, because tools read them as different measures and
a guess would be a wrong number (docs/names.md):

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

from ..compat.ir_measures import names as _ir_measures_names  # noqa: F401 (registers itself)
from ..compat.ranx import names as _ranx_names  # noqa: F401 (registers itself)
from ..errors import OptionError
from .registry import register_spelling

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
