def inputs():
    return ([["d1"], ["d3"]], [["d1"]])


ERROR = ("run", ["1 rankings for 2 queries"])
