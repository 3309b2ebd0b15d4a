import builtins
import sys

PRINT = builtins.print
LOADED = 'json' in sys.modules


def add(a, b):
    return a + b
