"""The stream the engine writes. What one turn writes of its tools' tables and charts is
bounded: a large result is kept once, cut with its count, and the answer always follows.
A reasoning model's thinking is a Thought: streamed live in native and text modes, never
the answer, never evidence, replayed from the store and hidden with Show Thoughts off;
each provider gets it back by its own rule."""

from pydantic import BaseModel

from components.state import Turn
from components.throttle import Throttle
from components.tracer import StreamlitChatTracer
from engine.llm.base import Abilities, BaseLLM, final_chunk
from engine.llm.mistral import MistralLLM
from engine.llm.openai_compat import OpenAICompatLLM
from engine.react.agent import ReActEngine
from engine.react.parser import parse_blocks
from engine.react.step import Observation
from engine.react.stream import StreamWriter
from engine.react.types import ReActType
from engine.store import ConversationStore
from engine.tools.base import Tool
from engine.tools.results import TableData, ToolResult
from engine.tools.toolkits import general_toolkit
from tests.components.test_tracer import Recorder
from tests.helpers import call, make_engine, run

WIDE = 900


class NoArgs(BaseModel):
    pass


class BigTable(Tool):
    name = "big_table"
    description = "Returns 10,000 rows of 900 characters."
    Args = NoArgs

    def run(self, args):
        rows = [[f"r{i:05d}" + "x" * WIDE, i] for i in range(10_000)]
        data = TableData(columns=["label", "amount"], dtypes=["text", "number"], rows=rows, total_rows=10_000)
        return ToolResult(text="(10000 rows; the first are shown)", table=data)


def test_the_table_block_fits_the_writers_data_budget():
    writer = StreamWriter(data_bytes=50_000)
    rows = [["a" * 1000, i] for i in range(500)]
    observation = Observation(call_id="c", tool="t", text="ok", table=TableData(columns=["a", "b"], rows=rows))
    text = writer.observation(observation)
    table = [b for b in parse_blocks(text) if b.type is ReActType.TABLE][0]
    assert len(table.content.encode()) <= 50_000 and '"total_rows":500' in table.content
    assert 0 <= writer.data_left < 50_000 - 40_000  # what the table took is gone from the budget


def test_a_chart_that_does_not_fit_the_budget_left_is_not_written():
    writer = StreamWriter(data_bytes=100)
    assert writer.chart('{"values": "' + "v" * 200 + '"}') == ""
    assert writer.chart(None) == ""
    assert "Chart:" in StreamWriter(data_bytes=10_000).chart('{"mark": "bar"}')


def test_a_run_over_a_huge_table_keeps_it_once_within_the_budget_and_answers():
    engine = make_engine(
        [call("big_table", {}), "Thought: done.\nAnswer: There are 10,000 rows."],
        tools=[BigTable()],
        turn_data_bytes=1_000_000,
    )
    text = run(engine)
    blocks = parse_blocks(text)
    tables = [b for b in blocks if b.type is ReActType.TABLE]
    assert len(tables) == 1 and len(tables[0].content.encode()) <= 1_000_000
    assert '"total_rows":10000' in tables[0].content
    assert sum(len(b.content.encode()) for b in blocks if b.type in (ReActType.TABLE, ReActType.CHART)) <= 1_000_000
    assert len(text.encode()) < 1_100_000
    assert engine.result.status == "answered" and engine.result.answer == "There are 10,000 rows."


THINK_1 = "The analyst wants 17 times 23.\nAnswer: 400, roughly.\nBetter compute it."
THINK_2 = "The tool said 391; revenue last year was 4,217 as I recall."
CALL = [{"id": "abc123def", "name": "calculator", "arguments": '{"expression": "17*23"}'}]


def mistral_engine(server):
    llm = MistralLLM(api_key="k", server_url=f"http://127.0.0.1:{server.port}", retry_initial_s=0.05)
    return ReActEngine(config={}, llm=llm, tools=general_toolkit())


