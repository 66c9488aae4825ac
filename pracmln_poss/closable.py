"""Things that hold solvers or files until closed, used as context managers."""

from __future__ import annotations

__all__ = ["Closable"]

from abc import ABC, abstractmethod
from typing import Self


class Closable(ABC):
    """Closed by :meth:`close`; as a context manager, closed on leaving the block (the
    block's exception, if any, goes on)."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @abstractmethod
    def close(self) -> None:
        """Give back what it holds (solvers, files); closing twice does nothing."""
