def inputs():
    return ["d1", "d2"], [["d1"], ["d2"]]


ERROR = ("qrels", ["is one query's relevant documents", "{query_id: ids}"])
