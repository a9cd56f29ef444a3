NEEDS = ["pandas"]


def inputs():
    import pandas as pd
    return pd.DataFrame({"a": ["q1"], "b": ["d1"], "c": [1]}), {"q1": ["d1"]}


ERROR = ("qrels", ["columns ['a', 'b', 'c']", "query_id"])
