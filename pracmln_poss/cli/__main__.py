"""``python -m pracmln_poss.cli``: the command line, as ``python -m pracmln_poss`` runs it."""

from __future__ import annotations

__all__: list[str] = []

import sys

from .process import main

if __name__ == "__main__":
    sys.exit(main())
