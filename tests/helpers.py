"""Small helpers shared by the engine tests."""

from __future__ import annotations

import json
from typing import Any

from engine.llm.scripted import ScriptedLLM
from engine.react.agent import ReActEngine
from engine.react.parser import parse_blocks
from engine.react.types import ANSWER_TYPES, ReActType
from engine.settings import EngineConfig
from engine.tools.toolkits import general_toolkit


def make_engine(script: list, *, tools=None, hooks=None, native: bool = False, **config: Any) -> ReActEngine:
    llm = ScriptedLLM(script, tool_call=native)
    return ReActEngine(config=EngineConfig(**config), llm=llm, tools=tools or general_toolkit(), hooks=hooks)


def run(engine: ReActEngine, prompt: str = "question") -> str:
    return "".join(engine.stream_sync(prompt))


def types_of(text: str) -> list[ReActType]:
    return [b.type for b in parse_blocks(text)]


def last_block(text: str):
    return parse_blocks(text)[-1]


def assert_well_ended(text: str) -> None:
    """Every run ends with an Answer block or an explicit Error block, never a blank."""
    block = last_block(text)
    assert block.type in ANSWER_TYPES | {ReActType.ERROR}, f"ended with {block.type}: {text[-300:]}"
    assert block.content.strip(), "the last block is blank"


def call(name: str, args: dict[str, Any], thought: str = "I need a tool.") -> str:
    return f"Thought: {thought}\nAction: {name}\nAction Input: {json.dumps(args)}"
