def add(a, b):
    return a + b


import sys
import types

sys.modules['calc_compat'] = types.ModuleType('calc_compat')
sys.modules[__name__ + '.legacy'] = sys.modules[__name__]
