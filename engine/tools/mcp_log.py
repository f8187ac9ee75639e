"""A bounded log of what MCP servers write on stderr.

A server's stderr is a pipe, not the log file itself: a reader thread copies it into
``mcp.log``, which is rotated at ``max_bytes`` and keeps ``backups`` older files, so
a chatty server can never fill the disk (``(backups + 1) * max_bytes`` at most). The
pipe is always drained, so a server is never blocked on its stderr.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import IO

MAX_LOG_BYTES = 5 * 2**20
LOG_BACKUPS = 1
_BLOCK = 65536


class BoundedLog:
    """One log file, rotated by size, written by any number of server pipes."""

    def __init__(self, path: Path, max_bytes: int = MAX_LOG_BYTES, backups: int = LOG_BACKUPS) -> None:
        self.path = path
        self.max_bytes = max(max_bytes, 1024)
        self.backups = max(backups, 0)
        self._lock = threading.Lock()

    def pipe(self, name: str, secrets: tuple[str, ...] = ()) -> IO[str]:
        """A file to give a server as its stderr; close it when the server has stopped.
        ``secrets`` (the server's credential) are written as ``[redacted]``."""
        read_fd, write_fd = os.pipe()
        hidden = tuple(s.encode() for s in secrets if s)
        threading.Thread(target=self._drain, args=(read_fd, hidden), daemon=True, name=f"mcp-log-{name}").start()
        return os.fdopen(write_fd, "w")

    def _drain(self, read_fd: int, hidden: tuple[bytes, ...] = ()) -> None:
        with os.fdopen(read_fd, "rb", buffering=0) as pipe:
            while block := pipe.read(_BLOCK):
                for secret in hidden:
                    block = block.replace(secret, b"[redacted]")
                self.write(block)

    def write(self, data: bytes) -> None:
        """Append ``data``, rotating first when it would take the file over ``max_bytes``."""
        with self._lock:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                size = self.path.stat().st_size if self.path.exists() else 0
                if size and size + len(data) > self.max_bytes:
                    self._rotate()
                with self.path.open("ab") as fh:
                    fh.write(data[-self.max_bytes :])
            except OSError:
                return  # a log that cannot be written is not a reason to stop a server

    def _rotate(self) -> None:
        if self.backups == 0:
            self.path.unlink(missing_ok=True)
            return
        for n in range(self.backups - 1, 0, -1):
            older = self.path.with_name(f"{self.path.name}.{n}")
            if older.exists():
                os.replace(older, self.path.with_name(f"{self.path.name}.{n + 1}"))
        os.replace(self.path, self.path.with_name(f"{self.path.name}.1"))
