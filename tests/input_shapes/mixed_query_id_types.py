NEEDS = ["numpy"]


def inputs():
    import numpy as np
    return {np.int64(1): ["d1"]}, {"1": ["d1"]}


ERROR = ("run", ["query ids mix int and str"])
