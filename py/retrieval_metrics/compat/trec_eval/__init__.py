"""``retrieval-metrics trec_eval ARGS...``: trec_eval 10's own command line, its measures
under its own names (``ndcg`` is the whole ranking, ``rbp`` has p = 0.9), and its output byte
for byte, for people who have trec_eval commands to run.

- ``cmdline``: the options, as trec_eval's getopt_long reads them;
- ``files``: its input files (qrels, qrels_jg, trec_results, z-scores) as it reads them;
- ``prefs_files``: its preference judgements (prefs, qrels_prefs);
- ``rankings``: one query's ranking against its judgements (form_res_rels.c);
- ``prefs``: one query's ranking against its preferences (form_prefs_counts.c);
- ``prefs_measures``: the prefs_* measures (m_prefs_*.c), which only this mode has;
- ``table``: its measures in its order, their parameters, names and averages;
- ``run``: the evaluation loop, the sums and the printing (trec_eval.c).

The arithmetic of the other measures is the registry's (``measures.trec_ranked``).
"""

from .run import main

__all__ = ["main"]
