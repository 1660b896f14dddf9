"""``python -m semaff``: the same as the ``semaff`` console script."""

import sys

from semaff.cli import main

sys.exit(main())
