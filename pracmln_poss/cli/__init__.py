"""The ``pracmln-poss`` command line: one command per thing a user does with a model.

- ``map MODEL [--db FILE] [--evidence LIT ...]``: a MAP world and, per atom, whether it
  is true in all, some or no MAP worlds (``--time-limit``, ``--anytime``; one answer per
  database of a file of several);
- ``convert MODEL -o OUT``: the possibilistic theory (the transformations, ``-k``,
  ``--jobs``, a checkpoint to resume from);
- ``query THEORY --evidence ... --query F``: a possibilistic query (entailed or not, at
  which consistency level, how many formulas drowned);
- ``explain THEORY ...``: why, with the rules that make it follow (``--mln``: the MAP
  world where it fails);
- ``verify THEORY --mln MODEL``: the theory against MAP inference, pair by pair;
- ``show THEORY``, ``report THEORY``: the theory level by level, with its warnings, as
  text or as a page.

Errors go to stderr as ``pracmln-poss: error: ...`` with exit status 2; an interrupt
exits with 130, SIGTERM and SIGHUP with 143 and 129, whatever solver is running (a signal
inherited ignored, as SIGHUP under nohup, stays ignored)
(:mod:`pracmln_poss.stopping`).

Its modules: :mod:`.process` (a run as a process: signals, errors, exit status),
:mod:`.parser` (the commands' options), :mod:`.common` (what the commands share), and
one per kind of command (:mod:`.map_command`, :mod:`.convert_command`,
:mod:`.theory_commands`).
"""

from __future__ import annotations

__all__ = ["main", "build_parser", "UsageError"]

from .common import UsageError
from .parser import build_parser
from .process import main
