"""The only part of the package that imports pracmln (and only when called).

:mod:`.compat` imports pracmln on Python 3.11 with or without tkinter; :mod:`.loader`
turns ``.mln``/``.db`` files into plain data; :mod:`.database` reads ``.db`` files;
:mod:`.weights` evaluates pracmln weight expressions; :mod:`.wcsp` is a MAP backend on
pracmln's ``WCSPInference``.
"""

__all__: list[str] = []
