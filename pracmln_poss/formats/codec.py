"""Theories in and out of text by format name: :func:`dumps`, :func:`loads`,
:func:`load_theory` (text, JSON; LaTeX written only)."""

from __future__ import annotations

__all__ = ["FORMATS", "dumps", "loads", "load_theory"]

import os
from typing import Literal, overload

from .. import arguments
from ..errors import PossError, SourcePosition, UnknownNameError
from ..possibilistic.lifted_theory import LiftedTheory
from ..possibilistic.protocol import Theory
from ..possibilistic.theory import PossibilisticTheory
from ..sources import read_source
from .json_format import read_json, to_json
from .latex import to_latex
from .lifted_text import is_lifted_text, read_lifted_text, write_lifted_text
from .text import read_text, write_text

FORMATS = ("text", "json", "latex")
"""The theory file formats, by name."""


def dumps(theory: Theory, fmt: str = "text") -> str:
    """The theory, ground or lifted, in one of :data:`FORMATS`."""
    arguments.instance("theory", theory, PossibilisticTheory | LiftedTheory, "a PossibilisticTheory or a LiftedTheory")
    if fmt == "text":
        # a ground theory is its own grounding (Theory.ground)
        return write_lifted_text(theory) if isinstance(theory, LiftedTheory) else write_text(theory.ground())
    if fmt == "json":
        return to_json(theory)
    if fmt == "latex":
        return to_latex(theory)
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

    >>> import pathlib, tempfile
    >>> from pracmln_poss import load_theory
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "penguin.theory"
    >>> _ = path.write_text("0.5  bird(T) => flies(T)\\ninf  penguin(T) => !flies(T)\\n")
    >>> theory = load_theory(path)
    >>> theory.atoms, [theory.level_name(level) for level in theory.levels()]
    (('bird(T)', 'flies(T)', 'penguin(T)'), ['lambda_0.5', 'certain (inf)'])
    """
    try:
        return loads(read_source(path, "theory file"), None, os.fspath(path), ground, force)
    except PossError as exc:
        if exc.position is not None:
            raise
        raise type(exc)(exc.message, SourcePosition(os.fspath(path))) from None