def test_magistral_thinking_is_a_live_thought_in_native_mode(fake_server):
    fake_server.script.extend(
        [
            {"thinking": THINK_1, "text": "Thought: I multiply.", "tool_calls": CALL},
            {"thinking": THINK_2, "text": "Answer: 17 × 23 = 391."},
        ]
    )
    engine = mistral_engine(fake_server)
    tokens = list(engine.stream_sync("What is 17*23?"))
    text = "".join(tokens)
    blocks = parse_blocks(text)
    assert [(b.type, b.content) for b in blocks] == [
        (ReActType.THOUGHT, THINK_1),
        (ReActType.THOUGHT, "I multiply."),
        (ReActType.ACTION, "calculator"),
        (ReActType.ACTION_INPUT, '{"expression": "17*23"}'),
        (ReActType.OBSERVATION, "391"),
        (ReActType.THOUGHT, THINK_2),
        (ReActType.ANSWER, "17 × 23 = 391."),
    ]
    assert engine.result.answer == "17 × 23 = 391."  # the "Answer:" line inside the thinking stayed in it
    live = [t for t in tokens if t and t.strip() and t.strip() in THINK_1]
    assert len(live) > 3  # the thinking came out piece by piece, as it arrived
    assert engine.result.steps[0].reasoning == THINK_1 and engine.result.steps[0].thought == "I multiply."
    replayed = fake_server.requests[1]["messages"][-2]  # Mistral takes earlier thinking back
    assert replayed["content"][0]["type"] == "thinking"
    assert replayed["content"][0]["thinking"][0]["text"] == THINK_1


def test_reasoning_content_is_a_thought_in_text_mode_and_never_sent_back(fake_server):
    fake_server.script.extend(
        [
            {
                "thinking": THINK_1,
                "thinking_as": "reasoning_content",
                "text": 'Thought: I multiply.\nAction: calculator\nAction Input: {"expression": "17*23"}',
            },
            {"thinking": THINK_2, "thinking_as": "reasoning", "text": "Thought: done\nAnswer: 17 × 23 = 391."},
        ]
    )
    llm = OpenAICompatLLM(base_url=f"http://127.0.0.1:{fake_server.port}/v1", model="qwen3")
    engine = ReActEngine(config={}, llm=llm, tools=general_toolkit())
    assert engine.protocol.name == "text"
    blocks = parse_blocks("".join(engine.stream_sync("What is 17*23?")))
    assert [b.type for b in blocks] == [
        ReActType.THOUGHT,
        ReActType.THOUGHT,
        ReActType.ACTION,
        ReActType.ACTION_INPUT,
        ReActType.OBSERVATION,
        ReActType.THOUGHT,
        ReActType.THOUGHT,
        ReActType.ANSWER,
    ]
    assert blocks[0].content == THINK_1 and blocks[5].content == THINK_2
    assert engine.result.answer == "17 × 23 = 391."
    second = fake_server.requests[1]["messages"]
    assert not any(k in m for m in second for k in ("reasoning", "reasoning_content"))
    assert "Answer: 400" not in str(second)  # the thinking is not in what the model reads back


def test_a_figure_only_in_the_thinking_is_no_evidence(fake_server):
    fake_server.script.extend(
        [
            {"thinking": THINK_1, "text": "Thought: I multiply.", "tool_calls": CALL},
            {"thinking": THINK_2, "text": "Answer: 17 × 23 = 391, and revenue was 4,217."},
        ]
    )
    engine = mistral_engine(fake_server)
    engine.get_engine_response("What is 17*23?")
    assert "4,217" in engine.result.grounding.unsupported
    assert "391" not in " ".join(engine.result.grounding.unsupported)


