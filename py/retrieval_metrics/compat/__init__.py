"""Drop-in stand-ins for other tools' Python interfaces, standard library only, so code written
for them runs unchanged without a compiler and in the page (Pyodide): ``compat.pytrec_eval``
(``RelevanceEvaluator``) and ``compat.ir_measures`` (``calc_aggregate``, ``iter_calc``, with
ir_measures' counting); docs/names.md.
"""
