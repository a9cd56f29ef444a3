"""Every measure: the registry and the arithmetic.

``registry`` holds one entry per measure (its arithmetic, names, label, cutoff rule,
parameters, aggregation, citation) and parses metric names; it imports no measure. Each
measure module registers its measures when it is imported, which this package does below, so
``from retrieval_metrics.measures import registry`` always finds every measure registered.
"""

from . import core, trec  # noqa: F401  (they register themselves)
