"""What the tests share: where things are, how many examples a property test draws, and
one way each of running Python or the command line and of reading Markdown."""

from __future__ import annotations

import contextlib
import io
import os
import random
import re
import subprocess
import sys
import zipfile
from collections.abc import Mapping
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
"""The repository."""
DATA = Path(__file__).parent / "data"
PAPER = ROOT / "examples" / "paper"
"""The paper's example models (the bundled examples, not a copy of them)."""
ANTARCTIC = ROOT / "examples" / "antarctic" / "antarctic.mln"
"""The paper's Example 1."""
LISTINGS = DATA / "paper"
"""The theories the paper lists (its listings and Table 2)."""
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


def required() -> bool:
    """Whether pracmln-backed tests must run (tox, CI) rather than skip."""
    return bool(os.environ.get("PRACMLN_POSS_REQUIRE_PRACMLN") or os.environ.get("CI"))


def project_archive(members: Mapping[str, str | bytes]) -> bytes:
    """A ``.pracmln`` project archive (a zip) of ``members`` (name -> content).

    The same members give the same bytes: each member's date is fixed (a zip stores the
    current time otherwise, and Hypothesis replays a draw from these bytes)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            member = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            member.compress_type = zipfile.ZIP_DEFLATED
            member.external_attr = 0o644 << 16
            archive.writestr(member, content)
    return buffer.getvalue()


def smokers():
    """The paper's smokers, first-order, over persons A, B and C."""
    from pracmln_poss.bridge.loader import load_model

    return load_model(PAPER / "smokers.mln", domains={"person": ["A", "B", "C"]}).model


def converted(model: object, options: Mapping[str, object], **more: object) -> str:
    """The text of ``transform_mln(model, **options, **more)`` (``method`` among the options)."""
    from pracmln_poss.formats import dumps
    from pracmln_poss.transformations import transform_mln

    given = dict(options)
    method = given.pop("method", None)
    return dumps(transform_mln(model, method, **given, **more))  # type: ignore[arg-type]


def smokers_project(tmp_path: Path, conf: Mapping[str, object] | bool | None = None,
                    name: str = "smokers.pracmln") -> Path:
    """pracmln's smokers example as a ``.pracmln`` project in ``tmp_path``: its models and
    databases, and a ``query.conf`` (``conf``; None: a default one; False: none)."""
    import json

    path = tmp_path / name
    with zipfile.ZipFile(path, "w") as z:
        for sub in ("mlns", "dbs"):
            for f in sorted((PRACMLN_DATA / "smokers" / sub).iterdir()):
                z.write(f, f"{sub}/{f.name}")
        if conf is not False:
            z.writestr("query.conf", json.dumps(conf or {
                "mln": "smoking.mln", "db": "smoking-test-smaller.db", "grammar": "StandardGrammar",
                "queries": "Smokes,Cancer",
            }))
    return path


def default_signals(*ignored: str) -> None:
    """A child's ``preexec_fn``: SIGINT, SIGTERM and SIGHUP as a fresh terminal's process
    has them (the test runner may have inherited them ignored: ``nohup`` ignores SIGHUP,
    and a child would keep that), then the ``ignored`` ones (names) ignored."""
    import signal

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)
    for name in ignored:
        signal.signal(getattr(signal, name), signal.SIG_IGN)


STOPPED_WITHIN = 10.0
"""Seconds a stopped command may take to end, wall clock, in a test: wide (the machine may
be loaded; CI shares two cores), since what a test checks is that it does not wait for
its solve (minutes), and that little work follows the signal (:func:`stopped`).  The
one-second target is measured by ``benchmarks/stop_time.py``."""

WORK_AFTER_STOP = 1.0
"""CPU seconds a stopped command may spend after its signal (whatever the load)."""


