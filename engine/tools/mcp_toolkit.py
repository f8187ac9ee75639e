"""Real-time ToolKit through MCP, with the official ``mcp`` SDK.

``mcp_servers.json`` declares the servers (a stdio command, or a streamable-HTTP
URL). An ``MCPHub`` owns the client sessions on one background event loop for the
whole process (like the embedding model, it is infrastructure, not conversation
state). Each server's tools are listed at start-up and wrapped as ``Tool``s with
their JSON schemas. A server that fails to start or dies mid-call becomes a
readable error Observation and is marked down in the catalogue; the app keeps
working. A server that does not answer a call in time (hung, stopped) is marked
down too: later calls fail at once with a readable sentence until ``restart`` or
``health_check`` brings it back.

A server can take a credential: ``token_env`` names the environment variable that
holds it (never the secret in the file), and ``engine_token`` lets the engine's own
``token=`` stand in for it. HTTP servers receive it as ``Authorization: Bearer …``,
stdio servers in their environment (under ``token_env``, else ``MCP_TOKEN``). It is
never logged, shown or put in a reason: every text the hub reports is redacted. A
server that answers 401 or 403 is "unauthorised".
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
from collections.abc import Iterable
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from engine.tools.mcp_log import MAX_LOG_BYTES, BoundedLog
from engine.tools.messages import say


class ServerSpec(BaseModel):
    name: str
    command: str | None = None
    args: list[str] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict)
    url: str | None = None
    description: str = ""
    timeout_s: float = 20.0
    token_env: str | None = Field(
        None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", description="The environment variable holding its credential."
    )
    engine_token: bool = False  # the engine's ``token=`` is its credential, when one is given


class ServerStatus(BaseModel):
    name: str
    state: Literal["starting", "up", "down", "unauthorised"] = "starting"
    reason: str | None = None
    tools: list[str] = Field(default_factory=list)
    description: str = ""


class ToolInfo(BaseModel):
    server: str
    name: str
    description: str
    input_schema: dict[str, Any]


def load_specs(path: Path | None = None) -> list[ServerSpec]:
    if path is None:
        from engine.settings import current

        path = current().mcp_servers_json
    if not path.exists():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    specs = [ServerSpec.model_validate(s) for s in data.get("servers", [])]
    for spec in specs:
        if spec.command in ("python", "python3", "${python}"):
            spec.command = sys.executable
    return specs


def _innermost(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _short(exc: BaseException) -> str:
    exc = _innermost(exc)
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text[:160]}" if text else type(exc).__name__


def refused_status(exc: BaseException) -> int | None:
    """401 or 403 when the server refused the credential (or its absence), else None."""
    seen: list[BaseException] = [exc]
    while seen:
        item = seen.pop()
        if isinstance(item, BaseExceptionGroup):
            seen.extend(item.exceptions)
            continue
        response = getattr(item, "response", None)
        code = getattr(response, "status_code", None)
        if code in (401, 403):
            return code
        if item.__cause__ is not None:
            seen.append(item.__cause__)
    return None


def redact(text: str, secrets: Iterable[str]) -> str:
    for secret in secrets:
        if secret:
            text = text.replace(secret, "[redacted]")
    return text


class MCPHub:
    def __init__(
        self,
        specs: list[ServerSpec],
        errlog_path: Path | None = None,
        errlog_max_bytes: int = MAX_LOG_BYTES,
        token: str | None = None,
    ) -> None:
        self.specs = {s.name: s for s in specs}
        self._token = token  # the engine's token, for the servers with ``engine_token``
        self._refused: dict[str, int] = {}  # a server's last 401/403
        self.status: dict[str, ServerStatus] = {
            s.name: ServerStatus(name=s.name, description=s.description) for s in specs
        }
        self.tools: dict[str, list[ToolInfo]] = {}
        self._clients: dict[str, Any] = {}
        self._stops: dict[str, asyncio.Event] = {}
        self._ready: dict[str, threading.Event] = {s.name: threading.Event() for s in specs}
        self._log = BoundedLog(errlog_path, errlog_max_bytes) if errlog_path is not None else None
        self._generation: dict[str, int] = {}
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True, name="mcp-hub")
        self._thread.start()
        self._lock = threading.Lock()

    # ---- lifecycle -------------------------------------------------------------------
    def start(self, wait_s: float = 30.0) -> MCPHub:
        for spec in self.specs.values():
            self._launch(spec)
        for name, ready in self._ready.items():
            if not ready.wait(wait_s):
                self._mark_down(name, say("mcp_down_start", seconds=wait_s))
        return self

    def _launch(self, spec: ServerSpec) -> None:
        with self._lock:
            self._generation[spec.name] = self._generation.get(spec.name, 0) + 1
            generation = self._generation[spec.name]
            self._ready[spec.name] = threading.Event()
            self.status[spec.name] = ServerStatus(name=spec.name, description=spec.description)
        asyncio.run_coroutine_threadsafe(self._serve(spec, generation, self._ready[spec.name]), self._loop)

    def _current(self, name: str, generation: int) -> bool:
        """Whether a session is still the server's latest launch (not a restarted-over one)."""
        return self._generation.get(name) == generation

    def restart(self, name: str, wait_s: float = 30.0) -> ServerStatus:
        self.stop_server(name)
        self._launch(self.specs[name])
        if not self._ready[name].wait(wait_s):
            self._mark_down(name, say("mcp_down_start", seconds=wait_s))
        return self.status[name]

    def health_check(self, name: str, timeout_s: float = 5.0) -> ServerStatus:
        """Ask a server that is up for its tools (marking it down when it does not answer); restart one that is down."""
        status = self.status[name]
        if status.state != "up":
            return self.restart(name, wait_s=max(timeout_s, 1.0))
        client = self._clients.get(name)
        if client is None:
            return self.restart(name, wait_s=max(timeout_s, 1.0))
        future = asyncio.run_coroutine_threadsafe(asyncio.wait_for(client.list_tools(), timeout_s), self._loop)
        try:
            future.result(timeout_s + 1)
        except Exception as exc:  # no answer, or a broken pipe: the server is down
            future.cancel()
            self._mark_down(name, say("mcp_down_health", detail=_short(exc)))
            self.stop_server(name)
        return self.status[name]

    def stop_server(self, name: str) -> None:
        stop = self._stops.get(name)
        if stop is not None:
            self._loop.call_soon_threadsafe(stop.set)

    def close(self) -> None:
        for name in list(self._stops):
            self.stop_server(name)
        self._loop.call_soon_threadsafe(self._loop.stop)

    def __repr__(self) -> str:  # never the token
        return f"MCPHub({sorted(self.specs)})"

    def _credential(self, spec: ServerSpec) -> str | None:
        from engine.settings import credential

        if spec.engine_token and self._token:
            return self._token
        return credential(spec.token_env) if spec.token_env else None

    def _secrets(self) -> list[str]:
        return [c for c in (self._credential(s) for s in self.specs.values()) if c]

    def _http_client(self, name: str, secret: str | None) -> Any:
        """The HTTP client of one server: its bearer token, and a note of a 401/403 answer
        (the MCP client turns those into a generic error)."""
        from mcp.client.streamable_http import create_mcp_http_client

        self._refused.pop(name, None)

        async def note_refusal(response: Any) -> None:
            if response.status_code in (401, 403):
                self._refused[name] = response.status_code

        client = create_mcp_http_client(headers={"Authorization": f"Bearer {secret}"} if secret else None)
        client.event_hooks["response"].append(note_refusal)
        return client

    def _errlog(self, name: str, secret: str | None = None):
        """The server's stderr: a pipe into the bounded, rotated log (closed with the session),
        its credential redacted."""
        if self._log is None:
            return open(os.devnull, "w")  # noqa: SIM115 - closed with the session
        return self._log.pipe(name, (secret,) if secret else ())

    async def _serve(self, spec: ServerSpec, generation: int, ready: threading.Event) -> None:
        from mcp import Client, StdioServerParameters
        from mcp.client.stdio import stdio_client
        from mcp.client.streamable_http import streamable_http_client

        stop = asyncio.Event()
        self._stops[spec.name] = stop
        current = lambda: self._current(spec.name, generation)  # noqa: E731
        secret = self._credential(spec)
        errlog = self._errlog(spec.name, secret)
        http_client = None
        try:
            if spec.url:
                http_client = self._http_client(spec.name, secret)
                target: Any = streamable_http_client(spec.url, http_client=http_client)
            elif spec.command:
                env = dict(spec.env)
                if secret:
                    env[spec.token_env or "MCP_TOKEN"] = secret
                params = StdioServerParameters(command=spec.command, args=spec.args, env=env or None, cwd=os.getcwd())
                target = stdio_client(params, errlog=errlog)
            else:
                raise ValueError("no command and no url")
            async with Client(target, read_timeout_seconds=spec.timeout_s) as client:
                listed = await asyncio.wait_for(client.list_tools(), spec.timeout_s)
                infos = [
                    ToolInfo(
                        server=spec.name,
                        name=t.name,
                        description=(t.description or t.name).strip(),
                        input_schema=dict(t.input_schema or {}),
                    )
                    for t in listed.tools
                ]
                if current():
                    self.tools[spec.name] = infos
                    self._clients[spec.name] = client
                    self.status[spec.name] = ServerStatus(
                        name=spec.name, state="up", tools=[t.name for t in infos], description=spec.description
                    )
                ready.set()
                await stop.wait()
        except BaseException as exc:  # a dead or broken server is a status, never a crash
            if current():
                code = refused_status(exc) or self._refused.get(spec.name)
                if code is not None:
                    self._mark_down(spec.name, say("mcp_down_credential", code=code), state="unauthorised")
                else:
                    self._mark_down(spec.name, say("mcp_down_failed", detail=_short(exc)))
            if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                raise
        finally:
            errlog.close()
            if http_client is not None:
                await http_client.aclose()
            ready.set()
            if current():
                self._clients.pop(spec.name, None)
                if self.status[spec.name].state == "up":
                    self._mark_down(spec.name, "stopped")

    def _mark_down(self, name: str, reason: str, state: Literal["down", "unauthorised"] = "down") -> None:
        with self._lock:
            previous = self.status.get(name)
            self.status[name] = ServerStatus(
                name=name,
                state=state,
                reason=redact(reason, self._secrets()),
                tools=previous.tools if previous else [],
                description=previous.description if previous else "",
            )

    # ---- calls ---------------------------------------------------------------------------
    async def _call(self, server: str, tool: str, args: dict[str, Any], timeout_s: float) -> str:
        client = self._clients.get(server)
        if client is None:
            raise ConnectionError("not connected")
        result = await asyncio.wait_for(client.call_tool(tool, args), timeout_s)
        text = "\n".join(getattr(part, "text", "") or "" for part in result.content).strip()
        if not text and getattr(result, "structured_content", None):
            text = json.dumps(result.structured_content, ensure_ascii=False)
        if result.is_error:
            return say("mcp_refused_call", tool=tool, text=text[:300] or say("mcp_no_details"))
        return text

    async def call(self, server: str, tool: str, args: dict[str, Any], timeout_s: float = 20.0) -> str:
        """Call a tool from any event loop; failures become readable Observations."""
        status = self.status.get(server)
        if status is not None and status.state == "unauthorised":
            return say("mcp_refused_credential", server=server)
        if status is None or status.state != "up":
            why = status.reason if status and status.reason else say("mcp_not_running")
            return say("mcp_down", server=server, why=why)
        future = asyncio.run_coroutine_threadsafe(self._call(server, tool, args, timeout_s), self._loop)
        try:
            return redact(await asyncio.wrap_future(future), self._secrets())
        except (TimeoutError, FutureTimeout):
            self._mark_down(server, say("mcp_down_call_timeout", tool=tool, seconds=timeout_s))
            self.stop_server(server)
            return say("mcp_call_timeout", server=server, tool=tool, seconds=timeout_s)
        except Exception as exc:
            code = refused_status(exc) or self._refused.get(server)
            if code is not None:
                self._mark_down(server, say("mcp_down_credential", code=code), state="unauthorised")
                self.stop_server(server)
                return say("mcp_refused_credential", server=server)
            why = redact(_short(exc), self._secrets())
            self._mark_down(server, say("mcp_down_died", why=why))
            self.stop_server(server)
            return say("mcp_stopped_responding", server=server, why=why)
