"""Atomic writes, corrupt-index detection, LRU eviction, and the approximate index's recall."""

import json
import os
import threading

import numpy as np
import pytest

from engine.rag.chunking import Chunk
from engine.rag.manager import IndexManager
from engine.rag.store import EXACT_LIMIT, DocumentInfo, IndexProblem, ThemeIndex, theme_dir


def small_index(theme, n=20, dim=16, seed=0, source="doc.md"):
    rng = np.random.default_rng(seed)
    vectors = rng.normal(size=(n, dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    chunks = [
        Chunk(chunk_id=f"{source}#{i}", source=source, location="top", text=f"chunk {i}", content_hash=f"h{i}")
        for i in range(n)
    ]
    doc = DocumentInfo(source=source, size=1, sha256="x", chunks=n, ingested_at="2026-01-01")
    return ThemeIndex.empty(theme, "test-model", dim).replaced(set(), chunks, vectors, [doc])


def test_save_and_load_round_trip(tmp_path):
    index = small_index("tt")
    index.save(tmp_path)
    loaded = ThemeIndex.load("tt", tmp_path)
    assert [c.chunk_id for c in loaded.chunks] == [c.chunk_id for c in index.chunks]
    hit = loaded.search(index.vectors[7], k=1)[0]
    assert hit.chunk.chunk_id == "doc.md#7" and hit.score == pytest.approx(1.0, abs=1e-5)


def test_crash_between_temp_write_and_rename_keeps_the_old_index(tmp_path, monkeypatch):
    small_index("tt", n=10, seed=1).save(tmp_path)
    newer = small_index("tt", n=30, seed=2)
    real_replace = os.replace

    def crash(src, dst):
        if str(dst).endswith("CURRENT"):
            raise KeyboardInterrupt("killed")  # the process dies right before the switch
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(KeyboardInterrupt):
        newer.save(tmp_path)
    monkeypatch.setattr(os, "replace", real_replace)
    loaded = ThemeIndex.load("tt", tmp_path)
    assert len(loaded.chunks) == 10
    newer.save(tmp_path)  # the next save works and cleans up the abandoned generation
    assert len(ThemeIndex.load("tt", tmp_path).chunks) == 30
    assert len([p for p in theme_dir("tt", tmp_path).iterdir() if p.is_dir()]) == 1


def test_crash_during_the_temp_write_keeps_the_old_index(tmp_path, monkeypatch):
    small_index("tt", n=10).save(tmp_path)
    import engine.rag.store as store

    monkeypatch.setattr(store, "_write_synced", lambda path, data: (_ for _ in ()).throw(OSError(28, "No space left")))
    with pytest.raises(OSError):
        small_index("tt", n=40).save(tmp_path)
    monkeypatch.undo()
    assert len(ThemeIndex.load("tt", tmp_path).chunks) == 10


def _current_gen(tmp_path, theme="tt"):
    base = theme_dir(theme, tmp_path)
    return base / json.loads((base / "CURRENT").read_text())["generation"]


@pytest.mark.parametrize("target", ["index.faiss", "chunks.jsonl", "vectors.npy"])
def test_corrupt_files_are_detected_with_the_fix(tmp_path, target):
    small_index("tt").save(tmp_path)
    path = _current_gen(tmp_path) / target
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(IndexProblem) as info:
        ThemeIndex.load("tt", tmp_path)
    assert "damaged" in str(info.value) and "Re-ingest theme t" in str(info.value)


def test_truncated_manifest_is_reported(tmp_path):
    small_index("tt").save(tmp_path)
    (_current_gen(tmp_path) / "manifest.json").write_text("{")
    with pytest.raises(IndexProblem, match="cannot be read"):
        ThemeIndex.load("tt", tmp_path)


def test_version_mismatch_is_reported(tmp_path):
    small_index("tt").save(tmp_path)
    pointer = theme_dir("tt", tmp_path) / "CURRENT"
    data = json.loads(pointer.read_text())
    data["format_version"] = 99
    pointer.write_text(json.dumps(data))
    with pytest.raises(IndexProblem, match="another version"):
        ThemeIndex.load("tt", tmp_path)


def test_missing_index_says_how_to_build_it(tmp_path):
    with pytest.raises(IndexProblem, match="has no index yet"):
        ThemeIndex.load("nothing", tmp_path)


def test_lru_eviction_under_a_memory_budget(tmp_path):
    for name in ("aa", "bb", "cc"):
        small_index(name, n=200, dim=64).save(tmp_path)
    one = ThemeIndex.load("aa", tmp_path).nbytes
    manager = IndexManager(root=tmp_path, budget_bytes=int(one * 2.5))
    manager.get("aa")
    manager.get("bb")
    manager.get("aa")  # a is now the most recently used
    manager.get("cc")
    assert manager.loaded() == ["aa", "cc"] and manager.evictions == 1
    assert manager.used_bytes <= manager.budget_bytes


def test_concurrent_gets_load_once(tmp_path):
    small_index("tt").save(tmp_path)
    loads = []

    def loader(theme, root):
        loads.append(theme)
        return ThemeIndex.load(theme, root)

    manager = IndexManager(root=tmp_path, loader=loader)
    results = []
    threads = [threading.Thread(target=lambda: results.append(manager.get("tt"))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert loads == ["tt"] and len({id(r) for r in results}) == 1


def test_past_the_exact_limit_an_hnsw_index_keeps_recall_against_exact_search():
    n, dim = EXACT_LIMIT + 2000, 32
    index = small_index("big", n=n, dim=dim, seed=3)
    assert index.manifest.index_kind == "hnsw"
    rng = np.random.default_rng(4)
    queries = rng.normal(size=(50, dim)).astype(np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    recalls = []
    for q in queries:
        exact = set(np.argsort(-(index.vectors @ q))[:10].tolist())
        got = {int(h.chunk.chunk_id.split("#")[1]) for h in index.search(q, 10)}
        recalls.append(len(exact & got) / 10)
    assert np.mean(recalls) >= 0.95
