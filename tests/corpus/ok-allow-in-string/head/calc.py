def add(a, b):
    return a + b

HELP = 'write # gate: allow escapes to silence'
