"""``pytrec_eval`` for pytrec_eval's own test file: this project's drop-in (see README.md)."""
from retrieval_metrics.compat.pytrec_eval import *  # noqa: F403
