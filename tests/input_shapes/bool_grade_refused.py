def inputs():
    return {"q1": {"d1": True}}, {"q1": ["d1"]}


ERROR = ("qrels", ["whole number", "True"])
