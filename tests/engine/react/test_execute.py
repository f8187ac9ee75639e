"""Guards, hooks and AskUser against a scripted LLM."""

import asyncio
import json

from pydantic import BaseModel

from engine.llm.scripted import Reply
from engine.react.agent import ReActEngine
from engine.react.hooks import HookDecision, Hooks
from engine.react.parser import parse_blocks
from engine.react.run_state import SuspendedRun
from engine.react.types import ReActType
from engine.tools.base import Tool
from engine.tools.toolkits import general_toolkit
from tests.helpers import assert_well_ended, call, make_engine, run, types_of

ANSWER = "Thought: done\nAnswer: final"


def blocks_of(text, kind):
    return [b.content for b in parse_blocks(text) if b.type is kind]


def test_cycle_warning_at_three_identical_calls_and_refusal_after():
    same = call("calculator", {"expression": "1+1"})
    engine = make_engine([same, same, same, same, ANSWER])
    text = run(engine)
    warnings = blocks_of(text, ReActType.WARNING)
    assert any("same input 3 times" in w for w in warnings)
    observations = blocks_of(text, ReActType.OBSERVATION)
    assert observations[:3] == ["2", "2", "2"]
    assert observations[3].startswith("Not run:")
    assert engine.result.answer == "final"


def test_different_arguments_are_not_a_cycle():
    script = [call("calculator", {"expression": f"{i}+1"}) for i in range(4)] + [ANSWER]
    text = run(make_engine(script))
    assert not any("same input" in w for w in blocks_of(text, ReActType.WARNING))


def test_reflection_every_six_tool_calls():
    script = [call("calculator", {"expression": f"{i}*2"}) for i in range(7)] + [ANSWER]
    engine = make_engine(script, max_iterations=20)
    text = run(engine)
    reflections = [t for t in blocks_of(text, ReActType.THOUGHT) if t.startswith("Reflection after 6 tool calls")]
    assert len(reflections) == 1
    assert "Reflection after 6" in engine.llm.calls[6][-1]["content"]


def test_checklist_once_after_three_tool_calls():
    script = [call("calculator", {"expression": f"{i}*3"}) for i in range(5)] + [ANSWER]
    text = run(make_engine(script))
    checklists = [t for t in blocks_of(text, ReActType.THOUGHT) if t.startswith("Before answering, check")]
    assert len(checklists) == 1
    thoughts_and_obs = [b.type for b in parse_blocks(text)]
    # it follows the third observation
    third_obs = [i for i, t in enumerate(thoughts_and_obs) if t is ReActType.OBSERVATION][2]
    assert parse_blocks(text)[third_obs + 1].content.startswith("Before answering")


def test_max_iterations_ends_with_a_summary_not_an_exception():
    script = [call("calculator", {"expression": f"{i}+{i}"}) for i in range(3)] + ["Answer: summary of what I found"]
    engine = make_engine(script, max_iterations=3)
    text = run(engine)
    assert_well_ended(text)
    assert any("limit of 3 reasoning steps" in w for w in blocks_of(text, ReActType.WARNING))
    assert engine.result.answer == "summary of what I found"
    assert "Do not call any more tools" in engine.llm.calls[-1][-1]["content"]
    assert engine.result.iterations == 3


class SlowArgs(BaseModel):
    seconds: float


class Slow(Tool):
    name = "slow"
    description = "Sleeps."
    Args = SlowArgs

    async def run(self, args):
        await asyncio.sleep(args.seconds)
        return "woke"


def test_tool_past_its_timeout_becomes_an_error_observation():
    engine = make_engine([call("slow", {"seconds": 5}), ANSWER], tools=[Slow()], tool_timeout_s=0.2)
    text = run(engine)
    assert "took longer than 0.2 s" in blocks_of(text, ReActType.OBSERVATION)[0]


class Pair(BaseModel):
    side: str


class Rendezvous(Tool):
    """Two calls that only finish if they run at the same time."""

    name = "rendezvous"
    description = "Waits for its partner."
    Args = Pair

    def __init__(self):
        self.events: dict[str, asyncio.Event] = {}

    async def run(self, args):
        mine = self.events.setdefault(args.side, asyncio.Event())
        other = self.events.setdefault("b" if args.side == "a" else "a", asyncio.Event())
        mine.set()
        await asyncio.wait_for(other.wait(), 2)
        return f"{args.side} met"


def test_parallel_native_calls_run_concurrently_and_results_follow_the_assistant_message():
    calls = [
        {"id": "c1", "name": "rendezvous", "arguments": '{"side": "a"}'},
        {"id": "c2", "name": "rendezvous", "arguments": '{"side": "b"}'},
    ]
    engine = make_engine(
        [Reply(text="Thought: both", tool_calls=calls), "Answer: met"], tools=[Rendezvous()], native=True
    )
    text = run(engine)
    assert blocks_of(text, ReActType.OBSERVATION) == ["a met", "b met"]
    second = engine.llm.calls[1]
    roles = [m["role"] for m in second]
    assert roles[-3:] == ["assistant", "tool", "tool"]
    assert second[-3]["content"] == "both"
    assert [m["tool_call_id"] for m in second[-2:]] == ["c1", "c2"]


