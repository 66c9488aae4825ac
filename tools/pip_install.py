#!/usr/bin/env python3
"""tox's install command: make sure pracmln 1.2.4 is installed, then ``pip install`` as asked."""

from __future__ import annotations

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

if __name__ == "__main__":
    subprocess.run([sys.executable, os.path.join(HERE, "install_pracmln.py")], check=True)
    result = subprocess.run([sys.executable, "-m", "pip", "install", *sys.argv[1:]])
    sys.exit(result.returncode)
