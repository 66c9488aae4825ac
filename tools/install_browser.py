#!/usr/bin/env python3
"""Install headless Chromium for the report's browser tests, where this machine allows it.

    python3 tools/install_browser.py           # install if missing and possible, else say why
    python3 tools/install_browser.py --check   # exit status 1 when it is missing

The tests drive Debian's ``chromium`` with its ``chromium-driver`` (through Selenium, from
PyPI with the test extras): nothing is downloaded but those packages.  They are
installed with apt-get when both are missing, apt-get is there and this runs as root
(as in CI); otherwise this says what to install and exits 0, and the browser tests skip
(except under CI or ``PRACMLN_POSS_REQUIRE_BROWSER=1``, where they fail).
"""

import argparse
import os
import shutil
import subprocess
import sys

PACKAGES = ["chromium", "chromium-driver"]


def missing():
    """The packages whose programs are not on PATH."""
    out = []
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        out.append("chromium")
    if not shutil.which("chromedriver"):
        out.append("chromium-driver")
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check; exit status 1 when missing")
    args = parser.parse_args(argv)
    wanted = missing()
    if not wanted:
        return 0
    if args.check:
        print("install_browser: missing: " + " ".join(wanted), file=sys.stderr)
        return 1
    can = shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0
    if not can:
        print("install_browser: the report's browser tests need Debian's {} (apt-get install {}); "
              "they skip without them".format(" and ".join(wanted), " ".join(PACKAGES)), file=sys.stderr)
        return 0
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    cmd = ["apt-get", "install", "-y", "-q", *PACKAGES]
    done = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if done.returncode:
        # (a machine whose package lists are stale or absent: read them, then try again)
        subprocess.run(["apt-get", "update", "-q"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        done = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if done.returncode:
        sys.stdout.write(done.stdout.decode("utf-8", "replace")[-4000:])
        print("install_browser: step failed (exit status {}): {}".format(done.returncode, " ".join(cmd)),
              file=sys.stderr)
        return done.returncode
    if missing():
        print("install_browser: installed, but not found on PATH: " + " ".join(missing()), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
