"""The MCP servers' stderr log: rotated and capped, whatever a server writes."""

import asyncio
import os
import sys

from engine.tools.mcp_log import BoundedLog
from engine.tools.mcp_toolkit import MCPHub, ServerSpec

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def log_bytes(path):
    return sum(p.stat().st_size for p in path.parent.iterdir() if p.name.startswith(path.name))


def test_the_log_rotates_at_its_size_and_keeps_one_older_file(tmp_path):
    log = BoundedLog(tmp_path / "mcp.log", max_bytes=10_000, backups=1)
    for i in range(100):
        log.write(f"line {i} ".encode() * 100)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["mcp.log", "mcp.log.1"]
    assert (tmp_path / "mcp.log").stat().st_size <= 10_000 and log_bytes(tmp_path / "mcp.log") <= 20_000
    assert b"line 99" in (tmp_path / "mcp.log").read_bytes()  # the newest is kept
    log.write(b"x" * 50_000)  # one write larger than the cap keeps its tail
    assert (tmp_path / "mcp.log").stat().st_size == 10_000


def test_a_pipe_is_copied_into_the_log_until_it_is_closed(tmp_path):
    log = BoundedLog(tmp_path / "mcp.log", max_bytes=4096)
    pipe = log.pipe("s")
    pipe.write("hello from the server\n" * 1000)
    pipe.close()
    for _ in range(200):
        if (tmp_path / "mcp.log.1").exists() and b"server" in (tmp_path / "mcp.log").read_bytes():
            break
        asyncio.run(asyncio.sleep(0.02))
    assert log_bytes(tmp_path / "mcp.log") <= 2 * 4096


def test_a_chatty_server_cannot_grow_the_log_past_its_cap(tmp_path):
    spec = ServerSpec(
        name="hostile", command=sys.executable, args=[os.path.join(ROOT, "tests/mcp_servers/hostile_server.py")]
    )
    hub = MCPHub([spec], errlog_path=tmp_path / "logs" / "mcp.log", errlog_max_bytes=1_000_000).start()
    try:
        assert hub.status["hostile"].state == "up"
        answer = asyncio.run(hub.call("hostile", "chatter", {"megabytes": 30}, timeout_s=60))
        assert answer == "done"  # the server was never blocked on its stderr
        hub.stop_server("hostile")
        for _ in range(250):
            if hub.status["hostile"].state == "down":
                break
            asyncio.run(asyncio.sleep(0.02))
    finally:
        hub.close()
    written = log_bytes(tmp_path / "logs" / "mcp.log")
    assert 0 < written <= 2_000_000  # 30 MB written by the server, at most two files of 1 MB kept
    assert sorted(p.name for p in (tmp_path / "logs").iterdir()) == ["mcp.log", "mcp.log.1"]
