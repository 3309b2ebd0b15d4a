import os

os.environ.setdefault('CALC_MODE', 'fast')
os.environ['LANG'] = 'C'


def add(a, b):
    return a + b
