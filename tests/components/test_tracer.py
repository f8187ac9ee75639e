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


def _stream_answer(paragraph_count):
    log = []
    clock = FakeClock()
    tracer = StreamlitChatTracer(Recorder(log), throttle=Throttle(0.01, clock))
    paragraphs = [f"Paragraph {i} " + "words " * 60 for i in range(paragraph_count)]
    text = "Answer: " + "\n\n".join(paragraphs)
    for i in range(0, len(text), 4):
        clock.now += 0.002
        tracer.feed(text[i : i + 4])
    tracer.close()
    return [value for kind, value in log if kind == "markdown"], paragraphs


def test_long_answers_settle_paragraphs_and_only_redraw_the_tail():
    drawn, paragraphs = _stream_answer(30)
    assert max(len(v) for v in drawn) < 2 * len(paragraphs[0])  # never the whole answer again
    settled = [v for v in drawn if v.startswith("Paragraph") and v.endswith("\n\n")]
    assert {v.split()[1] for v in settled} >= {str(i) for i in range(29)}
    half, _ = _stream_answer(15)
    ratio = sum(map(len, drawn)) / sum(map(len, half))
    assert ratio < 2.5  # twice the answer costs about twice the bytes: linear, not quadratic


def test_fenced_code_is_never_split():
    log = []
    clock = FakeClock()
    tracer = StreamlitChatTracer(Recorder(log), throttle=Throttle(0.0, clock))
    code = "```python\nx = 1\n\n\ny = 2\n```"
    for token in ["Answer: Intro.\n\n", code[:15], code[15:], "\n\nAfter."]:
        clock.now += 1
        tracer.feed(token)
    tracer.close()
    drawn = [value for kind, value in log if kind == "markdown"]
    assert any(v.startswith("```python") and v.rstrip().endswith("```") for v in drawn)
    assert not any(v.startswith("y = 2") for v in drawn)
