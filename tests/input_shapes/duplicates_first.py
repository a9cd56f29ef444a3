# duplicates="first": several chunks of one document count at its best (first) rank
KWARGS = {"duplicates": "first"}


def inputs():
    return {"q1": ["d1"]}, {"q1": ["d2", "d2", "d1", "d1"]}


# ranking d2, d1 -> recall@2 1, mrr 1/2, ndcg@3 = (1/log2(3)) / 1
import math

EXPECTED = {"recall@2": [1.0], "mrr": [0.5], "ndcg@3": [1 / math.log2(3)]}
