"""The database behind the conversation store: URL, engine, schema migrations.

SQLite file ``data/app.db`` by default (WAL, a busy timeout), PostgreSQL through
psycopg 3 when ``DATABASE_URL`` names it. Migrations are Alembic revisions in
``migrations/``, applied at start (``upgrade head``) under a lock, so two app servers
starting together do not both create the tables.
"""

from __future__ import annotations

import functools
import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, ParamSpec, TypeVar

import sqlalchemy as sa

from engine.settings import current
from engine.store.errors import BadInput, Unavailable

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).parent / "migrations"
DEFAULT_SQLITE = Path("data/app.db")
UNAVAILABLE = "The conversation database cannot be reached right now."
REPLACED = (
    "The conversation database file {name} was removed or replaced while the app was running: "
    "nothing more is saved to it, and the app must be restarted to save conversations again."
)
_LOCK_KEY = 0x5EAC7A  # any constant: PostgreSQL advisory lock shared by every migrating process
P = ParamSpec("P")
R = TypeVar("R")


def database_errors(method: Callable[P, R]) -> Callable[P, R]:
    """Connection-level failures become ``Unavailable`` (one sentence); other errors stay as they are.

    A method of an object with ``check_file`` (the store) checks its SQLite file first."""

    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        check_file = getattr(args[0], "check_file", None) if args else None
        if callable(check_file):
            check_file()
        try:
            return method(*args, **kwargs)
        except (sa.exc.OperationalError, sa.exc.InterfaceError, sa.exc.TimeoutError) as exc:
            raise Unavailable(UNAVAILABLE) from exc
        except sa.exc.DBAPIError as exc:
            if exc.connection_invalidated:
                raise Unavailable(UNAVAILABLE) from exc
            raise

    return wrapper


def resolve_url(url: str | None) -> str:
    """``url``, else ``DATABASE_URL``, else the SQLite file; PostgreSQL URLs get the psycopg 3 driver."""
    url = url or current().database_url
    if not url:
        DEFAULT_SQLITE.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{DEFAULT_SQLITE}"
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def conversations_engine(url: str | None, busy_timeout_s: float, connect_timeout_s: int) -> sa.Engine:
    """The conversation store's engine, or ``BadInput`` in one sentence (never quoting the URL)."""
    try:
        engine = make_engine(url, busy_timeout_s=busy_timeout_s, connect_timeout_s=connect_timeout_s)
    except (sa.exc.ArgumentError, sa.exc.NoSuchModuleError, ImportError):
        # from None: the parser's message quotes the URL, password included
        raise BadInput(
            "DATABASE_URL is not a database URL this app can use (expected postgresql://user@host/db)."
        ) from None
    if engine.dialect.name not in ("sqlite", "postgresql"):
        raise BadInput("Conversations can be kept in SQLite or PostgreSQL only.")
    return engine


def make_engine(url: str | None, busy_timeout_s: float = 5.0, connect_timeout_s: int = 5) -> sa.Engine:
    """A thread-safe engine. SQLite: WAL, ``busy_timeout``, foreign keys. PostgreSQL: pre-ping, connect timeout."""
    url = resolve_url(url)
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": busy_timeout_s})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection, _record) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute(f"PRAGMA busy_timeout = {int(busy_timeout_s * 1000)}")
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute("PRAGMA synchronous = NORMAL")
            cursor.execute("PRAGMA foreign_keys = ON")
            cursor.close()

        return engine
    connect_args = {"connect_timeout": connect_timeout_s} if url.startswith("postgresql") else {}
    return sa.create_engine(
        url, pool_pre_ping=True, pool_size=10, max_overflow=30, pool_timeout=30, connect_args=connect_args
    )


def sqlite_file(engine: sa.Engine) -> Path | None:
    """The file an SQLite engine keeps its data in (None for PostgreSQL or an in-memory database)."""
    if engine.dialect.name != "sqlite":
        return None
    database = engine.url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database).resolve()


def file_identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of ``path``, None when it is gone: a file unlinked or moved over keeps neither."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_dev, info.st_ino)


def alembic_config() -> Config:
    from alembic.config import Config  # imported when used: keeps the app's start light

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def head_revision() -> str:
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: sa.Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


MIGRATION_WAIT_MS = 120_000  # another process's schema upgrade at start, on a slow or loaded machine
MIGRATION_RETRY_S = 0.2


def migrate(engine: sa.Engine, revision: str = "head") -> None:
    """Bring the schema to ``revision`` (default: the newest), keeping the data; idempotent.

    SQLite: a lock met before the upgrade's own wait begins (two processes opening a new
    file together: the second's switch to WAL needs the lock the first holds while it
    upgrades) is waited out too, the whole upgrade tried again, up to ``MIGRATION_WAIT_MS``."""
    deadline = time.monotonic() + MIGRATION_WAIT_MS / 1000
    while True:
        try:
            _upgrade(engine, revision)
            return
        except sa.exc.OperationalError as exc:
            locked = engine.dialect.name == "sqlite" and re.search(r"locked|busy", str(exc.orig), re.IGNORECASE)
            if not locked or time.monotonic() > deadline:
                raise
            engine.dispose()  # a fresh connection reads the file's journal mode again
            time.sleep(MIGRATION_RETRY_S)


def _upgrade(engine: sa.Engine, revision: str) -> None:
    from alembic import command

    config = alembic_config()
    with engine.connect() as connection:
        if engine.dialect.name == "sqlite":
            # One write transaction for the whole upgrade: DDL becomes atomic and a second
            # process waits here, then finds the schema already upgraded. It waits as long as
            # an upgrade may take on a loaded machine, not the few seconds a write waits.
            waited = connection.exec_driver_sql("PRAGMA busy_timeout").scalar()
            connection.exec_driver_sql(f"PRAGMA busy_timeout = {MIGRATION_WAIT_MS}")
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        elif engine.dialect.name == "postgresql":
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
        connection.commit()
        if engine.dialect.name == "sqlite":
            connection.exec_driver_sql(f"PRAGMA busy_timeout = {int(waited)}")  # the pool's own wait again
