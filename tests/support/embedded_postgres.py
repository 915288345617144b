"""Which PostgreSQL server the test run uses, and the one it starts itself when it has none.

`GAMEHOST_TEST_POSTGRES`, when set, is the server (and only it: if it cannot be reached the
PostgreSQL tests fail, saying so). Otherwise a server answering at the default address
(`GAMEHOST_TEST_POSTGRES_DEFAULT`, itself by default postgres on 127.0.0.1:5432) is used, and
when nothing answers there the run starts its own PostgreSQL 16, from the binaries the `pgserver`
wheel ships: a new cluster in a temporary directory (trust auth, user postgres), listening on a
free port of 127.0.0.1, stopped and deleted when the run ends (Ctrl-C included). The process that
chooses is pytest's main one (under pytest-xdist, the controller, once for all workers); it
exports the server's URL as `GAMEHOST_TEST_POSTGRES`, which the workers and every process a test
starts inherit.

As root (CI, containers), PostgreSQL refuses to run; the cluster then belongs to the system user
`pgserver`, which pgserver's own helper creates if it is missing, and runs as that user.
"""

from __future__ import annotations

import os
import shutil
import socket
import stat
import subprocess
import tempfile
import warnings
from pathlib import Path
from urllib.parse import urlsplit

from bot.storage.pgdriver import shown

GIVEN = "GAMEHOST_TEST_POSTGRES"
DEFAULT = "GAMEHOST_TEST_POSTGRES_DEFAULT"
STANDARD = "postgresql://postgres@127.0.0.1:5432/postgres"
OWNER = "pgserver"  # the system user a root-started cluster runs as (pgserver's own choice)


def admin_url() -> str:
    """The server's URL (its `postgres` database), as this process was told or will try."""
    return os.environ.get(GIVEN) or os.environ.get(DEFAULT) or STANDARD


def answers(url: str, timeout: float = 3.0) -> bool:
    """Whether anything accepts a TCP connection at `url`'s host and port."""
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 5432), timeout=timeout):
            return True
    except OSError:
        return False


class Embedded:
    """A PostgreSQL cluster of this run's own, in a temporary directory."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="gamehost-pg-"))
        self.data = self.root / "data"
        self.user: str | None = None
        self.port = 0
        self.running = False

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> str:
        """Make the cluster and start it; its URL. The directory is gone again if that fails."""
        try:
            with warnings.catch_warnings():  # platformdirs' note that XDG_RUNTIME_DIR is unset: not ours to use
                warnings.simplefilter("ignore")
                import pgserver  # the test extra's; imported only when the run needs its own server
            from pgserver import utils
            from pgserver._commands import POSTGRES_BIN_PATH

            self.data.mkdir()
            if getattr(os, "geteuid", lambda: -1)() == 0:  # postgres will not run as root
                self.user = OWNER
                entry = utils.ensure_user_exists(OWNER)
                utils.ensure_prefix_permissions(self.data)  # the owner reaches the directory
                utils.ensure_prefix_permissions(POSTGRES_BIN_PATH)  # and the binaries, as pgserver does
                readable = stat.S_IRGRP | stat.S_IROTH
                utils.ensure_folder_permissions(POSTGRES_BIN_PATH, readable | stat.S_IXGRP | stat.S_IXOTH)
                utils.ensure_folder_permissions(POSTGRES_BIN_PATH.parent / "lib", readable)
                os.chown(self.data, entry.pw_uid, entry.pw_gid)
            pgserver.initdb(["--auth=trust", "--encoding=utf8", "--username=postgres", "--no-sync"],
                            pgdata=self.data, user=self.user)
            for attempt in range(3):  # a free port may be taken between finding it and binding it
                self.port = _free_port()
                options = f"-h 127.0.0.1 -p {self.port} -k '' -c fsync=off"
                try:
                    pgserver.pg_ctl(["-w", "-t", "60", "-o", options, "-l", str(self.data / "log"), "start"],
                                    pgdata=self.data, user=self.user, timeout=90)
                    break
                except subprocess.CalledProcessError:
                    if attempt == 2:
                        raise
            self.running = True
        except BaseException as error:
            self.stop()
            if not isinstance(error, Exception):
                raise  # Ctrl-C goes on
            log = self.data / "log"
            tail = log.read_text(errors="replace").strip().splitlines()[-1:] if log.exists() else []
            raise RuntimeError(f"could not start an embedded PostgreSQL ({type(error).__name__}: {error}"
                               f"{'; ' + tail[0] if tail else ''})") from error
        return self.url

    def stop(self) -> None:
        """Stop the server (at once: its data is thrown away) and delete the directory."""
        if self.running:
            import pgserver

            self.running = False
            try:
                pgserver.pg_ctl(["-w", "-m", "immediate", "stop"], pgdata=self.data, user=self.user, timeout=60)
            except (subprocess.SubprocessError, OSError):
                _kill(self.data)
        shutil.rmtree(self.root, ignore_errors=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _kill(data: Path) -> None:
    """The postmaster of `data`, killed (pg_ctl could not stop it); its children follow it."""
    try:
        pid = int((data / "postmaster.pid").read_text().split()[0])
        os.kill(pid, 9)
    except (OSError, ValueError, IndexError):
        pass


def choose() -> tuple[Embedded | None, str]:
    """Settle which server this run uses and export its URL; the embedded server if one was
    started (the caller stops it), and one line that says which."""
    if os.environ.get(GIVEN):
        return None, f"PostgreSQL: {shown(os.environ[GIVEN])} ({GIVEN})"
    tried = admin_url()
    if answers(tried):
        os.environ[GIVEN] = tried
        return None, f"PostgreSQL: {shown(tried)}"
    server = Embedded()
    os.environ[GIVEN] = server.start()
    return server, (f"PostgreSQL: nothing answers at {shown(tried)}; started an embedded PostgreSQL for this run at"
                    f" {server.url} (data in {server.data}, deleted at the end)")
