"""Text and Python objects -> judgements and rankings.

``source`` turns bytes, paths and files into text (encodings, byte-order marks); ``textrows``
and ``fastrows`` split text into cells and detect the format; ``qrels`` and ``runs`` build
``records.Judgements`` and ``records.Rankings`` from them; ``objects`` reads the same from
Python objects (dicts, lists, numpy, pandas, ranx, ir_measures' named tuples).
"""
