"""Private PostgreSQL and Redis servers that a test may stop and start at will.

The machine's own services (PostgreSQL on 5432, Redis on 6379) are shared with other runs;
a fault test restarts servers of its own instead: each on a free port, in a temporary
directory, with nothing worth keeping (no fsync, no persistence), removed afterwards.

    with PrivateRedis() as redis, PrivatePostgres() as pg:
        ... redis.url, pg.url("kgk") ...
        redis.restart(down_for=3)
"""

import os
import shutil
import socket
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from live_kit import free_port
from service_kit import service_missing

REDIS_SERVER = "/usr/bin/redis-server"
PG_BIN = Path("/usr/lib/postgresql/15/bin")


def _wait_for_port(port: int, up: bool, timeout=30.0, what="the server"):
    """Until 127.0.0.1:port accepts connections (up) or refuses them (not up)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            s.settimeout(0.5)
            accepting = s.connect_ex(("127.0.0.1", port)) == 0
        if accepting == up:
            return
        time.sleep(0.1)
    raise RuntimeError(f"{what} on port {port} is not {'up' if up else 'down'}")


def _user_exists(name: str) -> bool:
    import pwd

    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


class PrivateRedis:
    """`redis-server` on a free port, nothing saved: a restart empties it, as a crash would
    a Redis without persistence (the queued tasks and channel groups are gone)."""

    def __init__(self):
        if not os.path.exists(REDIS_SERVER):
            service_missing(f"needs {REDIS_SERVER} for a private Redis")
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.dir = Path(tempfile.mkdtemp(prefix="kgk-redis-"))
        self.process = None

    def start(self):
        command = [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1",
                   "--save", "", "--appendonly", "no", "--dir", str(self.dir)]  # fmt: skip
        log = open(self.dir / "redis.log", "a")  # noqa: SIM115 (the process holds it)
        self.process = subprocess.Popen(command, stdout=log, stderr=log)
        log.close()
        _wait_for_port(self.port, up=True, what="redis-server")

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)
        _wait_for_port(self.port, up=False, what="redis-server")

    def restart(self, down_for=3.0):
        self.stop()
        time.sleep(down_for)
        self.start()

    def __enter__(self):
        try:
            self.start()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc):
        try:
            self.stop()
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


class PrivatePostgres:
    """A PostgreSQL 15 cluster of its own (initdb, trust auth, fsync off) on a free port.

    initdb and the server refuse to run as root: as root they run as the `postgres` OS user
    (runuser), in a directory that user owns."""

    def __init__(self):
        if not (PG_BIN / "initdb").exists():
            service_missing(f"needs PostgreSQL 15 server binaries in {PG_BIN}")
        self.as_root = os.geteuid() == 0
        if self.as_root and not (shutil.which("runuser") and _user_exists("postgres")):
            service_missing("as root, needs runuser and a postgres user (initdb refuses root)")
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="kgk-pg-"))
        self.data = self.dir / "data"
        if self.as_root:
            shutil.chown(self.dir, user="postgres", group="postgres")

    def url(self, database="postgres") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, *command):
        prefix = ["runuser", "-u", "postgres", "--"] if self.as_root else []
        out = subprocess.run(prefix + [str(c) for c in command], capture_output=True, text=True)
        if out.returncode:
            raise RuntimeError(f"{command[0]} failed:\n{out.stdout[-2000:]}{out.stderr[-2000:]}")
        return out.stdout

    def init(self):
        self._run(PG_BIN / "initdb", "-D", self.data, "-U", "postgres", "--auth=trust",
                  "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync")  # fmt: skip

    def start(self):
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off")  # fmt: skip
        self._run(PG_BIN / "pg_ctl", "-D", self.data, "-l", self.dir / "server.log",
                  "-o", options, "-w", "-t", "60", "start")  # fmt: skip
        _wait_for_port(self.port, up=True, what="PostgreSQL")

    def stop(self, mode="fast"):
        """fast: the clients' connections are cut (as in a restart); immediate: a crash."""
        self._run(PG_BIN / "pg_ctl", "-D", self.data, "-m", mode, "-w", "-t", "60", "stop")
        _wait_for_port(self.port, up=False, what="PostgreSQL")

    def restart(self, down_for=3.0, mode="fast"):
        self.stop(mode)
        time.sleep(down_for)
        self.start()

    def create_database(self, name: str) -> str:
        self._run(PG_BIN / "createdb", "-h", "127.0.0.1", "-p", self.port, "-U", "postgres", name)
        return self.url(name)

    def __enter__(self):
        try:
            self.init()
            self.start()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc):
        try:
            if (self.data / "postmaster.pid").exists():
                self.stop(mode="immediate")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


@contextmanager
def django_database(url: str, alias="private"):
    """This process's ORM on a private server, as a database alias of its own
    (`Model.objects.using(alias)`); the default database stays what it was."""
    import dj_database_url
    from django.db import connections

    configured = connections.configure_settings(
        {"default": connections.settings["default"], alias: dj_database_url.parse(url)}
    )
    connections.settings[alias] = configured[alias]
    try:
        yield alias
    finally:
        connections[alias].close()
        del connections[alias]
        del connections.settings[alias]
