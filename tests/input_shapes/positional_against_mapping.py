def inputs():
    return ([["d1"], ["d3"]], {"0": ["d1"], "1": ["d3"]})


ERROR = ("run", ["aligned by position", "keyed by query id"])
