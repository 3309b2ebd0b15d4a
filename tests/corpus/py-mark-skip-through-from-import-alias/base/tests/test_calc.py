from calc import add


def test_add():
    assert add(1, 2) == 3


def test_neg():
    assert add(-1, 1) == 0
