from calc import add


def test_add():
    assert add(1, 2) == 3


# @pytest.mark.skip was here until #12 was fixed
def test_neg():
    assert add(-1, 1) == 0
