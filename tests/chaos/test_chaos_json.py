"""The chaos suite's hostile runs in the JSON wire protocol: the same failure modes
(truncated, runaway, invalid JSON, unknown tools, no decision, empty, garbage,
backend failures) written as JSON-mode replies. Every run ends with an Answer or an
explicit Error, no Thought leaks into an answer, and runs whose replies do not parse
fall back to the text format."""

import asyncio
import copy
import json
import re

from engine.llm.base import LLMError
from engine.llm.openai_compat import OpenAICompatLLM
from engine.llm.scripted import Reply, ScriptedLLM
from engine.react.agent import ReActEngine
from engine.settings import EngineConfig
from engine.tools.toolkits import general_toolkit
from tests.chaos.generator import HangingTool, RaisingTool, generate
from tests.chaos.test_chaos import HISTORY, RUN_BOUND_S, check
from tests.chaos.test_chaos_wire import to_wire

RUNS = 300
WIRE_RUNS = 30
CONFIG = EngineConfig(max_iterations=6, max_format_retries=2, tool_timeout_s=0.05, max_tokens_per_step=256)


def _thought(text: str) -> str:
    first = text.strip("`\n").splitlines()[0] if text.strip("`\n") else ""
    marker = re.search(r"THOUGHT-MARKER-\S+", first)
    return f"{marker.group(0)} reasoning about the figures." if marker else first


def _call(item) -> dict:
    """A tool call of the text generator (written, or native in a run drawn as native)."""
    if isinstance(item, Reply) and item.tool_calls:
        call = item.tool_calls[0]
        return {"thought": _thought(item.text), "action": call.name, "action_input": json.loads(call.arguments)}
    name = re.search(r"^Action: (.*)$", item, re.M).group(1)
    args = json.loads(re.search(r"^Action Input: (.*)$", item, re.M).group(1))
    return {"thought": _thought(item), "action": name, "action_input": args}


def as_json(kind: str, item, seed: int):
    """One scripted reply of the text generator, as a JSON-mode model would write it."""
    if isinstance(item, LLMError):
        return item
    text = item.text if isinstance(item, Reply) else item
    thought = _thought(text)
    if kind in ("good_call", "repeat", "raising_tool", "hanging_tool", "unknown_tool"):
        return json.dumps(_call(item))
    if kind == "bad_json":
        return json.dumps({"thought": thought, "action": "calculator"})[:-1] + ', "action_input": {"expression": "1 +'
    if kind == "missing_input":
        return json.dumps({"thought": thought, "action": "statistics"})
    if kind == "truncated":
        return Reply(text=json.dumps({"thought": thought})[:-1] + ', "action": "calcu', finish_reason="length")
    if kind == "thought_only":
        return json.dumps({"thought": thought})
    if kind == "runaway":
        return '{"thought": "' + thought + " and so on" * 800 + '"}'
    if kind == "dropped":
        answer = json.dumps({"thought": thought, "answer": "a partial answer that is cut"})
        return Reply(text=answer, drop_after_chars=item.drop_after_chars)
    if kind == "answer":
        return json.dumps({"thought": thought, "answer": f"The total is {seed}."})
    if kind == "answer_fenced":
        return "```json\n" + json.dumps({"thought": thought, "answer": f"The fenced total is {seed}."}) + "\n```"
    if kind == "own_observation":
        return json.dumps(_call(item)) + "\nObservation: 12345 (invented)\nAnswer: invented"
    if kind == "final":
        return json.dumps({"thought": thought, "answer": f"The figure is {seed % 97}."})
    return text  # empty and garbage replies stay what they are


def json_run(seed: int):
    run = generate(seed)
    run.native = False
    run.script = [as_json(k, item, seed) for k, item in zip(run.kinds, run.script, strict=True)]
    return run


def tools():
    return general_toolkit() + [RaisingTool(), HangingTool()]


def test_chaos_in_json_mode_never_ends_silently(capsys):
    async def all_runs():
        outcomes = []
        for seed in range(RUNS):
            run = json_run(seed)
            llm = ScriptedLLM(run.script, json_mode=True, chunk_chars=3 + seed % 7)
            engine = ReActEngine(config=CONFIG, llm=llm, tools=tools())
            assert engine.protocol.name == "json"
            history = copy.deepcopy(HISTORY)
            engine.set_history(history)

            async def consume(engine=engine, seed=seed):
                return "".join([t async for t in engine.stream(f"Chaos question {seed}?")])

            text = await asyncio.wait_for(consume(), RUN_BOUND_S)
            outcomes.append((run, engine, check(run, engine, text, history)))
        return outcomes

    outcomes = asyncio.run(all_runs())
    violations = [(run.seed, run.kinds, p) for run, _, problems in outcomes for p in problems]
    assert violations == [], violations[:5]
    answered = sum(1 for _, e, _ in outcomes if e.result.status == "answered")
    fell_back = sum(1 for _, e, _ in outcomes if e.protocol.name == "text")
    stayed = [e for _, e, _ in outcomes if e.protocol.name == "json" and e.result.status == "answered"]
    with capsys.disabled():
        print(f"\njson: {len(outcomes)} runs, {answered} answered, {fell_back} fell back to text, 0 silent")
    assert fell_back and stayed  # both paths of the chain were exercised
    assert all(kw.get("response_format") == {"type": "json_object"} for e in stayed for kw in e.llm.kwargs[:1])
    kinds = {k for run, *_ in outcomes for k in run.kinds}
    assert kinds >= {"truncated", "missing_input", "bad_json", "unknown_tool", "thought_only", "empty", "runaway",
                     "garbage", "own_observation", "answer_fenced", "dropped", "rate_limited"}  # fmt: skip


def test_chaos_in_json_mode_over_http(fake_server):
    outcomes = []
    for seed in range(2000, 2000 + WIRE_RUNS):
        run = json_run(seed)
        fake_server.script.clear()
        fake_server.script.extend(to_wire(item) for item in run.script)
        llm = OpenAICompatLLM(
            base_url=f"http://127.0.0.1:{fake_server.port}/v1",
            model="m",
            json_mode=True,
            max_retry_wait_s=0.2,
            retry_initial_s=0.05,
        )
        engine = ReActEngine(config=CONFIG, llm=llm, tools=tools())
        history = copy.deepcopy(HISTORY)
        engine.set_history(history)

        async def consume(engine=engine, seed=seed):
            return "".join([t async for t in engine.stream(f"Chaos question {seed}?")])

        text = asyncio.run(asyncio.wait_for(consume(), RUN_BOUND_S))
        outcomes.append((run, engine, check(run, engine, text, history)))
    violations = [(run.seed, run.kinds, p) for run, _, problems in outcomes for p in problems]
    assert violations == [], violations[:5]
    assert any(e.result.status == "answered" for _, e, _ in outcomes)
