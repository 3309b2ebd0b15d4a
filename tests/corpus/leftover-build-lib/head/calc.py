def add(a, b):
    return int(a) + int(b)
