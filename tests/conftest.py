"""Shared fixtures (the rest tests share is in :mod:`.support`).  Tests that need pracmln
skip where it is missing, except under tox or CI (``PRACMLN_POSS_REQUIRE_PRACMLN=1`` or
``CI``), where they fail instead."""

from __future__ import annotations

import pytest

from .support import required


@pytest.fixture(scope="session")
def pracmln():
    """The pracmln module, imported through our bridge."""
    from pracmln_poss.compat import import_pracmln
    from pracmln_poss.errors import DependencyError

    try:
        return import_pracmln()
    except DependencyError as exc:
        if required():
            pytest.fail(f"pracmln is required here but cannot be imported: {exc}")
        pytest.skip(f"pracmln not importable: {exc}")


@pytest.fixture
def every_report(monkeypatch):
    """Progress reports not rate-limited: a callback sees every chunk."""
    from pracmln_poss.search.progress import Reporter

    monkeypatch.setattr(Reporter, "INTERVAL", 0.0)
