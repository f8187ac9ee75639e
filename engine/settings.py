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

__all__ = ["EngineConfig", "Settings", "credential", "current"]


class EngineConfig(BaseModel):
    """Limits and knobs of one ReAct run. All of them can be set from ``models.json``
    under ``"engine"`` or passed to ``ReActEngine(config=...)``."""

    max_iterations: int = Field(10, ge=1, description="Model calls per run before the engine forces a final answer.")
    max_format_retries: int = Field(
        3, ge=0, description="Consecutive malformed outputs tolerated before forcing a final answer."
    )
    cycle_warn_at: int = Field(3, ge=2, description="Identical (tool, args) calls that trigger a loop warning.")
    cycle_block_at: int = Field(4, ge=2, description="Identical calls from which the call is refused.")
    reflection_every: int = Field(6, ge=1, description="Tool calls between two self-reflection prompts.")
    checklist_after_tools: int = Field(3, ge=1, description="Tool calls after which a one-time checklist is shown.")
    tool_timeout_s: float = Field(30.0, gt=0, description="Wall-clock limit of one tool call.")
    observation_max_chars: int = Field(2000, ge=100, description="Observations longer than this are cut, with a note.")
    turn_data_bytes: int = Field(
        2_000_000,
        ge=10_000,
        description="Bytes of tool tables and charts one turn keeps; later rows are cut (the table says how many), "
        "and a chart whose data does not fit is left out rather than drawn from part of it.",
    )
    max_tokens_per_step: int = Field(512, ge=16, description="Generation limit of one model call.")
    temperature: float = Field(0.2, ge=0, le=2)
    history_token_budget: int = Field(3000, ge=200, description="Tokens of past conversation sent with each turn.")
    question_max_tokens: int = Field(
        8000,
        ge=50,
        description="Tokens of the question sent to the model (less if the backend declares less); "
        "a longer one is cut, and the run says so.",
    )
    history_recent_share: float = Field(
        0.6, gt=0, le=1, description="Share of the history budget kept verbatim for the latest turns."
    )
    run_timeout_s: float = Field(600.0, gt=0, description="Wall-clock limit of one run before forcing an answer.")
    language: str = Field("en", description="Language of the answers (en, fr, ...).")
    detail: str = Field("normal", description="Detail level of the answers: brief, normal or detailed.")
    wire_protocol: str | None = Field(
        None,
        description="Force a wire protocol by name (native, json, text); by default the backend's abilities choose.",
    )


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
    openai_json_mode: bool = False  # the served model takes response_format json_object
    openai_small: bool = False  # the served model is small: the engine plans and checks its answers
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
    embedding_precision: str = "auto"  # or "float32": no bfloat16 route (engine/rag/st_bert.py)
    # An OpenAI-compatible /v1/embeddings server (make serve-models, vLLM, Ollama, TEI, llama.cpp):
    embeddings_base_url: str | None = None
    embeddings_model: str | None = None
    embeddings_api_key: str | None = Field(default=None, repr=False)
    # What the served model expects before a text (E5: "query: " and "passage: "); empty by default.
    embeddings_query_prefix: str = ""
    embeddings_passage_prefix: str = ""
    auth_header: str | None = None
    # A running turn's lease: its owner saves it at least every third of this; past it, the turn is interrupted.
    turn_lease_s: float = Field(30.0, gt=0)
    # A running turn's stream is written to the store at most this often while it grows (followers read it).
    stream_write_s: float = Field(0.5, gt=0)
    # How often a tab showing a turn that runs elsewhere reads it again from the store.
    live_follow_s: float = Field(0.25, gt=0)
    otel_sdk_disabled: bool = False  # OTEL_SDK_DISABLED
    otel_traces_exporter: str | None = None  # OTEL_TRACES_EXPORTER: otlp, console or none; unset: no exporter
    otel_service_name: str = "analyst-chatbot"  # OTEL_SERVICE_NAME
    otel_capture_content: bool = False  # OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT

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
            "openai_json_mode": _flag(get("OPENAI_JSON_MODE")),
            "openai_small": _flag(get("OPENAI_SMALL_MODEL")),
            "embedded_model_path": get("EMBEDDED_MODEL_PATH"),
            "mcp_servers_enabled": not _off(get("MCP_SERVERS")),
            "database_url": get("DATABASE_URL"),
            "vector_store": (get("VECTOR_STORE") or "faiss").lower(),
            "embedding_precision": (get("EMBEDDING_PRECISION") or "auto").lower(),
            "auth_header": get("AUTH_HEADER"),
            "otel_sdk_disabled": _flag(get("OTEL_SDK_DISABLED")),
            "otel_traces_exporter": get("OTEL_TRACES_EXPORTER"),
            "otel_capture_content": _flag(get("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT")),
            "embeddings_base_url": get("EMBEDDINGS_BASE_URL"),
            "embeddings_model": get("EMBEDDINGS_MODEL"),
            "embeddings_api_key": get("EMBEDDINGS_API_KEY"),
            "embeddings_query_prefix": env.get("EMBEDDINGS_QUERY_PREFIX") or "",
            "embeddings_passage_prefix": env.get("EMBEDDINGS_PASSAGE_PREFIX") or "",
        }
        for key, name in (
            ("models_json", "MODELS_JSON"),
            ("index_root", "INDEX_ROOT"),
            ("themes_root", "THEMES_ROOT"),
            ("mcp_servers_json", "MCP_SERVERS_JSON"),
            ("llm_max_retry_s", "LLM_MAX_RETRY_S"),
            ("index_memory_budget_mb", "INDEX_MEMORY_BUDGET_MB"),
            ("otel_service_name", "OTEL_SERVICE_NAME"),
            ("turn_lease_s", "TURN_LEASE_S"),
            ("stream_write_s", "STREAM_WRITE_S"),
            ("live_follow_s", "LIVE_FOLLOW_S"),
        ):
            if get(name) is not None:
                values[key] = get(name)
        return cls.model_validate(values)


def current() -> Settings:
    """The settings as the environment says now."""
    return Settings.from_env()


def credential(variable: str) -> str | None:
    """A secret a configuration file names by its environment variable (a data server's
    token in ``mcp_servers.json``, an embedding server's key in ``models.json``), read at
    call time; never stored in the file."""
    value = os.environ.get(variable)
    return value if value else None
