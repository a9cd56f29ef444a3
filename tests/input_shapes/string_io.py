# io.StringIO (TREC qrels) and io.BytesIO (TREC run): read as text
def inputs():
    import io
    qrels = io.StringIO("q1 0 d1 2\nq1 0 d4 1\nq2 0 d3 1\n")
    run = io.BytesIO(b"q1 Q0 d4 1 3 t\nq1 Q0 d2 2 2 t\nq1 Q0 d1 3 1 t\n"
                     b"q2 Q0 d5 1 2 t\nq2 Q0 d3 2 1 t\n")
    return qrels, run


EXPECTED = "reference"
