# an open text file (qrels) and a path string (run) in a temporary folder
def inputs():
    import os
    import tempfile
    folder = tempfile.mkdtemp()
    with open(os.path.join(folder, "qrels.txt"), "w") as f:
        f.write("q1 0 d1 2\nq1 0 d4 1\nq2 0 d3 1\n")
    with open(os.path.join(folder, "run.trec"), "w") as f:
        f.write("q1 Q0 d4 1 3 t\nq1 Q0 d2 2 2 t\nq1 Q0 d1 3 1 t\nq2 Q0 d5 1 2 t\nq2 Q0 d3 2 1 t\n")
    return open(os.path.join(folder, "qrels.txt")), os.path.join(folder, "run.trec")


EXPECTED = "reference"
