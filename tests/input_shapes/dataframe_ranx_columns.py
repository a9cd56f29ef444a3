# ranx writes q_id / doc_id / score, for qrels (the score is the grade) and runs alike
NEEDS = ["pandas"]


def inputs():
    import pandas as pd
    qrels = pd.DataFrame({"q_id": ["q1", "q1", "q2"], "doc_id": ["d1", "d4", "d3"],
                          "score": [2, 1, 1]})
    run = pd.DataFrame({"q_id": ["q2", "q1", "q2", "q1", "q1"],
                        "doc_id": ["d3", "d1", "d5", "d2", "d4"],
                        "score": [1.0, 1.0, 2.0, 2.0, 3.0]})
    return qrels, run


EXPECTED = "reference"
