"""The OpenAI-compatible backend against a local fake server: SSE and Ollama NDJSON."""

import pytest

from engine.llm.base import LLMError
from engine.llm.openai_compat import OpenAICompatLLM
from engine.react.agent import ReActEngine
from engine.tools.toolkits import general_toolkit


def test_sse_stream(fake_server):
    fake_server.script.append({"text": "Thought: fine\nAnswer: 42"})
    llm = OpenAICompatLLM(base_url=f"http://127.0.0.1:{fake_server.port}/v1", model="m", api_key="k")
    chunks = list(llm.stream_generate([{"role": "user", "content": "q"}], stop=["Observation:"]))
    assert "".join(c["delta"] for c in chunks) == "Thought: fine\nAnswer: 42"
    assert chunks[-1]["meta"]["finish_reason"] == "stop"
    assert fake_server.requests[0]["stop"] == ["Observation:"]
    assert fake_server.headers[0]["Authorization"] == "Bearer k"


def test_ollama_native_ndjson(fake_server):
    fake_server.script.append({"text": "Answer: from ollama"})
    llm = OpenAICompatLLM(base_url=f"http://127.0.0.1:{fake_server.port}/api", model="llama3.2")
    chunks = list(llm.stream_generate([{"role": "user", "content": "q"}], stop=["Observation:"], max_tokens=64))
    assert "".join(c["delta"] for c in chunks) == "Answer: from ollama"
    assert chunks[-1]["meta"]["usage"] == {"prompt_tokens": 9, "completion_tokens": 4}
    assert fake_server.requests[0]["options"]["stop"] == ["Observation:"]
    assert fake_server.requests[0]["options"]["num_predict"] == 64


def test_text_mode_engine_over_sse(fake_server):
    fake_server.script.extend(
        [
            {"text": 'Thought: compute\nAction: calculator\nAction Input: {"expression": "6*7"}\nObservation: wrong'},
            {"text": "Thought: done\nAnswer: 42"},
        ]
    )
    llm = OpenAICompatLLM(base_url=f"http://127.0.0.1:{fake_server.port}/v1", model="m")
    engine = ReActEngine(config={}, llm=llm, tools=general_toolkit())
    engine.get_engine_response("6*7?")
    assert engine.result.answer == "42"
    assert fake_server.requests[1]["messages"][-1]["content"] == "Observation: 42"


def test_retries_then_readable_error(fake_server):
    fake_server.script.append({"status": 502, "repeat": True})
    llm = OpenAICompatLLM(
        base_url=f"http://127.0.0.1:{fake_server.port}/v1", model="m", max_retry_wait_s=0.2, retry_initial_s=0.05
    )
    with pytest.raises(LLMError) as info:
        llm.generate([{"role": "user", "content": "q"}])
    assert "HTTP 502" in info.value.message and len(fake_server.requests) >= 2


def test_unreachable_server():
    llm = OpenAICompatLLM(base_url="http://127.0.0.1:9/v1", model="m")
    with pytest.raises(LLMError) as info:
        llm.generate([{"role": "user", "content": "q"}])
    assert info.value.kind == "unreachable"


def test_credentials_in_the_url_never_reach_a_message():
    from engine.llm.errors import public_address

    assert public_address("http://user:s3cret@127.0.0.1:9/v1") == "127.0.0.1:9"
    llm = OpenAICompatLLM(base_url="http://user:s3cret@127.0.0.1:9/v1", model="m")
    with pytest.raises(LLMError) as info:
        llm.generate([{"role": "user", "content": "q"}])
    assert "s3cret" not in info.value.message and "127.0.0.1:9" in info.value.message
