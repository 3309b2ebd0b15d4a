import pytest


@pytest.fixture
def calc():
    return 1


def pytest_addoption(parser):
    parser.addoption('--calc')


@pytest.fixture
def calc_two():
    return 2
