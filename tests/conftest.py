import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from tests.fakes.llm_server import FakeLLMServer  # noqa: E402
from tests.pg import pg_server_fixture  # noqa: E402

pg_server = pg_server_fixture()  # one real PostgreSQL (with pgvector) for the tests that ask for it


def pytest_collection_finish(session):
    """The emulated-CPU probe takes minutes: start it beside the suite when its test is selected."""
    from tests.test_portability import PROBE_TEST, start_probe

    if any(item.name == PROBE_TEST for item in session.items):
        start_probe(session.config)


def pytest_sessionfinish(session):
    from tests.test_portability import stop_probe

    stop_probe(session.config)


@pytest.fixture
def fake_server():
    server = FakeLLMServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def _no_backend_env(monkeypatch, tmp_path):
    """Tests choose their backend explicitly; a developer's keys never leak in."""
    for key in (
        "MISTRAL_API_KEY",
        "MISTRAL_SERVER_URL",
        "MISTRAL_MODEL",
        "OPENAI_BASE_URL",
        "OPENAI_API_KEY",
        "OPENAI_MODEL",
    ):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("MODELS_JSON", str(tmp_path / "models.json"))


@pytest.fixture
def app_env(fake_server, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("MISTRAL_API_KEY", "sk-apptest-secret")
    monkeypatch.setenv("MISTRAL_SERVER_URL", f"http://127.0.0.1:{fake_server.port}")
    monkeypatch.setenv("LLM_MAX_RETRY_S", "0.3")
    monkeypatch.setenv("MCP_SERVERS", "off")
    monkeypatch.setenv("INDEX_ROOT", str(tmp_path / "indexes"))
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'app.db'}")
    return fake_server
