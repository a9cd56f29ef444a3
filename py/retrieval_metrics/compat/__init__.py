"""Drop-in stand-ins for other tools' Python interfaces, standard library only, so code written
for them runs unchanged without a compiler and in the page (Pyodide): ``compat.pytrec_eval``.
"""
