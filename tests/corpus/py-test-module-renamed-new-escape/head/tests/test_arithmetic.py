import pytest

from calc import add


def helper(x):
    return add(x, 1)  # type: ignore[arg-type]


@pytest.mark.skip(reason="flaky on CI, issue 12")
def test_add():
    assert add(1, 2) == 3  # type: ignore


@pytest.mark.xfail
def test_neg():
    assert add(-1, 1) == 0  # noqa: E501
