def inputs():
    return ["d1", "d2"], [["d1"], ["d2"]]


ERROR = ("qrels", ["a str is not a collection of ids"])
