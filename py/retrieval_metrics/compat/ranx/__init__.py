"""ranx in one place: its metric names read as it reads them (``names``: ``ranx:hits@5``,
``ranx:rbp.95``, registered with the measures) and its arithmetic where it differs from the
calculator's own (``arith``).
"""
