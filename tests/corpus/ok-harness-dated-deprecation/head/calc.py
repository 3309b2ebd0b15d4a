import warnings
from datetime import date

REMOVAL = date(2027, 1, 1)


def add(a, b):
    warnings.warn(f"add() is removed on {REMOVAL}", DeprecationWarning, stacklevel=2)
    return a + b
