#!/usr/bin/env python3
"""Install pracmln 1.2.4 from PyPI into the running Python environment.

pracmln's ``setup.py`` cannot be built by a modern pip as is: it imports ``pip``
(absent under build isolation) and subclasses ``distutils.command.install.install``
without importing that module.  We build it without isolation, with a
``sitecustomize.py`` on ``PYTHONPATH`` that imports ``distutils.command.install``
first.  Nothing installed is edited afterwards; next to it goes a small import hook
(``tools/pracmln_import_hook.py`` and a ``.pth`` line that loads it), so that a plain
``import pracmln`` works on Pythons where pracmln's own Tk imports fail.  Note that pracmln's setup also
copies its examples and a toulbar2 binary to its data directory
(``/usr/local/share/pracmln`` as root, ``~/.local/share/pracmln`` otherwise).

Usage: ``python tools/install_pracmln.py`` (idempotent; ``--force`` reinstalls).
"""

from __future__ import annotations

import os
import py_compile
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from importlib import metadata

PRACMLN = "pracmln==1.2.4"
BUILD_TOOLS = ("setuptools", "wheel")
HOOK = "pracmln_poss_import_hook"


def installed_version() -> str | None:
    try:
        return metadata.version("pracmln")
    except metadata.PackageNotFoundError:
        return None


def pip(*args: str, env: dict[str, str] | None = None) -> None:
    cmd = [sys.executable, "-m", "pip", "--disable-pip-version-check", *args]
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, env=env)


def install_hook() -> None:
    """Put the import hook and its ``.pth`` line into this environment's site-packages."""
    site = sysconfig.get_paths()["purelib"]
    module = os.path.join(site, HOOK + ".py")
    shutil.copyfile(os.path.join(os.path.dirname(os.path.abspath(__file__)), "pracmln_import_hook.py"), module)
    py_compile.compile(module, doraise=True)  # it is imported at every start-up
    with open(os.path.join(site, HOOK + ".pth"), "w", encoding="utf-8") as fh:
        fh.write(f"import {HOOK}\n")


def main(argv: list[str]) -> int:
    if set(argv) - {"--force"}:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    force = "--force" in argv
    install_hook()
    if installed_version() == PRACMLN.split("==")[1] and not force:
        print(f"{PRACMLN} is already installed in {sys.prefix}")
        return 0
    pip("install", "--quiet", *BUILD_TOOLS)
    with tempfile.TemporaryDirectory(prefix="pracmln-install-") as shim:
        with open(os.path.join(shim, "sitecustomize.py"), "w", encoding="utf-8") as fh:
            fh.write("import distutils.command.install  # pracmln's setup.py needs it imported\n")
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [shim, env.get("PYTHONPATH")]))
        pip("install", "--no-build-isolation", *(["--force-reinstall"] if force else []), PRACMLN, env=env)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
