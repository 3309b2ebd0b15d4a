from calc import add


def test_add():
    assert add(1, 2) == 3


def test_neg():
    assert add(-1, 1) == 0


@skip_slow
def test_big():
    assert skipper(1) == skip_count
