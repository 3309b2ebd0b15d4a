import pytest

from calc import add


def test_add():
    name = 'add'
    assert getattr(__import__('calc'), name)(1, 2) == 3
    assert getattr(pytest, 'approx')(3) == add(1, 2)
