NEEDS = ["numpy"]


def inputs():
    import numpy as np
    return {"q1": [np.float64(1.5)]}, {"q1": ["d1"]}


ERROR = ("qrels", ["document id must be a str or an int", "1.5", "float"])
