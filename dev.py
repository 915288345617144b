#!/usr/bin/env python3
"""The two commands of the quickstart, for a fresh machine with only Python 3.11+.

    python3 dev.py run    start the bot (no tokens: the console bot on gamehost.db)
    python3 dev.py test   run the whole test suite

Each makes the virtualenv .venv and installs the project into it the first time,
and again whenever pyproject.toml changes. Extra arguments go to gamehost / pytest.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / "gamehost-installed"


def ensure_venv() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py may be started by an older python3
        sys.exit(f"gamehost needs Python 3.11 or newer; this is {sys.version.split()[0]}.")
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted:
        return
    if not (BIN / "python").exists():
        print("Creating .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("Installing gamehost and its dependencies into .venv ...", flush=True)
    for args in (["--upgrade", "pip"], ["-e", f"{ROOT}[test]"]):
        done = subprocess.run([BIN / "python", "-m", "pip", "install", *args], capture_output=True, text=True)
        if done.returncode:
            sys.exit(done.stdout + done.stderr + "\nInstalling failed (output above).")
    STAMP.write_text(wanted)


def main() -> None:
    # the tests in two processes (pytest-xdist): the suite is mostly CPU; `-n 0` after it runs one
    commands = {"run": [BIN / "gamehost"], "test": [BIN / "python", "-m", "pytest", "-n", "2"]}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit(__doc__)
    ensure_venv()
    command = [str(part) for part in commands[sys.argv[1]]] + sys.argv[2:]
    os.chdir(ROOT)
    if os.name == "nt":
        sys.exit(subprocess.run(command).returncode)
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
