# a message about a numpy id must be built without failing (json.dumps cannot show np.int64)
NEEDS = ["numpy"]


def inputs():
    import numpy as np
    return {np.int64(1): {np.int64(7): "high"}}, {np.int64(1): [np.int64(7)]}


ERROR = ("qrels", ["query '1'", "document 7", "whole number", "'high'"])
