"""Traces of a run: one span for the turn, one per model call, one per tool call,
after the GenAI semantic conventions, read back from the in-memory exporter."""

import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode

from engine.context import EngineContext
from engine.llm.base import LLMError
from engine.llm.scripted import ScriptedLLM
from engine.react.agent import ReActEngine
from engine.settings import EngineConfig, Settings
from engine.tools.toolkits import general_toolkit
from engine.tracing import RunTracer, provider_from_settings
from tests.helpers import call, run

ANSWER = "Thought: I can answer now.\nAnswer: The result is 391."
SECRET_QUESTION = "What is 17 times 23 for client Zorglub?"


@pytest.fixture
def exporter():
    return InMemorySpanExporter()


def traced_engine(script, exporter, capture=False, **config):
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = RunTracer(provider.get_tracer("test"), capture_content=capture)
    llm = ScriptedLLM(script, model="script-model")
    return ReActEngine(config=EngineConfig(**config), llm=llm, tools=general_toolkit(), tracer=tracer)


def by_operation(spans):
    out: dict[str, list] = {}
    for span in spans:
        out.setdefault(span.attributes["gen_ai.operation.name"], []).append(span)
    return out


def test_a_run_has_a_turn_span_a_span_per_model_call_and_per_tool_call(exporter):
    engine = traced_engine([call("calculator", {"expression": "17*23"}), ANSWER], exporter)
    run(engine, SECRET_QUESTION)
    spans = by_operation(exporter.get_finished_spans())
    (turn,) = spans["invoke_agent"]
    chats, tools = spans["chat"], spans["execute_tool"]
    assert len(chats) == 2 and len(tools) == 1
    for child in chats + tools:
        assert child.parent.span_id == turn.context.span_id
        assert child.context.trace_id == turn.context.trace_id
    assert chats[0].name == "chat script-model"
    assert chats[0].attributes["gen_ai.request.model"] == "script-model"
    assert chats[0].attributes["gen_ai.usage.output_tokens"] > 0
    assert chats[0].attributes["gen_ai.usage.input_tokens"] > 0
    assert tuple(chats[1].attributes["gen_ai.response.finish_reasons"]) == ("stop",)
    assert tools[0].name == "execute_tool calculator"
    assert tools[0].attributes["gen_ai.tool.name"] == "calculator"
    assert tools[0].attributes["analyst.tool.status"] == "ok"
    assert turn.attributes["analyst.run.status"] == "answered"
    assert turn.attributes["gen_ai.usage.output_tokens"] == engine.result.usage.completion_tokens
    assert turn.attributes["analyst.run.iterations"] == 2


def test_content_is_not_captured_by_default_and_is_when_asked(exporter):
    engine = traced_engine([call("calculator", {"expression": "17*23"}), ANSWER], exporter)
    run(engine, SECRET_QUESTION)
    dumped = " ".join(str(dict(s.attributes)) for s in exporter.get_finished_spans())
    assert "Zorglub" not in dumped and "17*23" not in dumped and "391" not in dumped
    exporter.clear()
    engine = traced_engine([call("calculator", {"expression": "17*23"}), ANSWER], exporter, capture=True)
    run(engine, SECRET_QUESTION)
    spans = by_operation(exporter.get_finished_spans())
    assert "Zorglub" in spans["invoke_agent"][0].attributes["gen_ai.input.messages"]
    assert "17*23" in spans["execute_tool"][0].attributes["gen_ai.tool.call.arguments"]
    assert spans["execute_tool"][0].attributes["gen_ai.tool.call.result"] == "391"


def test_a_failed_tool_call_and_a_failed_backend_are_errors_on_their_spans(exporter):
    engine = traced_engine(
        [call("calculator", {"expression": "1/0"}), LLMError("The server is down.", "unreachable")], exporter
    )
    run(engine)
    spans = by_operation(exporter.get_finished_spans())
    tool = spans["execute_tool"][0]
    assert tool.attributes["analyst.tool.status"] == "error"
    assert tool.status.status_code is StatusCode.ERROR
    failed = [s for s in spans["chat"] if s.status.status_code is StatusCode.ERROR]
    assert failed and failed[0].attributes["error.type"] == "unreachable"
    turn = spans["invoke_agent"][0]
    assert turn.attributes["analyst.run.status"] == "error"
    assert turn.status.status_code is StatusCode.ERROR


def test_a_forced_final_answer_is_a_model_call_too(exporter):
    engine = traced_engine([call("calculator", {"expression": "2+2"}), ANSWER], exporter, max_iterations=1)
    run(engine)
    spans = by_operation(exporter.get_finished_spans())
    assert len(spans["chat"]) == 2  # the step, then the forced final answer
    assert spans["chat"][1].attributes["gen_ai.usage.output_tokens"] > 0
    assert all(s.end_time is not None for s in exporter.get_finished_spans())
    exporter.clear()
    script = [call("calculator", {"expression": "2+2"}), LLMError("Too many requests.", "rate_limited")]
    run(traced_engine(script, exporter, max_iterations=1))
    final = by_operation(exporter.get_finished_spans())["chat"][1]
    assert final.attributes["error.type"] == "rate_limited" and final.status.status_code is StatusCode.ERROR


def test_no_exporter_configured_means_the_api_no_op_tracer():
    provider, problem = provider_from_settings(Settings.from_env({}))
    assert provider is None and problem is None
    tracer = EngineContext(Settings.from_env({})).run_tracer()
    span = tracer.turn("scripted", "m", "q")
    assert not span.is_recording()
    assert not tracer.model_call(span, "scripted", "m", {}).is_recording()


def test_the_standard_variables_configure_the_exporter():
    provider, problem = provider_from_settings(Settings.from_env({"OTEL_TRACES_EXPORTER": "console"}))
    assert provider is not None and problem is None
    provider.shutdown()
    provider, problem = provider_from_settings(
        Settings.from_env({"OTEL_TRACES_EXPORTER": "console", "OTEL_SDK_DISABLED": "true"})
    )
    assert provider is None
    provider, problem = provider_from_settings(Settings.from_env({"OTEL_TRACES_EXPORTER": "zipkin2"}))
    assert problem is not None and "zipkin2" in problem
    provider.shutdown()
    settings = Settings.from_env({"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "true"})
    assert EngineContext(settings).run_tracer().capture_content
