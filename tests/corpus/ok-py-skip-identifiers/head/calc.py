def add(a, b):
    return a + b


def skip_whitespace(text):
    skipped_count = 0
    return text.strip(), skipped_count
