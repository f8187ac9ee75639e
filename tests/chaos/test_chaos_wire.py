"""A slice of the chaos suite on the real wire: the mistralai SDK against the local
fake SSE server, so 429s, 500s and cut connections are real HTTP events."""

import asyncio
import copy

from engine.llm.base import LLMError
from engine.llm.mistral import MistralLLM
from engine.react.agent import ReActEngine
from engine.settings import EngineConfig
from engine.tools.toolkits import general_toolkit
from tests.chaos.generator import HangingTool, RaisingTool, generate
from tests.chaos.test_chaos import HISTORY, RUN_BOUND_S, check

WIRE_RUNS = 60


def to_wire(item) -> dict:
    """One scripted reply as what the fake server sends."""
    if isinstance(item, LLMError):
        if item.kind == "rate_limited":
            return {"status": 429, "repeat": True}
        if item.kind == "server":
            return {"status": 500, "repeat": True}
        return {"text": "x" * 20, "drop_after": 0}  # refused: the connection dies before any byte
    if isinstance(item, str):
        return {"text": item}
    wire = {"text": item.text}
    if item.tool_calls:
        wire["tool_calls"] = [c.model_dump() for c in item.tool_calls]
    if item.finish_reason:
        wire["finish_reason"] = item.finish_reason
    if item.drop_after_chars is not None:
        wire["drop_after"] = max(0, item.drop_after_chars // 5)
    return wire


def test_chaos_over_the_real_sdk_and_http(fake_server, capsys):
    outcomes = []
    for seed in range(1000, 1000 + WIRE_RUNS):
        run = generate(seed)
        run.native = True
        fake_server.script.clear()
        fake_server.script.extend(to_wire(item) for item in run.script)
        llm = MistralLLM(
            api_key="sk-chaos",
            server_url=f"http://127.0.0.1:{fake_server.port}",
            max_retry_wait_s=0.2,
            retry_initial_s=0.05,
        )
        config = EngineConfig(max_iterations=6, max_format_retries=2, tool_timeout_s=0.05, max_tokens_per_step=256)
        engine = ReActEngine(config=config, llm=llm, tools=general_toolkit() + [RaisingTool(), HangingTool()])
        history = copy.deepcopy(HISTORY)
        engine.set_history(history)

        async def consume(engine=engine, seed=seed):
            return "".join([t async for t in engine.stream(f"Chaos question {seed}?")])

        text = asyncio.run(asyncio.wait_for(consume(), RUN_BOUND_S))
        outcomes.append((run, engine, check(run, engine, text, history)))
    violations = [(run.seed, run.kinds, p) for run, _, problems in outcomes for p in problems]
    answered = sum(1 for _, e, _ in outcomes if e.result.status == "answered")
    errors = sum(1 for _, e, _ in outcomes if e.result.status == "error")
    assert violations == [], violations[:5]
    with capsys.disabled():
        print(f"\nwire: {len(outcomes)} runs, {answered} answered, {errors} explicit errors, 0 silent")
    assert answered and errors
    assert all("sk-chaos" not in (e.result.error or "") for _, e, _ in outcomes)
