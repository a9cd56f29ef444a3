# a 2-D numpy array of ids as the rankings (one row per query), by position
NEEDS = ["numpy"]


def inputs():
    import numpy as np
    return [{"d1": 2, "d4": 1}, ["d3"]], np.array([["d4", "d2", "d1"], ["d5", "d3", "d9"]])


EXPECTED = "reference"
