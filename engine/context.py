"""The explicit context a run works in: settings, the loaded indexes, the tool
router and the MCP hub.

The app builds one per process (cached by Streamlit), the CLI one per command, and
tests build their own or pass replacements. The context owns what it starts and
``close()`` stops it. The one thing it shares with every other context in the process
is the loaded model weights (``embed`` and the embedded chat model come from the
weight cache, ``engine/weights.py``): loading them costs seconds and hundreds of MB,
and they hold no run's or user's data.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.settings import EngineConfig, Settings, current

if TYPE_CHECKING:
    from engine.llm.base import LLM
    from engine.llm.pricing import Price
    from engine.rag.manager import IndexManager
    from engine.tools.base import ToolRegistry
    from engine.tools.mcp_toolkit import MCPHub
    from engine.tools.router import ToolRouter
    from engine.tools.tables import TableCatalog
    from engine.tracing import RunTracer

_NOT_STARTED: Any = object()


_TABLE_SUFFIXES = (".csv", ".md", ".markdown", ".html", ".htm", ".pdf")  # the files tables are read from


def _files_signature(paths: list[Path]) -> tuple:
    """What the table files under ``paths`` are now (CSV files and documents, which can hold
    tables): name, size and modification time of each."""
    entries = []
    for path in paths:
        path = Path(path)
        files = sorted(p for p in path.rglob("*") if p.suffix.lower() in _TABLE_SUFFIXES) if path.is_dir() else [path]
        for file in files:
            try:
                stat = file.stat()
            except OSError:
                continue
            entries.append((str(file.resolve()), stat.st_size, stat.st_mtime_ns))
    return tuple(entries)


class _Encode:
    """The embedding model as the quote ranking uses it: passages by calling it, questions
    with ``query``, its similarity range, and how much word overlap should count."""

    def __init__(self, embedder: Any) -> None:
        self._encode = embedder.encode
        self.query = getattr(embedder, "encode_query", embedder.encode)
        self.similarity_range = getattr(embedder, "similarity_range", (0.0, 1.0))
        self.lexical_weight = getattr(embedder, "lexical_weight", 0.5)

    def __call__(self, texts: list[str]) -> Any:
        return self._encode(texts)


class EngineContext:
    def __init__(
        self,
        settings: Settings | None = None,
        *,
        indexes: IndexManager | None = None,
        router: ToolRouter | None = None,
        hub: MCPHub | None = _NOT_STARTED,
    ) -> None:
        self._settings = settings
        self._indexes = indexes
        self._indexes_key: tuple | None = ("given",) if indexes is not None else None
        self._router = router
        self._hub = hub
        self._hub_key: tuple | None = None if hub is _NOT_STARTED else ("given",)
        self._catalogs: dict[tuple, TableCatalog] = {}
        self._other_indexes: dict[str, IndexManager] = {}
        self._tracing: tuple[tuple, Any] | None = None
        self._token_hubs: dict[
            str, MCPHub | None
        ] = {}  # by the token's digest, never the token itself  # (settings key, SDK provider or None)
        self._lock = threading.Lock()

    @property
    def settings(self) -> Settings:
        """Fixed settings if given, else the environment as it is now."""
        return self._settings if self._settings is not None else current()

    # ---- what the context owns -------------------------------------------------
    @property
    def indexes(self) -> IndexManager:
        """The theme indexes, in the store the settings name now (FAISS files under the index
        root, or PostgreSQL with ``VECTOR_STORE=pgvector``); ``IndexProblem`` for an unknown store."""
        settings = self.settings
        key = (settings.vector_store, str(settings.index_root), settings.database_url)
        with self._lock:
            if self._indexes is None or self._indexes_key not in (("given",), key):
                from engine.rag.manager import IndexManager

                old, self._indexes = self._indexes, IndexManager.for_settings(settings)
                self._indexes_key = key
                if old is not None:
                    old.close()
            return self._indexes

    @property
    def router(self) -> ToolRouter:
        with self._lock:
            if self._router is None:
                from engine.tools.router import ToolRouter

                self._router = ToolRouter()  # caches tool-description embeddings
            return self._router

    @property
    def hub(self) -> MCPHub | None:
        """The MCP hub, started on first use (and again if the MCP settings change);
        None when disabled or no server is declared."""
        settings = self.settings
        key = (settings.mcp_servers_enabled, str(settings.mcp_servers_json))
        with self._lock:
            if self._hub_key != ("given",) and self._hub_key != key:
                old, self._hub = self._hub, _NOT_STARTED
                if old is not None and old is not _NOT_STARTED:
                    old.close()
            if self._hub is _NOT_STARTED:
                self._hub, self._hub_key = self._start_hub(), key
            return self._hub

    def hub_for(self, token: str, keep: int = 8) -> MCPHub | None:
        """The sessions of the servers that take the engine's token (``engine_token``),
        opened with ``token``; one hub per token, the ``keep`` latest kept. None when no
        server takes it."""
        import hashlib

        digest = hashlib.sha256(token.encode()).hexdigest()
        with self._lock:
            if digest in self._token_hubs:
                self._token_hubs[digest] = self._token_hubs.pop(digest)  # the latest used
                return self._token_hubs[digest]
        hub = self._start_hub(token=token)
        with self._lock:
            if digest in self._token_hubs:  # another turn with the same token started one meanwhile
                if hub is not None:
                    hub.close()
                return self._token_hubs[digest]
            self._token_hubs[digest] = hub
            old = [self._token_hubs.pop(k) for k in list(self._token_hubs)[: max(0, len(self._token_hubs) - keep)]]
        for stale in old:
            if stale is not None:
                stale.close()
        return hub

    def _start_hub(self, token: str | None = None) -> MCPHub | None:
        if not self.settings.mcp_servers_enabled:
            return None
        from engine.tools.mcp_toolkit import MCPHub, load_specs

        specs = load_specs(self.settings.mcp_servers_json)
        if token is not None:
            specs = [s for s in specs if s.engine_token]
        if not specs:
            return None
        return MCPHub(specs, errlog_path=Path("data/logs/mcp.log"), token=token).start()

    def run_tracer(self) -> RunTracer:
        """The spans of a run, as the ``OTEL_*`` variables say now: the process's own SDK
        provider when an exporter is named (built once per configuration), else the
        OpenTelemetry API's global tracer (a no-op unless the process installed one)."""
        from engine.tracing import SCOPE, RunTracer, provider_from_settings

        settings = self.settings
        key = (settings.otel_sdk_disabled, settings.otel_traces_exporter, settings.otel_service_name)
        with self._lock:
            if self._tracing is None or self._tracing[0] != key:
                old = self._tracing[1] if self._tracing else None
                provider, problem = provider_from_settings(settings)
                if problem:
                    logging.getLogger(__name__).warning(problem)
                self._tracing = (key, provider)
                if old is not None:
                    old.shutdown()
            provider = self._tracing[1]
        tracer = provider.get_tracer(SCOPE) if provider is not None else None
        return RunTracer(tracer, capture_content=settings.otel_capture_content)

    def close(self) -> None:
        with self._lock:
            tracing, self._tracing = self._tracing, None
            if tracing is not None and tracing[1] is not None:
                tracing[1].shutdown()
            hub, self._hub = self._hub, _NOT_STARTED
            token_hubs, self._token_hubs = list(self._token_hubs.values()), {}
            indexes = None
            if self._indexes_key != ("given",):  # what the context opened itself, it closes
                indexes, self._indexes, self._indexes_key = self._indexes, None, None
        if hub is not None and hub is not _NOT_STARTED:
            hub.close()
        for token_hub in token_hubs:
            if token_hub is not None:
                token_hub.close()
        if indexes is not None:
            indexes.close()

    # ---- what a run asks of it ----------------------------------------------------
    def engine_config(self) -> EngineConfig:
        from engine.llm.factory import load_models_file

        return EngineConfig.model_validate(load_models_file(self.settings.models_json).engine)

    def price_of(self, model: str) -> Price | None:
        """The model's prices from ``models.json``, if it gives them."""
        from engine.llm.factory import load_models_file
        from engine.llm.pricing import price_of

        return price_of(model, load_models_file(self.settings.models_json).prices)

    def build_llm(self, api_key: str | None = None) -> LLM:
        from engine.llm.factory import build_llm, resolve_spec

        return build_llm(resolve_spec(settings=self.settings, api_key=api_key))

    def registry(
        self,
        theme: str | None,
        *,
        attachments: list[Path] = (),
        attachments_index: Path | None = None,
        small_model: bool = False,
        language: str = "en",
        token: str | None = None,
    ) -> ToolRegistry:
        from engine.tools.toolkits import build_registry

        return build_registry(
            self, theme, attachments=list(attachments), attachments_index=attachments_index, small_model=small_model,
            language=language, token=token,
        )  # fmt: skip

    def indexes_at(self, root: Path) -> IndexManager:
        """The loaded indexes under another root (a conversation's own files)."""
        from engine.rag.manager import IndexManager

        with self._lock:
            manager = self._other_indexes.get(str(root))
            if manager is None:
                manager = self._other_indexes[str(root)] = IndexManager(root=root)
                while len(self._other_indexes) > 16:
                    self._other_indexes.pop(next(iter(self._other_indexes)))
            return manager

    def table_catalog(self, paths: list[Path], preferred: list[Path] = ()) -> TableCatalog:
        """The tables of these files, loaded once and again only when a file changes. The
        tables of ``preferred`` files (the conversation's attachments) come first."""
        from engine.tools.tables import TableCatalog

        key = (_files_signature(paths), _files_signature(list(preferred)))
        with self._lock:
            cached = self._catalogs.get(key)
        if cached is None:
            cached = TableCatalog.from_paths(paths, preferred=list(preferred))
            with self._lock:
                self._catalogs = {key: cached, **dict(list(self._catalogs.items())[:7])}
        return cached

    @property
    def embed(self) -> Any:
        """The embedding model's ``encode`` (loaded once per process, in the weight cache),
        carrying its similarity range."""
        from engine.rag.embeddings import get_embedder

        return _Encode(get_embedder())

    def route(self, prompt: str, tools: ToolRegistry) -> ToolRegistry:
        """The tools to offer for ``prompt``; routing is an optimisation, so any failure offers them all."""
        if not tools.routed:
            return tools
        try:
            return tools.subset(self.router.route(prompt, tools))
        except Exception:
            return tools
