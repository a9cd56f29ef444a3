"""A live retriever scored: ``evaluate_retrieval``, the shapes of its answers and their
statuses, latency, progress, and the result it returns."""
