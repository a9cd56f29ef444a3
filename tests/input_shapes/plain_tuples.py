# (query, doc, grade) and (query, doc, score) tuples, from a generator for the run
def inputs():
    qrels = [("q1", "d1", 2), ("q1", "d4", 1), ("q2", "d3", 1)]
    run = ((q, d, s) for q, d, s in [("q1", "d1", 0.1), ("q1", "d4", 0.3), ("q1", "d2", 0.2),
                                     ("q2", "d3", 1), ("q2", "d5", 2)])
    return qrels, run


EXPECTED = "reference"
