from src.queue_drain import drain


def test_drain():
    assert drain is not None
