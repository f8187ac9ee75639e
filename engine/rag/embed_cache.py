"""Slices of an ingest already embedded, kept on disk until the index is written, so an
ingest cut short (an embedding server that went down, a stopped process) resumes where it
stopped instead of embedding everything again.

Used for embedders that declare ``resumable`` (a server: each request is a round trip).
A slice is keyed by the model and its texts, so a changed file or another model never
reuses a vector. Files are written whole (a temporary file, then a rename)."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import numpy as np

CACHE_DIR = ".embedding-cache"


class SliceCache:
    def __init__(self, index_root: Path, theme: str, model: str) -> None:
        self.folder = index_root / CACHE_DIR / theme
        self.model = model
        self.reused = 0  # slices read back instead of embedded

    def _path(self, texts: list[str]) -> Path:
        digest = hashlib.sha256(self.model.encode())
        for text in texts:
            digest.update(b"\0")
            digest.update(text.encode("utf-8", errors="replace"))
        return self.folder / f"{digest.hexdigest()}.npy"

    def get(self, texts: list[str]) -> np.ndarray | None:
        path = self._path(texts)
        try:
            vectors = np.load(path, allow_pickle=False)
        except (OSError, ValueError):
            return None
        if vectors.ndim != 2 or len(vectors) != len(texts):
            return None
        self.reused += 1
        return vectors.astype(np.float32, copy=False)

    def put(self, texts: list[str], vectors: np.ndarray) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self._path(texts)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with tmp.open("wb") as fh:
            np.save(fh, vectors, allow_pickle=False)
        os.replace(tmp, path)

    def clear(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
