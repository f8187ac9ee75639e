"""Stop really stops the embedded model: once the stream is closed, llama.cpp aborts,
even in the middle of reading a long prompt, and the process stops using the CPU."""

import resource
import time

import pytest

from engine.llm.base import iterate_async
from engine.llm.embedded import EmbeddedLLM

pytestmark = pytest.mark.slow


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def test_closing_the_stream_stops_llama_cpp_within_half_a_second():
    llm = EmbeddedLLM()
    llm.generate([{"role": "user", "content": "Hello"}], max_tokens=2)  # loaded before we measure
    long_prompt = "Report. " + " ".join(
        f"Line {i}: revenue grew in region {i % 7} by {i % 13} percent." for i in range(200)
    )
    stream = iterate_async(
        lambda: llm.astream_generate([{"role": "user", "content": long_prompt}], max_tokens=400), heartbeat_s=0.05
    )
    started, before, working = time.monotonic(), None, 0.0
    for _ in stream:  # heartbeats give control back while llama.cpp reads the prompt, as in the app
        elapsed = time.monotonic() - started
        if before is None and elapsed > 0.5:
            before = cpu_seconds()
        if before is not None and elapsed > 1.5:
            working = cpu_seconds() - before
            break
    assert working > 0.05, "the model was not working when the stop came"
    stream.close()
    time.sleep(0.5)  # the stop must have taken effect by now
    settled = cpu_seconds()
    time.sleep(1.0)
    after = cpu_seconds() - settled
    assert after < working * 0.2 + 0.02, f"llama.cpp kept computing after the stop ({after:.2f} s vs {working:.2f} s)"
    # the model is usable again at once
    reply = llm.generate([{"role": "user", "content": "Say OK."}], max_tokens=4)
    assert reply.finish_reason in ("stop", "length")
