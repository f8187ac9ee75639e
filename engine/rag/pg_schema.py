"""PostgreSQL side of the pgvector store: the engine, the schema, the locks, the errors.

Tables (created if missing, under a schema-wide advisory lock so that several app
servers starting at once do not race):

- ``rag_themes(id, theme, embedding_model, dim, created_at)``: one row per theme; the
  model that made its vectors and their dimension.
- ``rag_documents(theme, source, size, sha256, chunks, ingested_at)``: a theme's files.
- ``rag_chunks(theme, chunk_id, source, ord, location, text, content_hash, embedding)``:
  the chunks; ``embedding`` is an untyped ``vector`` so themes may use models of
  different dimensions.

Each theme gets its own partial HNSW index, ``rag_chunks_hnsw_<id>``, on
``(embedding::vector(dim)) vector_ip_ops WHERE theme = '<theme>'``: one graph per
theme, so a search of one theme is never a filtered walk through another theme's
graph. Vectors are L2-normalised, so inner product is cosine similarity.

Every database failure leaves this module as an ``IndexProblem`` with one readable
sentence (``VectorStoreUnavailable`` when the server cannot be reached); the URL's
password never appears in it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine, create_engine, event, exc
from sqlalchemy.engine import URL, make_url

from engine.rag.messages import say
from engine.rag.store import IndexProblem, IndexUnreachable

# Advisory lock keys (two-int form): (LOCK_SPACE, hashtext(theme)) per theme,
# (GLOBAL_LOCK_SPACE, SCHEMA_KEY) while creating the schema, (GLOBAL_LOCK_SPACE, BUILD_KEY)
# while building or dropping an HNSW index (both need a table lock on rag_chunks; taking
# them in one order avoids deadlocks between two themes).
LOCK_SPACE = 72_610_001
GLOBAL_LOCK_SPACE = 72_610_002
SCHEMA_KEY = 1
BUILD_KEY = 2

MAX_DIM = 2000  # pgvector's HNSW limit for the vector type

SCHEMA = f"""
CREATE EXTENSION IF NOT EXISTS vector;
CREATE TABLE IF NOT EXISTS rag_themes (
    id serial PRIMARY KEY,
    theme text NOT NULL UNIQUE,
    embedding_model text NOT NULL,
    dim integer NOT NULL CHECK (dim BETWEEN 1 AND {MAX_DIM}),
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS rag_documents (
    theme text NOT NULL REFERENCES rag_themes (theme) ON DELETE CASCADE,
    source text NOT NULL,
    size bigint NOT NULL,
    sha256 text NOT NULL,
    chunks integer NOT NULL,
    ingested_at text NOT NULL,
    PRIMARY KEY (theme, source)
);
CREATE TABLE IF NOT EXISTS rag_chunks (
    theme text NOT NULL,
    chunk_id text NOT NULL,
    source text NOT NULL,
    ord integer NOT NULL,
    location text NOT NULL,
    text text NOT NULL,
    content_hash text NOT NULL,
    embedding vector NOT NULL,
    PRIMARY KEY (theme, chunk_id),
    FOREIGN KEY (theme, source) REFERENCES rag_documents (theme, source) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS rag_chunks_by_source ON rag_chunks (theme, source, ord);
"""

COPY_CHUNKS = (
    "COPY rag_chunks (theme, chunk_id, source, ord, location, text, content_hash, embedding) FROM STDIN (FORMAT BINARY)"
)
COPY_TYPES = ["text", "text", "text", "int4", "text", "text", "text", "vector"]


def hnsw_index_name(theme_id: int) -> str:
    return f"rag_chunks_hnsw_{int(theme_id)}"


def hnsw_index_sql(theme_id: int, theme: str, dim: int, m: int, ef_construction: int):
    """``CREATE INDEX`` of one theme's partial HNSW graph (the theme quoted as a literal)."""
    from psycopg import sql

    return sql.SQL(
        "CREATE INDEX IF NOT EXISTS {name} ON rag_chunks USING hnsw ((embedding::vector({dim})) vector_ip_ops) "
        "WITH (m = {m}, ef_construction = {efc}) WHERE theme = {theme}"
    ).format(
        name=sql.Identifier(hnsw_index_name(theme_id)),
        dim=sql.Literal(int(dim)),
        m=sql.Literal(int(m)),
        efc=sql.Literal(int(ef_construction)),
        theme=sql.Literal(theme),
    )


class VectorStoreUnavailable(IndexUnreachable):
    """The PostgreSQL server behind the vector store cannot be reached."""


def normalise_url(url: str) -> URL:
    """A SQLAlchemy URL on the psycopg 3 driver; ``postgres://`` and ``postgresql://`` are accepted."""
    try:
        parsed = make_url(url)
    except (exc.ArgumentError, ValueError):
        raise IndexProblem(say("pg_bad_url")) from None
    backend = parsed.drivername.split("+")[0]
    if backend not in ("postgresql", "postgres"):
        raise IndexProblem(say("pg_not_postgres", backend=backend))
    return parsed.set(drivername="postgresql+psycopg")


def describe(url: URL) -> str:
    """Where the database is, for messages: host and database, never the password."""
    host = url.host or url.query.get("host") or "localhost"
    if isinstance(host, tuple):
        host = host[0]
    port = f":{url.port}" if url.port else ""
    return f"PostgreSQL at {host}{port}/{url.database or 'postgres'}"


def _reason(error: BaseException, url: URL) -> str:
    text = str(getattr(error, "orig", None) or error).strip().splitlines()
    reason = text[0] if text else type(error).__name__
    if url.password:
        reason = reason.replace(str(url.password), "***")
    return reason[:200].rstrip(". ")


@contextmanager
def database_errors(url: URL, doing: str) -> Iterator[None]:
    """Turn database errors met while ``doing`` something into one ``IndexProblem`` sentence."""
    try:
        yield
    except IndexProblem:
        raise
    except (exc.OperationalError, exc.InterfaceError) as error:
        if _is_lost_connection(error):
            raise VectorStoreUnavailable(
                say("pg_unreachable", where=describe(url), doing=doing, reason=_reason(error, url))
            ) from None
        raise IndexProblem(say("pg_failed", where=describe(url), doing=doing, reason=_reason(error, url))) from None
    except exc.DBAPIError as error:
        raise IndexProblem(say("pg_failed", where=describe(url), doing=doing, reason=_reason(error, url))) from None


def _is_lost_connection(error: exc.DBAPIError) -> bool:
    if error.connection_invalidated or isinstance(error, exc.InterfaceError):
        return True
    state = getattr(error.orig, "sqlstate", None)
    return state is None or state.startswith("08") or state in ("57P01", "57P02", "57P03")


def _register_vector(dbapi_connection, _record) -> None:
    """Teach each new psycopg connection the ``vector`` type (numpy arrays in, binary on COPY)."""
    from pgvector.psycopg.vector import register_vector_info
    from psycopg.types import TypeInfo

    register_vector_info(dbapi_connection, TypeInfo.fetch(dbapi_connection, "vector"))
    dbapi_connection.commit()


def make_engine(url: URL, connect_timeout_s: int = 5) -> Engine:
    """The pooled engine of a store, its schema created if missing.

    Statements are never server-side prepared (``prepare_threshold=None``): a generic
    plan cannot prove a theme's partial HNSW index applies, a plan made for the bound
    theme can."""
    engine = create_engine(
        url,
        pool_pre_ping=True,
        connect_args={"connect_timeout": connect_timeout_s, "prepare_threshold": None},
    )
    with database_errors(url, say("doing_schema")):
        with engine.begin() as conn:
            conn.exec_driver_sql("SELECT pg_advisory_xact_lock(%s, %s)", (GLOBAL_LOCK_SPACE, SCHEMA_KEY))
            try:
                conn.exec_driver_sql(SCHEMA)
            except exc.DBAPIError as error:
                state = getattr(error.orig, "sqlstate", None)
                if state in ("0A000", "58P01", "42501", "22023"):  # extension missing or not allowed
                    raise IndexProblem(
                        say("pg_no_extension", where=describe(url), reason=_reason(error, url))
                    ) from None
                raise
    engine.dispose()  # connections made from now on know the vector type
    event.listen(engine, "connect", _register_vector)
    return engine
