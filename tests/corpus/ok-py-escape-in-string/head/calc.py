def add(a, b):
    return a + b

HINT = 'do not add # noqa or # type: ignore'
