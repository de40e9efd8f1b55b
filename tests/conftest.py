import sys
from pathlib import Path

# tests/naive.py is imported as a plain module by the tests.
sys.path.insert(0, str(Path(__file__).parent))
