import sys

from analyzer.cli.console import main

sys.exit(main())
