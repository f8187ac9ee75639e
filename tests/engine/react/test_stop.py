"""Stop stops: closing the stream cancels the run at once, wherever it waits."""

import asyncio
import threading

import pytest
from pydantic import BaseModel

from engine.tools.base import Tool
from tests.helpers import call, make_engine


class Hang(BaseModel):
    x: int = 0


class Hanging(Tool):
    name = "hanging"
    description = "Never returns."
    Args = Hang

    def __init__(self):
        self.started = threading.Event()
        self.cancelled = threading.Event()

    async def run(self, args):
        self.started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            self.cancelled.set()
            raise
        return "never"


def test_closing_the_stream_mid_answer_marks_the_run_stopped():
    engine = make_engine(["Thought: ok\nAnswer: " + "word " * 2000])
    engine.llm.delay_s = 0.001
    stream = engine.stream_sync("q")
    received = [next(stream) for _ in range(5)]
    stream.close()
    assert "".join(received).startswith("Thought:")
    assert engine.result.status == "stopped"


def test_stop_during_a_tool_call_cancels_the_tool():
    tool = Hanging()
    engine = make_engine([call("hanging", {"x": 1}), "Answer: never reached"], tools=[tool], tool_timeout_s=3600)
    stream = engine.stream_sync("q", heartbeat_s=0.02)
    for _token in stream:  # heartbeats give control back while the tool hangs
        if tool.started.is_set():
            break
    stream.close()
    assert tool.cancelled.wait(10), "the hanging tool was not cancelled by Stop"
    assert engine.result.status == "stopped"
    assert len(engine.llm.calls) == 1  # nothing ran after the stop


def test_cancelling_the_async_stream_cancels_the_tool():
    tool = Hanging()
    engine = make_engine([call("hanging", {"x": 1})], tools=[tool], tool_timeout_s=3600)

    async def scenario():
        async def consume():
            async for _ in engine.stream("q"):
                pass

        task = asyncio.create_task(consume())
        while not tool.started.is_set():
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return tool.cancelled.is_set()

    assert asyncio.run(scenario())
    assert engine.result.status == "stopped"


def test_heartbeats_are_empty_strings_and_do_not_change_the_stream():
    engine = make_engine(["Thought: ok\nAnswer: 4"])
    engine.llm.delay_s = 0.01
    tokens = list(engine.stream_sync("q", heartbeat_s=0.001))
    assert "".join(tokens) == "Thought: ok\nAnswer: 4"
    assert "" in tokens  # the consumer got control back while the model was slow