def test_thinking_is_replayed_from_the_store_and_hidden_with_thoughts_off(fake_server, tmp_path):
    fake_server.script.append({"thinking": "Secret line of thinking.", "text": "Answer: 42."})
    engine = mistral_engine(fake_server)
    raw = "".join(engine.stream_sync("What is 6*7?"))
    store = ConversationStore(f"sqlite:///{tmp_path / 'app.db'}")
    conv = store.create("alice", "t")
    store.save_turn(
        "alice", conv.id, Turn(id="a1", role="assistant", content=raw, answer="42.").model_dump(mode="json")
    )
    stored = Turn.model_validate(store.get("alice", conv.id).turns[0])
    store.close()
    assert (stored.blocks[0].type, stored.blocks[0].content) == (ReActType.THOUGHT, "Secret line of thinking.")
    for show, seen in ((False, False), (True, True)):
        log = []
        tracer = StreamlitChatTracer(Recorder(log), show_trace=show, throttle=Throttle(0))
        tracer.replay(stored.content)
        tracer.close()
        drawn = " ".join(str(entry[1]) for entry in log)
        assert ("Secret line of thinking" in drawn) is seen
        assert "42" in drawn


class LateThinker(BaseLLM):
    """Thinking that arrives after the reply began (some servers interleave)."""

    name = "late"
    model = "late"
    abilities = Abilities(tool_call=True)

    def __init__(self):
        self.replies = [
            ([("delta", "Checking"), ("reasoning", "late thought"), ("delta", " the product.")], CALL),
            ([("reasoning", "late again"), ("delta", "Answer: 391.")], []),
        ]

    async def astream_generate(self, messages, **kw):
        parts, calls = self.replies.pop(0)
        for kind, text in parts:
            yield {"delta": text} if kind == "delta" else {"delta": "", "reasoning": text}
        yield final_chunk(None, "tool_calls" if calls else "stop", [{**c} for c in calls])


def test_thinking_after_the_reply_began_never_splits_the_reply():
    engine = ReActEngine(config={}, llm=LateThinker(), tools=general_toolkit())
    blocks = parse_blocks("".join(engine.stream_sync("What is 17*23?")))
    assert [(b.type, b.content) for b in blocks[:3]] == [
        (ReActType.THOUGHT, "Checking the product."),
        (ReActType.THOUGHT, "late thought"),
        (ReActType.ACTION, "calculator"),
    ]
    assert blocks[-1].type is ReActType.ANSWER and blocks[-1].content == "391."
    assert engine.result.answer == "391."
    assert engine.result.steps[-1].reasoning == "late again"  # kept on the step, out of the answer


def test_a_later_turn_gets_the_answer_without_the_thinking(fake_server):
    fake_server.script.extend(
        [{"thinking": "Secret line of thinking.", "text": "Answer: 42."}, {"thinking": "More.", "text": "Answer: 43."}]
    )
    first = mistral_engine(fake_server)
    raw = "".join(first.stream_sync("What is 6*7?"))
    second = mistral_engine(fake_server)
    second.set_history([{"role": "user", "content": "What is 6*7?"}, {"role": "assistant", "content": raw}])
    second.get_engine_response("And plus one?")
    sent = fake_server.requests[1]["messages"]
    assert [m["content"] for m in sent if m["role"] == "assistant"] == ["42."]
    assert "Secret line of thinking" not in str(sent)


def test_the_forced_final_answers_thinking_is_a_thought_before_it():
    from engine.llm.scripted import Reply, ScriptedLLM

    call = 'Thought: I multiply.\nAction: calculator\nAction Input: {"expression": "17*23"}'
    final = Reply(reasoning="Wrapping up: Answer: 400?", text="Answer: 17 × 23 = 391.")
    llm = ScriptedLLM([call, final])
    engine = ReActEngine(config={"max_iterations": 1}, llm=llm, tools=general_toolkit())
    blocks = parse_blocks("".join(engine.stream_sync("What is 17*23?")))
    assert [b.type for b in blocks[-3:]] == [ReActType.WARNING, ReActType.THOUGHT, ReActType.ANSWER]
    assert blocks[-2].content == "Wrapping up: Answer: 400?"
    assert blocks[-1].content == "17 × 23 = 391." and engine.result.answer == "17 × 23 = 391."
