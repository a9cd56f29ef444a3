"""What the page's worker (worker.js) calls: ``web`` (analyse one run, a baseline, many runs,
the Answers mode) and ``inspect`` (one query up close, the precision-recall curve)."""
