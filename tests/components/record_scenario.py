"""A conversation made by real runs through the app's ``consume``: a table and its chart,
a tool whose text looks like labels, a question to the analyst and its reply, a stopped
run, an engine that could not start. Ids and times are fixed, so that two versions of
the app can be compared on it.

``old_turns.json`` holds what the app saved for this conversation before turns kept their
record (commit 2b4a56c), with its exports and its history, made by ``capture()``.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel
from streamlit.runtime.scriptrunner_utils.exceptions import StopException

from components.export import to_json, to_markdown
from components.state import Conversation, Preferences, Turn
from components.throttle import Throttle
from components.tracer import StreamlitChatTracer
from components.turn_runner import consume
from engine.react.run_state import EngineResult
from engine.tools.base import Tool
from engine.tools.results import TableData, ToolResult
from engine.tools.toolkits import general_toolkit
from tests.components.test_tracer import Recorder
from tests.helpers import call, make_engine

WHEN = "2026-01-02T03:04:05+00:00"


class NoArgs(BaseModel):
    pass


class Sales(Tool):
    name = "sales"
    description = "Sales per quarter."
    Args = NoArgs

    def run(self, args):
        table = TableData(
            columns=["quarter", "revenue"],
            dtypes=["text", "number"],
            rows=[["Q1", 10.5], ["Q2", 11.25], ["Q3 | best", 12.0]],
            title="Sales",
        )
        return ToolResult(text="3 rows: Q1 10.5, Q2 11.25, Q3 12.0", table=table)


class Memo(Tool):
    name = "memo"
    description = "A memo whose lines look like labels."
    Args = NoArgs

    def run(self, args):
        return ToolResult(text="Memo of Q3.\nAnswer: 99 (a line of the memo)\nThought: not the model's")


def _tracer() -> StreamlitChatTracer:
    return StreamlitChatTracer(Recorder([]), throttle=Throttle(0))


def _fixed(turn: Turn) -> Turn:
    turn.created_at, turn.elapsed = WHEN, 0.0
    if turn.ended_at is not None:
        turn.ended_at = WHEN
    return turn


def _run(conversation: Conversation, n: int, question: str, script: list[str], tools: list[Tool]) -> Turn:
    conversation.add(Turn(id=f"u{n}", role="user", content=question, created_at=WHEN))
    turn = Turn(id=f"a{n}", role="assistant", created_at=WHEN)
    conversation.add(turn)
    engine = make_engine(script, tools=tools)
    engine.set_history(conversation.history()[:-1])
    consume(turn, engine.stream_sync(question), _tracer(), lambda: engine.result)
    return _fixed(turn)


class _Stopping:
    """A stream the analyst stops after its first tokens (Streamlit raises into the script)."""

    def __init__(self, tokens: list[str]) -> None:
        self.items = iter(tokens)

    def __iter__(self):
        return self

    def __next__(self) -> str:
        item = next(self.items, None)
        if item is None:
            raise StopException()
        return item


def conversation() -> Conversation:
    conv = Conversation(id="c1", title="Quarterly")
    _run(
        conv,
        1,
        "What were sales per quarter?",
        [call("sales", {}, "I need the sales table."), "Thought: I have it.\nAnswer: Q3 was best, at 12.0."],
        [Sales(), *general_toolkit()],
    )
    _run(
        conv,
        2,
        "What does the memo say?",
        [call("memo", {}, "I read the memo."), "Thought: The memo is about Q3.\nAnswer: The memo is about Q3."],
        [Memo(), *general_toolkit()],
    )
    asked = _run(
        conv,
        3,
        "Which year?",
        [call("ask_user", {"question": "Which year do you mean?", "choices": ["2024", "2025"]}, "I must ask.")],
        general_toolkit(),
    )
    engine = make_engine(["Thought: 2025 it is.\nAnswer: In 2025 revenue grew."], tools=general_toolkit())
    assert asked.suspended is not None, asked.content
    consume(asked, engine.resume_sync(asked.suspended, "2025"), _tracer(), lambda: engine.result)
    _fixed(asked)
    conv.add(Turn(id="u4", role="user", content="And the costs?", created_at=WHEN))
    stopped = Turn(id="a4", role="assistant", created_at=WHEN)
    conv.add(stopped)
    partial = EngineResult(status="stopped", iterations=1, backend="scripted · x")
    try:
        consume(
            stopped, _Stopping(["Thought: I look for", " the costs.\nAction: sales\nAct"]), _tracer(), lambda: partial
        )
    except StopException:
        pass
    _fixed(stopped)
    conv.add(Turn(id="u5", role="user", content="Try again", created_at=WHEN))
    failed = Turn(id="a5", role="assistant", created_at=WHEN)
    conv.add(failed)
    result = EngineResult(status="error", error="The model server cannot be reached.")
    consume(failed, iter(["Error: The model server cannot be reached.\n"]), _tracer(), lambda: result)
    _fixed(failed)
    return conv


def outputs(conv: Conversation) -> dict[str, Any]:
    """What the app makes of a conversation: its exports (with the trace and without) and the next turn's history."""
    prefs = Preferences(language="en")
    return {
        "markdown": to_markdown(conv, False, prefs),
        "markdown_trace": to_markdown(conv, True, prefs),
        "json": to_json(conv, False, prefs),
        "json_trace": to_json(conv, True, prefs),
        "history": conv.history(),
    }


def capture() -> str:
    """The fixture: the turns as the app saves them, and what the app made of them."""
    conv = conversation()
    turns = [turn.model_dump(mode="json") for turn in conv.tree]
    return json.dumps({"turns": turns, "outputs": outputs(conv)}, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    print(capture())
