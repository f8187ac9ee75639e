"""A seeded generator of hostile scripted-LLM runs.

Each run mixes the failure modes users meet with ReAct agents: truncated and
runaway outputs, missing Action Input, invalid JSON, unknown tools, Thoughts with no
Action, empty outputs, odd label casing / bold / French, repeated actions, tools that
raise or hang, and backend failures (429, 500, a dropped stream, a refused
connection). Every Thought carries a unique marker so a leak into an Answer is
detectable.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field

from pydantic import BaseModel

from engine.llm.base import LLMError
from engine.llm.scripted import Reply
from engine.tools.base import Tool


class AnyArgs(BaseModel):
    x: int = 0


class RaisingTool(Tool):
    name = "flaky_db"
    description = "A database that fails."
    Args = AnyArgs

    def run(self, args):
        raise ConnectionError("database connection reset")


class HangingTool(Tool):
    name = "slow_api"
    description = "An API that never answers in time."
    Args = AnyArgs

    def run(self, args):
        time.sleep(0.3)  # past the chaos suite's tool timeout
        return "late"


@dataclass
class ChaosRun:
    seed: int
    native: bool
    script: list = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    markers: list[str] = field(default_factory=list)


LABELS_THOUGHT = ["Thought", "THOUGHT", "thought", "**Thought:**", "Pensée", "### Thought"]
LABELS_ANSWER = ["Answer", "Final Answer", "**Final Answer:**", "Réponse finale", "ANSWER", "Conclusion"]


def _label(rng: random.Random, options: list[str]) -> str:
    choice = rng.choice(options)
    return choice if choice.endswith(":**") else f"{choice}:"


def generate(seed: int) -> ChaosRun:
    rng = random.Random(seed)
    run = ChaosRun(seed=seed, native=rng.random() < 0.3)
    steps = rng.randint(1, 7)
    for step in range(steps):
        marker = f"THOUGHT-MARKER-{seed}-{step}"
        run.markers.append(marker)
        thought = f"{_label(rng, LABELS_THOUGHT)} {marker} reasoning about the figures."
        kind = rng.choice(
            [
                "good_call", "good_call", "truncated", "missing_input", "bad_json", "unknown_tool", "thought_only",
                "empty", "repeat", "runaway", "raising_tool", "hanging_tool", "rate_limited", "server_error",
                "dropped", "refused", "answer", "answer_fenced", "own_observation", "garbage",
            ]
        )  # fmt: skip
        run.kinds.append(kind)
        run.script.append(_reply(rng, kind, thought, run.native, seed, step))
        if kind in ("refused",):
            break
    if rng.random() < 0.7:
        marker = f"THOUGHT-MARKER-{seed}-final"
        run.markers.append(marker)
        final = f"{_label(rng, LABELS_THOUGHT)} {marker} done.\n{_label(rng, LABELS_ANSWER)} The figure is {seed % 97}."
        run.script.append(Reply(text=final) if not run.native else Reply(text=final))
        run.kinds.append("final")
    return run


def _call_text(name: str, args: dict, thought: str) -> str:
    return f"{thought}\nAction: {name}\nAction Input: {json.dumps(args)}"


def _native(name: str, args: str, thought: str, idx: int) -> Reply:
    return Reply(text=thought, tool_calls=[{"id": f"c{idx:08d}", "name": name, "arguments": args}])


def _reply(rng: random.Random, kind: str, thought: str, native: bool, seed: int, step: int):
    idx = seed * 100 + step
    expr = {"expression": f"{rng.randint(1, 99)} * {rng.randint(1, 99)}"}
    if kind == "good_call":
        return (
            _native("calculator", json.dumps(expr), thought, idx) if native else _call_text("calculator", expr, thought)
        )
    if kind == "repeat":
        same = {"expression": "6 * 7"}
        return (
            _native("calculator", json.dumps(same), thought, idx) if native else _call_text("calculator", same, thought)
        )
    if kind == "raising_tool":
        return _native("flaky_db", "{}", thought, idx) if native else _call_text("flaky_db", {}, thought)
    if kind == "hanging_tool":
        return _native("slow_api", "{}", thought, idx) if native else _call_text("slow_api", {}, thought)
    if kind == "unknown_tool":
        return _native("teleport", "{}", thought, idx) if native else _call_text("teleport", {"to": "mars"}, thought)
    if kind == "bad_json":
        if native:
            return _native("calculator", '{"expression": "1 +', thought, idx)
        return f'{thought}\nAction: calculator\nAction Input: {{"expression": "1 + {rng.choice(["", "}", "]"])}'
    if kind == "missing_input":
        return f"{thought}\nAction: statistics"
    if kind == "truncated":
        return Reply(text=f"{thought}\nAction: calcu", finish_reason="length")
    if kind == "thought_only":
        return thought
    if kind == "empty":
        return ""
    if kind == "runaway":
        return f"{thought} " + "and so on " * 800  # past max_tokens: cut with finish_reason=length
    if kind == "rate_limited":
        return LLMError(
            "The Mistral server is rate-limiting requests (HTTP 429) even after retries; try again in a minute.",
            "rate_limited",
        )
    if kind == "server_error":
        return LLMError("The Mistral server kept failing (HTTP 500) after retries; try again later.", "server")
    if kind == "refused":
        return LLMError(
            "Cannot reach the Mistral server at 127.0.0.1:9; is it running and is the address right?", "unreachable"
        )
    if kind == "dropped":
        return Reply(text=f"{thought}\nAnswer: a partial answer that is cut", drop_after_chars=rng.randint(1, 40))
    if kind == "answer":
        return f"{thought}\n{_label(rng, LABELS_ANSWER)} The total is {seed}."
    if kind == "answer_fenced":
        return f"```\n{thought}\nAnswer: The fenced total is {seed}.\n```"
    if kind == "own_observation":
        return _call_text("calculator", expr, thought) + "\nObservation: 12345 (invented)\nAnswer: invented"
    return rng.choice(["{}", "null", "```python\nprint(1)\n```", "Action Input: {}", "Observation: nothing", "**:**"])
