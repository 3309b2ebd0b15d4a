from unittest import skip as later
import pytest as pt
from calc import add


def test_add():
    assert add(1, 2) == 3


def test_neg():
    assert add(-1, 1) == pt.approx(0)
    note = 'later'  # later
