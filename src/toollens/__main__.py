"""``python -m toollens``: the same command line as the ``toollens`` script."""

from __future__ import annotations

import sys

from toollens.cli import main

if __name__ == "__main__":
    sys.exit(main())
