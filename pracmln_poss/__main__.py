"""``python -m pracmln_poss`` runs the command line (and the ``pracmln-poss`` script calls
:func:`run`)."""

from __future__ import annotations

__all__ = ["run"]

import os
import sys


def run() -> int:
    """The command line's exit status (a Ctrl-C while it starts: 130, one line)."""
    from . import startup

    try:
        # numpy's OpenBLAS starts a thread per core as numpy is imported; nothing here uses
        # BLAS (a third of numpy's import here, and a pool in every worker process of -j N)
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        startup.note_interrupts()  # (the package noted them already when it is the command line)
        from .cli import main
    finally:  # (a Ctrl-C noted meanwhile ends the process, whatever the imports did)
        startup.end_if_interrupted()
    return main()  # (its own handler replaces the noting one, and looks at what was noted)


if __name__ == "__main__":
    sys.exit(run())
