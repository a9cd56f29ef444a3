# pandas DataFrames with query_id / doc_id / relevance and query_id / doc_id / score
NEEDS = ["pandas"]


def inputs():
    import pandas as pd
    qrels = pd.DataFrame({"query_id": ["q1", "q1", "q2"], "doc_id": ["d1", "d4", "d3"],
                          "relevance": [2, 1, 1]})
    run = pd.DataFrame({"query_id": ["q1", "q1", "q1", "q2", "q2"],
                        "doc_id": ["d1", "d2", "d4", "d3", "d5"],
                        "score": [0.1, 0.5, 0.9, 0.2, 0.7]})
    return qrels, run


EXPECTED = "reference"
