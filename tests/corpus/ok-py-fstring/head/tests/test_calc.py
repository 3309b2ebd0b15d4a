from calc import add


def test_add():
    assert add(1, 2) == 3


def test_neg():
    assert add(-1, 1) == 0


def test_fmt():
    x = 1
    assert f'{x} pytest.skip(' != ''
