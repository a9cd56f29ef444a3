"""Judgements + rankings + settings -> per-query scores and their means.

``settings`` validates what to compute; ``query`` scores one query; ``evaluate`` applies the
counting rules (which queries count) and builds the report; ``functions`` are the
scikit-learn-style helpers (``ranking_metrics``, ``ndcg_at_k``, ...); ``undefined`` is the
warning for values undefined on a query.
"""
