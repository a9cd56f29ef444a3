NEEDS = ["pandas"]


def inputs():
    import pandas as pd
    return {"q1": ["d1"]}, [pd.Series(["d1", "d2"])]


ERROR = ("run", ["pandas Series", "series.tolist()"])
KWARGS_NOTE = "y_true by mapping, y_pred by position: the Series is refused before the pairing"
