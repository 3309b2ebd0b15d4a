import pytest

from calc import add

_HOW = 'sk' + 'ip'


def test_add():
    getattr(pytest, _HOW)('later')
    assert add(1, 2) == 3
