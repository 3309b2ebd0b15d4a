def add(a, b):
    return a + b

MSG = 'it\'s not # noqa, nor pytest.mark.skip'
