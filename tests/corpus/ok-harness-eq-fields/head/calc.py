class Result:
    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        if isinstance(other, Result):
            return self.value == other.value
        return self.value == other


def add(a, b):
    return Result(a + b)
