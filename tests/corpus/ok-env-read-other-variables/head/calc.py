import os

SCALE = int(os.environ.get('CALC_SCALE', '1'))
HOME = os.environ['HOME']
DEBUG = 'DEBUG' in os.environ


def add(a, b):
    return (a + b) * SCALE
