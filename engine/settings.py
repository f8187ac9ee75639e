"""Every environment variable the product reads, in one place, read at call time.

Nothing here is read at import: ``current()`` builds a fresh ``Settings`` from the
environment each time it is called, so a test (or an operator) that changes a
variable is seen by the next call. ``EngineConfig`` (the loop's limits) lives here
too; ``models.json`` can set it under ``"engine"``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, Field

from engine.config import EngineConfig

__all__ = ["EngineConfig", "Settings", "current"]


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "true", "yes", "on")


def _off(value: str | None) -> bool:
    return (value or "").strip().lower() in ("off", "0", "false", "no")


class Settings(BaseModel):
    """The process environment as typed values. API keys are never printed (repr=False)."""

    mistral_api_key: str | None = Field(default=None, repr=False)
    mistral_model: str | None = None
    mistral_server_url: str | None = None
    openai_base_url: str | None = None
    openai_model: str | None = None
    openai_api_key: str | None = Field(default=None, repr=False)
    openai_tool_calls: bool = False
    llm_max_retry_s: float = 30.0
    embedded_model_path: str | None = None
    models_json: Path = Path("models.json")
    index_root: Path = Path("data/indexes")
    themes_root: Path = Path("data/themes")
    index_memory_budget_mb: int = 1024
    mcp_servers_enabled: bool = True
    mcp_servers_json: Path = Path("mcp_servers.json")
    database_url: str | None = Field(default=None, repr=False)
    vector_store: str = "faiss"
    auth_header: str | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env

        def get(name: str) -> str | None:
            value = env.get(name)
            return value if value not in (None, "") else None

        values: dict[str, object] = {
            "mistral_api_key": get("MISTRAL_API_KEY"),
            "mistral_model": get("MISTRAL_MODEL"),
            "mistral_server_url": get("MISTRAL_SERVER_URL"),
            "openai_base_url": get("OPENAI_BASE_URL"),
            "openai_model": get("OPENAI_MODEL"),
            "openai_api_key": get("OPENAI_API_KEY"),
            "openai_tool_calls": _flag(get("OPENAI_TOOL_CALLS")),
            "embedded_model_path": get("EMBEDDED_MODEL_PATH"),
            "mcp_servers_enabled": not _off(get("MCP_SERVERS")),
            "database_url": get("DATABASE_URL"),
            "vector_store": (get("VECTOR_STORE") or "faiss").lower(),
            "auth_header": get("AUTH_HEADER"),
        }
        for key, name in (
            ("models_json", "MODELS_JSON"),
            ("index_root", "INDEX_ROOT"),
            ("themes_root", "THEMES_ROOT"),
            ("mcp_servers_json", "MCP_SERVERS_JSON"),
            ("llm_max_retry_s", "LLM_MAX_RETRY_S"),
            ("index_memory_budget_mb", "INDEX_MEMORY_BUDGET_MB"),
        ):
            if get(name) is not None:
                values[key] = get(name)
        return cls.model_validate(values)


def current() -> Settings:
    """The settings as the environment says now."""
    return Settings.from_env()
