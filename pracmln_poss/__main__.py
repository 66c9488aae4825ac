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

        if startup.interrupted():
            startup.end_interrupted()
        return main()  # (its own handler replaces the noting one, and looks at what was noted)
    except BaseException:
        if startup.interrupted():  # (whatever a library made of the Ctrl-C)
            startup.end_interrupted()
        raise


if __name__ == "__main__":
    sys.exit(run())
