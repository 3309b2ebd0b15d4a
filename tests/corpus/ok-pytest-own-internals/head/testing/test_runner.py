def test_run():
    assert True
