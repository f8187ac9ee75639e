"""Backend choice: MISTRAL_API_KEY → Mistral; else OPENAI_BASE_URL → an OpenAI-compatible
server; else ``models.json``; else the embedded model."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field, ValidationError

from engine.llm.base import LLM
from engine.llm.messages import say
from engine.llm.pricing import Price

if TYPE_CHECKING:
    from engine.settings import Settings


class BackendSpec(BaseModel):
    """Which backend to use, and how. Never printed with its key."""

    kind: Literal["mistral", "openai", "embedded"]
    model: str = ""
    base_url: str | None = None
    api_key: str | None = Field(default=None, repr=False)
    tool_call: bool = False  # the model takes native function calls
    json_mode: bool = False  # the model takes response_format json_object (the JSON wire protocol)
    small: bool = False  # declared by whoever serves it: a small model's answers come from the engine's plan
    timeout_s: float = 60.0
    max_retry_wait_s: float = 30.0

    def label(self) -> str:
        default = {"embedded": "gemma-3-270m-q4_k_m", "mistral": "mistral-small-latest"}.get(self.kind, "default")
        model = os.path.basename(self.model) if self.kind == "embedded" and self.model else self.model
        return f"{self.kind} · {model or default}"


class EmbeddingsServer(BaseModel):
    """An embedding server named in ``models.json``: ``{"embeddings": {"base_url", "model", ...}}``.
    The key is named by an environment variable (``api_key_env``), never written in the file."""

    base_url: str
    model: str
    api_key_env: str | None = None
    query_prefix: str = ""
    passage_prefix: str = ""


class ModelsFile(BaseModel):
    backend: BackendSpec | None = None
    prices: dict[str, Price] = Field(default_factory=dict)  # by model name: per million input and output tokens
    embeddings: str | EmbeddingsServer | None = None
    engine: dict[str, Any] = Field(default_factory=dict)


def load_models_file(path: Path | None = None) -> ModelsFile:
    if path is None:
        from engine.settings import current

        path = current().models_json
    if not path.exists():
        return ModelsFile()
    try:
        return ModelsFile.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, ValidationError) as exc:
        raise ValueError(say("models_file_invalid", path=path, detail=str(exc).splitlines()[0])) from None


def resolve_spec(
    settings: Settings | None = None, models_file: ModelsFile | None = None, api_key: str | None = None
) -> BackendSpec:
    """The backend to use: MISTRAL_API_KEY, then OPENAI_BASE_URL, then models.json, then the embedded model."""
    from engine.settings import current

    settings = settings or current()
    key = api_key or settings.mistral_api_key
    if key:
        return BackendSpec(
            kind="mistral",
            model=settings.mistral_model or "mistral-small-latest",
            base_url=settings.mistral_server_url,
            api_key=key,
            tool_call=True,
            max_retry_wait_s=settings.llm_max_retry_s,
        )
    if settings.openai_base_url:
        return BackendSpec(
            kind="openai",
            model=settings.openai_model or "llama3.2",
            base_url=settings.openai_base_url,
            api_key=settings.openai_api_key,
            tool_call=settings.openai_tool_calls,
            json_mode=settings.openai_json_mode,
            small=settings.openai_small,
            max_retry_wait_s=settings.llm_max_retry_s,
        )
    models_file = models_file if models_file is not None else load_models_file(settings.models_json)
    if models_file.backend is not None:
        return models_file.backend
    return BackendSpec(kind="embedded", model=settings.embedded_model_path or "")


def build_llm(spec: BackendSpec) -> LLM:
    if spec.kind == "mistral":
        from engine.llm.mistral import DEFAULT_MODEL, MistralLLM

        return MistralLLM(
            api_key=spec.api_key or "",
            model=spec.model or DEFAULT_MODEL,
            server_url=spec.base_url,
            timeout_s=spec.timeout_s,
            max_retry_wait_s=spec.max_retry_wait_s,
        )
    if spec.kind == "openai":
        from engine.llm.openai_compat import OpenAICompatLLM

        return OpenAICompatLLM(
            base_url=spec.base_url or "",
            model=spec.model,
            api_key=spec.api_key,
            timeout_s=spec.timeout_s,
            tool_call=spec.tool_call,
            json_mode=spec.json_mode,
            small=spec.small,
            max_retry_wait_s=spec.max_retry_wait_s,
        )
    from engine.llm.embedded import EmbeddedLLM

    return EmbeddedLLM(model_path=spec.model or None)
