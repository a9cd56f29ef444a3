def inputs():
    return {"q1": ["d1"]}, {"q1": ["d2", "d1", "d2"]}


ERROR = ("run", ["query 'q1'", "document 'd2' is ranked twice (ranks 1 and 3)", 'duplicates="first"'])
