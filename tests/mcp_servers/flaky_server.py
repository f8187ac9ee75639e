"""A test MCP server over stdio that can die on demand."""

import os

from mcp.server.mcpserver import MCPServer

server = MCPServer("flaky")


@server.tool()
def echo(text: str) -> str:
    """Echo the text back."""
    return f"echo: {text}"


@server.tool()
def pid() -> int:
    """The server's process id."""
    return os.getpid()


@server.tool()
def crash() -> str:
    """Kill the server process in the middle of the call."""
    os._exit(1)


if __name__ == "__main__":
    server.run()
