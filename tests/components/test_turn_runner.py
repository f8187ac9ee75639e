"""A Stop in the middle of a turn keeps what was produced and marks the turn stopped."""

import json

from streamlit.runtime.scriptrunner_utils.exceptions import StopException

from components.state import Turn
from components.throttle import Throttle
from components.tracer import StreamlitChatTracer
from components.turn_runner import consume
from engine.react.run_state import EngineResult
from tests.components.test_tracer import Recorder


def stopping_stream(tokens, closed):
    class Stream:
        def __init__(self):
            self.items = iter(tokens)

        def __iter__(self):
            return self

        def __next__(self):
            item = next(self.items, None)
            if item is None:
                raise StopException()  # what Streamlit raises into the script on Stop
            return item

        def close(self):
            closed.append(True)

    return Stream()


def test_stop_keeps_the_partial_trace_and_marks_the_turn_stopped():
    turn = Turn(role="assistant")
    closed = []
    tracer = StreamlitChatTracer(Recorder([]), throttle=Throttle(0))
    try:
        partial = EngineResult(status="stopped", iterations=1, elapsed=2.5, backend="mistral · small")
        consume(turn, stopping_stream(["Thought: half", " done\nAction: calc"], closed), tracer, lambda: partial)
    except StopException:
        pass
    else:
        raise AssertionError("the stop must propagate to Streamlit")
    assert turn.status == "stopped" and closed == [True]
    assert (turn.iterations, turn.elapsed, turn.backend) == (1, 2.5, "mistral · small")
    assert turn.content == "Thought: half done\nAction: calc"
    assert [b.type.value for b in turn.blocks] == ["thought", "action"]


def test_a_finished_run_copies_the_result():
    turn = Turn(role="assistant")
    tracer = StreamlitChatTracer(Recorder([]), throttle=Throttle(0))
    result = EngineResult(status="answered", answer="42", iterations=2, backend="scripted · x")
    consume(turn, iter(["Answer: 42"]), tracer, lambda: result)
    assert (turn.status, turn.answer, turn.iterations, turn.backend) == ("answered", "42", 2, "scripted · x")


def test_resumed_stream_is_appended_to_the_same_turn():
    turn = Turn(role="assistant", content="Thought: ask\nAction: ask_user\nAction Input: {}", status="suspended")
    tracer = StreamlitChatTracer(Recorder([]), throttle=Throttle(0))
    consume(turn, iter(["Observation: Q3\n", "Answer: fine"]), tracer, lambda: EngineResult(answer="fine"))
    assert [b.type.value for b in turn.blocks] == ["thought", "action", "action_input", "observation", "answer"]


def test_a_run_that_ends_keeps_the_engines_steps_and_the_blocks_drawn_as_its_record():
    from engine.react.step import Observation, Step, ToolCall

    steps = [
        Step(
            number=1,
            thought="t",
            calls=[ToolCall(id="c1", name="calculator", args={"expression": "6*7"})],
            observations=[Observation(call_id="c1", tool="calculator", text="42", status="error")],
        )
    ]
    turn = Turn(role="assistant")
    tracer = StreamlitChatTracer(Recorder([]), throttle=Throttle(0))
    result = EngineResult(status="answered", answer="42", steps=steps)
    consume(turn, iter(["Thought: t\nAction: calculator\n", "Observation: 42\nAnswer: 42"]), tracer, lambda: result)
    record = turn.run_record()
    assert record.steps == steps and record.steps[0].observations[0].status == "error"
    assert [b.type.value for b in record.blocks] == ["thought", "action", "observation", "answer"]
    assert record.answer == "42" and turn.blocks == record.react_blocks()
    stored = json.loads(turn.record)["blocks"][0]  # the record is kept as its JSON text
    assert "span" in stored and "text" not in stored  # the stream is not kept twice


def test_a_stopped_run_keeps_a_record_of_what_it_drew_its_last_line_included():
    turn = Turn(role="assistant")
    tracer = StreamlitChatTracer(Recorder([]), throttle=Throttle(0))
    try:
        consume(turn, stopping_stream(["Thought: half", " done\nAct"], []), tracer, lambda: EngineResult())
    except StopException:
        pass
    assert turn.status == "stopped" and [(b.type.value, b.text) for b in turn.run_record().blocks] == [
        ("thought", "half done\nAct")
    ]


def test_a_resumed_run_has_no_record_until_it_ends_then_one_of_the_whole_turn():
    from engine.react.record import TurnRecord

    turn = Turn(
        role="assistant",
        content="Thought: ask\nAction: ask_user\nAction Input: {}",
        status="suspended",
        record=TurnRecord(answer="the first part's"),
    )
    tracer = StreamlitChatTracer(Recorder([]), throttle=Throttle(0))
    seen = []

    def tokens():
        seen.append(turn.record)
        yield "Observation: Q3\n"
        yield "Answer: fine"

    consume(turn, tokens(), tracer, lambda: EngineResult(answer="fine"))
    assert seen == [None]
    record = turn.run_record()
    assert [b.type.value for b in record.blocks] == ["thought", "action", "action_input", "observation", "answer"]
    assert record.answer == "fine" and record.source == "engine"
