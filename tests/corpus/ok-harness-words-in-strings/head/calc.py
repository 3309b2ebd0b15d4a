"""Never does `builtins.AssertionError = X` or reads os.environ["CI"]."""

# unittest.TestCase.run = patched  (a comment)
NOTE = "sys.modules['pytest'] = None; import _pytest"


def add(a, b):
    return a + b
