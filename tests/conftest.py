"""Shared fixtures.  Tests that need pracmln skip where it is missing, except under
tox or CI (``PRACMLN_POSS_REQUIRE_PRACMLN=1`` or ``CI``), where they fail instead."""

from __future__ import annotations

import io
import os
import zipfile
from collections.abc import Mapping
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
"""The repository."""
DATA = Path(__file__).parent / "data"
PAPER = DATA / "paper"
PRACMLN_DATA = DATA / "pracmln"

settings.register_profile("ci", deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, print_blob=True, max_examples=20)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") or os.environ.get("TOX_ENV_NAME")
                                                   else "dev")
"""Hypothesis' profile: ``ci`` (thorough: tox and CI) unless ``HYPOTHESIS_PROFILE`` says
otherwise; ``dev`` (a fifth of the examples) for a quick run of pytest by hand."""
settings.load_profile(PROFILE)


def examples(n: int) -> int:
    """A property test's number of examples: ``n`` in the thorough profile, a fifth (at
    least 10) in ``dev``."""
    return n if PROFILE != "dev" else max(10, n // 5)


def _required() -> bool:
    return bool(os.environ.get("PRACMLN_POSS_REQUIRE_PRACMLN") or os.environ.get("CI"))


@pytest.fixture(scope="session")
def pracmln():
    """The pracmln module, imported through our bridge."""
    from pracmln_poss.compat import import_pracmln
    from pracmln_poss.errors import DependencyError

    try:
        return import_pracmln()
    except DependencyError as exc:
        if _required():
            pytest.fail(f"pracmln is required here but cannot be imported: {exc}")
        pytest.skip(f"pracmln not importable: {exc}")


@pytest.fixture
def every_report(monkeypatch):
    """Progress reports not rate-limited: a callback sees every chunk."""
    from pracmln_poss.search.progress import Reporter

    monkeypatch.setattr(Reporter, "INTERVAL", 0.0)


def project_archive(members: Mapping[str, str | bytes]) -> bytes:
    """A ``.pracmln`` project archive (a zip) of ``members`` (name -> content)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()
