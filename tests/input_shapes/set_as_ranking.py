def inputs():
    return {"q1": ["d1"]}, {"q1": {"d1", "d2"}}


ERROR = ("run", ["a set has no order"])
