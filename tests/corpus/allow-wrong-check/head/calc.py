def add(a, b):
    return a + b  # type: ignore  # gate: allow skip-markers -- wrong id
