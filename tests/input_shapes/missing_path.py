# a one-line str with a path separator that names no file: an error, not one line of data
def inputs():
    return "runs/no-such-qrels.txt", {"q1": ["d1"]}


ERROR = ("qrels", ["no such file", "runs/no-such-qrels.txt"])
