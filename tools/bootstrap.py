#!/usr/bin/env python3
"""Set everything up in ./.venv and run the main job on a bundled example.

    python3 tools/bootstrap.py            # set up, then run the example
    python3 tools/bootstrap.py --no-run   # set up only (what .ci/run uses)
    python3 tools/bootstrap.py --verbose  # show every install step's output

Creates the virtual environment with the Python that runs this script (3.11, 3.12
or 3.13), installs pracmln 1.2.4 from PyPI (with the workaround of
tools/install_pracmln.py), this package with its test extras, and tox.  Safe to run
again: it installs only what is missing.  Quiet unless a step fails.

This file must stay readable by old Pythons, so that they get the one-line refusal
rather than a syntax error: no annotations, no f-strings.
"""

import argparse
import os
import subprocess
import sys
import venv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".venv")
BIN = os.path.join(VENV, "Scripts" if os.name == "nt" else "bin")
PY = os.path.join(BIN, "python")
EXAMPLE = ["convert", os.path.join("examples", "antarctic", "antarctic.mln"), "--method", "defaults", "-k", "2"]


SUPPORTED = ((3, 11), (3, 12), (3, 13))


def supported_message(version_info):
    """None for a supported Python, else the one-line refusal."""
    if tuple(version_info[:2]) in SUPPORTED:
        return None
    names = ", ".join("%d.%d" % v for v in SUPPORTED)
    return "pracmln_poss supports Python %s; this is Python %d.%d.%d (run this script with one of those)" % (
        names, version_info[0], version_info[1], version_info[2])


def run(what, cmd, verbose):
    """Run a set-up step; its output is shown only with --verbose or when it fails."""
    print(what + " ...", flush=True)
    if verbose:
        print("+ " + " ".join(cmd), flush=True)
        subprocess.run(cmd, check=True, cwd=ROOT)
        return
    done = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if done.returncode:
        sys.stdout.write(done.stdout.decode("utf-8", "replace"))
        sys.exit("bootstrap: step failed (exit status %d): %s" % (done.returncode, " ".join(cmd)))


def venv_version():
    """The Python version .venv was made with ("3.11.7"), or None."""
    try:
        with open(os.path.join(VENV, "pyvenv.cfg"), encoding="utf-8") as fh:
            for line in fh:
                key, _, value = line.partition("=")
                if key.strip() in ("version", "version_info"):
                    return value.strip()
    except OSError:
        return None
    return None


def parse(argv):
    """The options; ``--help`` and an unknown flag print the usage and set up nothing."""
    parser = argparse.ArgumentParser(prog="tools/bootstrap.py", description=__doc__.strip().splitlines()[0])
    parser.add_argument("--no-run", action="store_true", help="set up only (what .ci/run uses)")
    parser.add_argument("--verbose", action="store_true", help="show every install step's output")
    return parser.parse_args(argv)


def main(argv):
    options = parse(argv)
    refusal = supported_message(sys.version_info)
    if refusal:
        sys.exit(refusal)
    verbose = options.verbose
    here = "%d.%d" % sys.version_info[:2]
    made_with = venv_version()
    if os.path.exists(PY) and made_with and not (made_with + ".").startswith(here + "."):
        print("recreating %s for Python %s (it was made with %s)" % (VENV, here, made_with), flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    elif not os.path.exists(PY):
        print("creating %s with Python %s" % (VENV, sys.version.split()[0]), flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    pip = [PY, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    run("upgrading pip, setuptools, wheel", pip + ["--upgrade", "pip", "setuptools", "wheel"], verbose)
    run("installing pracmln 1.2.4 (tools/install_pracmln.py)", [PY, os.path.join("tools", "install_pracmln.py")], verbose)
    run("installing pracmln_poss with its test extras, and tox", pip + ["-e", ".[test]", "tox"], verbose)
    print("ready: %s (tests: .venv/bin/tox -e py)" % os.path.join(BIN, "pracmln-poss"), flush=True)
    if not options.no_run:
        cmd = [os.path.join(BIN, "pracmln-poss")] + EXAMPLE
        print("$ .venv/bin/pracmln-poss " + " ".join(EXAMPLE), flush=True)
        subprocess.run(cmd, check=True, cwd=ROOT)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
