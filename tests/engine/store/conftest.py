import pytest

from engine.store import ConversationStore
from tests.pg import pg_server_fixture

pg_server = pg_server_fixture("store_pg")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A fresh, empty database URL: a SQLite file, or a new database on the real PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'app.db'}"
    return request.getfixturevalue("pg_server").create_database()


@pytest.fixture
def store(db_url):
    store = ConversationStore(db_url)
    yield store
    store.close()
