"""A reasoning model's thinking, read by each backend apart from its reply, and sent
back by each provider's rule: Magistral's ThinkChunk parts through the real mistralai
SDK, and reasoning_content / reasoning / thinking fields of OpenAI-compatible servers."""

import pytest

from engine.llm.mistral import MistralLLM
from engine.llm.openai_compat import OpenAICompatLLM

THINKING = "The user asks for 6*7.\nAnswer: maybe 41?\nNo: 6*7 is 42."


def split(chunks):
    text = "".join(c.get("delta", "") for c in chunks)
    reasoning = "".join(c.get("reasoning", "") for c in chunks)
    return text, reasoning


def test_magistral_think_chunks_are_reasoning_not_text(fake_server):
    fake_server.script.append({"thinking": THINKING, "text": "Answer: 42"})
    llm = MistralLLM(api_key="k", server_url=f"http://127.0.0.1:{fake_server.port}")
    chunks = list(llm.stream_generate([{"role": "user", "content": "6*7?"}]))
    text, reasoning = split(chunks)
    assert text == "Answer: 42"
    assert reasoning == THINKING
    first_reasoning = next(i for i, c in enumerate(chunks) if c.get("reasoning"))
    first_text = next(i for i, c in enumerate(chunks) if c.get("delta"))
    assert first_reasoning < first_text  # streamed as it came, in pieces
    assert sum(1 for c in chunks if c.get("reasoning")) > 3
    assert llm.generate([{"role": "user", "content": "again"}]).text == "Answer: (no script)"


def test_mistral_gets_earlier_thinking_back_as_a_closed_thinking_chunk(fake_server):
    llm = MistralLLM(api_key="k", server_url=f"http://127.0.0.1:{fake_server.port}")
    messages = [
        {"role": "user", "content": "6*7?"},
        {"role": "assistant", "content": "Thought: compute", "reasoning": "I should compute."},
        {"role": "user", "content": "Observation: 42"},
    ]
    llm.generate(messages)
    sent = fake_server.requests[0]["messages"][1]
    assert sent["content"][0] == {
        "type": "thinking",
        "thinking": [{"type": "text", "text": "I should compute."}],
        "closed": True,
    }
    assert sent["content"][1] == {"type": "text", "text": "Thought: compute"}
    assert "reasoning" not in sent
    assert fake_server.requests[0]["messages"][0]["content"] == "6*7?"  # other messages as they were


@pytest.mark.parametrize("field", ["reasoning_content", "reasoning"])
def test_openai_compatible_reasoning_fields_are_reasoning(fake_server, field):
    fake_server.script.append({"thinking": THINKING, "thinking_as": field, "text": "Answer: 42"})
    llm = OpenAICompatLLM(base_url=f"http://127.0.0.1:{fake_server.port}/v1", model="qwen3")
    text, reasoning = split(list(llm.stream_generate([{"role": "user", "content": "6*7?"}])))
    assert (text, reasoning) == ("Answer: 42", THINKING)


def test_ollama_native_thinking_is_reasoning(fake_server):
    fake_server.script.append({"thinking": THINKING, "text": "Answer: 42"})
    llm = OpenAICompatLLM(base_url=f"http://127.0.0.1:{fake_server.port}/api", model="qwen3")
    text, reasoning = split(list(llm.stream_generate([{"role": "user", "content": "6*7?"}])))
    assert (text, reasoning) == ("Answer: 42", THINKING)


@pytest.mark.parametrize("base", ["/v1", "/api"])
def test_openai_compatible_servers_never_get_reasoning_back(fake_server, base):
    llm = OpenAICompatLLM(base_url=f"http://127.0.0.1:{fake_server.port}{base}", model="deepseek-reasoner")
    messages = [
        {"role": "user", "content": "6*7?"},
        {"role": "assistant", "content": "Thought: compute", "reasoning": "I should compute."},
        {"role": "user", "content": "Observation: 42"},
    ]
    llm.generate(messages)
    sent = fake_server.requests[0]["messages"]
    assert sent[1] == {"role": "assistant", "content": "Thought: compute"}
    assert not any(k in m for m in sent for k in ("reasoning", "reasoning_content"))
    assert messages[1]["reasoning"] == "I should compute."  # the caller's messages are not changed
