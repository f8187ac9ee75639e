"""Alembic environment of the conversation store.

The app runs it programmatically (``engine.store.database.migrate``), handing over an
open connection in ``config.attributes["connection"]``. From the command line,
``alembic -c engine/store/migrations/alembic.ini upgrade head`` uses ``DATABASE_URL``
(or the default SQLite file), like the app.
"""

from __future__ import annotations

from alembic import context

from engine.store.database import make_engine
from engine.store.schema import metadata

config = context.config


def run_offline() -> None:
    from engine.store.database import resolve_url

    context.configure(url=resolve_url(None), target_metadata=metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = make_engine(None)
    try:
        with engine.connect() as connection:
            context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
            with context.begin_transaction():
                context.run_migrations()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
