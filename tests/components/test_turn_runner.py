"""A Stop in the middle of a turn keeps what was produced and marks the turn stopped."""

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
