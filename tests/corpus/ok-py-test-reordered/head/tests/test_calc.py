from calc import add


def test_neg():
    assert add(-1, 1) == 0


def test_add():
    assert add(1, 2) == 3
