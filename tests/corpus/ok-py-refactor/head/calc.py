def add(a: int, b: int) -> int:
    """Sum; never type: ignore here."""
    return a + b
