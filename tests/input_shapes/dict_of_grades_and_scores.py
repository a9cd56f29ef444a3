# pytrec_eval's shapes: {query: {doc: grade}} and {query: {doc: score}}
def inputs():
    return ({"q1": {"d1": 2, "d4": 1}, "q2": {"d3": 1}},
            {"q1": {"d4": 9.0, "d2": 8.5, "d1": 1.0}, "q2": {"d5": 3, "d3": 2}})


EXPECTED = "reference"
