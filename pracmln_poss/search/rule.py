"""The two kinds of rule the rule search makes (Transformations 3 and 4), as plain values."""

from __future__ import annotations

__all__ = ["DefaultRule", "BlockingRule", "Schema"]

from dataclasses import dataclass

from ..weights import Level
from .evidence import EvidenceSet


@dataclass(frozen=True)
class DefaultRule:
    """``AND evidence => AND head`` at ``level`` (an empty ``evidence`` is unconditional)."""

    evidence: EvidenceSet
    head: tuple[int, ...]
    level: Level


@dataclass(frozen=True)
class BlockingRule:
    """``not AND body`` at ``level``, for the evidence set ``evidence``."""

    evidence: EvidenceSet
    body: tuple[int, ...]
    level: Level


@dataclass(frozen=True)
class Schema:
    """A rule for a representative evidence set: ``AND evidence => conclusion`` or,
    when ``conclusion`` is None, the blocking rule ``not AND body``."""

    evidence: EvidenceSet
    conclusion: int | None
    body: EvidenceSet
    level: Level
