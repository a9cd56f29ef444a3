def inputs():
    return {"q1": ["d1"]}, {"q1": {"d1": float("nan")}}


ERROR = ("run", ["finite number", "nan"])
