# a Series as ONE query's judgements: its index or its values could be the ids
NEEDS = ["pandas"]


def inputs():
    import pandas as pd
    return {"q1": pd.Series({"d1": 1, "d2": 0})}, {"q1": ["d1"]}


ERROR = ("qrels", ["query 'q1'", "pandas Series", "series.to_dict()", "series.tolist()"])
