NEEDS = ["pandas"]


def inputs():
    import pandas as pd
    return (pd.Series([["d1"], ["d3"]], index=["q1", "q2"]),
            pd.Series([["d3"], ["d1"]], index=["q2", "q1"]))


ERROR = ("run", ["different indexes", "reindex"])
