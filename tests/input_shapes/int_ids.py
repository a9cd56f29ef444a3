# int ids throughout (numpy ints count as int)
def inputs():
    return ({1: {11: 2, 14: 1}, 2: [13]},
            {1: [14, 12, 11], 2: [15, 13]})


EXPECTED = "reference"
