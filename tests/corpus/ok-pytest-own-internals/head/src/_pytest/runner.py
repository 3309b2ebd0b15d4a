from _pytest.nodes import Item
from _pytest.reports import TestReport


def run(item):
    return TestReport


TestReport.__module__ = 'pytest'
