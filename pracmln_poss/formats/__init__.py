"""Reading and writing possibilistic theories: text, JSON and LaTeX (write only).

:func:`~.output.save` writes atomically (a temporary file renamed into place), so an error or an
interrupt never leaves a partial output file.
"""

from __future__ import annotations

__all__ = ["FORMATS", "dumps", "loads", "load_theory", "save", "atomic_write", "check_writable", "write_stdout",
           "sibling_name", "Destination"]

from .codec import FORMATS, dumps, load_theory, loads
from .output import Destination, atomic_write, check_writable, save, sibling_name, write_stdout
