import pytest
from calc import add


def test_add():
    assert add(1, 2) == 3


@pytest.mark.parametrize('n', [1, 2])
def test_neg(n):
    assert add(-n, n) == 0
