def pytest_configure(config) -> None:
    # (the project may register it too: registering twice is harmless)
    config.addinivalue_line(
        "markers", "slow: a test of a minute or more; `pytest -m 'not slow'` is the quick check"
    )
