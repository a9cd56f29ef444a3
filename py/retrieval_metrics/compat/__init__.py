"""Every other tool in one place, one folder each, as ir_measures keeps one provider per backend:
``ir_measures/`` (its names and its Python interface), ``ranx/`` (its names and arithmetic),
``pytrec_eval/`` (its interface and trec_eval 9.0.8's arithmetic) and ``trec_eval/`` (trec_eval
10's command line, the CLI's ``trec_eval`` mode); ``regrade`` is the relevance level the
ir_measures and ranx readings share. Standard library only, so code written for those tools
runs unchanged without a compiler and in the page (Pyodide); docs/names.md.

A tool's reading of names (``names``) and arithmetic (``arith``) sit in the measures' stage
(the measures register them); its interface sits above scoring. docs/README.md has the order.
"""
