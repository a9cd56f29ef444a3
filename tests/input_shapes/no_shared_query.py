# no query of the results is judged (ids of another collection?): refused rather than all zeros
def inputs():
    return {"q1": ["d1"], "q2": ["d2"]}, {"Q1": ["d1"], "Q2": ["d2"]}


ERROR = ("run", ["no query of the results is in the judgements", "'q1', 'q2'", "'Q1', 'Q2'"])
