# 1 and "1": one id type per evaluation
def inputs():
    return {"q1": {1: 1, 2: 0}}, {"q1": ["1", "2"]}


ERROR = ("run", ["document ids mix int and str", "1 (int, in the judgements)", "'1' (str, in the results)"])
