# judgements by position, results as TREC text (keyed by query id): nothing would pair
def inputs():
    return [["d1"]], "q1 Q0 d1 1 2.5 t\n"


ERROR = ("run", ["aligned by position", "keyed by query id"])
