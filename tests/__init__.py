"""The test suite, laid out like the package: tests/game/test_cards.py tests
analyzer/game/cards.py; cross-cutting suites stay at the top."""
