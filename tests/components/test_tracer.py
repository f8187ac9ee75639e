"""The throttle and the tracer, with a recording stand-in for Streamlit containers."""

from components.throttle import Throttle
from components.tracer import StreamlitChatTracer
from engine.react.types import ReActType


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_throttle_allows_one_redraw_per_interval():
    clock = FakeClock()
    throttle = Throttle(0.1, clock)
    assert throttle.ready()
    assert not throttle.ready()
    clock.now = 0.05
    assert not throttle.ready()
    clock.now = 0.1
    assert throttle.ready()
    throttle.reset()
    assert throttle.ready()


class Recorder:
    """Stands in for st containers: records what would be drawn."""

    def __init__(self, log):
        self.log = log

    def empty(self):
        return Recorder(self.log)

    def container(self):
        return self

    def __getattr__(self, name):
        def record(*args, **kwargs):
            self.log.append((name, args[0] if args else ""))
            return Recorder(self.log)

        return record


ANSWER = "Answer: " + " ".join(f"word{i}" for i in range(3000))


def test_tracer_redraws_a_long_answer_a_bounded_number_of_times():
    log = []
    clock = FakeClock()
    tracer = StreamlitChatTracer(Recorder(log), throttle=Throttle(0.1, clock))
    for i, token in enumerate(ANSWER.split(" ")):
        clock.now = i * 0.001  # 1 ms per token: 3 s of streaming
        tracer.feed(token + " ")
    tracer.close()
    assert tracer.parser.blocks[0].type is ReActType.ANSWER
    assert tracer.renders <= 3000 * 0.001 / 0.1 + 3
    assert log[-1][0] == "markdown" and log[-1][1].endswith("word2999")


def test_tracer_hides_trace_blocks_when_thoughts_are_off():
    log = []
    tracer = StreamlitChatTracer(Recorder(log), show_trace=False, throttle=Throttle(0))
    for token in [
        "Thought: secret\n",
        "Action: calculator\n",
        "Action Input: {}\n",
        "Observation: 1\n",
        "Answer: shown",
    ]:
        tracer.feed(token)
    tracer.close()
    drawn = [entry for entry in log if entry[0] in ("markdown", "expander", "code")]
    assert drawn and all(kind == "markdown" for kind, _ in drawn)
    assert drawn[-1][1] == "shown"
    assert tracer.raw.startswith("Thought: secret")


def test_tracer_draws_each_block_in_its_own_slot_in_order():
    log = []
    tracer = StreamlitChatTracer(Recorder(log), throttle=Throttle(0))
    for token in 'Thought: plan\nAction: calculator\nAction Input: {"expression": "1+1"}\nObservation: 2\nAnswer: 2':
        tracer.feed(token)
    tracer.close()
    expanders = [text for kind, text in log if kind == "expander"]
    order = []
    for label in expanders:
        name = label.split("**")[1]
        if not order or order[-1] != name:
            order.append(name)
    assert order == ["Thought", "Action", "Observation"]
    assert len(tracer._slots) == 4
