"""Let ``import pracmln`` work in this environment as it does for a pracmln user.

Installed next to pracmln by ``tools/install_pracmln.py`` (with a ``.pth`` line that
imports it at start-up; it costs a few microseconds and imports nothing else).  pracmln
1.2.4's package ``__init__`` imports its Tk GUIs, which fails on Python >= 3.10 (a
name ``tkinter.filedialog`` no longer has) and on Pythons built without Tk.  When, and
only when, ``pracmln`` is first imported, this finder asks pracmln_poss to prepare the
interpreter (``pracmln_poss.compat.prepare_import``), then steps aside: the
import itself is Python's own.  Without pracmln_poss installed it does nothing.
"""

from __future__ import annotations

import sys


class _PrepareForPracmln:
    """A meta path finder that finds nothing; it prepares the first import of pracmln."""

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name == "pracmln":
            sys.meta_path[:] = [f for f in sys.meta_path if f is not cls]
            try:
                from pracmln_poss.compat import prepare_import
            except ImportError:
                return None
            prepare_import()
        return None


if _PrepareForPracmln not in sys.meta_path:
    sys.meta_path.insert(0, _PrepareForPracmln)