def test_native_mode_writes_action_lines_for_the_client():
    reply = Reply(
        text="Thought: add", tool_calls=[{"id": "x1", "name": "calculator", "arguments": '{"expression": "2+2"}'}]
    )
    text = run(make_engine([reply, "Answer: 4"], native=True))
    assert types_of(text) == [
        ReActType.THOUGHT,
        ReActType.ACTION,
        ReActType.ACTION_INPUT,
        ReActType.OBSERVATION,
        ReActType.ANSWER,
    ]
    assert json.loads(parse_blocks(text)[2].content) == {"expression": "2+2"}


def test_pre_hook_can_block_and_the_model_sees_why():
    hooks = Hooks(
        pre=[lambda c: HookDecision(block="calculator is disabled by policy") if c.name == "calculator" else None]
    )
    engine = make_engine([call("calculator", {"expression": "1+1"}), ANSWER], hooks=hooks)
    text = run(engine)
    assert blocks_of(text, ReActType.OBSERVATION) == ["Blocked: calculator is disabled by policy"]
    assert "disabled by policy" in engine.llm.calls[1][-1]["content"]


def test_pre_hook_can_rewrite_arguments():
    hooks = Hooks(pre=[lambda c: HookDecision(args={"expression": "10*10"})])
    text = run(make_engine([call("calculator", {"expression": "1+1"}), ANSWER], hooks=hooks))
    assert blocks_of(text, ReActType.OBSERVATION) == ["100"]


def test_post_hook_can_rewrite_the_observation():
    hooks = Hooks(post=[lambda c, obs: f"[redacted {len(obs)} chars]"])
    text = run(make_engine([call("calculator", {"expression": "1+1"}), ANSWER], hooks=hooks))
    assert blocks_of(text, ReActType.OBSERVATION) == ["[redacted 1 chars]"]


ASK = call("ask_user", {"question": "Which quarter?", "choices": ["Q1", "Q2"]}, thought="I need the quarter.")


def test_ask_user_suspends_then_resumes_in_a_new_engine():
    engine = make_engine([ASK])
    text = run(engine)
    assert engine.result.status == "suspended"
    assert types_of(text)[-2:] == [ReActType.ACTION, ReActType.ACTION_INPUT]
    suspended = engine.result.suspended
    assert suspended.question == "Which quarter?" and suspended.choices == ["Q1", "Q2"]
    wire = json.loads(suspended.model_dump_json())  # serialisable, as the app stores it

    fresh = make_engine(["Thought: got it\nAnswer: Q2 revenue was 12."])
    resumed = "".join(fresh.resume_sync(SuspendedRun.model_validate(wire), "Q2"))
    assert parse_blocks(resumed)[0].type is ReActType.OBSERVATION
    assert parse_blocks(resumed)[0].content == "Q2"
    assert fresh.result.status == "answered" and fresh.result.answer == "Q2 revenue was 12."
    assert fresh.llm.calls[0][-1]["content"] == "Observation: Q2"
    assert fresh.result.iterations == 2


def test_ask_user_native_keeps_a_valid_message_order():
    ask = Reply(tool_calls=[{"id": "ask000001", "name": "ask_user", "arguments": '{"question": "Which region?"}'}])
    engine = make_engine([ask], native=True)
    run(engine)
    fresh = make_engine(["Answer: EMEA it is."], native=True)
    fresh.resume(engine.result.suspended, "EMEA")
    sent = fresh.llm.calls[0]
    assert [m["role"] for m in sent[-2:]] == ["assistant", "tool"]
    assert sent[-1]["tool_call_id"] == "ask000001" and sent[-1]["content"] == "EMEA"
    for before, after in zip(sent, sent[1:], strict=False):
        assert not (before["role"] == "tool" and after["role"] == "user")


def test_invalid_ask_user_is_retried():
    engine = make_engine([call("ask_user", {"choices": ["a"]}), ANSWER])
    run(engine)
    assert "ask_user needs" in engine.llm.calls[1][-1]["content"]
    assert engine.result.status == "answered"


def test_engines_share_nothing():
    first = make_engine([ANSWER])
    first.set_history([{"role": "user", "content": "secret project Falcon"}])
    run(first)
    second = make_engine([ANSWER])
    run(second)
    assert all("Falcon" not in m["content"] for m in second.llm.calls[0])


def test_start_loads_the_toolkits_for_a_theme():
    engine = ReActEngine(config={}, llm=make_engine([]).llm).start("handbook")
    assert engine.options.theme == "handbook"
    assert "calculator" in engine.tools and "ask_user" in engine.tools


def test_general_toolkit_names():
    assert {t.name for t in general_toolkit()} >= {"calculator", "ask_user"}
