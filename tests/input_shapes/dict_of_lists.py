# relevant ids as a list (grade 1 each) and rankings as lists, best first
def inputs():
    return ({"q1": {"d1": 2, "d4": 1}, "q2": ["d3"]},
            {"q1": ["d4", "d2", "d1"], "q2": ["d5", "d3"]})


EXPECTED = "reference"
