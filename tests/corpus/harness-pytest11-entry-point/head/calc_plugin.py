def pytest_runtest_makereport(item, call):
    return None
