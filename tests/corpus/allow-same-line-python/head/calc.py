def add(a, b):
    return a + b  # type: ignore[operator]  # gate: allow escapes -- numpy stubs lie
