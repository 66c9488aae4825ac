"""One exception tree for the whole package.

Every error the package raises on purpose derives from :class:`PossError`; the
subclasses also inherit the builtin exception they mean, so callers may catch
either.  Messages name the offending value and, where known, its file position.
"""

from __future__ import annotations

__all__ = [
    "PossError",
    "SourcePosition",
    "FormulaSyntaxError",
    "ModelError",
    "UnsupportedInputError",
    "WeightError",
    "InconsistentEvidenceError",
    "InconsistentModelError",
    "UnknownNameError",
    "BackendError",
    "DependencyError",
    "OutputError",
    "ClosedError",
    "TimeLimitReached",
    "ArgumentError",
    "ArgumentTypeError",
    "PossWarning",
    "PracmlnWarning",
    "ResolutionWarning",
    "closest",
    "clipped",
    "one_line",
]

import difflib
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

MAX_SHOWN = 200
"""Characters of an input line an error message shows at most."""


@dataclass(frozen=True)
class SourcePosition:
    """Where a piece of input came from: file, 1-based line and the line's text."""

    file: str | None = None
    line: int | None = None
    text: str | None = None

    def __str__(self) -> str:
        where = one_line(self.file) if self.file else "<input>"
        if self.line is not None:
            where += f":{self.line}"
        if self.text is not None:
            where += f": {clipped(self.text.strip())}"
        return where


def one_line(text: str) -> str:
    """``text`` with its control characters and line breaks written as Python writes them
    in a string (``\\n``, ``\\x0b``, ``\\u2028``): a file's name in a message stays on
    the message's line (a path may hold a newline)."""
    if text.isprintable() or not any(unicodedata.category(c) in _BREAKING for c in text):
        return text
    return "".join(c.encode("unicode_escape").decode("ascii") if unicodedata.category(c) in _BREAKING else c
                   for c in text)


_BREAKING = frozenset({"Cc", "Zl", "Zp"})
"""The categories of the characters :func:`one_line` writes escaped."""


def clipped(text: str) -> str:
    """``text`` as an error message quotes it: at most ``MAX_SHOWN`` characters, a
    longer one cut and its length said (a message is one line a person reads)."""
    return text if len(text) <= MAX_SHOWN else f"{text[: MAX_SHOWN - 40]}... ({len(text):,} characters)"


class PossError(Exception):
    """Root of every error raised by :mod:`pracmln_poss`."""

    def __init__(self, message: str, position: SourcePosition | None = None) -> None:
        self.message = message
        self.position = position
        super().__init__(f"{position}: {message}" if position else message)

    def at(self, position: SourcePosition | None, message: str | None = None) -> PossError:
        """This error (a copy: its class and what it carries) placed at ``position``, its
        message ``message`` if given: how a caller that knows the place says it, whatever
        the subclass's own constructor takes (:class:`~.bridge.database.SeveralDatabasesError`
        takes the databases)."""
        # (not copy.copy, which calls the class again with its args: a subclass's
        # constructor takes others)
        placed = type(self).__new__(type(self))
        placed.__dict__.update(self.__dict__)
        placed.message = self.message if message is None else message
        placed.position = position
        placed.args = (f"{position}: {placed.message}" if position else placed.message,)
        return placed


class FormulaSyntaxError(PossError, ValueError):
    """Malformed input text (a formula, a literal, a line of a file)."""


class ModelError(PossError, ValueError):
    """An MLN that cannot be turned into a ground MLN as given."""


class UnsupportedInputError(ModelError):
    """Input that is valid for pracmln but outside what we support (e.g. fuzzy logic)."""


class WeightError(ModelError):
    """A weight that cannot be converted exactly (unparsable, NaN, rounds to zero)."""


class InconsistentEvidenceError(PossError, ValueError):
    """Evidence that contradicts the hard formulas: no world satisfies both."""


class InconsistentModelError(PossError, ValueError):
    """The hard formulas of a model are unsatisfiable on their own."""


class UnknownNameError(PossError, KeyError):
    """An unknown atom, predicate, backend or method name."""

    def __str__(self) -> str:  # KeyError would otherwise repr() the message
        return Exception.__str__(self)


class BackendError(PossError, RuntimeError):
    """A solver backend failed or returned something inconsistent."""


class DependencyError(PossError, ImportError):
    """An optional dependency (pracmln) is missing or cannot be imported."""


class ArgumentError(PossError, ValueError):
    """A Python argument with a value out of range (naming the parameter)."""


class ArgumentTypeError(PossError, TypeError):
    """A Python argument of the wrong type (naming the parameter and what it takes)."""


class ClosedError(PossError, RuntimeError):
    """An object used after it was closed (a reasoner after its ``with`` block)."""


class OutputError(PossError, OSError):
    """An output file that cannot be written (missing or unwritable directory, not a regular file)."""


class TimeLimitReached(PossError, TimeoutError):
    """A time limit (``--time-limit``, :meth:`~pracmln_poss.stopping.Guard.deadline`) passed
    before the answer was proven."""


class PossWarning(UserWarning):
    """Root of every warning the package gives (the command line prints each as one line)."""


class ResolutionWarning(PossWarning):
    """Rounding weights to the resolution made distinct weights equal."""


class PracmlnWarning(PossWarning):
    """A warning pracmln logged, on the command line given as one of ours (one line)."""


def closest(name: str, known: Iterable[str], what: str = "", n: int = 3) -> str:
    """What to say after an unknown name: "did you mean X, Y?" (the same name in another
    case first, then the closest spellings), else the known names (``what`` names them:
    "its predicates")."""
    names = list(dict.fromkeys(known))
    same = [n for n in names if n.lower() == name.lower()]
    lowered = {n.lower(): n for n in names}
    close = same or [lowered[c] for c in difflib.get_close_matches(name.lower(), list(lowered), n=n, cutoff=0.5)]
    if close:
        return f"did you mean {', '.join(close)}?"
    return f"{what}: {', '.join(names)}" if what else ""
