# whole Series (one element per query) align by position, as scikit-learn does
NEEDS = ["pandas"]


def inputs():
    import pandas as pd
    y_true = pd.Series([{"d1": 2, "d4": 1}, ["d3"]], index=["q1", "q2"])
    y_pred = pd.Series([["d4", "d2", "d1"], ["d5", "d3"]], index=["q1", "q2"])
    return y_true, y_pred


EXPECTED = "reference"
