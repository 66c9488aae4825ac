"""Shared fixtures (the rest tests share is in :mod:`.support`).  Tests that need pracmln
skip where it is missing, except under tox or CI (``PRACMLN_POSS_REQUIRE_PRACMLN=1`` or
``CI``), where they fail instead."""

from __future__ import annotations

import pytest

from .support import required

ALONE = frozenset({"test_parallel", "test_stopping"})
"""The modules whose tests time a process (a stop within a second) or send it signals,
all marked ``alone`` (other modules mark such tests one by one), so that tox runs them
after the rest, on a machine no other test loads (the rest share its two cores:
``pytest -n 2``)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.module is not None and item.module.__name__.rpartition(".")[2] in ALONE:
            item.add_marker(pytest.mark.alone)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # (tox's two runs split the suite by ``alone``: a selection that falls wholly in one
    # of them leaves the other nothing to run, which is no failure)
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED and "alone" in (session.config.option.markexpr or ""):
        session.exitstatus = pytest.ExitCode.OK


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
