"""Turn any backend failure into one readable LLMError sentence, never holding a key."""

from __future__ import annotations

import json
from urllib.parse import urlparse

from engine.llm.base import LLMError
from engine.llm.messages import say


def public_address(url: str | None, default: str = "") -> str:
    """host[:port] of a URL, without any user:password part, for messages and labels."""
    if not url:
        return default
    parsed = urlparse(url if "://" in url else f"http://{url}")
    host = parsed.hostname or default
    return f"{host}:{parsed.port}" if parsed.port else host


def redact(text: str, secret: str | None) -> str:
    if secret:
        text = text.replace(secret, "[redacted]")
    return text


def _body_message(body: str) -> str:
    try:
        data = json.loads(body)
    except (ValueError, TypeError):
        return body.strip()[:160]
    if isinstance(data, dict):
        for key in ("message", "detail", "error"):
            value = data.get(key)
            if isinstance(value, dict):
                value = value.get("message")
            if value:
                return str(value)[:160]
    return str(data)[:160]


def from_status(backend: str, status: int, body: str = "", secret: str | None = None) -> LLMError:
    detail = redact(_body_message(body), secret)
    if status in (401, 403):
        return LLMError(say("auth", backend=backend, status=status), "auth")
    if status == 429:
        return LLMError(say("rate_limited", backend=backend), "rate_limited")
    if status >= 500:
        return LLMError(say("server", backend=backend, status=status), "server")
    suffix = f": {detail}" if detail else ""
    return LLMError(say("bad_request", backend=backend, status=status, suffix=suffix), "bad_request")


def from_exception(
    backend: str, where: str, exc: BaseException, secret: str | None = None, started: bool = False
) -> LLMError:
    """Classify a transport exception by its class name (httpx and the SDK's bundled copy alike)."""
    if isinstance(exc, LLMError):
        return exc
    names = {cls.__name__ for cls in type(exc).__mro__}
    status = getattr(exc, "status_code", None)
    if isinstance(status, int) and status >= 400:
        return from_status(backend, status, str(getattr(exc, "body", "") or ""), secret)
    if names & {"TimeoutException", "ReadTimeout", "ConnectTimeout", "TimeoutError", "WriteTimeout", "PoolTimeout"}:
        return LLMError(say("timeout", backend=backend, where=where), "timeout")
    if started or names & {"RemoteProtocolError", "ReadError", "IncompleteRead", "StreamClosed"}:
        return LLMError(say("dropped", backend=backend, where=where), "dropped")
    if names & {"ConnectError", "ConnectionError", "OSError", "NoResponseError", "TransportError", "NetworkError"}:
        return LLMError(say("unreachable", backend=backend, where=where), "unreachable")
    failed = say("failed", backend=backend, kind=type(exc).__name__, detail=str(exc)[:160])
    return LLMError(redact(failed, secret), "server")
