# a run DataFrame with a rank column (lowest first) and no score; numpy int64 cells
NEEDS = ["pandas"]


def inputs():
    import pandas as pd
    qrels = pd.DataFrame({"qid": ["q1", "q1", "q2"], "docno": ["d1", "d4", "d3"], "label": [2, 1, 1]})
    run = pd.DataFrame({"qid": ["q1", "q1", "q1", "q2", "q2"],
                        "docno": ["d2", "d1", "d4", "d3", "d5"], "rank": [2, 3, 1, 2, 1]})
    return qrels, run


EXPECTED = "reference"
