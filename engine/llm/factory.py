"""Backend choice, following DESIGN.md: MISTRAL_API_KEY → Mistral; else OPENAI_BASE_URL →
an OpenAI-compatible server; else the embedded model. ``models.json`` can say the same."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from engine.llm.base import LLM


class BackendSpec(BaseModel):
    """Which backend to use, and how. Never printed with its key."""

    kind: Literal["mistral", "openai", "embedded"]
    model: str = ""
    base_url: str | None = None
    api_key: str | None = Field(default=None, repr=False)
    tool_call: bool = False
    timeout_s: float = 60.0
    max_retry_wait_s: float = 30.0

    def label(self) -> str:
        default = {"embedded": "gemma-3-270m-q4_k_m", "mistral": "mistral-small-latest"}.get(self.kind, "default")
        return f"{self.kind} · {self.model or default}"


class ModelsFile(BaseModel):
    backend: BackendSpec | None = None
    embeddings: str | None = None
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
        raise ValueError(f"{path} is not a valid models file: {str(exc).splitlines()[0]}") from None


def resolve_spec(
    env: dict[str, str] | None = None, models_file: ModelsFile | None = None, api_key: str | None = None
) -> BackendSpec:
    env = dict(os.environ if env is None else env)
    retry = float(env.get("LLM_MAX_RETRY_S", "30"))
    key = api_key or env.get("MISTRAL_API_KEY")
    if key:
        return BackendSpec(
            kind="mistral",
            model=env.get("MISTRAL_MODEL") or "mistral-small-latest",
            base_url=env.get("MISTRAL_SERVER_URL") or None,
            api_key=key,
            tool_call=True,
            max_retry_wait_s=retry,
        )
    if env.get("OPENAI_BASE_URL"):
        return BackendSpec(
            kind="openai",
            model=env.get("OPENAI_MODEL") or "llama3.2",
            base_url=env["OPENAI_BASE_URL"],
            api_key=env.get("OPENAI_API_KEY") or None,
            tool_call=env.get("OPENAI_TOOL_CALLS", "").lower() in ("1", "true", "yes"),
            max_retry_wait_s=retry,
        )
    models_file = models_file if models_file is not None else load_models_file()
    if models_file.backend is not None:
        return models_file.backend
    return BackendSpec(kind="embedded", model=env.get("EMBEDDED_MODEL_PATH") or "")


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
            max_retry_wait_s=spec.max_retry_wait_s,
        )
    from engine.llm.embedded import EmbeddedLLM

    return EmbeddedLLM(model_path=spec.model or None)
