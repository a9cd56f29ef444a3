# a str is never a collection of ids: "d1" would otherwise be the ranking d, 1
def inputs():
    return {"q1": ["d1"]}, {"q1": "d1"}


ERROR = ("run", ["query 'q1'", "a str is not a collection of ids", "['d1']"])
