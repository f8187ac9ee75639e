"""The Mistral backend through the real mistralai SDK against a local fake SSE server."""

import time

import pytest

from engine.llm.base import LLMError
from engine.llm.mistral import MistralLLM
from engine.react.agent import ReActEngine
from engine.react.parser import parse_blocks
from engine.react.types import ReActType
from engine.tools.toolkits import general_toolkit

KEY = "sk-test-do-not-print-0123456789"


def make(server, **kw):
    return MistralLLM(api_key=KEY, server_url=f"http://127.0.0.1:{server.port}", retry_initial_s=0.05, **kw)


def test_text_streams_in_pieces(fake_server):
    fake_server.script.append({"text": "Answer: Revenue grew by 12% in Q3."})
    chunks = list(make(fake_server).stream_generate([{"role": "user", "content": "hi"}]))
    deltas = [c["delta"] for c in chunks if c["delta"]]
    assert len(deltas) > 3
    assert "".join(deltas) == "Answer: Revenue grew by 12% in Q3."
    meta = chunks[-1]["meta"]
    assert meta["finish_reason"] == "stop" and meta["usage"]["prompt_tokens"] == 11
    assert fake_server.headers[0]["Authorization"] == f"Bearer {KEY}"
    assert fake_server.requests[0]["stream"] is True


def test_native_tool_call_through_the_engine(fake_server):
    fake_server.script.extend(
        [
            {
                "text": "Thought: I will multiply.",
                "tool_calls": [{"id": "abc123def", "name": "calculator", "arguments": '{"expression": "17*23"}'}],
            },
            {"text": "Answer: 17 × 23 = 391."},
        ]
    )
    engine = ReActEngine(config={}, llm=make(fake_server), tools=general_toolkit())
    text = "".join(engine.stream_sync("What is 17*23?"))
    blocks = parse_blocks(text)
    assert [b.type for b in blocks] == [
        ReActType.THOUGHT,
        ReActType.ACTION,
        ReActType.ACTION_INPUT,
        ReActType.OBSERVATION,
        ReActType.ANSWER,
    ]
    assert blocks[3].content == "391"
    assert engine.result.answer == "17 × 23 = 391."
    first, second = fake_server.requests
    assert {"calculator", "ask_user", "statistics"} <= {t["function"]["name"] for t in first["tools"]}
    assert first["tools"][0]["function"]["parameters"]["required"] == ["expression"]
    assert [m["role"] for m in second["messages"][-2:]] == ["assistant", "tool"]
    assert second["messages"][-1]["tool_call_id"] == "abc123def"
    assert second["messages"][-2]["tool_calls"][0]["function"]["name"] == "calculator"


def test_429_then_success(fake_server):
    fake_server.script.extend([{"status": 429}, {"status": 429}, {"text": "Answer: ok"}])
    response = make(fake_server, max_retry_wait_s=5).generate([{"role": "user", "content": "hi"}])
    assert response.text == "Answer: ok"
    assert len(fake_server.requests) == 3


def test_500_forever_gives_a_readable_error_within_the_bound(fake_server):
    fake_server.script.append({"status": 500, "repeat": True, "message": f"internal error for key {KEY}"})
    started = time.monotonic()
    with pytest.raises(LLMError) as info:
        make(fake_server, max_retry_wait_s=1).generate([{"role": "user", "content": "hi"}])
    assert time.monotonic() - started < 30  # bounded; the exact bound is the retry setting
    assert info.value.kind == "server"
    assert "HTTP 500" in info.value.message and "try again later" in info.value.message
    assert KEY not in info.value.message
    assert len(fake_server.requests) > 1


def test_bad_key_is_reported_without_the_key(fake_server):
    fake_server.script.append({"status": 401, "message": f"Unauthorized: {KEY}"})
    with pytest.raises(LLMError) as info:
        make(fake_server).generate([{"role": "user", "content": "hi"}])
    assert info.value.kind == "auth" and KEY not in str(info.value)


def test_refused_connection_is_unreachable():
    llm = MistralLLM(api_key=KEY, server_url="http://127.0.0.1:9")
    with pytest.raises(LLMError) as info:
        llm.generate([{"role": "user", "content": "hi"}])
    assert info.value.kind == "unreachable"
    assert "Cannot reach the Mistral server at 127.0.0.1:9" in info.value.message


def test_dropped_stream_is_reported(fake_server):
    fake_server.script.append({"text": "Answer: the first part of a long answer", "drop_after": 3})
    with pytest.raises(LLMError) as info:
        list(make(fake_server).stream_generate([{"role": "user", "content": "hi"}]))
    assert info.value.kind == "dropped"


def test_engine_turns_a_dead_backend_into_an_error_block(fake_server):
    fake_server.script.append({"status": 503, "repeat": True})
    engine = ReActEngine(config={}, llm=make(fake_server, max_retry_wait_s=0.3), tools=general_toolkit())
    text = "".join(engine.stream_sync("hi"))
    last = parse_blocks(text)[-1]
    assert last.type is ReActType.ERROR and "HTTP 503" in last.content
    assert engine.result.status == "error"


def test_sync_calls_after_a_refused_one_use_a_client_of_their_own_loop(fake_server):
    fake_server.script.extend([{"status": 400}, {"text": "Answer: second"}, {"text": "Answer: third"}])
    llm = make(fake_server)
    with pytest.raises(LLMError, match="HTTP 400"):
        llm.generate([{"role": "user", "content": "first"}])
    assert llm.generate([{"role": "user", "content": "again"}]).text == "Answer: second"
    assert llm.generate([{"role": "user", "content": "and again"}]).text == "Answer: third"
    assert len(llm._clients) <= 1  # clients of finished event loops are dropped
