"""Every other tool's Python interface, one folder each, as ir_measures keeps one provider per
backend: ``ir_measures/`` (``calc_aggregate``, ``iter_calc``, its measure objects),
``ranx/`` (``Qrels``, ``Run``, ``evaluate``, ``compare``), ``pytrec_eval/``
(``RelevanceEvaluator``) and ``trec_eval/`` (trec_eval 10's command line, the CLI's
``trec_eval`` mode). Standard library only, so code written for those tools runs unchanged
without a compiler and in the page (Pyodide); docs/names.md.

This folder sits above scoring: the interfaces score through the calculator. The tools'
readings of measure names and their arithmetic sit with the measures
(``measures/dialects/``), which register them. docs/README.md has the order.
"""
