# str ids in the judgements, int ids in the results: the results are named
def inputs():
    return {"q1": ["1", "2"]}, {"q1": [1, 2]}


ERROR = ("run", ["document ids mix int and str", "1 (int, in the results)", "'1' (str, in the judgements)"])
