"""The MCP tools offered to the model: each server's tool as a ``Tool``, named apart from
the built-ins (a colliding name is offered as ``server__tool``, or refused), its arguments
checked against the server's schema before the call."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any, Literal

from pydantic import BaseModel

from engine.errors import ToolError
from engine.tools.base import Tool
from engine.tools.mcp_toolkit import MCPHub, ToolInfo
from engine.tools.messages import say


def _check_required(tool: str, schema: dict[str, Any], args: dict[str, Any]) -> None:
    required = [k for k in schema.get("required", []) if k not in args]
    if required:
        props = ", ".join(f'"{k}"' for k in schema.get("properties", {}))
        raise ToolError(
            say("mcp_required", tool=tool, required=", ".join(repr(r) for r in required), props=props or say("none"))
        )
    unknown = [k for k in args if k not in schema.get("properties", {})]
    if unknown and schema.get("additionalProperties") is False:
        raise ToolError(say("mcp_unknown_argument", tool=tool, name=unknown[0]))


class MCPTool(Tool):
    """A tool of an MCP server, with the server's own JSON schema; ``name`` is the name the
    model is offered (``server__tool`` when the server's own name was taken)."""

    toolkit = "realtime"
    Args = BaseModel
    reaches_outside = True  # a server's tools act on the machine, a network or live data

    def __init__(self, hub: MCPHub, info: ToolInfo, timeout_s: float = 20.0, name: str | None = None) -> None:
        self.hub = hub
        self.info = info
        self.name = name or info.name
        self.server = info.server
        self.description = info.description.split("\n")[0][:300]
        self.timeout_s = timeout_s

    def json_schema(self) -> dict[str, Any]:
        schema = json.loads(json.dumps(self.info.input_schema or {"type": "object", "properties": {}}))
        schema.pop("title", None)
        for prop in schema.get("properties", {}).values():
            if isinstance(prop, dict):
                prop.pop("title", None)
        schema.setdefault("type", "object")
        schema.setdefault("properties", {})
        return schema

    async def acall(self, raw: dict[str, Any], timeout_s: float) -> str:
        _check_required(self.name, self.json_schema(), raw)
        return await self.hub.call(self.server, self.info.name, raw, min(timeout_s, self.timeout_s))


FUNCTION_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what every function-calling API accepts


class OfferedName(BaseModel):
    """How one MCP tool is offered: under its own name, namespaced, or not at all."""

    server: str
    name: str  # as the server names it
    offered: str | None  # the name the model sees; None when refused
    reason: Literal["reserved", "taken", "invalid"] | None = None  # why it is not offered under its own name


def _servers(hub: MCPHub | None, token_hub: MCPHub | None) -> dict[str, tuple[MCPHub, list[ToolInfo]]]:
    """Each server's hub and tools; a server the token hub holds is taken from it."""
    out = {server: (hub, infos) for server, infos in hub.tools.items()} if hub is not None else {}
    if token_hub is not None:
        out |= {server: (token_hub, infos) for server, infos in token_hub.tools.items()}
    return out


def offered_names(hub: MCPHub | None, reserved: Iterable[str], token_hub: MCPHub | None = None) -> list[OfferedName]:
    """The name of each MCP tool. A built-in tool's name is ``reserved``: an MCP tool never
    replaces one. A name already taken (built-in, or an earlier server's) becomes
    ``server__tool`` (a dot is not allowed in function names); refused when that is taken too
    or is no function name."""
    taken = set(reserved)
    out: list[OfferedName] = []
    for server, (_, infos) in _servers(hub, token_hub).items():
        prefix = re.sub(r"[^A-Za-z0-9_-]+", "_", server)
        for info in infos:
            reason = "reserved" if info.name in reserved else "taken" if info.name in taken else None
            offered: str | None = info.name
            if not FUNCTION_NAME.fullmatch(info.name):
                reason, offered = "invalid", None
            elif reason:
                spaced = f"{prefix}__{info.name}"
                offered = spaced if FUNCTION_NAME.fullmatch(spaced) and spaced not in taken else None
            if offered:
                taken.add(offered)
            out.append(OfferedName(server=server, name=info.name, offered=offered, reason=reason))
    return out


def realtime_toolkit(hub: MCPHub | None, reserved: Iterable[str] = (), token_hub: MCPHub | None = None) -> list[Tool]:
    """The MCP tools, each under the name ``offered_names`` gives it (refused ones left out);
    ``token_hub``: the sessions opened with the engine's token, for the servers that take it."""
    servers = _servers(hub, token_hub)
    infos = {(i.server, i.name): (owner, i) for owner, group in servers.values() for i in group}
    return [
        MCPTool(infos[(o.server, o.name)][0], infos[(o.server, o.name)][1], name=o.offered)
        for o in offered_names(hub, frozenset(reserved), token_hub)
        if o.offered
    ]
