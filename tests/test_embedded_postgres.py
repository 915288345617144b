"""A machine with nothing at PostgreSQL's address still runs the whole suite: the run starts a
PostgreSQL of its own, once (not once per pytest-xdist worker), and stops and deletes it at the
end, after Ctrl-C too (`tests.support.embedded_postgres`).

Each test runs pytest in a subprocess as a new contributor would, with `GAMEHOST_TEST_POSTGRES`
unset and the default address pointed at a port where nothing listens (the machine's own server
on 127.0.0.1:5432, which other runs share, is left alone).
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

from tests.support.embedded_postgres import DEFAULT, GIVEN, answers

ROOT = Path(__file__).resolve().parents[1]
STARTED = re.compile(r"started an embedded PostgreSQL for this run at (postgresql://\S+) \(data in (\S+), deleted")
STORAGE_TESTS = ["tests/bot/test_storage.py", "-k", "postgres and (server_gone or lock_held_by_another)"]


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again when this returns: nothing listens there


def pytest_run(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k not in (GIVEN, "PYTEST_XDIST_WORKER", "PYTEST_ADDOPTS")}
    env.update({DEFAULT: f"postgresql://postgres@127.0.0.1:{closed_port()}/postgres", "TMPDIR": str(tmp_path)})
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)


def running_in(data: str) -> list[str]:
    """The processes whose command line names the data directory `data`."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            line = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if data in line:
            found.append(f"{proc.name}: {line}")
    return found


def gone(url: str, data: str) -> None:
    assert not answers(url), f"the embedded server at {url} still answers"
    assert not Path(data).exists() and not running_in(data), running_in(data)


def test_the_run_starts_its_own_postgresql_once_for_all_workers_and_deletes_it(tmp_path: Path) -> None:
    run = pytest_run(tmp_path, "-n", "2", *STORAGE_TESTS)
    out, _ = run.communicate(timeout=300)
    assert run.returncode == 0 and re.search(r"^2 passed", out, re.M), out
    started = STARTED.findall(out)
    assert len(started) == 1, out  # the controller's; the workers used it
    gone(*started[0])


def test_ctrl_c_stops_and_deletes_the_runs_own_postgresql(tmp_path: Path) -> None:
    run = pytest_run(tmp_path, "-n", "2", *STORAGE_TESTS)
    try:
        assert run.stdout is not None
        said = []
        while not (found := STARTED.search(line := run.stdout.readline())):
            assert line, "".join(said)  # pytest ended without saying it started a server
            said.append(line)
        os.killpg(run.pid, signal.SIGINT)  # Ctrl-C: the terminal signals pytest and its workers
        out, _ = run.communicate(timeout=120)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode != 0 and "KeyboardInterrupt" in out, out
    gone(*found.groups())
