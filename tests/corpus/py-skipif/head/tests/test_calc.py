import sys
import pytest
from calc import add


def test_add():
    assert add(1, 2) == 3


@pytest.mark.skipif(sys.platform == 'linux', reason='x')
def test_neg():
    assert add(-1, 1) == 0
