"""OpenTelemetry spans of a run, after the GenAI semantic conventions.

One span for the turn (``invoke_agent``), one per model call (``chat``) and one per
tool call (``execute_tool``), each with the model, token usage, finish reasons, the
tool's name, its status and errors. Content (prompts, answers, tool arguments and
results) is recorded only when ``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT``
says so.

Spans are started with an explicit parent, never made "current": the loop is an
async generator whose steps may resume in another context, and tool calls run as
concurrent tasks. With no tracer provider configured, the API's tracer is a no-op
and ``RunTracer`` does not even build the attributes (``recording`` is False).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from opentelemetry import trace
from opentelemetry.trace import Span, SpanKind, Status, StatusCode, Tracer

from engine.wording import voice

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider

    from engine.settings import Settings

__all__ = ["RunTracer", "provider_from_settings"]

SCOPE = "analyst-react-engine"
say = voice(Path(__file__).with_name("tracing.json"))  # what the analyst is told of a tracing setting
PROVIDERS = MappingProxyType({"mistral": "mistral_ai", "openai": "openai"})  # gen_ai.provider.name's well-known values
_OFF = trace.INVALID_SPAN  # the span of a run that is not traced


def provider_from_settings(settings: Settings) -> tuple[TracerProvider | None, str | None]:
    """The SDK provider the standard ``OTEL_*`` variables ask for, or none (the API's
    global tracer, a no-op unless the process installed one). The second value is one
    sentence when the configured exporter cannot be used."""
    names = [n.strip().lower() for n in (settings.otel_traces_exporter or "").split(",") if n.strip()]
    if settings.otel_sdk_disabled or not names or names == ["none"]:
        return None, None
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter

    provider = TracerProvider(resource=Resource.create({"service.name": settings.otel_service_name}))
    problems = []
    for name in names:
        if name == "console":
            provider.add_span_processor(BatchSpanProcessor(ConsoleSpanExporter()))
        elif name == "otlp":
            try:
                from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
            except ImportError:
                problems.append(say("otlp_missing"))
                continue
            provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))  # reads OTEL_EXPORTER_OTLP_*
        elif name != "none":
            problems.append(say("exporter_unknown", name=name))
    problem = say("not_exported", problems="; ".join(problems)) if problems else None
    return provider, problem


class RunTracer:
    """The spans of one run; every method is cheap when nothing records."""

    def __init__(self, tracer: Tracer | None = None, capture_content: bool = False) -> None:
        self.tracer = tracer if tracer is not None else trace.get_tracer(SCOPE)
        self.capture_content = capture_content

    def turn(self, backend: str, model: str, prompt: str) -> Span:
        span = self.tracer.start_span("invoke_agent react", kind=SpanKind.INTERNAL)
        if span.is_recording():
            span.set_attributes(
                {
                    "gen_ai.operation.name": "invoke_agent",
                    "gen_ai.agent.name": "react",
                    "gen_ai.provider.name": PROVIDERS.get(backend, backend),
                    "gen_ai.request.model": model,
                }
            )
            if self.capture_content:
                span.set_attribute("gen_ai.input.messages", _messages([{"role": "user", "content": prompt}]))
        return span

    def end_turn(self, span: Span, status: str, usage: Any, iterations: int, error: str | None) -> None:
        if span.is_recording():
            span.set_attributes(
                {
                    "gen_ai.usage.input_tokens": usage.prompt_tokens,
                    "gen_ai.usage.output_tokens": usage.completion_tokens,
                    "analyst.run.status": status,
                    "analyst.run.iterations": iterations,
                }
            )
            if status == "error":
                span.set_attribute("error.type", error or "error")
                span.set_status(Status(StatusCode.ERROR, error))
        span.end()

    def model_call(self, parent: Span, backend: str, model: str, kwargs: Mapping[str, Any]) -> Span:
        if not parent.is_recording():
            return _OFF
        attributes = {
            "gen_ai.operation.name": "chat",
            "gen_ai.provider.name": PROVIDERS.get(backend, backend),
            "gen_ai.request.model": model,
            "gen_ai.request.max_tokens": int(kwargs.get("max_tokens") or 0),
            "gen_ai.request.temperature": float(kwargs.get("temperature") or 0.0),
        }
        return self.tracer.start_span(
            f"chat {model}", context=trace.set_span_in_context(parent), kind=SpanKind.CLIENT, attributes=attributes
        )

    def end_model_call(
        self, span: Span, usage: Any, finish_reason: str | None, output: str = "", error: BaseException | None = None
    ) -> None:
        if not span.is_recording():
            return
        span.set_attributes(
            {
                "gen_ai.usage.input_tokens": usage.prompt_tokens,
                "gen_ai.usage.output_tokens": usage.completion_tokens,
            }
        )
        if finish_reason:
            span.set_attribute("gen_ai.response.finish_reasons", [finish_reason])
        if self.capture_content and output:
            span.set_attribute("gen_ai.output.messages", _messages([{"role": "assistant", "content": output}]))
        _fail(span, error)
        span.end()

    def tool_call(self, parent: Span, name: str, call_id: str, args: Mapping[str, Any]) -> Span:
        if not parent.is_recording():
            return _OFF
        attributes = {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": name,
            "gen_ai.tool.call.id": call_id,
            "gen_ai.tool.type": "function",
        }
        if self.capture_content:
            attributes["gen_ai.tool.call.arguments"] = _json(args)
        return self.tracer.start_span(
            f"execute_tool {name}", context=trace.set_span_in_context(parent), kind=SpanKind.INTERNAL,
            attributes=attributes,
        )  # fmt: skip

    def end_tool_call(self, span: Span, observation: Any = None, error: BaseException | None = None) -> None:
        if not span.is_recording():
            return
        if observation is not None:
            status = str(observation.status)
            span.set_attribute("analyst.tool.status", status)
            if observation.server:
                span.set_attribute("analyst.tool.server", observation.server)
            if status in ("error", "blocked", "not_run"):
                span.set_attribute("error.type", f"tool_{status}")
                span.set_status(Status(StatusCode.ERROR))
            if self.capture_content:
                span.set_attribute("gen_ai.tool.call.result", observation.text)
        _fail(span, error)
        span.end()


def _fail(span: Span, error: BaseException | None) -> None:
    if error is not None:  # its kind, never its message (which could quote what it was sent)
        kind = getattr(error, "kind", None) or type(error).__name__
        span.set_attribute("error.type", kind)
        span.set_status(Status(StatusCode.ERROR, kind))


def _json(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False, default=str)


def _messages(messages: list[dict[str, str]]) -> str:
    """Messages as the conventions' JSON: role and text parts."""
    return _json([{"role": m["role"], "parts": [{"type": "text", "content": m["content"]}]} for m in messages])
