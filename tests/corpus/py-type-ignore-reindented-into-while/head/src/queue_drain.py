def drain(q):
    item = None
    while not q.empty():
        item = q.get()  # type: ignore[attr-defined]
        q.task_done()  # type: ignore[attr-defined]
    return item
