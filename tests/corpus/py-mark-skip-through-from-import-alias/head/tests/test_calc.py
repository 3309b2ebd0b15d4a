from pytest import mark as m
from calc import add


def test_add():
    assert add(1, 2) == 3


@m.skip(reason='later')
def test_neg():
    assert add(-1, 1) == 0
