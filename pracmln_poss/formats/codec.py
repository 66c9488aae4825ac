"""Theories in and out of text by format name: :func:`dumps`, :func:`loads`,
:func:`load_theory` (text, JSON; LaTeX written only)."""

from __future__ import annotations

__all__ = ["FORMATS", "dumps", "loads", "load_theory", "theory_limit", "free_memory", "READ_FACTOR"]

import os
import re
from typing import Literal, overload

from .. import arguments
from ..collector import collection_paused
from ..errors import ModelError, PossError, SourcePosition, UnknownNameError
from ..possibilistic.lifted_theory import LiftedTheory
from ..possibilistic.protocol import Theory
from ..possibilistic.theory import PossibilisticTheory
from ..sources import MAX_INPUT_BYTES, read_source
from .json_format import read_json, to_json
from .latex import to_latex
from .lifted_text import is_lifted_text, read_lifted_text, write_lifted_text
from .sections import MADE_BY
from .text import read_text, write_text

FORMATS = ("text", "json", "latex")
"""The theory file formats, by name."""


def dumps(theory: Theory, fmt: str = "text", made_by: str | None = None) -> str:
    """The theory, ground or lifted, in one of :data:`FORMATS`; ``made_by`` (one line:
    how it was made, such as the command that made it; default: the theory's own) is
    written with it, in a comment under the header line (text, LaTeX) or as ``made_by``
    (JSON); the readers give it back as the theory's ``made_by``, and read nothing else
    into it."""
    arguments.instance("theory", theory, PossibilisticTheory | LiftedTheory, "a PossibilisticTheory or a LiftedTheory")
    made_by = theory.made_by if made_by is None else made_by
    if made_by is not None:
        arguments.text("made_by", made_by)
        made_by = " ".join(made_by.split())  # (one line: a comment ends at its line's end)
    if fmt == "text":
        # a ground theory is its own grounding (Theory.ground)
        text = write_lifted_text(theory) if isinstance(theory, LiftedTheory) else write_text(theory.ground())
        if made_by is None:
            return text
        header, _, rest = text.partition("\n")
        return f"{header}\n{MADE_BY}{made_by}\n{rest}"
    if fmt == "json":
        return to_json(theory, made_by)
    if fmt == "latex":
        return to_latex(theory) if made_by is None else f"% made by: {made_by}\n{to_latex(theory)}"
    raise UnknownNameError(f"unknown format {fmt!r}; valid: {', '.join(FORMATS)}")


@overload
def loads(text: str, fmt: str | None = ..., source: str | None = ...,
          ground: Literal[True] = ..., force: bool = ...) -> PossibilisticTheory: ...
@overload
def loads(text: str, fmt: str | None = ..., source: str | None = ...,
          ground: bool = ..., force: bool = ...) -> PossibilisticTheory | LiftedTheory: ...
def loads(
    text: str, fmt: str | None = None, source: str | None = None, ground: bool = True, force: bool = False
) -> PossibilisticTheory | LiftedTheory:
    """Read a theory in the text or JSON format (``None``: JSON if it starts with ``{``).

    :param ground: ground a lifted theory over its types (a
        :class:`~pracmln_poss.possibilistic.theory.PossibilisticTheory`); False keeps it a
        :class:`~pracmln_poss.possibilistic.lifted_theory.LiftedTheory`.
    :param force: ground it even above :data:`~pracmln_poss.possibilistic.lifted_theory.MAX_GROUNDINGS`.
    """
    arguments.text("text", text)
    if fmt is None:
        fmt = "json" if text.lstrip().startswith("{") else "text"
    theory: PossibilisticTheory | LiftedTheory
    with collection_paused():
        if fmt == "text" and is_lifted_text(text):
            theory = read_lifted_text(text, source)
        elif fmt == "json":
            theory = read_json(text, source)
        elif fmt == "text":
            theory = read_text(text, source)
        else:
            raise UnknownNameError(f"cannot read format {fmt!r}; readable: text, json")
        if isinstance(theory, LiftedTheory) and ground:
            return theory.ground(force)
        return theory.ground() if ground else theory




@overload
def load_theory(path: str | os.PathLike[str], ground: Literal[True] = ..., force: bool = ...
                ) -> PossibilisticTheory: ...
