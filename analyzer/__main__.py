import sys

from analyzer.console import main

sys.exit(main())
