def add(a, b):
    return a + b


import sys
import types

sys.modules['tests.test_calc'] = types.ModuleType('tests.test_calc')
