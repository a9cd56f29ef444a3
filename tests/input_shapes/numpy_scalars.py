# numpy scalars of every int and float kind: grades, scores and int ids
NEEDS = ["numpy"]


def inputs():
    import numpy as np
    ints = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
    floats = [np.float16, np.float32, np.float64]
    qrels, run = {}, {}
    for i, kind in enumerate(ints):
        # query i: doc 1 grade 2 (of this int kind), doc 2 grade 1 (a whole float kind)
        qrels[kind(i)] = {kind(1): kind(2), kind(2): floats[i % 3](1.0)}
        # ranked 2 (score 0.75), 3 (0.5), 1 (0.25): scores of a float kind
        f = floats[i % 3]
        run[np.int64(i)] = {np.uint64(1): f(0.25), np.int32(2): f(0.75), np.int16(3): f(0.5)}
    return qrels, run


# every query: relevant 1 (grade 2) at rank 3, 2 (grade 1) at rank 1
# recall@2 = 1/2; mrr = 1; ndcg@3 = (1 + 2/log2(4)) / (2 + 1/log2(3)) = 2 / 2.6309...
import math

EXPECTED = {"recall@2": [0.5] * 8, "mrr": [1.0] * 8, "ndcg@3": [2 / (2 + 1 / math.log2(3))] * 8}