def cpu_seconds(pid: int) -> float:
    """The CPU seconds (user and system) process ``pid`` has used so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stopped(run: subprocess.Popen[str], *signums: int, timeout: float = 60.0) -> tuple[str, float, float]:
    """Send ``signums`` to ``run`` (started with ``stderr=PIPE``, text) and wait for its end:
    its standard error, the wall seconds from the first signal to its end, and the CPU
    seconds it spent in that time (which other load on the machine does not change; its
    children's included once it waited for them).  ``run.returncode`` is set."""
    import time

    before = cpu_seconds(run.pid)
    start = time.monotonic()
    for signum in signums:
        run.send_signal(signum)
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(run.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            run.kill()
            run.wait()
            pytest.fail(f"not ended {timeout:g} s after its signal")
        time.sleep(0.01)
    wall = time.monotonic() - start
    run.returncode = os.waitstatus_to_exitcode(status)
    assert run.stderr is not None
    err = run.stderr.read()
    run.stderr.close()
    return err, wall, usage.ru_utime + usage.ru_stime - before


def run_python(code: str, *args: str, cwd: Path = ROOT, timeout: float | None = 300,
               env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -c code args...`` in a fresh interpreter (what a new process sees)."""
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=cwd,
                          timeout=timeout, env=None if env is None else dict(env))


def run_cli(*argv: object) -> tuple[int, str, str]:
    """``pracmln-poss argv...`` in this process: exit status (argparse's usage errors
    included), stdout, stderr.  Output goes to streams of a real file's shape (pracmln
    reads ``sys.stdout.buffer`` when it is imported), so it works inside property tests."""
    from pracmln_poss.cli import main

    out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline=""), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:  # argparse's own usage errors
            code = exc.code if isinstance(exc.code, int) else 2
    out.flush()
    return code, out.buffer.getvalue().decode("utf-8"), err.getvalue()


def console_sessions(path: Path) -> list[list[tuple[str, str]]]:
    """Per ``console`` block of a Markdown file, its (command, expected output) pairs:
    a command is a line after ``$ ``, its output the lines up to the next one."""
    out = []
    for block in re.findall(r"```console\n(.*?)```", path.read_text(), flags=re.DOTALL):
        session: list[tuple[str, list[str]]] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                session.append((line[2:], []))
            elif session:
                session[-1][1].append(line)
        out.append([(command, "\n".join(lines) + "\n") for command, lines in session])
    return out


def table_rows(text: str) -> list[list[str]]:
    """The rows of the Markdown tables in ``text``, as stripped cells (header and rule
    rows included: callers pick theirs by content)."""
    return [[c.strip() for c in line.strip().strip("|").split("|")] for line in text.splitlines()
            if line.lstrip().startswith("|")]


def frustrated(atoms: int = 80, clauses: int = 560, seed: int = 1) -> tuple[str, list[tuple[int, list[int]]]]:
    """A model no MAP backend solves in a minute: random 3-clauses over ``p(N0) ...``
    with distinct weights (the text of its ``.mln``, and its clauses as (weight, DIMACS
    literals over atoms ``1..atoms``))."""
    rng = random.Random(seed)
    lines = ["p(num)", "num = {" + ", ".join(f"N{i}" for i in range(atoms)) + "}", ""]
    out = []
    for i in range(clauses):
        chosen = rng.sample(range(atoms), 3)
        signs = [rng.random() < 0.5 for _ in chosen]
        lines.append(f"{1 + i} " + " v ".join(("!" if neg else "") + f"p(N{a})" for a, neg in zip(chosen, signs)))
        out.append((1 + i, [-(a + 1) if neg else a + 1 for a, neg in zip(chosen, signs)]))
    return "\n".join(lines) + "\n", out


DEFAULT = "default"

WAYS: dict[str, tuple[int | str | None, int | str, float | str]] = {
    "default": (DEFAULT, DEFAULT, DEFAULT),  # the backend's own thresholds (a small model is one leaf)
    "table": (None, DEFAULT, DEFAULT),  # no leaves: the whole network is the core, one table
    "search": (None, 0, DEFAULT),  # no leaves, no table: toulbar2 searches the whole network
    "leaves, table": (2, DEFAULT, DEFAULT),  # hubs from two neighbours on: small models have leaves
    "leaves, search": (2, 0, DEFAULT),
    # every question from a table of the core variables it touches (map/conditioning.py)
    "search, touched tables": (None, 0, 0.0),
    "leaves, search, touched tables": (2, 0, 0.0),
}
"""How the toulbar2 backend may answer: (hub degree, largest core that is a table,
questions per entry before a table of the touched variables is made)."""


def toulbar2_way(way: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the toulbar2 backends opened from now on answer ``way``."""
    from pracmln_poss.map.toulbar2 import Toulbar2Backend

    hubs, dense, after = WAYS[way]
    if hubs != DEFAULT:
        monkeypatch.setattr(Toulbar2Backend, "HUB_DEGREE", hubs)
    if dense != DEFAULT:
        monkeypatch.setattr(Toulbar2Backend, "MAX_DENSE_CORE", dense)
    if after != DEFAULT:
        monkeypatch.setattr(Toulbar2Backend, "TABLE_AFTER", after)
        monkeypatch.setattr(Toulbar2Backend, "TABLE_LEAST", 1)


def kernel_actions() -> dict[int, object]:
    """The kernel's action per signal that stops a solve (glibc's struct sigaction: the
    handler, the kernel's mask and the flags; the handler alone for the default and
    ignore): faulthandler's registrations show here, Python's handler table does not."""
    from pracmln_poss import stopping

    libc = stopping._libc()
    raw = {int(s): stopping._action(libc, int(s)).raw for s in stopping.SIGNALS} if libc is not None else {}
    return {s: a[:8] if int.from_bytes(a[:8], "little") < 2 else (a[:16], a[136:140]) for s, a in raw.items()}
