# sequences aligned by position (scikit-learn style): one element per query
def inputs():
    return ([{"d1": 2, "d4": 1}, {"d3"}],
            [["d4", "d2", "d1"], ("d5", "d3")])


EXPECTED = "reference"
