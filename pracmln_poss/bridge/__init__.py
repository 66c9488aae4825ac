"""pracmln's formats and pracmln itself (pracmln is imported only when called).

:mod:`pracmln_poss.compat` imports pracmln on Python 3.11 to 3.13 with or without tkinter;
:mod:`.loader` turns ``.mln``/``.db`` files into plain data, with our own reader
:mod:`.mln_file` or pracmln's parser; :mod:`.database` reads ``.db`` files;
:mod:`.project` reads ``.pracmln`` projects; :mod:`.weight_expressions` evaluates
pracmln weight expressions; :mod:`.plugin` adds ``MLN.to_possibilistic``.  (The MAP
backend on pracmln's ``WCSPInference`` is :mod:`pracmln_poss.map.wcsp`.)
"""

__all__: list[str] = []
