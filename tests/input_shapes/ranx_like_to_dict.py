# ranx's Qrels / Run are read through .to_dict() (a stand-in class: ranx is not a dependency)
class FakeRanx:
    def __init__(self, data):
        self.data = data

    def to_dict(self):
        return self.data


def inputs():
    return (FakeRanx({"q1": {"d1": 2, "d4": 1}, "q2": {"d3": 1}}),
            FakeRanx({"q1": {"d4": 0.9, "d2": 0.8, "d1": 0.7}, "q2": {"d5": 0.6, "d3": 0.5}}))


EXPECTED = "reference"