@overload
def load_theory(path: str | os.PathLike[str], ground: bool = ..., force: bool = ...
                ) -> PossibilisticTheory | LiftedTheory: ...
def load_theory(path: str | os.PathLike[str], ground: bool = True, force: bool = False
                ) -> PossibilisticTheory | LiftedTheory:
    """Read a theory file (text or JSON, told apart by content); see :func:`loads`.
    ``force`` also reads a file above 256 MB, as far as the machine's free memory allows
    (:func:`theory_limit`).

    >>> import pathlib, tempfile
    >>> from pracmln_poss import load_theory
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "penguin.theory"
    >>> _ = path.write_text("0.5  bird(T) => flies(T)\\ninf  penguin(T) => !flies(T)\\n")
    >>> theory = load_theory(path)
    >>> theory.atoms, [theory.level_name(level) for level in theory.levels()]
    (('bird(T)', 'flies(T)', 'penguin(T)'), ['lambda_0.5', 'certain (inf)'])
    """
    text = read_source(path, "theory file", theory_limit(path, force))
    try:
        return loads(text, None, os.fspath(path), ground, force)
    except PossError as exc:
        hint = _model_hint(text, os.fspath(path))
        if exc.position is not None and not hint:
            raise
        raise exc.at(exc.position or SourcePosition(os.fspath(path)), exc.message + hint) from None


READ_FACTOR = 8
"""Bytes of memory a theory takes read, per byte of its file, at most (measured: 6.6 for
object-recognition's 88,763 rules, 17 MB of text, read in 112 MB)."""


def theory_limit(path: str | os.PathLike[str], force: bool) -> int:
    """The largest theory file read: :data:`~pracmln_poss.sources.MAX_INPUT_BYTES` (256 MB),
    or with ``force`` what the machine's free memory holds once read
    (:data:`READ_FACTOR`).

    :raises ModelError: for a file over the limit, naming how to read it (``--force``) and
        the memory that takes."""
    limit = MAX_INPUT_BYTES if not force else max(MAX_INPUT_BYTES, free_memory() // READ_FACTOR)
    try:
        size = os.stat(path).st_size
    except OSError:  # (the reader says why)
        return limit
    if size > limit:
        needs = f"about {_gb(size * READ_FACTOR)} of memory to read"
        if force:
            raise ModelError(f"theory file of {_gb(size)} needs {needs}, more than this machine has free "
                             f"({_gb(free_memory())})", SourcePosition(os.fspath(path)))
        raise ModelError(f"theory file is larger than {MAX_INPUT_BYTES // 2**20} MB ({_gb(size)}): --force reads it "
                         f"(it needs {needs}; this machine has {_gb(free_memory())} free)", SourcePosition(os.fspath(path)))
    return limit


def free_memory() -> int:
    """Bytes of memory free for this process (available physical memory; the address
    space limit, when lower)."""
    try:
        free = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not a POSIX system
        free = 1 << 34
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
        if soft != resource.RLIM_INFINITY:
            free = min(free, soft)
    except (ImportError, ValueError, OSError):  # pragma: no cover - no rlimits here
        pass
    return free


def _gb(n: int) -> str:
    return f"{n / 2**30:.1f} GB" if n >= 2**30 else f"{n / 2**20:.0f} MB"


_DECLARATION = re.compile(r"^\s*(\w+\s*=\s*\{|\w+\(\s*\w+[!?]?(\s*,\s*\w+[!?]?)*\s*\)\s*$)", re.MULTILINE)
"""A pracmln domain or predicate declaration (``person = {A, B}``, ``Friends(person, person)``)."""


def _model_hint(text: str, path: str) -> str:
    """What to say when a file read as a theory is a model: convert it first."""
    if text.lstrip().startswith(("//", "{", "#")) and "possibilistic theory" in text.split("\n", 1)[0]:
        return ""
    if path.endswith((".mln", ".pracmln")) or ".pracmln:" in path or _DECLARATION.search(text):
        return (f"; this looks like an MLN, not a theory: convert it first (pracmln-poss convert {path} -o "
                "THEORY), then give THEORY")
    return ""

