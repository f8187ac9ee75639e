"""Turn any backend failure into one readable LLMError sentence, never holding a key."""

from __future__ import annotations

import json
from urllib.parse import urlparse

from engine.llm.base import LLMError


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
        return LLMError(
            f"The {backend} server rejected the API key (HTTP {status}); check the key in your settings.", "auth"
        )
    if status == 429:
        return LLMError(
            f"The {backend} server is rate-limiting requests (HTTP 429) even after retries; try again in a minute.",
            "rate_limited",
        )
    if status >= 500:
        return LLMError(f"The {backend} server kept failing (HTTP {status}) after retries; try again later.", "server")
    suffix = f": {detail}" if detail else ""
    return LLMError(f"The {backend} server refused the request (HTTP {status}){suffix}.", "bad_request")


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
        return LLMError(f"The {backend} server at {where} did not answer in time.", "timeout")
    if started or names & {"RemoteProtocolError", "ReadError", "IncompleteRead", "StreamClosed"}:
        return LLMError(
            f"The connection to the {backend} server at {where} dropped in the middle of the reply.", "dropped"
        )
    if names & {"ConnectError", "ConnectionError", "OSError", "NoResponseError", "TransportError", "NetworkError"}:
        return LLMError(
            f"Cannot reach the {backend} server at {where}; is it running and is the address right?", "unreachable"
        )
    return LLMError(redact(f"The {backend} backend failed: {type(exc).__name__}: {str(exc)[:160]}", secret), "server")
