"""The ``baccarat-odds`` command line."""
