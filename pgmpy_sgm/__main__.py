"""``python -m pgmpy_sgm``: the ``pgmpy-sgm`` command line."""

import sys

from pgmpy_sgm.cli import main

sys.exit(main())
