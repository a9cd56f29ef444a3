"""Other tools' readings of measure names, registered with the measures: each tool's grammar
and the arithmetic it uses where it differs from the calculator's own.

- ``ir_measures``: ir_measures' measure strings (``P(rel=2)@5``), computed as the provider it
  picks computes them;
- ``ranx``: ranx's metric names (``hits@5``, ``rbp.95``), and ``ranx_arith`` its arithmetic;
- ``trec_eval_9``: trec_eval 9.0.8's arithmetic where trec_eval 10 changed it (pytrec_eval,
  and so ir_measures' pytrec_eval provider);
- ``regrade``: one query read with another tool's relevance level, judged-only or gain map;
- ``ambiguous``: names the calculator's own syntax refuses because tools read them differently.

The tools' Python interfaces (``Qrels``, ``RelevanceEvaluator``, ``calc_aggregate``) sit above
scoring, in ``compat/``; they read names through the registry. Importing this package
registers every reading (the measures' package imports it with the other measure modules).
"""

from . import ambiguous, ir_measures, ranx  # noqa: F401 (each registers itself)
