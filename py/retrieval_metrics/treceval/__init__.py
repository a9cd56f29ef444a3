"""``retrieval-metrics trec_eval ARGS...``: trec_eval 10's own command line, its measures
under its own names (``ndcg`` is the whole ranking, ``rbp`` has p = 0.9), and its output byte
for byte, for people who have trec_eval commands to run.

- ``cmdline``: the options, as trec_eval's getopt_long reads them;
- ``files``: its input files (qrels, qrels_jg, trec_results, z-scores) as it reads them;
- ``rankings``: one query's ranking against its judgements (form_res_rels.c);
- ``table``: its measures in its order, their parameters, names and averages;
- ``run``: the evaluation loop, the sums and the printing (trec_eval.c).

The arithmetic is the registry's (``measures.trec_ranked``, ``measures.prefs``).
"""

from .run import main

__all__ = ["main"]
