"""The one structured result that the page and the CLI both render without recomputing."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .records import InputSummary, Notice


@dataclass
class Report:
    """Scores per query and their means, what was read, and what changed the numbers."""

    k: tuple[int, ...]
    metrics: tuple[str, ...]
    gain: str
    missing: str
    keys: list[str]
    per_query: dict[str, dict[str, float]]
    mean: dict[str, float]
    scored_queries: int
    missing_queries: list[str]
    notices: list[Notice] = field(default_factory=list)
    inputs: dict[str, InputSummary] = field(default_factory=dict)

    def to_dict(self) -> dict:
        """Strict JSON: an undefined value (none here today) would be null, never NaN."""
        return {
            "k": list(self.k),
            "metrics": list(self.metrics),
            "keys": list(self.keys),
            "gain": self.gain,
            "missing": self.missing,
            "per_query": {q: _clean(v) for q, v in self.per_query.items()},
            "mean": _clean(self.mean),
            "scored_queries": self.scored_queries,
            "missing_queries": list(self.missing_queries),
            "notices": [n.to_dict() for n in self.notices],
            "inputs": {name: s.to_dict() for name, s in self.inputs.items()},
        }


def _clean(values: dict[str, float]) -> dict[str, float | None]:
    return {k: (v if v is None or math.isfinite(v) else None) for k, v in values.items()}
