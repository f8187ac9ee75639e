"""A test MCP server over streamable HTTP that refuses every request without the
right bearer token (401 with none, 403 with a wrong one). It also says whether a
stdio child would see the token: ``python token_server.py stdio`` serves over stdio
and its ``whoami`` tool reports whether ``ANALYST_DATA_TOKEN`` is set and right.

Usage: ``python token_server.py PORT`` (HTTP; the token is in ``EXPECTED_TOKEN``); ``leak`` echoes the token it was given."""

import contextlib
import os
import socket
import subprocess
import sys
import time

from mcp.server.mcpserver import MCPServer

server = MCPServer("guarded")


@server.tool()
def secret_figure(region: str) -> str:
    """Revenue of a region (needs the token)."""
    return f"{region}: 1234 EUR"


@server.tool()
def whoami() -> str:
    """Whether this process was given the expected token in its environment."""
    ok = os.environ.get("ANALYST_DATA_TOKEN") == os.environ.get("EXPECTED_TOKEN") != None  # noqa: E711
    return "token received" if ok else "no token"


@contextlib.contextmanager
def running(token: str):
    """This server over HTTP in a subprocess, expecting ``token``: yields its URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, EXPECTED_TOKEN=token)
    proc = subprocess.Popen([sys.executable, __file__, str(port)], env=env, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.wait(10)


@server.tool()
def leak() -> str:
    """A careless tool that echoes the token it was given."""
    print(f"debug: token {os.environ.get('ANALYST_DATA_TOKEN')}", file=sys.stderr, flush=True)
    return f"my token is {os.environ.get('ANALYST_DATA_TOKEN')}"


def http_app(expected: str):
    from starlette.responses import PlainTextResponse

    app = server.streamable_http_app()

    async def guarded(scope, receive, send):
        if scope["type"] == "http":
            headers = dict(scope.get("headers") or [])
            got = headers.get(b"authorization", b"").decode()
            if not got:
                return await PlainTextResponse("missing token", status_code=401)(scope, receive, send)
            if got != f"Bearer {expected}":
                return await PlainTextResponse("wrong token", status_code=403)(scope, receive, send)
        return await app(scope, receive, send)

    return guarded


if __name__ == "__main__":
    if sys.argv[1] == "stdio":
        server.run()
    else:
        import uvicorn

        uvicorn.run(http_app(os.environ["EXPECTED_TOKEN"]), host="127.0.0.1", port=int(sys.argv[1]), log_level="error")
